// Transcripts made the real way for the report tests: a temp git repository, the real workspace
// tools behind a ToolRegistry, a TranscriptWriter, and a SCRIPTED model (assistant messages written
// here by hand, not produced by any provider). Every tool result is what the tool really returned.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ToolRegistry } from '../../src/protocol/execute.js';
import { synthesizeResults } from '../../src/protocol/pairing.js';
import { TranscriptWriter } from '../../src/protocol/transcript.js';
import type { AssistantMessage, StopReason, ToolCall, Usage } from '../../src/protocol/types.js';
import { addUsage, emptyUsage } from '../../src/protocol/types.js';
import { createWorkspaceTools } from '../../src/tools/index.js';

// No folder argument: Node 22 and later take arguments as globs and do not walk a folder. The
// reporter is pinned: Node 20 writes TAP when not on a terminal, Node 23 and later the spec format,
// and the tests read the failure lines (`not ok N - …`).
export const TEST_COMMAND = 'node --test --test-reporter=tap';

export const DEMO_FILES: Record<string, string> = {
  'package.json':
    '{ "name": "demo", "private": true, "scripts": { "test": "node --test --test-reporter=tap" } }\n',
  'src/math.js': [
    'export function add(a, b) {',
    '  return a + b;',
    '}',
    '',
    'export function divide(a, b) {',
    '  return a / b;',
    '}',
    '',
  ].join('\n'),
  'test/math.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { add, divide } from '../src/math.js';",
    '',
    "test('add', () => assert.equal(add(2, 3), 5));",
    "test('divide', () => assert.equal(divide(6, 3), 2));",
    '',
  ].join('\n'),
};

export function makeRepo(root: string, files: Record<string, string> = DEMO_FILES): string {
  const repo = join(root, 'repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  // Fixed dates: the same files give the same commit, as a checkout of the run's base commit would.
  const env = {
    ...process.env,
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe', env });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Test');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return repo;
}

export function headOf(repo: string): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
}

export interface ScriptedTurn {
  text?: string;
  /** `input` as a string is raw argument text, as a model may send it. */
  calls?: { name: string; input: Record<string, unknown> | string }[];
  stopReason?: StopReason;
  errorMessage?: string;
  /** Events written after the turn's results. */
  eventsAfter?: { event: string; [key: string]: unknown }[];
  model?: string;
  /** The turn's usage, instead of the scripted figures (a request that failed reports none). */
  usage?: Usage;
}

export interface RecordOptions {
  task?: string;
  model?: string;
  /** Writes no summary line, as a killed run leaves the file. */
  killed?: boolean;
  conclusion?: string;
  allowBash?: boolean;
  /** The run's test command (default TEST_COMMAND, whose TAP output differs between Node versions). */
  testCommand?: string;
  /** More fields for the session line (runUrl, number, systemPrompt, tools …). */
  session?: Record<string, unknown>;
  /** More fields for the summary line. */
  summary?: Record<string, unknown>;
  /**
   * A follow-up's transcript: these turns (and `earlierTask`) are recorded first as the earlier
   * session, then the boundary event `continue`, then `task` and the turns, as `run --continue` does.
   */
  earlier?: { task: string; turns: ScriptedTurn[] };
}

export interface RecordedRun {
  root: string;
  repo: string;
  transcript: string;
  baseCommit: string;
  usage: Usage;
  cleanup(): void;
}

/** A plausible, growing usage for turn i (scripted figures, priced at $3 / $15 per million). */
function usageFor(i: number, outputChars: number): Usage {
  const u: Usage = {
    inputTokens: 900 + 350 * i,
    outputTokens: 40 + Math.ceil(outputChars / 4),
    cacheReadTokens: i > 0 ? 1800 : 0,
    cacheWriteTokens: i === 0 ? 1800 : 0,
  };
  u.costUsd =
    (u.inputTokens * 3 + u.outputTokens * 15 + u.cacheReadTokens * 0.3 + u.cacheWriteTokens * 3.75) / 1e6;
  return u;
}

export async function recordScriptedRun(
  turns: ScriptedTurn[],
  options: RecordOptions = {},
): Promise<RecordedRun> {
  const root = mkdtempSync(join(tmpdir(), 'patchloop-report-'));
  const repo = makeRepo(root);
  const transcript = join(root, 'out', 'run.jsonl');
  const model = options.model ?? 'scripted-model-1';
  const registry = new ToolRegistry(
    createWorkspaceTools({
      root: repo,
      testCommand: options.testCommand ?? TEST_COMMAND,
      allowBash: options.allowBash,
      artifactsDir: join(root, 'artifacts'),
    }),
  );
  const writer = new TranscriptWriter(transcript);
  const baseCommit = headOf(repo);
  writer.session({
    id: 'run-scripted-1',
    startedAt: new Date().toISOString(),
    repository: repo,
    trigger: 'cli',
    provider: 'scripted',
    model,
    workspace: repo,
    baseCommit,
    testCommand: options.testCommand ?? TEST_COMMAND,
    allowBash: options.allowBash === true,
    note: 'scripted model session for tests',
    ...(options.earlier ? { continues: { sessionId: 'run-earlier-1' } } : {}),
    ...options.session,
  });
  let total = emptyUsage();
  const signal = new AbortController().signal;
  let written = 0;
  const write = (message: Parameters<TranscriptWriter['message']>[0]) => {
    writer.message(message);
    written++;
  };
  async function session(task: string, script: ScriptedTurn[], prefix: string): Promise<void> {
    write({ role: 'user', content: task, timestamp: Date.now() });
    for (const [i, turn] of script.entries()) {
      const calls: ToolCall[] = (turn.calls ?? []).map((c, j) => ({
        type: 'toolCall',
        id: `${prefix}_${i + 1}_${j + 1}`,
        name: c.name,
        input: c.input,
      }));
      const usage = turn.usage ?? usageFor(i, (turn.text ?? '').length + JSON.stringify(calls).length);
      total = addUsage(total, usage);
      const message: AssistantMessage = {
        role: 'assistant',
        content: [...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []), ...calls],
        provider: 'scripted',
        model: turn.model ?? model,
        usage,
        stopReason: turn.stopReason ?? (calls.length ? 'toolUse' : 'stop'),
        timestamp: Date.now(),
      };
      if (turn.errorMessage) message.errorMessage = turn.errorMessage;
      write(message);
      if (message.stopReason === 'aborted' || message.stopReason === 'error') {
        // What the loop does: the calls of a failed turn are answered without running them.
        for (const r of synthesizeResults(message)) write(r);
      } else for (const call of calls) write(await registry.execute(call, signal));
      for (const e of turn.eventsAfter ?? []) {
        const { event, ...rest } = e;
        writer.event(event, rest);
      }
    }
  }
  if (options.earlier) {
    await session(options.earlier.task, options.earlier.turns, 'earlier');
    writer.event('continue', { sessionId: 'run-earlier-1', earlierMessages: written });
  }
  await session(options.task ?? 'Fix the divide-by-zero in src/math.js', turns, 'call');
  if (!options.killed)
    writer.summary({
      conclusion: options.conclusion ?? 'success',
      usage: total,
      durationMs: 4321,
      ...options.summary,
    });
  writer.close();
  return {
    root,
    repo,
    transcript,
    baseCommit,
    usage: total,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export const HOSTILE_HTML = '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">';

/** A small fix session: look, a failed edit, a correct edit, tests, hostile file content, a final word. */
export const FIX_SESSION: ScriptedTurn[] = [
  {
    text: "I'll look at the project first.",
    calls: [
      { name: 'list_dir', input: {} },
      { name: 'read_file', input: { path: 'src/math.js' } },
    ],
  },
  {
    text: 'Searching for callers, then editing.',
    calls: [
      { name: 'grep', input: { pattern: 'divide' } },
      { name: 'edit_file', input: { path: 'src/math.js', oldText: 'return a / b ;', newText: 'x' } },
    ],
    eventsAfter: [{ event: 'retry', attempt: 1, delayMs: 500, reason: 'overloaded (529)' }],
  },
  {
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/math.js',
          oldText: '  return a / b;',
          newText: "  if (b === 0) throw new RangeError('division by zero');\n  return a / b;",
        },
      },
      { name: 'read_file', input: '{"path": "src/math.js", ' },
    ],
  },
  {
    text: 'Running the tests.',
    calls: [
      { name: 'run_tests', input: {} },
      { name: 'write_file', input: { path: 'notes.html', content: `${HOSTILE_HTML}\n` } },
      { name: 'read_file', input: { path: 'notes.html' } },
    ],
  },
  {
    text: [
      '## Summary',
      '',
      'Added a **guard** to `divide` so that *zero* divisors throw:',
      '',
      '- `src/math.js`: throws `RangeError`',
      '- tests pass',
      '',
      '```js',
      "if (b === 0) throw new RangeError('division by zero');",
      '```',
      '',
      'See [the docs](https://developer.mozilla.org/) and [bad](javascript:alert(1)).',
    ].join('\n'),
  },
];
