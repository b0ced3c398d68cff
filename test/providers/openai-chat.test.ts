import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider, type OpenAIChatConfig } from '../../src/providers/openai-chat.js';
import { chatFrames, startOpenAIChatServer, type ChatScript } from '../fakes/openai-chat-server.js';
import { sseFrame, startSseServer, type FakeProviderServer } from '../fakes/sse.js';
import { FAST_RETRY, assistant, collect, context, result, user } from './helpers.js';

const KEY = 'sk-openai-test-key-0123456789';
let server: FakeProviderServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: ChatScript, extra: Partial<OpenAIChatConfig> = {}) {
  server = await startOpenAIChatServer(script);
  const provider = createOpenAIChatProvider({
    model: 'gpt-6.2-sol',
    apiKey: KEY,
    baseUrl: server.url,
    retry: FAST_RETRY,
    ...extra,
  });
  return { server, provider };
}

describe('openai chat adapter: streaming', () => {
  it('streams text; cached tokens are a part of the prompt tokens, counted once', async () => {
    const { server, provider } = await setup([
      { text: ['Hi', ' there'], usage: { prompt: 1000, completion: 40, cached: 800 } },
    ]);
    const out = await collect(provider, context([user('hello')]), { maxTokens: 512 });
    expect(out.text).toBe('Hi there');
    expect(out.message).toMatchObject({ provider: 'openai', model: 'gpt-6.2-sol', stopReason: 'stop' });
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hi there' }]);
    expect(out.message.usage).toEqual({
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 800,
      cacheWriteTokens: 0,
      costUsd: (200 * 2 + 40 * 10 + 800 * 0.1) / 1e6,
    });
    const req = server.requests[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toMatchObject({
      model: 'gpt-6.2-sol',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 512,
    });
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'You fix code.' },
      { role: 'user', content: 'hello' },
    ]);
    expect(req.body.tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'read_file',
        description: 'Read a file.',
        parameters: expect.objectContaining({ type: 'object' }),
      },
    });
  });

  it('reads several tool calls by index with arguments split mid-string and mid-escape', async () => {
    const { provider } = await setup([
      {
        toolCalls: [
          {
            id: 'call_A',
            name: 'write_file',
            args: ['{"path":"x.', 'md","content":"a\\', 'u00e9\\', 'n\\"b"}'],
          },
          { id: 'call_B', name: 'read_file', args: ['{"path"', ':"y"}'] },
        ],
        usage: { prompt: 10, completion: 5 },
      },
    ]);
    const out = await collect(provider, context([user('go')]));
    expect(out.message.stopReason).toBe('toolUse');
    expect(out.message.content).toEqual([
      { type: 'toolCall', id: 'call_A', name: 'write_file', input: { path: 'x.md', content: 'aé\n"b' } },
      { type: 'toolCall', id: 'call_B', name: 'read_file', input: { path: 'y' } },
    ]);
    expect(
      out.events.filter((e) => e.type === 'toolcall_end').map((e) => (e as { index: number }).index),
    ).toEqual([0, 1]);
    expect(out.events.some((e) => e.type === 'toolcall_delta' && e.partial?.path === 'x.md')).toBe(true);
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'error'],
    ['eos_token', 'stop'],
    ['model_length', 'error'],
    ['some_future_reason', 'error'],
  ])('maps finish_reason %s to %s', async (wire, expected) => {
    const { provider } = await setup([{ text: 'x', finishReason: wire }]);
    const out = await collect(provider, context([user('q')]));
    expect(out.message.stopReason).toBe(expected);
    if (wire === 'content_filter') expect(out.message.errorKind).toBe('refusal');
    if (wire === 'model_length') expect(out.message.errorKind).toBe('context_length');
    if (wire === 'some_future_reason') {
      // an unknown reason is an error that names it, never a success
      expect(out.message.errorKind).toBe('other');
      expect(out.message.errorMessage).toContain('"some_future_reason"');
    }
  });

  it('keeps reasoning_content from compatible servers as thinking and prices nothing for them', async () => {
    const { server, provider } = await setup(
      [{ reasoning: ['hmm ', 'ok'], text: 'answer', usage: { prompt: 5, completion: 5 } }],
      {
        name: 'openai-compatible',
        model: 'gpt-6.2-sol',
      },
    );
    const out = await collect(provider, context([user('q')]), { maxTokens: 100 });
    expect(out.message.provider).toBe('openai-compatible');
    expect(out.message.content).toEqual([
      { type: 'thinking', thinking: 'hmm ok' },
      { type: 'text', text: 'answer' },
    ]);
    expect(out.message.usage.costUsd).toBeUndefined();
    expect(server.requests[0]!.body.max_tokens).toBe(100);
  });

  it('tells calls apart by id when a server numbers them all 0', async () => {
    const frames = (() => {
      const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm' };
      const f = (delta: object, finish: string | null = null) =>
        sseFrame({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
      return [
        f({
          tool_calls: [
            {
              index: 0,
              id: 'first',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path":"a"}' },
            },
          ],
        }),
        f({
          tool_calls: [
            {
              index: 0,
              id: 'second',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path":"b"}' },
            },
          ],
        }),
        f({}, 'tool_calls'),
        sseFrame('[DONE]'),
      ];
    })();
    server = await startSseServer({
      route: () => true,
      notFound: () => ({}),
      reply: () => ({ kind: 'sse', frames }),
    });
    const provider = createOpenAIChatProvider({
      model: 'm',
      apiKey: KEY,
      baseUrl: `${server.url}/v1`,
      name: 'openai-compatible',
    });
    const out = await collect(provider, context([user('q')]));
    expect(out.message.content.map((c) => (c.type === 'toolCall' ? [c.id, c.input] : c.type))).toEqual([
      ['first', { path: 'a' }],
      ['second', { path: 'b' }],
    ]);
  });
});

describe('openai chat adapter: failures and retries', () => {
  it('retries 429 (retry-after-ms), 500 and a cut connection, then succeeds', async () => {
    const { server, provider } = await setup([
      {
        http: {
          status: 429,
          type: 'rate_limit_exceeded',
          message: 'Rate limit reached',
          headers: { 'retry-after-ms': '40' },
        },
      },
      { http: { status: 500, type: 'server_error', message: 'The server had an error' } },
      { text: ['gone', ' soon'], cutAfter: 2 },
      { text: 'fine', usage: { prompt: 1, completion: 1 } },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.retries.map((r) => [r.status, r.errorKind])).toEqual([
      [429, 'rate_limit'],
      [500, 'server'],
      [undefined, 'network'],
    ]);
    expect(out.retries[0]!.delayMs).toBeGreaterThanOrEqual(40);
    expect(out.message.content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(server.requests).toHaveLength(4);
  });

  it('retries a server_error chunk mid-stream', async () => {
    const { provider } = await setup([
      { text: ['a', 'b'], errorChunk: { type: 'server_error', message: 'The model had an error', after: 2 } },
      { text: 'ok' },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.retries.map((r) => r.errorKind)).toEqual(['server']);
    expect(out.message.content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('treats a stream that ends without a finish_reason as cut', async () => {
    const { server, provider } = await setup(() => ({ text: 'half', finishReason: null, noDone: true }), {
      retry: { ...FAST_RETRY, maxRetries: 1 },
    });
    const out = await collect(provider, context([user('q')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('network');
    expect(out.message.content).toEqual([{ type: 'text', text: 'half' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 400 and classifies context_length_exceeded', async () => {
    const bad = await setup([
      { http: { status: 400, type: 'invalid_request_error', message: "Invalid 'tools[0]'" } },
    ]);
    const out = await collect(bad.provider, context([user('q')]));
    expect(out.message.errorKind).toBe('bad_request');
    expect(out.message.errorMessage).toContain("Invalid 'tools[0]'");
    expect(bad.server.requests).toHaveLength(1);
    await bad.server.close();

    const long = await setup([
      {
        http: {
          status: 400,
          type: 'invalid_request_error',
          message: "This model's maximum context length is 1050000 tokens.",
          code: 'context_length_exceeded',
        },
      },
    ]);
    const out2 = await collect(long.provider, context([user('q')]));
    expect(out2.message.errorKind).toBe('context_length');
    expect(long.server.requests).toHaveLength(1);
  });

  it('ends as aborted with the partial text when the signal aborts mid-stream', async () => {
    const { provider } = await setup([{ text: ['one ', 'two ', 'three'], hangAfter: 3 }]);
    const controller = new AbortController();
    const out = await collect(provider, context([user('q')]), { signal: controller.signal }, (e) => {
      if (e.type === 'text_delta' && e.delta === 'two ') controller.abort();
    });
    expect(out.message.stopReason).toBe('aborted');
    expect(out.message.content).toEqual([{ type: 'text', text: 'one two ' }]);
  });
});

describe('openai chat adapter: history', () => {
  it('shortens ids to 40 characters, pairs results, and moves tool images into a user message', async () => {
    const longId = `toolu_${'q'.repeat(60)}`;
    const messages = [
      user('look'),
      assistant(
        [
          { type: 'thinking', thinking: 'secret reasoning', signature: 'sig' },
          { type: 'text', text: 'Reading.' },
          { type: 'toolCall', id: longId, name: 'read_file', input: { path: 'shot.png' } },
          { type: 'toolCall', id: 'short', name: 'read_file', input: '{"path": "broken' },
        ],
        { provider: 'anthropic' },
      ),
      result(longId, '', {
        content: [
          { type: 'text', text: 'PNG image' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      }),
    ];
    const { server, provider } = await setup([{ text: 'seen' }]);
    await collect(provider, context(messages));
    const sent = server.requests[0]!.body.messages;
    const call = sent[2].tool_calls[0];
    expect(sent[2]).toMatchObject({ role: 'assistant', content: 'Reading.' });
    expect(JSON.stringify(sent)).not.toContain('secret reasoning');
    expect(call.id.length).toBeLessThanOrEqual(40);
    expect(call.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(sent[2].tool_calls[1]).toEqual({
      id: 'short',
      type: 'function',
      function: { name: 'read_file', arguments: '{}' },
    });
    expect(sent[3]).toEqual({
      role: 'tool',
      tool_call_id: call.id,
      content: 'PNG image\n(1 image(s) follow in the next user message)',
    });
    expect(sent[4]).toMatchObject({ role: 'tool', tool_call_id: 'short' });
    expect(sent[5]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by the tool calls above:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
  });

  it('sends the frames the fake server documents (a usage chunk with empty choices, then [DONE])', () => {
    const frames = chatFrames({ text: 'x', usage: { prompt: 1, completion: 2, cached: 0 } });
    expect(frames[frames.length - 1]).toBe('data: [DONE]\n\n');
    expect(JSON.parse(frames[frames.length - 2]!.slice(6))).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 1 },
    });
  });
});
