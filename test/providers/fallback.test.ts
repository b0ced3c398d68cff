import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { createFallbackProvider } from '../../src/providers/fallback.js';
import { createOpenAIChatProvider } from '../../src/providers/openai-chat.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { startOpenAIChatServer } from '../fakes/openai-chat-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { FAST_RETRY, assistant, collect, context, result, user } from './helpers.js';

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('fallback provider', () => {
  it('moves the session to the fallback when the primary still fails after its retries', async () => {
    const primaryServer = await startAnthropicServer(() => ({
      http: { status: 500, type: 'api_error', message: 'Internal server error' },
    }));
    const backupServer = await startOpenAIChatServer([{ text: 'from backup' }, { text: 'still backup' }]);
    servers.push(primaryServer, backupServer);
    const primary = createAnthropicProvider({
      model: 'claude-sonnet-5-5',
      apiKey: 'a-key-1234',
      baseUrl: primaryServer.url,
      retry: { ...FAST_RETRY, maxRetries: 1 },
    });
    const backup = createOpenAIChatProvider({
      model: 'gpt-6.2-sol',
      apiKey: 'o-key-1234',
      baseUrl: backupServer.url,
      retry: FAST_RETRY,
    });
    const provider = createFallbackProvider(primary, backup);
    expect(provider.name).toBe('anthropic');

    const anthropicId = `toolu_${'k'.repeat(58)}`;
    const history = [
      user('fix'),
      assistant([{ type: 'toolCall', id: anthropicId, name: 'read_file', input: { path: 'a' } }]),
      result(anthropicId, 'text of a'),
    ];
    const first = await collect(provider, context(history));
    expect(first.retries).toHaveLength(1);
    const fallback = first.events.find((e) => e.type === 'fallback');
    expect(fallback).toEqual({
      type: 'fallback',
      from: 'anthropic:claude-sonnet-5-5',
      to: 'openai:gpt-6.2-sol',
      reason: expect.stringContaining('500'),
    });
    expect(first.message).toMatchObject({ provider: 'openai', model: 'gpt-6.2-sol', stopReason: 'stop' });
    expect(first.message.content).toEqual([{ type: 'text', text: 'from backup' }]);
    expect(provider.model).toBe('gpt-6.2-sol');
    const sent = backupServer.requests[0]!.body.messages;
    expect(sent[2].tool_calls[0].id.length).toBeLessThanOrEqual(40);
    expect(sent[3].tool_call_id).toBe(sent[2].tool_calls[0].id);

    const second = await collect(provider, context([...history, first.message, user('and?')]));
    expect(second.events.some((e) => e.type === 'fallback')).toBe(false);
    expect(second.message.content).toEqual([{ type: 'text', text: 'still backup' }]);
    expect(primaryServer.requests).toHaveLength(2);
  });

  it('does not fall back on a context-length error or an abort', async () => {
    const primaryServer = await startAnthropicServer([
      {
        http: {
          status: 400,
          type: 'invalid_request_error',
          message: 'prompt is too long: 300000 tokens > 200000 maximum',
        },
      },
      { text: ['partial'], hangAfter: 4 },
    ]);
    const backupServer = await startOpenAIChatServer([]);
    servers.push(primaryServer, backupServer);
    const provider = createFallbackProvider(
      createAnthropicProvider({
        model: 'claude-sonnet-5-5',
        apiKey: 'a-key-1234',
        baseUrl: primaryServer.url,
        retry: FAST_RETRY,
      }),
      createOpenAIChatProvider({
        model: 'gpt-6.2-sol',
        apiKey: 'o-key-1234',
        baseUrl: backupServer.url,
        retry: FAST_RETRY,
      }),
    );
    const long = await collect(provider, context([user('q')]));
    expect(long.message.errorKind).toBe('context_length');

    const controller = new AbortController();
    const aborted = await collect(provider, context([user('q')]), { signal: controller.signal }, (e) => {
      if (e.type === 'text_delta') controller.abort();
    });
    expect(aborted.message.stopReason).toBe('aborted');
    expect([...long.events, ...aborted.events].some((e) => e.type === 'fallback')).toBe(false);
    expect(backupServer.requests).toHaveLength(0);
    expect(provider.name).toBe('anthropic');
  });
});
