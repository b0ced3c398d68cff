import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { outputValues } from '../../src/action/outputs.js';
import { ProgressBoard } from '../../src/action/progress.js';
import type { AssistantMessage, ToolCall, ToolResultMessage } from '../../src/protocol/types.js';

const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('inputs', () => {
  it('takes action.yml’s defaults for inputs left empty', () => {
    const inputs = readInputs(reader({ 'github-token': 'ghs_x' }));
    expect(inputs).toMatchObject({
      triggerPhrase: '/patchloop',
      labelTrigger: 'patchloop',
      provider: 'anthropic',
      maxTurns: 40,
      timeoutMinutes: 30,
      allowBash: false,
      allowUnisolatedCommands: false,
      commandEnv: [],
      requiredPermission: 'write',
      allowedBots: [],
      branchPrefix: 'patchloop/',
      openPr: true,
      draftPr: true,
      protectedPaths: ['.github/workflows/**'],
      uploadArtifact: true,
      dryRun: false,
    });
    expect(inputs.maxCostUsd).toBeUndefined();
    expect(inputs.fallbackModel).toBeUndefined();
  });

  it('reads lists, numbers, booleans and the fallback model', () => {
    const inputs = readInputs(
      reader({
        'github-token': 'ghs_x',
        'allowed-bots': 'dependabot[bot], renovate\nmy-app',
        'max-cost-usd': '2.5',
        'max-turns': '12',
        'allow-bash': 'TRUE',
        'required-permission': 'Maintain',
        'fallback-model': 'openai:gpt-6.2-sol',
        'protected-paths': '.github/**\nsecrets/**',
        'allow-unisolated-commands': 'true',
        'command-env': 'NODE_OPTIONS, CARGO_TERM_COLOR\nJAVA_HOME',
      }),
    );
    expect(inputs).toMatchObject({
      allowedBots: ['dependabot[bot]', 'renovate', 'my-app'],
      maxCostUsd: 2.5,
      maxTurns: 12,
      allowBash: true,
      requiredPermission: 'maintain',
      fallbackModel: { provider: 'openai', model: 'gpt-6.2-sol' },
      protectedPaths: ['.github/**', 'secrets/**'],
      allowUnisolatedCommands: true,
      commandEnv: ['NODE_OPTIONS', 'CARGO_TERM_COLOR', 'JAVA_HOME'],
    });
  });

  it.each([
    [{ 'github-token': '' }, /github-token is empty/],
    [{ 'github-token': 'x', provider: 'llama' }, /provider must be one of/],
    [{ 'github-token': 'x', 'max-turns': '0' }, /max-turns must be a positive whole number/],
    [{ 'github-token': 'x', 'command-env': 'OK, $HOME' }, /command-env lists names .*"\$HOME" is not one/],
    [
      { 'github-token': 'x', 'allow-unisolated-commands': 'maybe' },
      /allow-unisolated-commands must be true or false/,
    ],
    [{ 'github-token': 'x', 'max-turns': '2.5' }, /max-turns must be a positive whole number/],
    [{ 'github-token': 'x', 'timeout-minutes': 'soon' }, /timeout-minutes must be a positive number/],
    [{ 'github-token': 'x', 'dry-run': 'maybe' }, /dry-run must be true or false/],
    [{ 'github-token': 'x', 'required-permission': 'owner' }, /required-permission must be one of/],
    [{ 'github-token': 'x', 'fallback-model': 'gpt' }, /fallback-model/],
    [
      { 'github-token': 'x', 'max-cost-usd-per-day': '0' },
      /max-cost-usd-per-day must be REPO or REPO,REQUESTER/,
    ],
    [{ 'github-token': 'x', 'max-cost-usd-per-day': '1,2,3' }, /max-cost-usd-per-day must be/],
    [{ 'github-token': 'x', 'max-cost-usd-per-day': ',' }, /max-cost-usd-per-day must be/],
    [{ 'github-token': 'x', 'require-approval': 'later' }, /require-approval must be true or false/],
  ])('refuses %j with a clear message', (values, message) => {
    expect(() => readInputs(reader(values))).toThrow(message);
  });
});

describe('max-cost-usd-per-day', () => {
  it.each([
    ['50', { repository: 50 }],
    ['50,10', { repository: 50, requester: 10 }],
    [',10', { requester: 10 }],
    [' 2.5 , ', { repository: 2.5 }],
  ])('reads %j', (raw, budget) => {
    expect(readInputs(reader({ 'github-token': 'x', 'max-cost-usd-per-day': raw })).maxCostUsdPerDay).toEqual(
      budget,
    );
  });
  it('is off when empty', () => {
    expect(readInputs(reader({ 'github-token': 'x' })).maxCostUsdPerDay).toBeUndefined();
  });
});

describe('outputs', () => {
  it('sets every output of the contract, empty where it does not apply', () => {
    const values = outputValues({ conclusion: 'skipped' });
    expect(Object.keys(values).sort()).toEqual(
      [
        'conclusion',
        'branch',
        'commit-sha',
        'pr-number',
        'pr-url',
        'comment-url',
        'transcript-path',
        'artifact-url',
        'model',
        'turns',
        'input-tokens',
        'output-tokens',
        'cost-usd',
        'structured-output',
        'review-url',
        'delivery-artifact',
      ].sort(),
    );
    expect(values).toMatchObject({ conclusion: 'skipped', branch: '', turns: '0', 'cost-usd': '' });
    expect(
      outputValues({
        conclusion: 'success',
        usage: {
          inputTokens: 10,
          outputTokens: 2,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.0123456,
        },
      })['cost-usd'],
    ).toBe('0.0123');
  });
});

describe('the live progress list', () => {
  const call = (id: string, name: string, input: Record<string, unknown>): ToolCall => ({
    type: 'toolCall',
    id,
    name,
    input,
  });
  const result = (c: ToolCall, isError = false): ToolResultMessage => ({
    role: 'toolResult',
    toolCallId: c.id,
    toolName: c.name,
    content: [{ type: 'text', text: 'x' }],
    isError,
    timestamp: 0,
  });

  it('lists tool steps as they start and end, with the run link and a status line', () => {
    const board = new ProgressBoard('https://github.com/o/r/actions/runs/1');
    const a = call('1', 'read_file', { path: 'src/a.ts' });
    const b = call('2', 'run_tests', {});
    board.onEvent({ type: 'turn_start', turn: 1, model: 'claude-sonnet-5-5' });
    board.onEvent({ type: 'tool_start', turn: 1, call: a });
    board.onEvent({ type: 'tool_end', turn: 1, call: a, result: result(a), durationMs: 3 });
    board.onEvent({ type: 'tool_start', turn: 1, call: b });
    const text = board.render();
    expect(text).toContain('https://github.com/o/r/actions/runs/1');
    // plain bullets of what is being done, no checkboxes anyone could tick
    expect(text).not.toMatch(/- \[[ x]\]/);
    expect(text).toMatch(/^- Reading `src\/a\.ts` \(at [^)]*, took 3 ms\)$/m);
    expect(text).toMatch(/^- Running the tests \(at [^)]*, running\)$/m);
    expect(text).toContain('turn 1 · claude-sonnet-5-5');
    board.onEvent({ type: 'tool_end', turn: 1, call: b, result: result(b, true), durationMs: 3 });
    expect(board.render()).toMatch(/^- Running the tests \(at [^)]*, took 3 ms\) — failed ⚠️$/m);
  });

  it('keeps the last steps only, and defuses mentions and HTML in arguments', () => {
    const board = new ProgressBoard('u');
    for (let i = 0; i < 40; i++) {
      const c = call(String(i), 'grep', { pattern: i === 39 ? '@octocat <img src=x>' : `p${i}` });
      board.onEvent({ type: 'tool_start', turn: 1, call: c });
    }
    const text = board.render();
    expect(text).toContain('- … 15 earlier steps');
    expect(text).not.toContain('@octocat');
    // an argument is shown in a code span, where GitHub shows HTML as text and a backtick cannot end it
    expect(text).toContain('- Searching for `@\u200Boctocat <img src=x>` (at');
    const withTick = new ProgressBoard('u');
    withTick.onEvent({
      type: 'tool_start',
      turn: 1,
      call: call('t', 'grep', { pattern: 'a` <img src=x> `b' }),
    });
    expect(withTick.render()).toContain('- Searching for `aʼ <img src=x> ʼb` (at');
  });

  it('ignores events that change nothing visible', () => {
    const board = new ProgressBoard('u');
    const msg = {
      role: 'assistant',
      content: [],
      provider: 'p',
      model: 'm',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: 'stop',
      timestamp: 0,
    } as AssistantMessage;
    expect(board.onEvent({ type: 'text_delta', turn: 1, delta: 'x' })).toBe(false);
    expect(board.onEvent({ type: 'turn_end', turn: 1, message: msg, usage: msg.usage })).toBe(true);
  });
});
