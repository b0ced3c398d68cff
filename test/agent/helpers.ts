// Test helpers for the agent loop: a small in-test Provider that plays a script of assistant
// turns (the scripted model), and real temporary git repositories.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AssistantMessage, StopReason, ToolCall, Usage } from '../../src/protocol/types.js';
import { emptyUsage, toolCallsOf } from '../../src/protocol/types.js';
import type { AssistantEvent, Context, Provider } from '../../src/providers/types.js';

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

/** A step: a fixed turn, or a function of the request (it may wait, and should honour the signal). */
export type Step = AssistantMessage | ((context: Context, signal: AbortSignal) => Promise<AssistantMessage>);

export interface ScriptProvider extends Provider {
  /** Every request the loop made, copied at the time. */
  readonly requests: Context[];
}

/** Plays one step per request, streaming text and tool-call events like a real adapter. */
export function scriptProvider(
  steps: Step[],
  options: { contextWindow?: number; name?: string; model?: string } = {},
): ScriptProvider {
  const requests: Context[] = [];
  let next = 0;
  const name = options.name ?? 'scripted';
  const model = options.model ?? 'scripted-model';
  const failed = (stopReason: 'error' | 'aborted', errorMessage: string): AssistantMessage => ({
    ...turn({ stopReason, model }),
    errorMessage,
  });
  return {
    name,
    model,
    contextWindow: options.contextWindow,
    requests,
    async *stream(context, opts): AsyncIterable<AssistantEvent> {
      requests.push(structuredClone(context));
      const signal = opts?.signal ?? new AbortController().signal;
      yield { type: 'start', provider: name, model };
      if (signal.aborted) {
        yield { type: 'done', message: failed('aborted', 'aborted before the request') };
        return;
      }
      const step = steps[next++];
      if (!step) {
        yield { type: 'done', message: failed('error', `the script has no turn ${next}`) };
        return;
      }
      const message = typeof step === 'function' ? await step(context, signal) : step;
      for (const block of message.content)
        if (block.type === 'text') yield { type: 'text_delta', delta: block.text };
      let index = 0;
      for (const call of toolCallsOf(message)) {
        yield { type: 'toolcall_start', index, id: call.id, name: call.name };
        yield { type: 'toolcall_end', index, toolCall: call };
        index++;
      }
      yield { type: 'done', message: { ...message, timestamp: Date.now() } };
    },
  };
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
