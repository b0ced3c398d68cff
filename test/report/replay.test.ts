import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/io.js';
import { replayCommand } from '../../src/cli/replay.js';
import { ToolRegistry } from '../../src/protocol/execute.js';
import type { Message, ToolCall } from '../../src/protocol/types.js';
import { textOf } from '../../src/protocol/types.js';
import { compareResults, normalizeForComparison } from '../../src/report/compare.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { captureIO } from './capture-io.js';
import { DEMO_FILES, FIX_SESSION, makeRepo, recordScriptedRun, type RecordedRun } from './fixture.js';

// Replays of transcripts recorded with the real tools and a scripted model (see fixture.ts), on
// fresh checkouts in other folders, so the workspace path always differs from the recorded one.

const DOT_TESTS = 'node --test --test-reporter=dot';
let run: RecordedRun;
// The same session with a test command whose output does not depend on the Node version: the
// replay's sandbox may find another `node` on PATH than the recording did (under `npx -p node@24`,
// the recording runs Node 24 from npm's cache in HOME, which a command's view does not show).
let dotRun: RecordedRun;
let aborted: RecordedRun;
const scratch: string[] = [];

function freshCheckout(files = DEMO_FILES): string {
  const root = mkdtempSync(join(tmpdir(), 'patchloop-replay-test-'));
  scratch.push(root);
  return makeRepo(root, files);
}

beforeAll(async () => {
  run = await recordScriptedRun(FIX_SESSION);
  dotRun = await recordScriptedRun(FIX_SESSION, { testCommand: DOT_TESTS });
  aborted = await recordScriptedRun(
    [
      { text: 'Look.', calls: [{ name: 'read_file', input: { path: 'src/math.js' } }] },
      {
        text: 'Edit.',
        calls: [{ name: 'write_file', input: { path: 'src/new.js', content: 'x' } }],
        stopReason: 'aborted',
      },
    ],
    { conclusion: 'cancelled' },
  );
});

afterAll(() => {
  run?.cleanup();
  dotRun?.cleanup();
  aborted?.cleanup();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('patchloop replay', () => {
  it('matches every call on an unchanged checkout, listing the command it did not run', async () => {
    const repo = freshCheckout();
    const io = captureIO();
    const code = await replayCommand([run.transcript, '--repo', repo], io);
    const out = io.out();
    expect(out).toContain('Replaying 9 recorded tool call(s)');
    expect(out).toMatch(/^note: 1 command call\(s\) are not run: a transcript is untrusted input\./m);
    expect(out.match(/^ {2}✓ /gm)).toHaveLength(8);
    expect(out).toMatch(
      /- turn 4 run_tests\s+not run: commands are run again only with replay --run-commands/,
    );
    expect(out).toMatch(
      /All 8 compared call\(s\) match \(\d exactly, \d after normalising\); 1 not run \(commands need --run-commands/,
    );
    expect(code).toBe(0);
    // The calls really ran on the new checkout.
    expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).toContain(
      "throw new RangeError('division by zero')",
    );
  });

  it('with --run-commands, runs the command too, in the sandbox, with the test command of the flag', async () => {
    const repo = freshCheckout();
    const io = captureIO();
    const code = await replayCommand(
      [dotRun.transcript, '--repo', repo, '--run-commands', '--test-command', DOT_TESTS],
      io,
    );
    const out = io.out();
    expect(out.match(/^ {2}✓ /gm), out).toHaveLength(9);
    expect(out).toMatch(/turn 4 run_tests\s+match \(after normalising\)/);
    expect(out).toMatch(/All 9 compared call\(s\) match \(\d exactly, \d after normalising\)\./);
    expect(code).toBe(0);
  });

  it('stops at the first divergent call after a file changed, naming it and showing both results', async () => {
    const repo = freshCheckout({
      ...DEMO_FILES,
      'src/math.js': DEMO_FILES['src/math.js']!.replace('  return a + b;', '  return b + a; // swapped'),
    });
    const io = captureIO({ columns: 140 });
    const code = await replayCommand([run.transcript, '--repo', repo], io);
    const out = io.out();
    expect(code).toBe(1);
    expect(out).toMatch(/✓ turn 1 list_dir\s+match/);
    expect(out).toMatch(/✗ turn 1 read_file path=src\/math\.js\s+DIFFERS/);
    expect(out).toContain('First divergence: call 2 of 9, turn 1, tool read_file, id call_1_2');
    expect(out).toContain('arguments: {"path":"src/math.js"}');
    expect(out).toContain('recorded: ok   replayed: ok');
    expect(out).toMatch(/ {2}return a \+ b;\s+≠ {3}return b \+ a; \/\/ swapped/);
    expect(out).toMatch(/note: the run started at commit [0-9a-f]{12}, the checkout is at [0-9a-f]{12}/);
    expect(out).toContain('1 call(s) matched before it');
    // Nothing after the divergence ran.
    expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).not.toContain('RangeError');
  });

  it('skips the calls of a turn that was aborted in the recorded run', async () => {
    const repo = freshCheckout();
    const io = captureIO();
    expect(await replayCommand([aborted.transcript, '--repo', repo], io)).toBe(0);
    expect(io.out()).toMatch(/- turn 2 write_file .* skipped: the recorded turn ended with aborted/);
    expect(io.out()).toContain('; 1 skipped.');
    expect(() => readFileSync(join(repo, 'src/new.js'))).toThrow();
  });

  it('reports usage errors: no file, a missing --repo folder, a stray argument', async () => {
    const io = captureIO();
    await expect(replayCommand([], io)).rejects.toThrow(UsageError);
    await expect(replayCommand([run.transcript, '--repo', join(run.root, 'missing')], io)).rejects.toThrow(
      /not a folder/,
    );
    await expect(replayCommand([run.transcript, 'extra'], io)).rejects.toThrow(UsageError);
    // the command flags mean nothing without --run-commands: said, not ignored
    await expect(replayCommand([run.transcript, '--allow-bash'], io)).rejects.toThrow(
      /--allow-bash applies only with --run-commands/,
    );
    await expect(
      replayCommand([run.transcript, '--run-commands', '--command-env', 'AWS_SECRET_ACCESS_KEY'], io),
    ).rejects.toThrow(/--command-env may not name AWS_SECRET_ACCESS_KEY/);
  });
});

describe('comparing results', () => {
  const ctx = { workspaces: ['/home/runner/work/r/r', '/tmp/patchloop-x/repo'], tmpdirs: ['/tmp'] };

  it('ignores durations, timings, temp paths, the workspace and process ids', () => {
    const recorded =
      'Exit code 0 (1.3 s).\n# duration_ms 45.12\nok 1 - add (0.52ms)\nat /home/runner/work/r/r/src/a.js:3\n' +
      'Full output saved to /tmp/patchloop-abc/run_tests-1.log. pid 4242 at 2026-01-02T03:04:05.678Z';
    const replayed =
      'Exit code 0 (0.4 s).\n# duration_ms 3.9\nok 1 - add (0.11ms)\nat /tmp/patchloop-x/repo/src/a.js:3\n' +
      'Full output saved to /tmp/patchloop-zzz/run_tests-7.log. pid 17 at 2026-03-04T05:06:07.000Z';
    expect(normalizeForComparison(recorded, ctx)).toBe(normalizeForComparison(replayed, ctx));
    expect(compareResults({ isError: false, text: recorded }, { isError: false, text: replayed }, ctx)).toBe(
      'normalized',
    );
  });

  it('takes a duration of several parts as one: 350 ms, 59.9 s and 1 h 2 min 5 s read alike', () => {
    const texts = ['350 ms', '59.9 s', '2 min 5 s', '1 h 2 min 5 s'].map((d) =>
      normalizeForComparison(`Exit code 1 (${d}).\nTimed out after ${d}; stopped.`, ctx),
    );
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).toBe('Exit code 1 (<duration>).\nTimed out after <duration>; stopped.');
  });

  it('still sees real differences: exit codes, content, error status', () => {
    expect(
      compareResults(
        { isError: false, text: 'Exit code 0 (1 s).' },
        { isError: false, text: 'Exit code 1 (1 s).' },
        ctx,
      ),
    ).toBe('differ');
    expect(compareResults({ isError: false, text: 'a' }, { isError: true, text: 'a' }, ctx)).toBe('differ');
    expect(compareResults({ isError: false, text: 'same' }, { isError: false, text: 'same' }, ctx)).toBe(
      'exact',
    );
  });
});

describe('replaying a transcript the action recorded', () => {
  // A test command whose output, with `--big`, is longer than run_tests shows: the full output is
  // saved to a file under the run's folder, which the action keeps under RUNNER_TEMP.
  const PRINTER = {
    ...DEMO_FILES,
    'print.js':
      "if (process.argv.includes('--big')) for (let i = 0; i < 3000; i++) console.log('line ' + i);\n" +
      "else console.log('ok 1 - adds');\n",
  };
  const RUNNER_WORKSPACE = '/home/runner/work/calc/calc';
  const RUN_FOLDER = '/home/runner/work/_temp/patchloop/4242-1';
  const NPM_NOTICE = [
    'npm notice',
    'npm notice New minor version of npm available! 10.8.2 -> 10.9.4',
    'npm notice Changelog: https://github.com/npm/cli/releases/tag/v10.9.4',
    'npm notice To update run: npm install -g npm@10.9.4',
    'npm notice',
  ].join('\n');

  /** Runs the calls on a checkout and writes them as the action would have recorded them. */
  async function recordAsTheAction(
    calls: ToolCall[],
    edit: (text: string, i: number) => string = (t) => t,
    o: { files?: Record<string, string>; testCommand?: string } = {},
  ) {
    const checkout = freshCheckout(o.files ?? PRINTER);
    const outputs = mkdtempSync(join(tmpdir(), 'patchloop-replay-outputs-'));
    scratch.push(outputs);
    const registry = new ToolRegistry(
      createWorkspaceTools({
        root: checkout,
        testCommand: o.testCommand ?? 'node print.js',
        artifactsDir: outputs,
      }),
    );
    const messages: Message[] = [{ role: 'user', content: 'Run the tests.', timestamp: 1 }];
    messages.push({
      role: 'assistant',
      content: calls,
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: 'toolUse',
      timestamp: 2,
    });
    for (const [i, call] of calls.entries()) {
      const r = await registry.execute(call, new AbortController().signal);
      const text = edit(
        textOf(r.content).split(checkout).join(RUNNER_WORKSPACE).split(outputs).join(RUN_FOLDER),
        i,
      );
      messages.push({ ...r, content: [{ type: 'text', text }] });
    }
    const session = {
      type: 'session',
      version: 1,
      id: '4242-1-7',
      startedAt: '2026-11-30T10:00:00.000Z',
      repository: 'octo/calc',
      trigger: 'issue_comment',
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      workspace: RUNNER_WORKSPACE,
      testCommand: o.testCommand ?? 'node print.js',
    };
    const file = join(outputs, 'transcript.jsonl');
    const lines = [session, ...messages.map((message) => ({ type: 'message', message }))];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return { file, messages };
  }

  it('matches a saved output under RUNNER_TEMP and ignores npm’s update notice', async () => {
    const calls: ToolCall[] = [
      { type: 'toolCall', id: 'toolu_1', name: 'run_tests', input: {} },
      { type: 'toolCall', id: 'toolu_2', name: 'run_tests', input: { args: '--big' } },
    ];
    // On the runner, npm had a newer version to announce at the end of the first command.
    const { file, messages } = await recordAsTheAction(calls, (t, i) =>
      i === 0 ? `${t}\n${NPM_NOTICE}` : t,
    );
    expect(JSON.stringify(messages)).toContain(`${RUN_FOLDER}/run_tests-`);

    const io = captureIO();
    const code = await replayCommand(
      [file, '--repo', freshCheckout(PRINTER), '--run-commands', '--test-command', 'node print.js'],
      io,
    );
    expect(io.out()).toMatch(/All 2 compared call\(s\) match \(0 exactly, 2 after normalising\)\./);
    expect(code).toBe(0);
  });

  it('replays clean when only npm’s own lines differ (its banner, warnings, blank lines, so the cut counts too)', async () => {
    // Both sides run `npm test`, which prints `> calc@1.0.0 test`, `> node print.js` and blank
    // lines around the script. On the runner, npm also warned about its log folder (the command's
    // user may not write HOME): five more lines, so the cut notice counted 3009 lines, not 3004.
    const files = {
      ...PRINTER,
      'package.json': '{ "name": "calc", "version": "1.0.0", "scripts": { "test": "node print.js" } }\n',
    };
    const NPM_WARNINGS = [
      "npm warn logfile could not create logs-dir: Error: EACCES: permission denied, mkdir '/home/runner/.npm'",
      'npm warn logfile error creating log file',
      '',
      'npm warn cache could not create cache dir',
      '',
    ].join('\n');
    const calls: ToolCall[] = [
      { type: 'toolCall', id: 'toolu_1', name: 'run_tests', input: {} },
      { type: 'toolCall', id: 'toolu_2', name: 'run_tests', input: { args: '-- --big' } },
    ];
    const { file, messages } = await recordAsTheAction(
      calls,
      (t) =>
        t
          .replace(/^(Exit code 0 \([^)]*\)\.)\n/m, `$1\n${NPM_WARNINGS}\n`)
          .replace(/ of (\d+) lines \(/, (_m, n: string) => ` of ${Number(n) + 5} lines (`),
      { files, testCommand: 'npm test' },
    );
    const recorded = messages.filter((m) => m.role === 'toolResult').map((m) => textOf(m.content));
    expect(recorded[0]).toContain('> calc@1.0.0 test');
    expect(recorded[1]).toMatch(/showing the last 2000 lines of 3009 lines/);

    const io = captureIO();
    const code = await replayCommand(
      [file, '--repo', freshCheckout(files), '--run-commands', '--test-command', 'npm test'],
      io,
    );
    expect(io.out()).toMatch(/All 2 compared call\(s\) match \(0 exactly, 2 after normalising\)\./);
    expect(code).toBe(0);

    // What the tests themselves print still counts.
    const ctx = { workspaces: [], tmpdirs: [], commandOutput: true };
    const changed = recorded[0]!.replace('ok 1 - adds', 'not ok 1 - adds');
    expect(
      compareResults({ isError: false, text: recorded[0]! }, { isError: false, text: changed }, ctx),
    ).toBe('differ');
  });

  it('shows a differing long line in full on both sides', async () => {
    const long = (tail: string) => `export const banner = '${'x'.repeat(180)}${tail}';\n`;
    const calls: ToolCall[] = [
      { type: 'toolCall', id: 'toolu_1', name: 'read_file', input: { path: 'banner.js' } },
    ];
    const checkout = freshCheckout({ ...PRINTER, 'banner.js': long('RECORDED-END') });
    const registry = new ToolRegistry(createWorkspaceTools({ root: checkout, artifactsDir: checkout }));
    const r = await registry.execute(calls[0]!, new AbortController().signal);
    expect(textOf(r.content)).toContain('RECORDED-END');
    const { file } = await recordAsTheAction(calls, () => textOf(r.content));

    const io = captureIO({ columns: 100 });
    const code = await replayCommand(
      [file, '--repo', freshCheckout({ ...PRINTER, 'banner.js': long('REPLAYED-END') })],
      io,
    );
    expect(code).toBe(1);
    const out = io.out();
    expect(out).toContain('RECORDED-END');
    expect(out).toContain('REPLAYED-END');
    expect(out).not.toMatch(/x…/);
  });
});
