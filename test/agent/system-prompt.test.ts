import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSystemPrompt, loadAgentsMd } from '../../src/agent/index.js';
import { createWorkspaceTools } from '../../src/tools/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'patchloop-prompt-'));
  dirs.push(d);
  return d;
}

describe('the system prompt', () => {
  it('says how to work, lists the tools, and carries AGENTS.md and the instructions', () => {
    const prompt = buildSystemPrompt({
      repository: 'octo/calc',
      toolNames: ['read_file', 'run_tests'],
      agentsMd: 'Use RangeError for bad arguments.',
      instructions: 'Never touch the changelog.',
    });
    expect(prompt).toContain('git checkout of octo/calc');
    expect(prompt).toMatch(/read the relevant code and tests first/);
    expect(prompt).toMatch(/run the tests with run_tests/);
    expect(prompt).toMatch(/short summary of what you changed and why/);
    expect(prompt).toContain('Tools: read_file, run_tests.');
    expect(prompt).toContain('<agents-md>\nUse RangeError for bad arguments.\n</agents-md>');
    expect(prompt.trimEnd().endsWith('Never touch the changelog.')).toBe(true);
  });

  it('stays lean: system prompt and tool definitions under 6 KB together', () => {
    const tools = createWorkspaceTools({ root: dir(), allowBash: true });
    const prompt = buildSystemPrompt({ repository: 'octo/calc', toolNames: tools.map((t) => t.name) });
    const definitions = JSON.stringify(
      tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    );
    expect(Buffer.byteLength(prompt) + Buffer.byteLength(definitions)).toBeLessThan(6 * 1024);
  });

  it('reads AGENTS.md at the root, cuts a huge one, and does not follow a symlink out of the workspace', () => {
    const root = dir();
    expect(loadAgentsMd(root)).toBeUndefined();
    writeFileSync(join(root, 'AGENTS.md'), 'Run make test.');
    expect(loadAgentsMd(root)).toBe('Run make test.');
    const huge = buildSystemPrompt({ agentsMd: 'x'.repeat(100_000) });
    expect(huge).toMatch(/AGENTS\.md cut at 16384 characters/);
    expect(huge.length).toBeLessThan(20_000);

    const outside = dir();
    writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');
    const linked = dir();
    symlinkSync(join(outside, 'secret.txt'), join(linked, 'AGENTS.md'));
    expect(loadAgentsMd(linked)).toBeUndefined();
  });
});

describe('reading AGENTS.md', () => {
  it('a FIFO named AGENTS.md is not read and does not block the run', () => {
    const root = dir();
    execFileSync('mkfifo', [join(root, 'AGENTS.md')]);
    // a blocking read would wait for a writer forever: the call coming back is the check
    expect(loadAgentsMd(root)).toBeUndefined();
  });

  it('a folder named AGENTS.md is not read', () => {
    const root = dir();
    mkdirSync(join(root, 'AGENTS.md'));
    expect(loadAgentsMd(root)).toBeUndefined();
  });

  it('names where the trusted file came from when it is not the checkout', () => {
    const prompt = buildSystemPrompt({ agentsMd: 'Notes.', agentsMdSource: 'as on the base branch main' });
    expect(prompt).toContain(
      "The repository's AGENTS.md (its maintainers' notes for agents, as on the base branch main):",
    );
  });
});
