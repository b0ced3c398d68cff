// Test helpers for the agent loop: scripted assistant turns played by the scripted provider (the
// scripted model), and real temporary git repositories.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AssistantMessage, StopReason, ToolCall, Usage } from '../../src/protocol/types.js';
import { emptyUsage } from '../../src/protocol/types.js';
import { createScriptedProvider } from '../../src/providers/scripted.js';
import { withRecordedUsage } from '../../src/cli/model.js';
import type { Context, Provider } from '../../src/providers/types.js';

export interface TurnSpec {
  text?: string;
  calls?: { name: string; input: Record<string, unknown> | string; id?: string }[];
  stopReason?: StopReason;
  usage?: Partial<Usage>;
  errorMessage?: string;
  errorKind?: AssistantMessage['errorKind'];
  model?: string;
}

let idCounter = 0;

/** A scripted assistant turn. The stop reason defaults to toolUse when there are calls, else stop. */
export function turn(spec: TurnSpec): AssistantMessage {
  const calls: ToolCall[] = (spec.calls ?? []).map((c) => ({
    type: 'toolCall',
    id: c.id ?? `call_${++idCounter}`,
    name: c.name,
    input: c.input,
  }));
  const message: AssistantMessage = {
    role: 'assistant',
    content: [...(spec.text ? [{ type: 'text' as const, text: spec.text }] : []), ...calls],
    provider: 'scripted',
    model: spec.model ?? 'scripted-model',
    usage: { ...emptyUsage(), ...spec.usage },
    stopReason: spec.stopReason ?? (calls.length > 0 ? 'toolUse' : 'stop'),
    timestamp: 0,
  };
  if (spec.errorMessage) message.errorMessage = spec.errorMessage;
  if (spec.errorKind) message.errorKind = spec.errorKind;
  return message;
}

export interface ScriptProvider extends Provider {
  /** Every request the loop made. */
  readonly requests: Context[];
}

/**
 * The project's scripted provider (src/providers/scripted.ts) playing `steps`, one per request,
 * with each step's usage put back on its reply (as `run --replay` does), so budgets and
 * compaction can be driven from the script.
 */
export function scriptProvider(
  steps: AssistantMessage[],
  options: { contextWindow?: number; model?: string } = {},
): ScriptProvider {
  const inner = createScriptedProvider(steps, { model: options.model ?? 'scripted-model' });
  const played = withRecordedUsage(
    inner,
    steps.map((s) => s.usage),
  );
  return { ...played, contextWindow: options.contextWindow, requests: inner.requests };
}

export interface TempRepo {
  root: string;
  git(...args: string[]): string;
  cleanup(): void;
}

/** Runs git in `root` and returns its stdout. */
export function gitIn(root: string): (...args: string[]) => string {
  return (...args) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Makes `root` a git repository on `main` with a test identity, committing what it holds unless commit is false. */
export function initRepo(root: string, options: { commit?: boolean } = {}): (...args: string[]) => string {
  const git = gitIn(root);
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test');
  git('config', 'user.email', 'test@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  if (options.commit !== false) {
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', 'initial');
  }
  return git;
}

/** A real git repository in a temp folder with `files` committed on `main` (unless commit is false). */
export function tempRepo(files: Record<string, string>, options: { commit?: boolean } = {}): TempRepo {
  const root = mkdtempSync(join(tmpdir(), 'patchloop-agent-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const git = initRepo(root, options);
  return { root, git, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A small Node project with a real bug: divide() does not guard against zero. */
export const BUGGY_PROJECT: Record<string, string> = {
  'package.json': JSON.stringify(
    { name: 'calc', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } },
    null,
    2,
  ),
  'src/math.js': 'export function divide(a, b) {\n  return a / b;\n}\n',
  'test/math.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { divide } from '../src/math.js';\n\n" +
    "test('divides', () => assert.equal(divide(6, 3), 2));\n" +
    "test('refuses zero', () => assert.throws(() => divide(1, 0), RangeError));\n",
};

export const DIVIDE_FIX = {
  oldText: '  return a / b;',
  newText: "  if (b === 0) throw new RangeError('division by zero');\n  return a / b;",
};
