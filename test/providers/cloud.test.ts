import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionProvider } from '../../src/providers/session.js';
import {
  createFallbackProvider,
  createProvider,
  lookupModel,
  parseFallbackSpec,
  priceUsage,
} from '../../src/providers/index.js';
import { cloudSecrets } from '../../src/providers/cloud-credentials.js';
import type { Provider } from '../../src/providers/types.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { startAzureServer, TEST_AZURE_KEY, TEST_AZURE_TOKEN } from '../fakes/azure-server.js';
import { startBedrockServer, TEST_AWS } from '../fakes/bedrock-server.js';
import { chunk, part } from '../fakes/google-server.js';
import { startVertexServer } from '../fakes/vertex-server.js';
import { FAST_RETRY, collect, context, result, user, assistant } from './helpers.js';

// The four cloud providers, built as the action and the CLI build them (createProvider from the
// environment), against loopback fakes that authenticate as the clouds do.

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-cloud-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function awsEnv(url: string): NodeJS.ProcessEnv {
  return {
    AWS_REGION: TEST_AWS.region,
    AWS_ACCESS_KEY_ID: TEST_AWS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: TEST_AWS.secretAccessKey,
    AWS_SESSION_TOKEN: TEST_AWS.sessionToken,
    ANTHROPIC_BEDROCK_BASE_URL: url,
  };
}

const LONG_ID = `toolu_bdrk_${'x'.repeat(90)}|odd:chars`;

describe('anthropic-bedrock', () => {
  it('signs with SigV4 (checked by the reference signer), reads the event stream, and prices the Bedrock id', async () => {
    const server = await startBedrockServer([
      {
        blocks: [
          { type: 'thinking', thinking: ['Look', 'ing'], signature: 'sig-bedrock' },
          { type: 'text', text: ['Reading ', 'it.'] },
          { type: 'tool_use', id: 'toolu_bdrk_01', name: 'read_file', json: ['{"pa', 'th":"a.ts"}'] },
        ],
        usage: { input: 1000, output: 200, cacheRead: 50, cacheWrite: 10 },
      },
    ]);
    closers.push(() => server.close());
    const provider = createProvider({
      provider: 'anthropic-bedrock',
      env: awsEnv(server.url),
      retry: FAST_RETRY,
    });
    expect(provider.model).toBe('global.anthropic.claude-sonnet-5-5-v1:0');
    const out = await collect(provider, context([user('fix it')]));
    expect(server.refused).toBe(0);
    expect(out.message.stopReason).toBe('toolUse');
    expect(out.message.content).toEqual([
      { type: 'thinking', thinking: 'Looking', signature: 'sig-bedrock' },
      { type: 'text', text: 'Reading it.' },
      { type: 'toolCall', id: 'toolu_bdrk_01', name: 'read_file', input: { path: 'a.ts' } },
    ]);
    expect(out.message.usage.costUsd).toBeCloseTo((1000 * 2 + 200 * 10 + 50 * 0.2 + 10 * 2.5) / 1e6, 12);
    const req = server.requests[0]!;
    expect(req.path).toBe('/model/global.anthropic.claude-sonnet-5-5-v1:0/invoke-with-response-stream');
    expect(typeof req.body.anthropic_version).toBe('string');
    expect(req.body.model).toBeUndefined();
    expect(String(req.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIAFAKEBEDROCKTEST01\//);
  });

  it('a signature made with another secret is refused by the fake (the check can fail)', async () => {
    const server = await startBedrockServer([{ text: 'never' }]);
    closers.push(() => server.close());
    const provider = createProvider({
      provider: 'anthropic-bedrock',
      env: { ...awsEnv(server.url), AWS_SECRET_ACCESS_KEY: 'another-secret-0123456789abcdef0123456789' },
      retry: FAST_RETRY,
    });
    const out = await collect(provider, context([user('hi')]));
    expect(server.refused).toBe(1);
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorMessage).toMatch(/signature we calculated does not match/);
    expect(out.message.errorMessage).toMatch(/aws-actions\/configure-aws-credentials/);
    expect(out.message.errorMessage).not.toContain('another-secret-0123456789abcdef0123456789');
  });

  it('an expired session: one request, no retry, a hint naming the auth action (action) or the variables (CLI)', async () => {
    for (const surface of ['action', 'cli'] as const) {
      const server = await startBedrockServer([{ text: 'never' }]);
      closers.push(() => server.close());
      server.expire();
      const provider = createProvider({
        provider: 'anthropic-bedrock',
        env: awsEnv(server.url),
        retry: FAST_RETRY,
        surface,
      });
      const out = await collect(provider, context([user('hi')]));
      expect(server.requests).toHaveLength(1);
      expect(out.retries).toEqual([]);
      expect(out.message.errorKind).toBe('auth');
      expect(out.message.errorMessage).toMatch(/expired/);
      if (surface === 'action')
        expect(out.message.errorMessage).toMatch(
          /The AWS credentials have expired: check the aws-actions\/configure-aws-credentials step/,
        );
      else expect(out.message.errorMessage).toMatch(/export fresh AWS_ACCESS_KEY_ID/);
    }
  });

  it('a wrong model id for the region says which id format and region to check', async () => {
    const server = await startBedrockServer([{ text: 'never' }]);
    closers.push(() => server.close());
    const provider = createProvider({
      provider: 'anthropic-bedrock',
      model: 'claude-sonnet-5-5',
      env: awsEnv(server.url),
      retry: FAST_RETRY,
      surface: 'cli',
    });
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.errorMessage).toMatch(/model identifier is invalid/);
    expect(out.message.errorMessage).toMatch(
      /Check the model id "claude-sonnet-5-5" \(--model\).*global\.anthropic\.claude-sonnet-5-5-v1:0, served in eu-west-3/,
    );
  });

  it('missing credentials fail before any request, naming the variables and the auth action', () => {
    expect(() => createProvider({ provider: 'anthropic-bedrock', env: { AWS_REGION: 'us-east-1' } })).toThrow(
      /No AWS credentials for the anthropic-bedrock provider: add the aws-actions\/configure-aws-credentials step .*AWS_ACCESS_KEY_ID/,
    );
    expect(() =>
      createProvider({ provider: 'anthropic-bedrock', env: { AWS_REGION: 'us-east-1' }, surface: 'cli' }),
    ).toThrow(/export AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN/);
  });

  it('falls back to the direct API mid-session, with long tool-call ids carried over', async () => {
    const bedrock = await startBedrockServer([
      { toolCalls: [{ id: LONG_ID, name: 'read_file', json: '{"path":"a.ts"}' }] },
      { http: { status: 500, type: 'InternalServerException', message: 'Internal server error' } },
      { http: { status: 500, type: 'InternalServerException', message: 'Internal server error' } },
    ]);
    const direct = await startAnthropicServer([{ text: 'Done.' }]);
    closers.push(
      () => bedrock.close(),
      () => direct.close(),
    );
    const env = {
      ...awsEnv(bedrock.url),
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
      ANTHROPIC_BASE_URL: direct.url,
    };
    const primary = createProvider({
      provider: 'anthropic-bedrock',
      env,
      retry: { ...FAST_RETRY, maxRetries: 1 },
    });
    const fallbackSpec = parseFallbackSpec('anthropic:claude-sonnet-5-5');
    // The session builder takes a cloud primary with a fallback (its retries are the defaults; the
    // chain below is the same with fast ones).
    expect(createSessionProvider({ provider: 'anthropic-bedrock', env, fallback: fallbackSpec }).name).toBe(
      'anthropic-bedrock',
    );
    const chain: Provider = createFallbackProvider(primary, createProvider({ ...fallbackSpec, env }));
    const first = await collect(chain, context([user('fix')]));
    expect(first.message.content[0]).toMatchObject({ type: 'toolCall', id: LONG_ID });
    const second = await collect(
      chain,
      context([user('fix'), first.message, result(LONG_ID, 'export const a = 1;')]),
    );
    expect(second.events.some((e) => e.type === 'fallback')).toBe(true);
    expect(second.message.provider).toBe('anthropic');
    expect(second.message.content).toEqual([{ type: 'text', text: 'Done.' }]);
    const sent = direct.requests[0]!.body.messages as {
      content: { type: string; id?: string; tool_use_id?: string }[];
    }[];
    const use = sent[1]!.content.find((c) => c.type === 'tool_use')!;
    const res = sent[2]!.content.find((c) => c.type === 'tool_result')!;
    expect(use.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(res.tool_use_id).toBe(use.id);
  });
});

describe('anthropic-vertex and google-vertex', () => {
  it('anthropic-vertex: a token from the credentials file (workload identity federation), streamRawPredict in the region', async () => {
    const server = await startVertexServer({
      anthropic: [{ text: ['Hi ', 'there'], usage: { input: 10, output: 5 } }],
    });
    closers.push(() => server.close());
    const dir = tempDir();
    const file = server.credentialsFile(dir, 0o644);
    const env = {
      GOOGLE_APPLICATION_CREDENTIALS: file,
      GOOGLE_CLOUD_PROJECT: server.project,
      CLOUD_ML_REGION: server.location,
      ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    };
    const provider = createProvider({
      provider: 'anthropic-vertex',
      model: 'claude-sonnet-5-5@20261001',
      env,
      retry: FAST_RETRY,
    });
    // read once at start, and from then on not readable by other users (the sandbox's user)
    expect(statSync(file).mode & 0o007).toBe(0);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.errorMessage).toBeUndefined();
    expect(out.message.stopReason).toBe('stop');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hi there' }]);
    expect(out.message.usage.costUsd).toBeCloseTo((10 * 2 + 5 * 10) / 1e6, 12);
    expect(server.counts).toMatchObject({ oidc: 1, sts: 1 });
    const req = server.requests.find((r) => r.path.includes(':streamRawPredict'))!;
    expect(req.path).toBe(
      `/v1/projects/${server.project}/locations/${server.location}/publishers/anthropic/models/claude-sonnet-5-5@20261001:streamRawPredict`,
    );
    expect(req.headers.authorization).toBe(`Bearer ${server.issued[0]}`);
  });

  it('anthropic-vertex: an expired federation token is one exchange, no retry storm, and a hint naming the auth step', async () => {
    const server = await startVertexServer({ anthropic: [{ text: 'never' }] });
    closers.push(() => server.close());
    server.expire();
    const env = {
      GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(tempDir()),
      GOOGLE_CLOUD_PROJECT: server.project,
      CLOUD_ML_REGION: server.location,
      ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    };
    const provider = createProvider({ provider: 'anthropic-vertex', env, retry: FAST_RETRY });
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries).toEqual([]);
    expect(server.counts.sts).toBe(1);
    expect(server.counts.model).toBe(0);
    expect(out.message.errorKind).toBe('auth');
    expect(out.message.errorMessage).toMatch(
      /The Google credentials have expired: check the google-github-actions\/auth step/,
    );
    expect(out.message.errorMessage).not.toContain(server.requestToken);
  });

  it('anthropic-vertex: the wrong region names CLOUD_ML_REGION', async () => {
    const server = await startVertexServer({ anthropic: [{ text: 'never' }] });
    closers.push(() => server.close());
    const env = {
      GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(tempDir()),
      GOOGLE_CLOUD_PROJECT: server.project,
      CLOUD_ML_REGION: 'us-east5',
      ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    };
    const out = await collect(
      createProvider({ provider: 'anthropic-vertex', env, retry: FAST_RETRY }),
      context([user('hi')]),
    );
    expect(out.message.errorMessage).toMatch(/not found/);
    expect(out.message.errorMessage).toMatch(/region us-east5 \(CLOUD_ML_REGION\)/);
  });

  it('google-vertex: Gemini through @google/genai in Vertex mode, thinking and a tool call, priced', async () => {
    const server = await startVertexServer({
      gemini: [
        {
          chunks: [
            chunk([part.thought('Considering')]),
            chunk([part.call('read_file', { path: 'a.ts' }, { thoughtSignature: 'sig-1' })], {
              finishReason: 'STOP',
              usage: { prompt: 100, candidates: 20, thoughts: 5 },
            }),
          ],
        },
      ],
    });
    closers.push(() => server.close());
    const env = {
      GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(tempDir()),
      GOOGLE_CLOUD_PROJECT: server.project,
      GOOGLE_CLOUD_LOCATION: server.location,
      GOOGLE_VERTEX_BASE_URL: server.url,
    };
    const provider = createProvider({ provider: 'google-vertex', env, retry: FAST_RETRY });
    expect(provider.model).toBe('gemini-3.5-flash');
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('toolUse');
    expect(out.message.content[0]).toMatchObject({ type: 'thinking', thinking: 'Considering' });
    expect(out.message.content[1]).toMatchObject({
      type: 'toolCall',
      name: 'read_file',
      input: { path: 'a.ts' },
    });
    expect(out.message.usage.costUsd).toBeCloseTo((100 * 1.5 + 25 * 9) / 1e6, 12);
    const req = server.requests.find((r) => r.path.includes(':streamGenerateContent'))!;
    expect(req.path).toMatch(
      new RegExp(
        `^/v1beta1/projects/${server.project}/locations/${server.location}/publishers/google/models/gemini-3.5-flash:streamGenerateContent\\?alt=sse`,
      ),
    );
    expect(req.headers.authorization).toBe(`Bearer ${server.issued[0]}`);
  });

  it('google-vertex: an expired federation token is not retried', async () => {
    const server = await startVertexServer({ gemini: [] });
    closers.push(() => server.close());
    server.expire();
    const env = {
      GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(tempDir()),
      GOOGLE_CLOUD_PROJECT: server.project,
      GOOGLE_CLOUD_LOCATION: server.location,
      GOOGLE_VERTEX_BASE_URL: server.url,
    };
    const out = await collect(
      createProvider({ provider: 'google-vertex', env, retry: FAST_RETRY, surface: 'cli' }),
      context([user('hi')]),
    );
    expect(out.retries).toEqual([]);
    expect(server.counts.model).toBe(0);
    expect(out.message.errorKind).toBe('auth');
    expect(out.message.errorMessage).toMatch(/gcloud auth application-default login/);
  });

  it('no credentials file: an error naming GOOGLE_APPLICATION_CREDENTIALS and the auth action', () => {
    expect(() => createProvider({ provider: 'google-vertex', env: { GOOGLE_CLOUD_PROJECT: 'p' } })).toThrow(
      /google-github-actions\/auth step .*GOOGLE_APPLICATION_CREDENTIALS/,
    );
  });
});

describe('azure-openai', () => {
  it('the api-key header, the deployment path and api-version; usage priced by the deployment named after its model', async () => {
    const server = await startAzureServer([
      { text: ['Hel', 'lo'], usage: { prompt: 100, completion: 10, cached: 40 } },
    ]);
    closers.push(() => server.close());
    const env = {
      AZURE_OPENAI_ENDPOINT: server.url,
      AZURE_OPENAI_API_KEY: TEST_AZURE_KEY,
      OPENAI_API_VERSION: '2024-10-21',
    };
    const out = await collect(
      createProvider({ provider: 'azure-openai', env, retry: FAST_RETRY }),
      context([user('hi')]),
    );
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(out.message.usage.costUsd).toBeCloseTo((60 * 2 + 40 * 0.1 + 10 * 10) / 1e6, 12);
    const req = server.requests[0]!;
    expect(req.path).toBe('/openai/deployments/gpt-6.2-sol/chat/completions?api-version=2024-10-21');
    expect(req.headers['api-key']).toBe(TEST_AZURE_KEY);
  });

  it('an Entra token as a bearer; expired: no retry, a hint naming AZURE_OPENAI_AD_TOKEN', async () => {
    const server = await startAzureServer([{ text: 'ok' }]);
    closers.push(() => server.close());
    const env = { AZURE_OPENAI_ENDPOINT: server.url, AZURE_OPENAI_AD_TOKEN: TEST_AZURE_TOKEN };
    const provider = createProvider({ provider: 'azure-openai', env, retry: FAST_RETRY });
    expect((await collect(provider, context([user('hi')]))).message.content).toEqual([
      { type: 'text', text: 'ok' },
    ]);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_AZURE_TOKEN}`);
    server.expire();
    const out = await collect(provider, context([user('again')]));
    expect(server.requests).toHaveLength(2);
    expect(out.retries).toEqual([]);
    expect(out.message.errorMessage).toMatch(/have expired: check .*AZURE_OPENAI_AD_TOKEN/);
    expect(out.message.errorMessage).not.toContain(TEST_AZURE_TOKEN);
  });

  it('an unknown deployment says to check the deployment name', async () => {
    const server = await startAzureServer([]);
    closers.push(() => server.close());
    const env = { AZURE_OPENAI_ENDPOINT: server.url, AZURE_OPENAI_API_KEY: TEST_AZURE_KEY };
    const out = await collect(
      createProvider({ provider: 'azure-openai', model: 'my-gpt', env, retry: FAST_RETRY, surface: 'cli' }),
      context([user('hi')]),
    );
    expect(out.message.errorMessage).toMatch(
      /DeploymentNotFound|deployment for this resource does not exist/,
    );
    expect(out.message.errorMessage).toMatch(/Check the deployment name "my-gpt" \(--model\)/);
  });
});

describe('cloud model ids and secrets', () => {
  it('the price table covers the clouds’ id formats', () => {
    for (const id of [
      'global.anthropic.claude-sonnet-5-5-v1:0',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'anthropic.claude-haiku-4-5-20251001-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-opus-4-6-v1:0',
      'claude-sonnet-4-5@20250929',
      'publishers/google/models/gemini-2.5-pro',
    ])
      expect(lookupModel(id), id).toBeDefined();
    expect(lookupModel('us.anthropic.claude-sonnet-4-5-20250929-v1:0')!.id).toBe('claude-sonnet-4-5');
    expect(
      priceUsage('eu.anthropic.claude-haiku-4-5-v1:0', {
        inputTokens: 1e6,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      }).costUsd,
    ).toBe(1);
  });

  it('cloudSecrets: the AWS and Azure values and the secret fields of the credentials file, not paths', async () => {
    const server = await startVertexServer({});
    closers.push(() => server.close());
    const file = server.credentialsFile(tempDir());
    const secrets = cloudSecrets({
      ...awsEnv('http://x'),
      AZURE_OPENAI_AD_TOKEN: TEST_AZURE_TOKEN,
      GOOGLE_APPLICATION_CREDENTIALS: file,
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        TEST_AWS.secretAccessKey,
        TEST_AWS.sessionToken,
        TEST_AZURE_TOKEN,
        server.requestToken,
      ]),
    );
    expect(secrets).not.toContain(file);
  });

  it('a history from another provider goes to the cloud with its ids rewritten and paired', async () => {
    const server = await startBedrockServer([{ text: 'ok' }]);
    closers.push(() => server.close());
    const provider = createProvider({
      provider: 'anthropic-bedrock',
      env: awsEnv(server.url),
      retry: FAST_RETRY,
    });
    const call = {
      type: 'toolCall' as const,
      id: `call_${'y'.repeat(100)}`,
      name: 'read_file',
      input: { path: 'a' },
    };
    await collect(
      provider,
      context([
        user('a'),
        assistant([call], { provider: 'openai', model: 'gpt-6.2-sol' }),
        result(call.id, 'x'),
      ]),
    );
    const msgs = server.requests[0]!.body.messages as {
      content: { type: string; id?: string; tool_use_id?: string }[];
    }[];
    const id = msgs[1]!.content.find((c) => c.type === 'tool_use')!.id!;
    expect(id.length).toBeLessThanOrEqual(64);
    expect(msgs[2]!.content.find((c) => c.type === 'tool_result')!.tool_use_id).toBe(id);
  });
});

describe('the clouds behave as the direct APIs', () => {
  it('Bedrock: the five stop reasons map as for the direct API; an image goes as an image block', async () => {
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const server = await startBedrockServer([
      { text: 'cut', stopReason: 'max_tokens' },
      { text: 'no', stopReason: 'refusal' },
      { text: 'done', stopReason: 'end_turn' },
    ]);
    closers.push(() => server.close());
    const provider = createProvider({
      provider: 'anthropic-bedrock',
      env: awsEnv(server.url),
      retry: FAST_RETRY,
    });
    const withImage = context([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', mimeType: 'image/png', data: png },
        ],
        timestamp: 1,
      },
    ]);
    expect((await collect(provider, withImage)).message.stopReason).toBe('length');
    const refused = (await collect(provider, context([user('x')]))).message;
    expect(refused.stopReason).toBe('error');
    expect(refused.errorMessage).toMatch(/declined/);
    expect((await collect(provider, context([user('y')]))).message.stopReason).toBe('stop');
    const sent = JSON.stringify(server.requests[0]!.body.messages);
    expect(sent).toContain('"type":"image"');
    expect(sent).toContain(png);
  });

  it('a model not enabled in the account and a spent quota: hints naming the console setting', async () => {
    const server = await startBedrockServer([
      {
        http: {
          status: 403,
          type: 'AccessDeniedException',
          message: "You don't have access to the model with the specified model ID.",
        },
      },
      {
        http: {
          status: 429,
          type: 'ThrottlingException',
          message: 'Too many tokens, please wait before trying again.',
        },
      },
    ]);
    closers.push(() => server.close());
    const provider = createProvider({
      provider: 'anthropic-bedrock',
      env: awsEnv(server.url),
      retry: { ...FAST_RETRY, maxRetries: 0 },
    });
    const denied = (await collect(provider, context([user('a')]))).message.errorMessage;
    expect(denied).toMatch(/enable it in the Amazon Bedrock console \(Model access\) for that region/);
    const throttled = (await collect(provider, context([user('b')]))).message.errorMessage;
    expect(throttled).toMatch(/Service Quotas \(Amazon Bedrock\)/);

    const vertex = await startVertexServer({
      gemini: [
        {
          status: 429,
          body: {
            error: {
              code: 429,
              message:
                'Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model',
              status: 'RESOURCE_EXHAUSTED',
            },
          },
        },
      ],
    });
    closers.push(() => vertex.close());
    const env = {
      GOOGLE_APPLICATION_CREDENTIALS: vertex.credentialsFile(tempDir()),
      GOOGLE_CLOUD_PROJECT: vertex.project,
      GOOGLE_CLOUD_LOCATION: vertex.location,
      GOOGLE_VERTEX_BASE_URL: vertex.url,
    };
    const gemini = createProvider({
      provider: 'google-vertex',
      env,
      retry: { ...FAST_RETRY, maxRetries: 0 },
    });
    const quota = (await collect(gemini, context([user('c')]))).message.errorMessage;
    expect(quota).toMatch(/Vertex AI's quota .*\(IAM & Admin, Quotas\)/);
  });

  it('a cloud may be the fallback-model of another, with a colon in its model id', () => {
    expect(parseFallbackSpec('anthropic-bedrock:global.anthropic.claude-sonnet-5-5-v1:0')).toEqual({
      provider: 'anthropic-bedrock',
      model: 'global.anthropic.claude-sonnet-5-5-v1:0',
    });
    expect(parseFallbackSpec('azure-openai:my-deployment').provider).toBe('azure-openai');
  });
});

describe('reading the Google credentials file', () => {
  it('a FIFO in its place does not hold the start, and a file that is not JSON is not quoted', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'gha-creds-fifo.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const env = { GOOGLE_APPLICATION_CREDENTIALS: fifo, GOOGLE_CLOUD_PROJECT: 'p' };
    expect(() => createProvider({ provider: 'google-vertex', env })).toThrow(/not a regular file/);
    expect(cloudSecrets(env)).toEqual([]);
    const broken = join(dir, 'gha-creds-broken.json');
    writeFileSync(broken, '{"private_key": "-----BEGIN PRIVATE KEY-----SECRETSECRETSECRET', { mode: 0o600 });
    let message = '';
    try {
      createProvider({
        provider: 'anthropic-vertex',
        env: { ...env, GOOGLE_APPLICATION_CREDENTIALS: broken },
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      /Cannot read the Google credentials file .* \(not valid JSON\): check the google-github-actions\/auth step/,
    );
    expect(message).not.toContain('SECRETSECRET');
  });
});

describe('a Bedrock API key', () => {
  it('as the api-key input (or AWS_BEARER_TOKEN_BEDROCK): a bearer instead of SigV4, the region still named', async () => {
    const key = 'ABSKQmVkcm9ja0FQSUtleS1mYWtlLXRlc3Qta2V5LTAxMjM0NTY3ODk=';
    const server = await startBedrockServer([{ text: 'ok' }, { text: 'ok' }], TEST_AWS, key);
    closers.push(() => server.close());
    const env = { AWS_REGION: TEST_AWS.region, ANTHROPIC_BEDROCK_BASE_URL: server.url };
    for (const provider of [
      createProvider({ provider: 'anthropic-bedrock', apiKey: key, env, retry: FAST_RETRY }),
      createProvider({
        provider: 'anthropic-bedrock',
        env: { ...env, AWS_BEARER_TOKEN_BEDROCK: key },
        retry: FAST_RETRY,
      }),
    ]) {
      expect((await collect(provider, context([user('hi')]))).message.content).toEqual([
        { type: 'text', text: 'ok' },
      ]);
    }
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${key}`, `Bearer ${key}`]);
    expect(() => createProvider({ provider: 'anthropic-bedrock', apiKey: key, env: {} })).toThrow(
      /No AWS region/,
    );
  });
});

describe('an Azure deployment named otherwise than its model', () => {
  it('is priced as the model the stream names', async () => {
    const server = await startAzureServer(
      [{ text: 'ok', model: 'gpt-4o-2024-08-06', usage: { prompt: 1000, completion: 100 } }],
      { deployments: ['team-chat'] },
    );
    closers.push(() => server.close());
    const env = { AZURE_OPENAI_ENDPOINT: server.url, AZURE_OPENAI_API_KEY: TEST_AZURE_KEY };
    const provider = createProvider({ provider: 'azure-openai', model: 'team-chat', env, retry: FAST_RETRY });
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.model).toBe('team-chat');
    expect(out.message.usage.costUsd).toBeCloseTo((1000 * 2.5 + 100 * 10) / 1e6, 12);
  });
});
