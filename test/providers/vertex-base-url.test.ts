// base-url has one meaning for both Vertex AI providers: the service root (https://HOST), as
// GOOGLE_VERTEX_BASE_URL always meant; the form with /v1 (what ANTHROPIC_VERTEX_BASE_URL meant)
// is accepted too. Each SDK gets what it needs: @anthropic-ai/vertex-sdk the root with /v1,
// @google/genai the root (it adds its own API version).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';
import { chunk, part } from '../fakes/google-server.js';
import { startVertexServer } from '../fakes/vertex-server.js';
import { FAST_RETRY, collect, context, user } from './helpers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const forms = (url: string) => ({
  root: url,
  'root/': `${url}/`,
  'root/v1': `${url}/v1`,
  'root/v1/': `${url}/v1/`,
});

describe('base-url for the Vertex AI providers: the service root, with or without /v1', () => {
  it('anthropic-vertex reaches …/v1/projects/…:streamRawPredict from each form', async () => {
    const server = await startVertexServer({
      anthropic: Array.from({ length: 4 }, () => ({ text: ['ok'], usage: { input: 1, output: 1 } })),
    });
    closers.push(() => server.close());
    const dir = mkdtempSync(join(tmpdir(), 'pl-vertex-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    for (const [form, baseUrl] of Object.entries(forms(server.url))) {
      const provider = createProvider({
        provider: 'anthropic-vertex',
        model: 'claude-sonnet-5-5@20261001',
        env: {
          GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(dir),
          GOOGLE_CLOUD_PROJECT: server.project,
          CLOUD_ML_REGION: server.location,
        },
        baseUrl,
        retry: FAST_RETRY,
      });
      const out = await collect(provider, context([user('hi')]));
      expect(out.message.errorMessage, form).toBeUndefined();
      expect(out.message.content, form).toEqual([{ type: 'text', text: 'ok' }]);
    }
    expect(server.requests.filter((r) => r.path.includes(':streamRawPredict')).map((r) => r.path)).toEqual(
      Array(4).fill(
        `/v1/projects/${server.project}/locations/${server.location}/publishers/anthropic/models/claude-sonnet-5-5@20261001:streamRawPredict`,
      ),
    );
  });

  it('google-vertex reaches …/v1beta1/projects/…:streamGenerateContent from each form', async () => {
    const server = await startVertexServer({
      gemini: Array.from({ length: 4 }, () => ({
        chunks: [chunk([part.text('ok')], { finishReason: 'STOP', usage: { prompt: 1, candidates: 1 } })],
      })),
    });
    closers.push(() => server.close());
    const dir = mkdtempSync(join(tmpdir(), 'pl-vertex-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    for (const [form, baseUrl] of Object.entries(forms(server.url))) {
      const provider = createProvider({
        provider: 'google-vertex',
        env: {
          GOOGLE_APPLICATION_CREDENTIALS: server.credentialsFile(dir),
          GOOGLE_CLOUD_PROJECT: server.project,
          GOOGLE_CLOUD_LOCATION: server.location,
        },
        baseUrl,
        retry: FAST_RETRY,
      });
      const out = await collect(provider, context([user('hi')]));
      expect(out.message.errorMessage, form).toBeUndefined();
      expect(out.message.content, form).toEqual([{ type: 'text', text: 'ok' }]);
    }
    const paths = server.requests.filter((r) => r.path.includes(':streamGenerateContent')).map((r) => r.path);
    expect(paths).toHaveLength(4);
    for (const p of paths)
      expect(p).toMatch(
        new RegExp(
          `^/v1beta1/projects/${server.project}/locations/${server.location}/publishers/google/models/[^/:]+:streamGenerateContent`,
        ),
      );
  });
});
