import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import type { CommandSandbox } from '../../src/tools/index.js';
import { anthropicFrames, startAnthropicServer, type AnthropicScript } from '../fakes/anthropic-server.js';
import { sseFrame, startSseServer, type FakeProviderServer } from '../fakes/sse.js';
import { record } from './figures.js';
import { makeCheckout, runHarness, type HarnessRun } from './run-harness.js';
import { transcriptProblems } from './transcript-check.js';

// Faults injected into whole runs: the provider failing in each way it can, the disk filling
// under the transcript, and a test command that leaves a daemon behind. After each, the run
// must end with a conclusion that says what happened, a summary, and a complete transcript.

const KEY = 'sk-ant-api03-fault-test-key-0123456789';
const MODEL = 'claude-sonnet-5-5';

let dir: string;
let servers: FakeProviderServer[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-faults-'));
  chmodSync(dir, 0o755);
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quickRetries = { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 10_000 };

async function serve(script: AnthropicScript): Promise<FakeProviderServer> {
  const server = await startAnthropicServer(script);
  servers.push(server);
  return server;
}

async function run(
  server: FakeProviderServer,
  opts: { testCommand?: string; transcriptPath?: string; timeoutMs?: number; sandbox?: CommandSandbox } = {},
): Promise<HarnessRun> {
  const work = mkdtempSync(join(dir, 'run-'));
  return runHarness({
    provider: createProvider({
      provider: 'anthropic',
      model: MODEL,
      apiKey: KEY,
      baseUrl: server.url,
      retry: quickRetries,
    }),
    workspace: makeCheckout(work),
    transcriptPath: opts.transcriptPath ?? join(work, 'transcript.jsonl'),
    secrets: [KEY],
    testCommand: opts.testCommand,
    timeoutMs: opts.timeoutMs,
    sandbox: opts.sandbox,
  });
}

/** Records one injected fault; survived when the summary tells the conclusion, the transcript is complete and nothing leaked. */
function survived(r: HarnessRun, opts: { transcript?: boolean } = {}): void {
  const problems = opts.transcript === false ? [] : transcriptProblems(r.transcript);
  const leaked = [r.transcript, r.summary].some((t) => t.includes(KEY));
  const told = r.summary.includes(r.result.conclusion);
  const ok = problems.length === 0 && !leaked && told;
  record('faults', {
    faultsInjected: 1,
    faultsSurvived: ok ? 1 : 0,
    secretChecks: 2,
    secretsFound: leaked ? 1 : 0,
  });
  expect(problems).toEqual([]);
  expect(leaked).toBe(false);
  expect(told).toBe(true);
}

const toolTurn = { toolCalls: [{ id: 'toolu_01', name: 'run_tests', json: '{}' }] };
const doneTurn = { text: 'All done.' };

describe('provider faults', () => {
  it('429 with retry-after: the turn is retried and the run succeeds', async () => {
    const server = await serve([
      {
        http: {
          status: 429,
          type: 'rate_limit_error',
          message: 'slow down',
          headers: { 'retry-after': '0' },
        },
      },
      doneTurn,
    ]);
    const r = await run(server);
    expect(r.result.conclusion).toBe('success');
    expect(r.transcript).toMatch(/"event":"retry"/);
    survived(r);
  });

  it('500 on every attempt: the run fails and says the server failed', async () => {
    const server = await serve(() => ({
      http: { status: 500, type: 'api_error', message: 'internal trouble' },
    }));
    const r = await run(server);
    expect(r.result.conclusion).toBe('failure');
    expect(r.result.error).toMatch(/500|server|internal trouble/i);
    expect(server.requests.length).toBe(quickRetries.maxRetries + 1);
    survived(r);
  });

  it('529 overloaded on every attempt: failure, named as overloaded', async () => {
    const server = await serve(() => ({
      http: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
    }));
    const r = await run(server);
    expect(r.result.conclusion).toBe('failure');
    expect(r.result.error).toMatch(/overload/i);
    survived(r);
  });

  it('401: no retry, failure that names the key problem and never echoes the key', async () => {
    const server = await serve(() => ({
      http: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
    }));
    const r = await run(server);
    expect(r.result.conclusion).toBe('failure');
    expect(server.requests.length).toBe(1);
    expect(r.result.error).toMatch(/api-key|auth|401/i);
    survived(r);
  });

  it('a stream cut mid-message is retried from the start', async () => {
    const server = await serve([{ ...toolTurn, cutAfter: 4 }, toolTurn, doneTurn]);
    const r = await run(server, { testCommand: 'echo tests pass' });
    expect(r.result.conclusion).toBe('success');
    expect(r.transcript).toMatch(/"event":"retry"/);
    survived(r);
  });

  it('an error event inside the stream is retried', async () => {
    const server = await serve([
      { text: 'partial', errorEvent: { type: 'overloaded_error', message: 'Overloaded', after: 3 } },
      doneTurn,
    ]);
    const r = await run(server);
    expect(r.result.conclusion).toBe('success');
    survived(r);
  });

  it('malformed SSE data ends the turn with a readable error, never a crash', async () => {
    const good = anthropicFrames({ text: 'All done.' });
    const server = await startSseServer({
      route: (method, path) => method === 'POST' && path === '/v1/messages',
      notFound: () => ({}),
      reply: (_req, index) =>
        index === 0
          ? {
              kind: 'sse',
              frames: [
                good[0]!,
                sseFrame('{"type": "content_block_delta", "index": 0, "delta": {', 'content_block_delta'),
              ],
            }
          : { kind: 'sse', frames: good },
    });
    servers.push(server);
    const r = await run(server);
    // either the bad attempt was retried and the run succeeded, or it failed saying why
    if (r.result.conclusion === 'failure') expect(r.result.error).toBeTruthy();
    else expect(r.result.conclusion).toBe('success');
    survived(r);
  });

  it('a hung stream does not hang the run: the time budget ends it', async () => {
    const server = await serve(() => ({ text: ['a', 'b', 'c'], hangAfter: 3 }));
    const r = await run(server, { timeoutMs: 1500 });
    expect(r.result.conclusion).toBe('budget-exceeded');
    expect(r.result.budget).toBe('time');
    survived(r);
  });
});

describe('local faults', () => {
  it('the disk fills under the transcript: the run goes on and reports the write failure once', async () => {
    const server = await serve([toolTurn, doneTurn]);
    const r = await run(server, { transcriptPath: '/dev/full', testCommand: 'echo tests pass' });
    expect(r.result.conclusion).toBe('success');
    expect(r.healthy).toBe(false);
    expect(r.writeErrors).toHaveLength(1);
    expect(r.writeErrors[0]).toMatch(/ENOSPC|no space/i);
    survived(r, { transcript: false });
  });

  const marker = `pl-fault-daemon-${process.pid}`;
  const daemons = () => spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.trim();

  it('a test command leaving a daemon that ignores SIGTERM: run_tests returns, the daemon is gone', async () => {
    const server = await serve([toolTurn, doneTurn]);
    const r = await run(server, {
      testCommand: `(trap "" TERM; exec -a ${marker} sleep 600) & echo tests pass`,
    });
    expect(r.result.conclusion).toBe('success');
    expect(r.transcript).toContain('tests pass');
    expect(daemons()).toBe('');
    survived(r);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'in the sandbox, even a daemon in its own session is gone after the command',
    async () => {
      const server = await serve([toolTurn, doneTurn]);
      const work = mkdtempSync(join(dir, 'sandboxed-'));
      chmodSync(work, 0o755);
      const ws = makeCheckout(work);
      const setup = await createSandbox({ workspace: ws, mode: 'auto' });
      expect(setup.kind, setup.reason).toBe('isolated');
      if (setup.kind !== 'isolated') return;
      // isolated always means a PID namespace of the command's own, the one thing that takes down
      // a daemon that left the command's process group
      expect(setup.reason).toContain('own PID and mount namespace');
      const r = await runHarness({
        provider: createProvider({
          provider: 'anthropic',
          model: MODEL,
          apiKey: KEY,
          baseUrl: server.url,
          retry: quickRetries,
        }),
        workspace: ws,
        transcriptPath: join(work, 'transcript.jsonl'),
        secrets: [KEY],
        sandbox: setup.sandbox,
        testCommand: `(trap "" TERM; setsid bash -c 'exec -a ${marker}-s sleep 600' >/dev/null 2>&1 &); echo tests pass`,
      });
      await setup.dispose();
      expect(r.result.conclusion).toBe('success');
      expect(daemons()).toBe('');
      survived(r);
    },
  );
});
