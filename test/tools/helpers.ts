import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ToolRegistry } from '../../src/protocol/execute.js';
import type { AnyAgentTool } from '../../src/protocol/tool.js';
import type { ToolResultMessage } from '../../src/protocol/types.js';

/** A temp folder that the caller removes with `cleanup()`. */
export function tempDir(prefix = 'patchloop-tools-'): { path: string; cleanup: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, env: gitEnv, encoding: 'utf8' });
}

/** A git repository with the given files committed. */
export function gitRepo(root: string, files: Record<string, string | Buffer>): void {
  git(root, 'init', '-q', '-b', 'main');
  writeFiles(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
}

/** Runs one call through the same registry the agent uses (validation, errors, one result). */
export async function call(
  tools: AnyAgentTool[] | ToolRegistry,
  name: string,
  input: Record<string, unknown> | string,
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolResultMessage> {
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(tools);
  return registry.execute({ type: 'toolCall', id: `call-${name}`, name, input }, signal);
}

export function textOf(result: ToolResultMessage): string {
  return result.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
