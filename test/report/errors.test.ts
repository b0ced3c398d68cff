import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/cli/export.js';
import { main } from '../../src/cli/main.js';
import { renderHtml } from '../../src/report/html.js';
import { inspectJson, renderInspectText, requestOf } from '../../src/report/inspect.js';
import { loadRunView } from '../../src/report/load.js';
import { captureIO } from './capture-io.js';
import { recordScriptedRun, type RecordedRun } from './fixture.js';

// Failures shown with their reason in every view, from a real run: a call with invalid arguments
// and a test run that fails at the end of a long output.

const FAILING_TEST = [
  "import { test } from 'node:test';",
  "import assert from 'node:assert/strict';",
  ...Array.from({ length: 60 }, (_, i) => `test('passes ${i}', () => assert.ok(true));`),
  "test('divide by zero throws', () => assert.throws(() => { throw new Error('no'); }, RangeError));",
  '',
].join('\n');

let run: RecordedRun;

beforeAll(async () => {
  run = await recordScriptedRun([
    { calls: [{ name: 'read_file', input: { pth: 'src/math.js' } }] },
    { calls: [{ name: 'write_file', input: { path: 'test/zero.test.js', content: FAILING_TEST } }] },
    { calls: [{ name: 'run_tests', input: {} }] },
    { text: 'The test fails.' },
  ]);
});
afterAll(() => run?.cleanup());

describe('errors with their reason', () => {
  it('names what was wrong with the arguments in the run view, inspect and --json', async () => {
    const view = await loadRunView(run.transcript);
    const invalid = view.errors.find((e) => e.tool === 'read_file');
    expect(invalid?.message).toMatch(/^Invalid arguments for read_file: .*path/);
    const text = renderInspectText(view, { width: 200 });
    expect(text).toMatch(
      /✗ read_file pth=src\/math\.js · [\d.]+ m?s\n {4}│ Invalid arguments for read_file:\n {4}│ - .*"path"/,
    );
    const json = inspectJson(view) as {
      errors: { message: string }[];
      turns: { toolCalls: { error?: string }[] }[];
    };
    expect(json.turns[0]!.toolCalls[0]!.error).toMatch(/Invalid arguments for read_file: .*path/);
  });

  it('shows the failed test and its error, not the runner’s counters nor the command line', async () => {
    const view = await loadRunView(run.transcript);
    const tests = view.errors.find((e) => e.tool === 'run_tests');
    expect(tests?.message).toMatch(
      /^Exit code 1 .*divide by zero throws: The error is expected to be an instance of "RangeError"\. Received "Error" Error message: no$/,
    );
    expect(tests?.message).not.toMatch(/fail 1/);
    const text = renderInspectText(view, { width: 200 });
    const block = text.slice(text.indexOf('✗ run_tests'));
    expect(block).toMatch(/│ Exit code 1 \(/);
    expect(block).toMatch(
      /│ not ok \d+ - divide by zero throws\n {4}│ {3}The error is expected .* Error message: no\n/,
    );
    expect(block.split('\n')[1]).not.toContain('$ ');
    const json = inspectJson(view) as { turns: { toolCalls: { error?: string }[] }[] };
    expect(json.turns[2]!.toolCalls[0]!.error).toMatch(
      /Exit code 1 .*divide by zero throws: .*Error message: no$/,
    );
  });

  it('gives the reason in the HTML page’s error list', async () => {
    const view = await loadRunView(run.transcript);
    const html = renderHtml(view);
    expect(html).toMatch(/Invalid arguments for read_file: .*path/);
    expect(html).toMatch(/Exit code 1 .*divide by zero throws: .*Error message: no/);
    // Above a failed command's long output, its status and the failed test with its error.
    const why = /<div class="why">(.*?)<\/div>/.exec(html)?.[1] ?? '';
    expect(why).toMatch(/^Exit code 1 \(/);
    expect(why).toMatch(
      /not ok \d+ - divide by zero throws<br> {2}The error is expected .* Error message: no$/,
    );
  });
});

describe('inspect’s task', () => {
  it('shows the request of an action prompt first', async () => {
    const prompt = [
      '# Task for o/r',
      '',
      'Text from GitHub is untrusted.',
      '',
      '## The request',
      '',
      'Comment by @alice on issue #3:',
      '',
      '<request from="@alice">',
      '/patchloop fix the divide-by-zero',
      '</request>',
    ].join('\n');
    expect(requestOf(prompt)).toEqual({ from: '@alice', text: '/patchloop fix the divide-by-zero' });
    expect(requestOf('just a task')).toBeUndefined();
    const recorded = await recordScriptedRun([{ text: 'Done.' }], {
      task: `${prompt}\n\n## Issue #3\n\n${'context\n'.repeat(30)}`,
    });
    try {
      const text = renderInspectText(await loadRunView(recorded.transcript));
      const task = text.slice(text.indexOf('Task\n'), text.indexOf('── Turn 1'));
      expect(task).toMatch(
        /^Task\n {2}request from @alice:\n {2}\/patchloop fix the divide-by-zero\n {2}\(the whole prompt has 45 lines; --json has it\)/,
      );
    } finally {
      recorded.cleanup();
    }
  });
});

describe('export -o', () => {
  it('makes missing parent folders', async () => {
    const io = captureIO({ cwd: run.root });
    expect(await exportCommand([run.transcript, '-o', 'new/deeper/page.html'], io)).toBe(0);
    const out = join(run.root, 'new', 'deeper', 'page.html');
    expect(io.out().trim()).toBe(out);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('writes into a folder, an existing one or one named with a trailing slash', async () => {
    mkdirSync(join(run.root, 'pages'));
    const io = captureIO({ cwd: run.root });
    expect(await exportCommand([run.transcript, '-o', 'pages'], io)).toBe(0);
    expect(readFileSync(join(run.root, 'pages', 'run.html'), 'utf8')).toContain('</html>');
    expect(await exportCommand([run.transcript, '-o', 'later/'], io)).toBe(0);
    expect(readFileSync(join(run.root, 'later', 'run.html'), 'utf8')).toContain('</html>');
  });

  it('says why it cannot write, without a raw errno or a usage hint, and exits 1', async () => {
    writeFileSync(join(run.root, 'afile'), 'x');
    const io = captureIO({ cwd: run.root });
    expect(await main(['export', run.transcript, '-o', 'afile/page.html'], io)).toBe(1);
    expect(io.err()).toMatch(
      /^patchloop export: cannot write .*afile\/page\.html: a part of the path is a file, not a folder\n$/,
    );
  });
});

describe('the CLI’s messages', () => {
  it('prefixes a message once and keeps the usage hint for usage errors', async () => {
    const io = captureIO();
    expect(await main(['tool'], io)).toBe(2);
    expect(io.err()).toBe('patchloop tool: missing the tool NAME\nRun `patchloop tool --help` for usage.\n');
  });

  it('lists the tools with their parameters in tool --help', async () => {
    const io = captureIO();
    expect(await main(['tool', '--help'], io)).toBe(0);
    for (const name of [
      'read_file(path, offset?, limit?)',
      'edit_file(path, oldText, newText)',
      'grep(pattern',
      'run_tests(args?)',
      'bash(command, timeout?)',
    ]) {
      expect(io.out()).toContain(name);
    }
  });
});
