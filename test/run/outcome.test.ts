// The conclusion follows the evidence: how the last test run ended, read from real run_tests and
// bash results (real processes), decides whether a run that committed work is a success, and
// whether its work is proposed as finished.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testsAtEnd, type AgentResult } from '../../src/agent/index.js';
import type { Message, ToolResultMessage } from '../../src/protocol/types.js';
import { emptyUsage } from '../../src/protocol/types.js';
import { concludeRun, unfinishedReason } from '../../src/run/phases.js';
import { createBashTool } from '../../src/tools/bash.js';
import { createRunTestsTool } from '../../src/tools/run-tests.js';
import { createWriteFileTool } from '../../src/tools/write-file.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, tempDir, writeFiles } from '../tools/helpers.js';

let dir: ReturnType<typeof tempDir>;
let tests: (args?: string) => Promise<ToolResultMessage>;
let bash: (command: string) => Promise<ToolResultMessage>;
let write: (path: string) => Promise<ToolResultMessage>;

const TEST_COMMAND = 'node check.js';

beforeAll(() => {
  dir = tempDir('patchloop-outcome-');
  // passes unless it is given --fail
  writeFiles(dir.path, {
    'check.js': "process.exit(process.argv.includes('--fail') ? 1 : 0);\n",
    'package.json': '{ "type": "module" }\n',
  });
  const ws = createWorkspace(dir.path);
  const runTests = createRunTestsTool(ws, { testCommand: TEST_COMMAND });
  const bashTool = createBashTool(ws);
  tests = (args) => call([runTests], 'run_tests', args ? { args } : {});
  bash = (command) => call([bashTool], 'bash', { command });
  const writeTool = createWriteFileTool(ws);
  write = (path) => call([writeTool], 'write_file', { path, content: 'x\n' });
});
afterAll(() => dir.cleanup());

const result = (messages: Message[], over: Partial<AgentResult> = {}): AgentResult => ({
  conclusion: 'success',
  messages,
  usage: emptyUsage(),
  turns: 1,
  models: ['m'],
  finalText: 'I could not make it pass.',
  durationMs: 5,
  ...over,
});

describe('testsAtEnd', () => {
  it('is the last run_tests: red, then green after a later run passed', async () => {
    const red = await tests('--fail');
    const green = await tests();
    expect(testsAtEnd([red])).toEqual({
      passed: false,
      tool: 'run_tests',
      command: `${TEST_COMMAND} --fail`,
      exitCode: 1,
      ending: 'exit 1',
    });
    expect(testsAtEnd([red, green])).toMatchObject({ passed: true, ending: 'exit 0' });
    expect(testsAtEnd([green, red])).toMatchObject({ passed: false, ending: 'exit 1' });
    expect(testsAtEnd([])).toBeUndefined();
  });

  it('counts a bash call that runs the test command, with words or 2>&1 after it', async () => {
    const green = await tests();
    for (const command of [`${TEST_COMMAND} --fail`, `  ${TEST_COMMAND}   --fail 2>&1`]) {
      expect(testsAtEnd([green, await bash(command)], TEST_COMMAND)).toMatchObject({
        passed: false,
        tool: 'bash',
        ending: 'exit 1',
      });
    }
    // the command run_tests ran is the test command too, when none is configured
    expect(testsAtEnd([green, await bash(`${TEST_COMMAND} --fail`)])).toMatchObject({
      passed: false,
      tool: 'bash',
    });
    // a green bash run after a red run_tests: the last run decides
    expect(testsAtEnd([await tests('--fail'), await bash(TEST_COMMAND)], TEST_COMMAND)).toMatchObject({
      passed: true,
      tool: 'bash',
    });
  });

  it('does not count a bash call whose exit code is not the tests’ (a pipe, a `;`, `|| true`) or another command', async () => {
    const red = await tests('--fail');
    for (const command of [
      `${TEST_COMMAND} --fail | tail -5`,
      `${TEST_COMMAND} --fail; echo done`,
      `${TEST_COMMAND} --fail || true`,
      'echo node check.js',
      'true',
    ]) {
      const other = await bash(command);
      expect(other.details).toMatchObject({ exitCode: 0 });
      expect(testsAtEnd([red, other], TEST_COMMAND)).toMatchObject({ passed: false, tool: 'run_tests' });
    }
  });

  it('takes no evidence from a run that was cancelled, nor from a call that never ran', async () => {
    const red = await tests('--fail');
    const stop = new AbortController();
    const slow = createRunTestsTool(createWorkspace(dir.path), { testCommand: 'sleep 5' });
    const running = call([slow], 'run_tests', {}, stop.signal);
    setTimeout(() => stop.abort(), 300);
    const aborted = await running;
    expect(aborted.details).toMatchObject({ aborted: true });
    const none = await call(
      [createRunTestsTool(createWorkspace(dir.path), { testCommand: '' })],
      'run_tests',
      {},
    );
    expect(none.details).toBeUndefined();
    expect(testsAtEnd([red, aborted, none])).toMatchObject({ passed: false, ending: 'exit 1' });
  });

  it('is stale once the file tools changed the workspace after it (a failed edit changes nothing)', async () => {
    const red = await tests('--fail');
    const refused = await write('../outside.txt');
    expect(refused.isError).toBe(true);
    expect(testsAtEnd([red, refused])).toMatchObject({ passed: false });
    expect(testsAtEnd([red, refused])!.stale).toBeUndefined();
    expect(testsAtEnd([red, await write('src/fix.js')])).toMatchObject({ passed: false, stale: true });
    // a run after the edit is fresh again
    expect(testsAtEnd([red, await write('src/fix.js'), red])!.stale).toBeUndefined();
  });

  it('a run that timed out is red', async () => {
    const slow = createRunTestsTool(createWorkspace(dir.path), { testCommand: 'sleep 5', timeoutMs: 200 });
    const timedOut = await call([slow], 'run_tests', {});
    expect(testsAtEnd([timedOut])).toMatchObject({ passed: false, ending: 'timed out' });
  });
});

describe('the conclusion and the proposal follow the tests', () => {
  it('a success whose tests fail at the end is a failure that says why; the work is unfinished', async () => {
    const r = result([await tests('--fail')]);
    r.tests = testsAtEnd(r.messages);
    expect(concludeRun({ result: r, committed: true, cancelled: false })).toEqual({
      conclusion: 'failure',
      error: 'The tests still fail at the end (last run_tests exit 1).',
    });
    expect(unfinishedReason(r)).toBe('tests still failing');
    // nothing committed: the run changed nothing, whatever the tests say
    expect(concludeRun({ result: r, committed: false, cancelled: false })).toEqual({
      conclusion: 'no-changes',
    });
  });

  it('a success whose last test run passed stays a success, and finished', async () => {
    const r = result([await tests('--fail'), await tests()]);
    r.tests = testsAtEnd(r.messages);
    expect(concludeRun({ result: r, committed: true, cancelled: false })).toEqual({ conclusion: 'success' });
    expect(unfinishedReason(r)).toBeUndefined();
    expect(unfinishedReason(result([]))).toBeUndefined();
  });

  it('a red run followed by edits and no run since (reproduce, fix, stop) is no evidence of failing tests', async () => {
    const r = result([await tests('--fail'), await write('src/fix.js')]);
    r.tests = testsAtEnd(r.messages);
    expect(concludeRun({ result: r, committed: true, cancelled: false })).toEqual({ conclusion: 'success' });
    expect(unfinishedReason(r)).toBeUndefined();
  });

  it('a budget stop stays budget-exceeded and is unfinished; so is a failure', () => {
    const budget = result([], {
      conclusion: 'budget-exceeded',
      budget: 'turns',
      error: 'Stopped after 2 turns.',
    });
    expect(concludeRun({ result: budget, committed: true, cancelled: false })).toEqual({
      conclusion: 'budget-exceeded',
      error: 'Stopped after 2 turns.',
    });
    expect(unfinishedReason(budget)).toBe('turns budget used up');
    expect(unfinishedReason(result([], { conclusion: 'failure', error: '529' }))).toBe('stopped on an error');
  });
});
