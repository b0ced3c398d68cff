// The shared phases' own rules: the conclusion from the agent's and the delivery's, the wait for the
// workspace after the loop, the session line's continued-session fields, and a workspace whose
// isolation failed stopping the tools.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentResult } from '../../src/agent/index.js';
import { emptyUsage } from '../../src/protocol/types.js';
import type { Provider } from '../../src/providers/types.js';
import {
  awaitWorkspace,
  commandsOffered,
  concludeRun,
  sessionLine,
  startCommandWorkspace,
} from '../../src/run/phases.js';

const result = (over: Partial<AgentResult> = {}): AgentResult => ({
  conclusion: 'success',
  messages: [],
  usage: emptyUsage(),
  turns: 1,
  models: ['m'],
  finalText: 'done',
  durationMs: 5,
  ...over,
});

describe('concludeRun', () => {
  it('a success that committed nothing is no-changes; one that committed stays a success', () => {
    expect(concludeRun({ result: result(), committed: false, cancelled: false })).toEqual({
      conclusion: 'no-changes',
    });
    expect(concludeRun({ result: result(), committed: true, cancelled: false })).toEqual({
      conclusion: 'success',
    });
  });

  it('a failure after the loop makes the run a failure and joins every reason', () => {
    const budget = result({ conclusion: 'budget-exceeded', error: 'Stopped after 1 turn.' });
    expect(
      concludeRun({
        result: budget,
        committed: true,
        cancelled: false,
        failures: [undefined, 'Push refused.'],
      }),
    ).toEqual({ conclusion: 'failure', error: 'Stopped after 1 turn. Push refused.' });
    expect(concludeRun({ result: budget, committed: true, cancelled: false, failures: [undefined] })).toEqual(
      {
        conclusion: 'budget-exceeded',
        error: 'Stopped after 1 turn.',
      },
    );
  });

  it('a cancelled run is cancelled, whatever failed after it', () => {
    expect(
      concludeRun({ result: result(), committed: false, cancelled: true, failures: ['Push cut short.'] }),
    ).toEqual({ conclusion: 'cancelled', error: 'Push cut short.' });
  });
});

describe('awaitWorkspace', () => {
  it('is nothing when the workspace was ready, a failure with the reason when it was not', async () => {
    const live = new AbortController().signal;
    expect(await awaitWorkspace(result(), Promise.resolve(), live)).toBeUndefined();
    const broken = Promise.reject(new Error('no sandbox'));
    expect(await awaitWorkspace(result(), broken, live)).toEqual({
      conclusion: 'failure',
      error: 'no sandbox',
    });
    const stopped = new AbortController();
    stopped.abort();
    expect(await awaitWorkspace(result(), broken, stopped.signal)).toEqual({
      conclusion: 'cancelled',
      error: 'no sandbox',
    });
  });
});

describe('sessionLine', () => {
  const provider = { name: 'anthropic', model: 'm1' } as unknown as Provider;
  const common = {
    id: 's1',
    startedAt: '2026-01-01T00:00:00.000Z',
    repository: 'r',
    trigger: 'cli',
    provider,
    workspace: '/w',
    head: 'abc',
    allowBash: false,
    isolated: true,
    systemPrompt: 'p',
    tools: [],
  };

  it('a fresh session starts at its head', () => {
    const line = sessionLine(common, { branch: 'b' });
    expect(line).toMatchObject({ provider: 'anthropic', model: 'm1', branch: 'b', baseCommit: 'abc' });
    expect(line).not.toHaveProperty('continuedFrom');
  });

  it('a continued session keeps the whole session’s start and says where this part began', () => {
    const line = sessionLine({ ...common, earlierSession: { baseCommit: 'first' } });
    expect(line).toMatchObject({ baseCommit: 'first', continuedFrom: 'abc' });
  });
});

describe('startCommandWorkspace', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('with the sandbox off offers commands only when the user chose to, and `ready` carries git isolation’s failure', async () => {
    dir = mkdtempSync(join(tmpdir(), 'patchloop-phases-'));
    const isolating = Promise.reject(new Error('git could not be isolated'));
    const w = await startCommandWorkspace({
      isolating,
      sandbox: { workspace: dir, mode: 'off', env: {} },
      unready: (err) => new Error(`unready: ${err.message}`),
    });
    expect(w.sandbox.kind).toBe('unavailable');
    expect(commandsOffered(w.sandbox, false)).toBe(false);
    expect(commandsOffered(w.sandbox, true)).toBe(true);
    await expect(w.ready).rejects.toThrow('git could not be isolated');
  });
});
