import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommandResult } from '../../src/tools/command-output.js';
import { runCommand } from '../../src/tools/process.js';
import { createRunTestsTool } from '../../src/tools/run-tests.js';
import { MAX_RESULT_BYTES } from '../../src/tools/truncate.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, tempDir, textOf, writeFiles } from './helpers.js';

// A real `node --test` run whose one failure comes first and whose passing tests then push it out
// of the tail the model is shown: the failure's message must still reach the model.

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
  const passing = Array.from({ length: 900 }, (_, i) => `test('passes number ${i}', () => {});`);
  writeFiles(dir.path, {
    'package.json':
      '{ "name": "t", "private": true, "scripts": { "test": "node --test --test-reporter=tap" } }\n',
    'test/a.test.js': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "test('divide rounds down', () => assert.equal(7 / 2, 3, 'seven halves should round to three'));",
      ...passing,
      '',
    ].join('\n'),
  });
});
afterAll(() => dir.cleanup());

describe('a cut test tail', () => {
  it('run_tests keeps the first failure and its message, inside the byte cap', async () => {
    const r = await call([createRunTestsTool(createWorkspace(dir.path))], 'run_tests', {});
    const text = textOf(r);
    expect(r.isError).toBe(true);
    expect(text).toContain('[Output cut:');
    expect(text).toContain('[First failure, from earlier in the output:]');
    expect(text).toMatch(/not ok 1 - divide rounds down/);
    expect(text).toContain('seven halves should round to three');
    // The counters at the end are still there: the tail was shortened, not replaced.
    expect(text).toMatch(/# fail 1/);
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(MAX_RESULT_BYTES + 1024);
  });

  it('reads the failure from the saved full output when memory held only the tail', async () => {
    const limits = { maxLines: 40, maxBytes: 2048 };
    const result = await runCommand({
      command: 'node --test --test-reporter=tap',
      cwd: dir.path,
      timeoutMs: 60_000,
      limits,
      memoryBytes: 2048,
    });
    expect(result.complete).toBe(false);
    expect(result.fullOutputPath).toBeDefined();
    const text = (formatCommandResult('node --test', result, limits).content[0] as { text: string }).text;
    expect(text).toContain('seven halves should round to three');
    const body = text.split('\n').slice(1, -1).join('\n');
    expect(Buffer.byteLength(body, 'utf8')).toBeLessThanOrEqual(limits.maxBytes);
    expect(body.split('\n').length).toBeLessThanOrEqual(limits.maxLines);
  });

  it('adds nothing when the failure is already in the tail, or the command passed', async () => {
    const short = await runCommand({
      command: "printf 'not ok 1 - x\\n  error: boom\\n# fail 1\\n'; exit 1",
      cwd: dir.path,
      timeoutMs: 10_000,
    });
    const text = (formatCommandResult('x', short).content[0] as { text: string }).text;
    expect(text).not.toContain('First failure');
    const passed = await runCommand({
      command: "printf 'Error: harmless\\n'; seq 1 200",
      cwd: dir.path,
      timeoutMs: 10_000,
    });
    const out = formatCommandResult('x', passed, { maxLines: 20, maxBytes: 4096 }).content[0] as {
      text: string;
    };
    expect(out.text).not.toContain('First failure');
  });
});
