import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { BUGGY_PROJECT, DIVIDE_FIX, tempRepo, type TempRepo } from '../agent/helpers.js';
import { buildCli, type BuiltCli } from '../cli/build-cli.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startAzureServer, TEST_AZURE_KEY } from '../fakes/azure-server.js';
import { startBedrockServer, TEST_AWS } from '../fakes/bedrock-server.js';
import { chunk, part } from '../fakes/google-server.js';
import type { ChatTurn } from '../fakes/openai-chat-server.js';
import { startVertexServer } from '../fakes/vertex-server.js';

// `patchloop run --provider <cloud>` as a developer runs it: the bundled CLI, credentials from the
// environment the clouds' own CLIs and auth actions leave, against loopback fakes that
// authenticate as the clouds do. A fix task on each cloud, a fallback from Bedrock to the direct
// API mid-session, and an expired credential.

let cli: BuiltCli;
let processTmp: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  cli = await buildCli();
  processTmp = mkdtempSync(join(tmpdir(), 'patchloop-cloud-cli-'));
}, 120_000);
afterAll(() => {
  cli?.cleanup();
  rmSync(processTmp, { recursive: true, force: true });
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function repo(): TempRepo {
  const r = tempRepo(BUGGY_PROJECT);
  cleanups.push(() => r.cleanup());
  return r;
}

/** The user's environment without any provider or cloud credential, plus `extra`. */
function env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { TMPDIR: processTmp };
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(ANTHROPIC_|OPENAI_|GEMINI_|GOOGLE_|AWS_|AZURE_|CLOUD_ML_|ACTIONS_ID_)/.test(k)) out[k] = v;
  }
  return { ...out, ...extra };
}

function runCli(
  args: string[],
  e: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.path, ...args], { env: e, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const TASK = 'Fix the divide-by-zero in src/math.js';
const EDIT = JSON.stringify({ path: 'src/math.js', ...DIVIDE_FIX });

function anthropicFix(readId = 'toolu_01'): AnthropicTurn[] {
  return [
    { text: 'Reading.', toolCalls: [{ id: readId, name: 'read_file', json: '{"path":"src/math.js"}' }] },
    { toolCalls: [{ id: 'toolu_02', name: 'edit_file', json: EDIT }], usage: { input: 900, output: 60 } },
    { toolCalls: [{ id: 'toolu_03', name: 'run_tests', json: '{}' }] },
    { text: 'divide() now throws a RangeError; tests pass.', usage: { input: 1500, output: 20 } },
  ];
}

function fixed(r: TempRepo): boolean {
  return (
    readFileSync(join(r.root, 'src/math.js'), 'utf8').includes('RangeError') &&
    r.git('status', '--porcelain').trim() === ''
  );
}

function awsEnv(url: string) {
  return {
    AWS_REGION: TEST_AWS.region,
    AWS_ACCESS_KEY_ID: TEST_AWS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: TEST_AWS.secretAccessKey,
    AWS_SESSION_TOKEN: TEST_AWS.sessionToken,
    ANTHROPIC_BEDROCK_BASE_URL: url,
  };
}

describe('patchloop run on the clouds', () => {
  it('anthropic-bedrock: a fix task, signed requests, the cost of the Bedrock id', async () => {
    const r = repo();
    const server = await startBedrockServer(anthropicFix());
    cleanups.push(() => server.close());
    const out = await runCli(
      ['run', '--repo', r.root, '--provider', 'anthropic-bedrock', '--test-command', 'node --test', TASK],
      env(awsEnv(server.url)),
    );
    expect(out.stderr + out.stdout).not.toContain(TEST_AWS.secretAccessKey);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Outcome: success$/m);
    expect(out.stdout).toMatch(/^Model: global\.anthropic\.claude-sonnet-5-5-v1:0/m);
    expect(out.stdout).toMatch(/^Cost: \$0\.0/m);
    expect(server.refused).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(fixed(r)).toBe(true);
  }, 60_000);

  it('anthropic-vertex: a fix task with the credentials file and a token from the exchange', async () => {
    const r = repo();
    const server = await startVertexServer({ anthropic: anthropicFix() });
    cleanups.push(() => server.close());
    const dir = mkdtempSync(join(tmpdir(), 'pl-gcreds-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const out = await runCli(
      ['run', '--repo', r.root, '--provider', 'anthropic-vertex', '--test-command', 'node --test', TASK],
      env({
        GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(dir),
        GOOGLE_CLOUD_PROJECT: server.project,
        CLOUD_ML_REGION: server.location,
        ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
      }),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Outcome: success$/m);
    expect(server.counts.model).toBe(4);
    expect(out.stdout + out.stderr).not.toContain(server.requestToken);
    expect(fixed(r)).toBe(true);
  }, 60_000);

  it('google-vertex: a fix task through Gemini on Vertex', async () => {
    const r = repo();
    const call = (name: string, args: Record<string, unknown>, finish = 'STOP') => ({
      chunks: [
        chunk([part.call(name, args)], { finishReason: finish, usage: { prompt: 100, candidates: 10 } }),
      ],
    });
    const server = await startVertexServer({
      gemini: [
        call('read_file', { path: 'src/math.js' }),
        call('edit_file', { path: 'src/math.js', ...DIVIDE_FIX }),
        call('run_tests', {}),
        {
          chunks: [
            chunk([part.text('Fixed; tests pass.')], {
              finishReason: 'STOP',
              usage: { prompt: 200, candidates: 5 },
            }),
          ],
        },
      ],
    });
    cleanups.push(() => server.close());
    const dir = mkdtempSync(join(tmpdir(), 'pl-gcreds-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const out = await runCli(
      ['run', '--repo', r.root, '--provider', 'google-vertex', '--test-command', 'node --test', TASK],
      env({
        GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(dir),
        GOOGLE_CLOUD_PROJECT: server.project,
        GOOGLE_CLOUD_LOCATION: server.location,
        GOOGLE_VERTEX_BASE_URL: server.url,
      }),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Outcome: success$/m);
    expect(out.stdout).toMatch(/^Model: gemini-3\.5-flash/m);
    expect(fixed(r)).toBe(true);
  }, 60_000);

  it('azure-openai: a fix task on a deployment, with the api-key header and api-version', async () => {
    const r = repo();
    const turns: ChatTurn[] = [
      { toolCalls: [{ id: 'call_1', name: 'read_file', args: '{"path":"src/math.js"}' }] },
      { toolCalls: [{ id: 'call_2', name: 'edit_file', args: EDIT }] },
      { toolCalls: [{ id: 'call_3', name: 'run_tests', args: '{}' }] },
      { text: 'Fixed; tests pass.', usage: { prompt: 300, completion: 8 } },
    ];
    const server = await startAzureServer(turns, { deployments: ['calc-gpt'] });
    cleanups.push(() => server.close());
    const out = await runCli(
      [
        'run',
        '--repo',
        r.root,
        '--provider',
        'azure-openai',
        '--model',
        'calc-gpt',
        '--test-command',
        'node --test',
        TASK,
      ],
      env({
        AZURE_OPENAI_ENDPOINT: server.url,
        AZURE_OPENAI_API_KEY: TEST_AZURE_KEY,
        OPENAI_API_VERSION: '2025-04-01-preview',
      }),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Outcome: success$/m);
    expect(server.streamed).toBe(4);
    expect(
      server.requests.every(
        (q) => q.path === '/openai/deployments/calc-gpt/chat/completions?api-version=2025-04-01-preview',
      ),
    ).toBe(true);
    expect(fixed(r)).toBe(true);
  }, 60_000);

  it('Bedrock credentials expire mid-session: --fallback-model anthropic:… finishes the task with the long tool-call ids carried over', async () => {
    const r = repo();
    const longId = `toolu_bdrk_${'q'.repeat(120)}`;
    const fix = anthropicFix(longId);
    const bedrock: Awaited<ReturnType<typeof startBedrockServer>> = await startBedrockServer((_req, i) => {
      if (i === 0) bedrock.expire(); // the session's credentials run out after the first turn
      return fix[i]!;
    });
    const direct = await startAnthropicServer(fix.slice(1));
    cleanups.push(
      () => bedrock!.close(),
      () => direct.close(),
    );
    const out = await runCli(
      [
        'run',
        '--repo',
        r.root,
        '--provider',
        'anthropic-bedrock',
        '--fallback-model',
        'anthropic:claude-sonnet-5-5',
        '--test-command',
        'node --test',
        TASK,
      ],
      env({
        ...awsEnv(bedrock.url),
        ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef',
        ANTHROPIC_BASE_URL: direct.url,
      }),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Outcome: success$/m);
    // one refused request, not a retry storm
    expect(bedrock.requests).toHaveLength(2);
    expect(direct.requests).toHaveLength(3);
    const first = direct.requests[0]!.body.messages as {
      content: { type: string; id?: string; tool_use_id?: string }[];
    }[];
    const use = first
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((c) => c.type === 'tool_use')!;
    const res = first
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((c) => c.type === 'tool_result')!;
    expect(use.id!.length).toBeLessThanOrEqual(64);
    expect(res.tool_use_id).toBe(use.id);
    const transcript = parseTranscript(
      readFileSync(/^Transcript: (.+)$/m.exec(out.stdout)![1]!.trim(), 'utf8'),
    );
    expect(JSON.stringify(transcript.messages)).toContain(longId);
    expect(fixed(r)).toBe(true);
  }, 60_000);

  it('an expired AWS session: one request, exit 1, a hint naming what to export', async () => {
    const r = repo();
    const server = await startBedrockServer(anthropicFix());
    cleanups.push(() => server.close());
    server.expire();
    const out = await runCli(
      ['run', '--repo', r.root, '--provider', 'anthropic-bedrock', TASK],
      env(awsEnv(server.url)),
    );
    expect(out.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(out.stdout + out.stderr).toMatch(
      /The AWS credentials have expired: export fresh AWS_ACCESS_KEY_ID/,
    );
    expect(out.stdout + out.stderr).not.toContain(TEST_AWS.sessionToken);
  }, 60_000);

  it('missing cloud credentials are a usage error naming the variables (exit 2, no request)', async () => {
    const r = repo();
    const out = await runCli(
      ['run', '--repo', r.root, '--provider', 'google-vertex', TASK],
      env({ HOME: processTmp }),
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/gcloud auth application-default login|GOOGLE_APPLICATION_CREDENTIALS/);
  }, 60_000);
});
