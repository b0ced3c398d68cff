import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildAction, runAction, type BuiltAction } from '../action/harness.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startAzureServer, TEST_AZURE_TOKEN } from '../fakes/azure-server.js';
import { startBedrockServer, TEST_AWS } from '../fakes/bedrock-server.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import { chunk, part } from '../fakes/google-server.js';
import type { ChatTurn } from '../fakes/openai-chat-server.js';
import { startVertexServer } from '../fakes/vertex-server.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';

// The bundled action (`node dist/index.js` as the runner runs it) on each cloud, with the
// credentials the clouds' auth actions leave in the job's environment.

const TOKEN = 'ghs_faketoken';
const REPO_FILES = {
  'package.json': '{ "name": "demo", "type": "module", "scripts": { "test": "node test.js" } }\n',
  'src/math.js': 'export const div = (a, b) => a / b;\n',
  'test.js':
    "import { div } from './src/math.js';\nif (div(1, 0) !== 0) { console.error('div(1, 0) should be 0'); process.exit(1); }\nconsole.log('all good');\n",
};
const EDIT = '{"path":"src/math.js","oldText":"a / b","newText":"(b === 0 ? 0 : a / b)"}';
const FIXED = 'export const div = (a, b) => (b === 0 ? 0 : a / b);';

function claudeFix(readId = 'toolu_01'): AnthropicTurn[] {
  return [
    {
      toolCalls: [{ id: readId, name: 'read_file', json: '{"path":"src/math.js"}' }],
      usage: { input: 900, output: 40 },
    },
    { toolCalls: [{ id: 'toolu_02', name: 'edit_file', json: EDIT }], usage: { input: 1000, output: 60 } },
    { toolCalls: [{ id: 'toolu_03', name: 'run_tests', json: '{}' }], usage: { input: 1100, output: 20 } },
    { text: 'Guarded div() against a zero divisor; the tests pass.', usage: { input: 1200, output: 30 } },
  ];
}

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
}, 120_000);
afterAll(() => action?.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
const cleanups: (() => unknown)[] = [];
beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  repo = makeRepo(REPO_FILES);
});
afterEach(async () => {
  await gh.stop();
  repo.cleanup();
  while (cleanups.length) await cleanups.pop()!();
});

async function act(inputs: Record<string, string>, env: Record<string, string>) {
  const issue = gh.addIssue({ title: 'div by zero', body: 'div(1, 0) should be 0' });
  const c = gh.addComment(issue.number, { body: '/patchloop fix it', author: 'alice' });
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    payload: issueComment({
      issue: { number: issue.number, title: issue.title, body: issue.body },
      comment: { id: c.id, body: c.body, createdAt: c.created_at, author: { login: 'alice', id: 4242 } },
    }),
    inputs: { 'github-token': TOKEN, 'test-command': 'node test.js', ...inputs },
    env,
    timeoutMs: 90_000,
  });
  cleanups.push(r.cleanup);
  const comment =
    gh
      .commentsOn(issue.number)
      .filter((x) => x.id !== c.id)
      .at(-1)?.body ?? '';
  const visible = r.stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');
  return { r, comment, visible };
}

function credentialsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-gha-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function awsEnv(url: string): Record<string, string> {
  return {
    AWS_REGION: TEST_AWS.region,
    AWS_ACCESS_KEY_ID: TEST_AWS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: TEST_AWS.secretAccessKey,
    AWS_SESSION_TOKEN: TEST_AWS.sessionToken,
    ANTHROPIC_BEDROCK_BASE_URL: url,
  };
}

function expectFixed(out: Awaited<ReturnType<typeof act>>, secrets: string[]) {
  expect(out.r.code, `${out.r.stdout.slice(-2000)}\n${out.r.stderr.slice(-2000)}`).toBe(0);
  expect(out.r.outputs.conclusion).toBe('success');
  expect(git(repo.origin, 'show', `${out.r.outputs.branch}:src/math.js`)).toBe(FIXED);
  for (const s of secrets) {
    expect(out.r.stdout).toContain(`::add-mask::${s}`);
    for (const text of [out.visible, out.r.stderr, out.comment]) expect(text).not.toContain(s);
  }
}

describe('the action on the clouds', () => {
  it('anthropic-bedrock: a fix task, SigV4-signed, with the AWS credentials masked', async () => {
    const server = await startBedrockServer(claudeFix());
    cleanups.push(() => server.close());
    const out = await act({ provider: 'anthropic-bedrock' }, awsEnv(server.url));
    expectFixed(out, [TEST_AWS.secretAccessKey, TEST_AWS.sessionToken]);
    expect(server.refused).toBe(0);
    expect(out.comment).toContain('global.anthropic.claude-sonnet-5-5-v1:0');
  }, 120_000);

  it('anthropic-vertex: a fix task with the credentials file google-github-actions/auth left in the workspace', async () => {
    const server = await startVertexServer({ anthropic: claudeFix() });
    cleanups.push(() => server.close());
    // not git-ignored: there before the run, so never committed
    const file = server.credentialsFile(repo.work);
    const out = await act(
      { provider: 'anthropic-vertex', 'base-url': `${server.url}/v1` },
      {
        GOOGLE_APPLICATION_CREDENTIALS: file,
        GOOGLE_CLOUD_PROJECT: server.project,
        CLOUD_ML_REGION: server.location,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: server.requestToken,
      },
    );
    expectFixed(out, [server.requestToken]);
    expect(git(repo.origin, 'ls-tree', '-r', '--name-only', out.r.outputs.branch!)).not.toMatch(/gha-creds/);
    expect(server.counts.model).toBe(4);
  }, 120_000);

  it('google-vertex: a fix task through Gemini on Vertex', async () => {
    const call = (name: string, args: Record<string, unknown>) => ({
      chunks: [
        chunk([part.call(name, args)], { finishReason: 'STOP', usage: { prompt: 100, candidates: 10 } }),
      ],
    });
    const server = await startVertexServer({
      gemini: [
        call('read_file', { path: 'src/math.js' }),
        call('edit_file', JSON.parse(EDIT) as Record<string, unknown>),
        call('run_tests', {}),
        {
          chunks: [
            chunk([part.text('Guarded div().')], {
              finishReason: 'STOP',
              usage: { prompt: 200, candidates: 5 },
            }),
          ],
        },
      ],
    });
    cleanups.push(() => server.close());
    const out = await act(
      { provider: 'google-vertex' },
      {
        GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(credentialsDir()),
        GOOGLE_CLOUD_PROJECT: server.project,
        GOOGLE_CLOUD_LOCATION: server.location,
        GOOGLE_VERTEX_BASE_URL: server.url,
      },
    );
    expectFixed(out, [server.requestToken]);
    expect(out.comment).toContain('gemini-3.5-flash');
  }, 120_000);

  it('azure-openai: a fix task with a Microsoft Entra token', async () => {
    const turns: ChatTurn[] = [
      { toolCalls: [{ id: 'call_1', name: 'read_file', args: '{"path":"src/math.js"}' }] },
      { toolCalls: [{ id: 'call_2', name: 'edit_file', args: EDIT }] },
      { toolCalls: [{ id: 'call_3', name: 'run_tests', args: '{}' }] },
      { text: 'Guarded div().', usage: { prompt: 300, completion: 8 } },
    ];
    const server = await startAzureServer(turns);
    cleanups.push(() => server.close());
    const out = await act(
      { provider: 'azure-openai' },
      {
        AZURE_OPENAI_ENDPOINT: server.url,
        AZURE_OPENAI_AD_TOKEN: TEST_AZURE_TOKEN,
        OPENAI_API_VERSION: '2024-10-21',
      },
    );
    expectFixed(out, [TEST_AZURE_TOKEN]);
    expect(server.streamed).toBe(4);
  }, 120_000);

  it('Bedrock credentials expire mid-session: fallback-model anthropic:… finishes it, with long tool-call ids', async () => {
    const longId = `toolu_bdrk_${'z'.repeat(120)}`;
    const fix = claudeFix(longId);
    const bedrock: Awaited<ReturnType<typeof startBedrockServer>> = await startBedrockServer((_r, i) => {
      if (i === 0) bedrock.expire();
      return fix[i]!;
    });
    const direct = await startAnthropicServer(fix.slice(1));
    cleanups.push(
      () => bedrock.close(),
      () => direct.close(),
    );
    const out = await act(
      { provider: 'anthropic-bedrock', 'fallback-model': 'anthropic:claude-sonnet-5-5' },
      {
        ...awsEnv(bedrock.url),
        ANTHROPIC_API_KEY: 'sk-ant-api03-cloud-fallback-0123456789',
        ANTHROPIC_BASE_URL: direct.url,
      },
    );
    expectFixed(out, [TEST_AWS.sessionToken]);
    expect(bedrock.requests).toHaveLength(2);
    expect(direct.requests).toHaveLength(3);
    const sent = JSON.stringify(direct.requests[0]!.body.messages);
    expect(sent).not.toContain(longId);
    expect(out.comment).toMatch(/claude-sonnet-5-5/);
  }, 120_000);

  it('an expired AWS session: one request, a failure whose comment says which step to check', async () => {
    const server = await startBedrockServer(claudeFix());
    cleanups.push(() => server.close());
    server.expire();
    const out = await act({ provider: 'anthropic-bedrock' }, awsEnv(server.url));
    expect(out.r.outputs.conclusion).toBe('failure');
    expect(server.requests).toHaveLength(1);
    expect(out.comment).toMatch(
      /The AWS credentials have expired: check the aws-actions\/configure-aws-credentials step/,
    );
    expect(out.comment).not.toContain(TEST_AWS.sessionToken);
  }, 120_000);
});
