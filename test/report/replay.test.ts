import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/io.js';
import { replayCommand } from '../../src/cli/replay.js';
import { compareResults, normalizeForComparison } from '../../src/report/compare.js';
import { captureIO } from './capture-io.js';
import { DEMO_FILES, FIX_SESSION, makeRepo, recordScriptedRun, type RecordedRun } from './fixture.js';

// Replays of transcripts recorded with the real tools and a scripted model (see fixture.ts), on
// fresh checkouts in other folders, so the workspace path always differs from the recorded one.

let run: RecordedRun;
let aborted: RecordedRun;
const scratch: string[] = [];

function freshCheckout(files = DEMO_FILES): string {
  const root = mkdtempSync(join(tmpdir(), 'patchloop-replay-test-'));
  scratch.push(root);
  return makeRepo(root, files);
}

beforeAll(async () => {
  run = await recordScriptedRun(FIX_SESSION);
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
  aborted?.cleanup();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('patchloop replay', () => {
  it('matches every call on an unchanged checkout', async () => {
    const repo = freshCheckout();
    const io = captureIO();
    const code = await replayCommand([run.transcript, '--repo', repo], io);
    const out = io.out();
    expect(out).toContain('Replaying 9 recorded tool call(s)');
    expect(out).not.toContain('note:');
    expect(out.match(/^ {2}✓ /gm)).toHaveLength(9);
    expect(out).toMatch(/turn 4 run_tests\s+match \(after normalising\)/);
    expect(out).toMatch(/All 9 replayed call\(s\) match \(\d exactly, \d after normalising\)\./);
    expect(code).toBe(0);
    // The calls really ran on the new checkout.
    expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).toContain(
      "throw new RangeError('division by zero')",
    );
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
