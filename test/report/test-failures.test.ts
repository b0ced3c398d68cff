// What the summaries say about a failed run of Node's test runner: the failed tests and their
// errors, from real `node --test` output in both of its reporters, not its closing counters.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorGist, errorLines } from '../../src/report/format.js';
import { nodeTestFailures } from '../../src/report/test-failures.js';

const TESTS = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  'const divide = (a, b) => a / b;',
  "test('adds', () => assert.strictEqual(1 + 1, 2));",
  "test('divide by zero throws', () => assert.throws(() => divide(1, 0), RangeError));",
  "test.describe('divide', () => {",
  "  test('divides', () => assert.strictEqual(divide(6, 3), 3));",
  "  test('keeps the sign', () => assert.strictEqual(divide(-6, 3), -2));",
  '});',
  '',
].join('\n');

let dir: string;
const outputs: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'patchloop-node-test-'));
  writeFileSync(join(dir, 'math.test.js'), TESTS);
  for (const reporter of ['tap', 'spec']) {
    const r = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    expect(r.status).toBe(1);
    // a run_tests result: its status line, then the output
    outputs[reporter] = `Exit code 1 (0.4 s).\n${r.stdout}${r.stderr}`;
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a failed run of node --test', () => {
  it.each(['tap', 'spec'])('%s: each failed test once, with its error', (reporter) => {
    const failures = nodeTestFailures(outputs[reporter]!.split('\n'));
    expect(failures.map((f) => f.error)).toEqual([
      expect.stringMatching(/Missing expected exception \(RangeError\)\.$/),
      expect.stringMatching(/Expected values to be strictly equal: 2 !== 3$/),
    ]);
    expect(failures[0]!.test).toMatch(/divide by zero throws$/);
    expect(failures[1]!.test).toMatch(/divides$/);
  });

  it.each(['tap', 'spec'])(
    '%s: the error lines and the gist give the errors, not the counters',
    (reporter) => {
      const text = outputs[reporter]!;
      const lines = errorLines(text, 6);
      expect(lines[0]).toBe('Exit code 1 (0.4 s).');
      expect(lines.join('\n')).toContain('Missing expected exception (RangeError).');
      expect(lines.join('\n')).toContain('2 !== 3');
      expect(lines.join('\n')).not.toMatch(/(?:#|ℹ) (?:tests|pass|fail|duration_ms)/);
      const gist = errorGist(text, 200);
      expect(gist).toMatch(
        /^Exit code 1 \(0\.4 s\)\. .*divide by zero throws: .*Missing expected exception \(RangeError\)\./,
      );
      expect(gist).not.toMatch(/# fail|ℹ fail/);
    },
  );

  it('leaves other output to the tail as before, without the runner’s counters', () => {
    const lines = errorLines('Exit code 1 (1 s).\nFAIL src/a.test.ts\n  expected 1 to be 2\n# fail 1\n', 5);
    expect(lines).toEqual(['Exit code 1 (1 s).', 'FAIL src/a.test.ts', '  expected 1 to be 2']);
    // a parent's "N subtests failed" is not an error of its own
    expect(nodeTestFailures(['not ok 1 - suite', '  ---', "  error: '2 subtests failed'", '  ...'])).toEqual(
      [],
    );
  });
});
