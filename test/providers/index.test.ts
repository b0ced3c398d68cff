import { afterEach, describe, expect, it } from 'vitest';
import { createProvider, parseFallbackSpec } from '../../src/providers/index.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { startOpenAIChatServer } from '../fakes/openai-chat-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { FAST_RETRY, collect, context, user } from './helpers.js';

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('createProvider', () => {
  it('names the input and the variable when there is no key, in the words of each surface', () => {
    expect(() => createProvider({ provider: 'anthropic', env: {} })).toThrow(
      /repository secret .*api-key input \(api-key: \$\{\{ secrets\.ANTHROPIC_API_KEY \}\}\)/,
    );
    expect(() => createProvider({ provider: 'anthropic', env: {} })).not.toThrow(/--api-key/);
    expect(() => createProvider({ provider: 'anthropic', env: {}, surface: 'cli' })).toThrow(
      'No API key for the anthropic provider: pass --api-key or export ANTHROPIC_API_KEY.',
    );
    expect(() => createProvider({ provider: 'anthropic', env: {}, surface: 'cli' })).not.toThrow(
      /secret|input/,
    );
    expect(() => createProvider({ provider: 'google', env: {} })).toThrow(/GEMINI_API_KEY/);
    expect(() => createProvider({ provider: 'openai-responses', env: {} })).toThrow(/OPENAI_API_KEY/);
  });

  it('rejects an unknown provider and an openai-compatible setup without a model or URL', () => {
    // @ts-expect-error: a value from outside, not checked by the compiler
    expect(() => createProvider({ provider: 'github-models', env: {} })).toThrow(
      /Unknown provider "github-models"/,
    );
    expect(() => createProvider({ provider: 'openai-compatible', baseUrl: 'http://x/v1', env: {} })).toThrow(
      /needs a model/,
    );
    expect(() => createProvider({ provider: 'openai-compatible', model: 'm', env: {} })).toThrow(
      /base-url input of the patchloop step/,
    );
    expect(() =>
      createProvider({ provider: 'openai-compatible', model: 'm', env: {}, surface: 'cli' }),
    ).toThrow(/pass --base-url or export OPENAI_BASE_URL/);
  });

  it('uses the default model and the key and base URL from the environment', async () => {
    const server = await startAnthropicServer([{ text: 'hi from env' }]);
    servers.push(server);
    const p = createProvider({
      provider: 'anthropic',
      env: { ANTHROPIC_API_KEY: 'env-key-123456', ANTHROPIC_BASE_URL: server.url },
      retry: FAST_RETRY,
    });
    expect([p.name, p.model, p.contextWindow]).toEqual(['anthropic', 'claude-sonnet-5-5', 1_000_000]);
    const out = await collect(p, context([user('q')]));
    expect(out.message.content).toEqual([{ type: 'text', text: 'hi from env' }]);
    expect(JSON.stringify(server.requests[0]!.headers)).toContain('env-key-123456');
  });

  it('prefers the inputs to the environment, and serves openai-compatible without a key', async () => {
    const server = await startOpenAIChatServer([{ text: 'local' }]);
    servers.push(server);
    const p = createProvider({
      provider: 'openai-compatible',
      model: 'qwen3-coder:30b',
      baseUrl: server.url,
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' },
    });
    const out = await collect(p, context([user('q')]));
    expect(out.message).toMatchObject({ provider: 'openai-compatible', model: 'qwen3-coder:30b' });
    expect(out.message.usage.costUsd).toBeUndefined();
  });

  it('builds every provider from a key alone', () => {
    for (const provider of ['anthropic', 'openai', 'openai-responses', 'google'] as const) {
      const p = createProvider({ provider, apiKey: 'k-123456789' });
      expect(p.name).toBe(provider);
      expect(p.model.length).toBeGreaterThan(0);
    }
  });
});

describe('parseFallbackSpec', () => {
  it('splits provider:model at the first colon', () => {
    expect(parseFallbackSpec('openai:gpt-6.2-sol')).toEqual({ provider: 'openai', model: 'gpt-6.2-sol' });
    expect(parseFallbackSpec(' openai-compatible:qwen3:30b ')).toEqual({
      provider: 'openai-compatible',
      model: 'qwen3:30b',
    });
  });

  it('says what is wrong with a bad value', () => {
    expect(() => parseFallbackSpec('gpt-6.2-sol')).toThrow(/expected provider:model/);
    expect(() => parseFallbackSpec('openai:')).toThrow(/expected provider:model/);
    expect(() => parseFallbackSpec('azure:gpt')).toThrow(/unknown provider "azure"/);
  });
});
