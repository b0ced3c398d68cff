import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { createFallbackProvider } from '../../src/providers/fallback.js';
import { createOpenAIChatProvider } from '../../src/providers/openai-chat.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { startOpenAIChatServer } from '../fakes/openai-chat-server.js';
import { pngOf } from '../fakes/png.js';
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

  it('gives a fallback model without image input a note for every image, the history unchanged', async () => {
    const primaryServer = await startAnthropicServer(() => ({
      http: { status: 500, type: 'api_error', message: 'Internal server error' },
    }));
    const backupServer = await startOpenAIChatServer([{ text: 'read the text only' }]);
    servers.push(primaryServer, backupServer);
    const provider = createFallbackProvider(
      createAnthropicProvider({
        model: 'claude-sonnet-5-5',
        apiKey: 'a-key-1234',
        baseUrl: primaryServer.url,
        retry: { ...FAST_RETRY, maxRetries: 0 },
      }),
      createOpenAIChatProvider({
        name: 'openai-compatible',
        model: 'local-text-model',
        apiKey: 'o-key-1234',
        baseUrl: backupServer.url,
        retry: FAST_RETRY,
      }),
    );
    const shown = pngOf(8, 8, 3).toString('base64');
    const read = pngOf(8, 8, 4).toString('base64');
    const history = [
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'It looks like this: [image 1]' },
          { type: 'image' as const, data: shown, mimeType: 'image/png' },
        ],
        timestamp: 1,
      },
      assistant([{ type: 'toolCall', id: 'toolu_1', name: 'read_file', input: { path: 'shot.png' } }]),
      result('toolu_1', '', {
        content: [
          { type: 'text', text: 'PNG image' },
          { type: 'image', data: read, mimeType: 'image/png' },
        ],
      }),
    ];
    const before = structuredClone(history);
    const out = await collect(provider, context(history));
    expect(out.events.some((e) => e.type === 'fallback')).toBe(true);
    expect(out.message).toMatchObject({ provider: 'openai-compatible', stopReason: 'stop' });

    // The primary was sent both images.
    const primaryRaw = primaryServer.requests[0]!.raw;
    expect(primaryRaw).toContain(shown);
    expect(primaryRaw).toContain(read);

    // The fallback gets a note in place of each, after the text they followed.
    const backup = backupServer.requests[0]!;
    expect(backup.raw).not.toContain('image_url');
    expect(backup.raw).not.toContain(shown);
    expect(backup.raw).not.toContain(read);
    const note =
      '[An image (image/png) was left out: the model in use (openai-compatible) does not take images.]';
    const messages = backup.body.messages as { role: string; content: unknown }[];
    expect(messages[1]).toEqual({ role: 'user', content: `It looks like this: [image 1]\n${note}` });
    expect(messages.find((m) => m.role === 'tool')!.content).toBe(`PNG image\n${note}`);
    expect(history).toEqual(before);
  });
});
