import { afterEach, describe, expect, it } from 'vitest';
import { argumentPiece, createAnthropicProvider } from '../../src/providers/anthropic.js';
import { startAnthropicServer, type AnthropicScript } from '../fakes/anthropic-server.js';
import { sseFrame, startSseServer, type FakeProviderServer } from '../fakes/sse.js';
import { FAST_RETRY, assistant, collect, context, result, user } from './helpers.js';

const KEY = 'sk-ant-test-key-0123456789';
let server: FakeProviderServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: AnthropicScript, model = 'claude-sonnet-5-5', retry = FAST_RETRY) {
  server = await startAnthropicServer(script);
  const provider = createAnthropicProvider({ model, apiKey: KEY, baseUrl: server.url, retry });
  return { server, provider };
}

describe('anthropic adapter: streaming', () => {
  it('streams text and prices the usage, sending cache breakpoints on tools, system and the last user turn', async () => {
    const { server, provider } = await setup([
      { text: ['Hel', 'lo ', 'there'], usage: { input: 100, output: 50, cacheRead: 1000, cacheWrite: 200 } },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.events[0]).toEqual({ type: 'start', provider: 'anthropic', model: 'claude-sonnet-5-5' });
    expect(
      out.events.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta),
    ).toEqual(['Hel', 'lo ', 'there']);
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(out.message.stopReason).toBe('stop');
    expect(out.message.usage).toEqual({
      inputTokens: 100,
      outputTokens: 50,
      cacheReadTokens: 1000,
      cacheWriteTokens: 200,
      costUsd: (100 * 2 + 50 * 10 + 1000 * 0.2 + 200 * 2.5) / 1e6,
    });

    const req = server.requests[0]!;
    expect([req.headers['x-api-key'], req.headers.authorization]).toContain(
      req.headers['x-api-key'] === undefined ? `Bearer ${KEY}` : KEY,
    );
    expect(req.body.stream).toBe(true);
    expect(req.body.model).toBe('claude-sonnet-5-5');
    expect(req.body.max_tokens).toBeGreaterThan(0);
    expect(req.body.system).toEqual([
      { type: 'text', text: 'You fix code.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(req.body.tools[0]).toMatchObject({ name: 'read_file', cache_control: { type: 'ephemeral' } });
    expect(req.body.tools[0].input_schema.required).toEqual(['path']);
    expect(req.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('reads one and several tool calls whose arguments are split mid-string and mid-escape', async () => {
    const { provider } = await setup([
      {
        text: 'Writing.',
        toolCalls: [
          {
            id: 'toolu_01',
            name: 'write_file',
            json: [
              '{"pa',
              'th": "src/a',
              '.ts", "content": "line1\\',
              'nline2 \\u00',
              'e9 \\"q\\',
              '"\\\\"}',
            ],
          },
          { id: 'toolu_02', name: 'read_file', json: ['', '{"path":', ' "b.ts"}'] },
        ],
        usage: { input: 10, output: 20 },
      },
    ]);
    const out = await collect(provider, context([user('go')]));
    expect(out.message.stopReason).toBe('toolUse');
    expect(out.message.content).toEqual([
      { type: 'text', text: 'Writing.' },
      {
        type: 'toolCall',
        id: 'toolu_01',
        name: 'write_file',
        input: { path: 'src/a.ts', content: 'line1\nline2 é "q"\\' },
      },
      { type: 'toolCall', id: 'toolu_02', name: 'read_file', input: { path: 'b.ts' } },
    ]);
    const types = out.events.map((e) => e.type);
    expect(types.filter((t) => t === 'toolcall_start')).toHaveLength(2);
    expect(types.filter((t) => t === 'toolcall_end')).toHaveLength(2);
    // Argument deltas that arrive in one chunk reach the builder joined; together they are the text.
    const deltas = out.events.filter((e) => e.type === 'toolcall_delta' && e.index === 0);
    expect(deltas.map((e) => (e as { delta: string }).delta).join('')).toBe(
      '{"path": "src/a.ts", "content": "line1\\nline2 \\u00e9 \\"q\\"\\\\"}',
    );
    const withPath = out.events.find((e) => e.type === 'toolcall_delta' && e.partial?.path === 'src/a.ts');
    expect(withPath).toMatchObject({ index: 0 });
    // the path is known before the content has finished streaming
    expect(out.events.indexOf(withPath!)).toBeLessThan(
      out.events.findIndex((e) => e.type === 'toolcall_end' && e.index === 0),
    );
  });

  it('keeps thinking with its signature and sends it back; redacted thinking goes back as it came', async () => {
    const { server, provider } = await setup([
      {
        blocks: [
          { type: 'thinking', thinking: ['Let me ', 'think.'], signature: 'sig-abc' },
          { type: 'redacted_thinking', data: 'opaque-data' },
          { type: 'text', text: 'Done thinking.' },
        ],
      },
      { text: 'ok' },
    ]);
    const first = await collect(provider, context([user('q')]));
    expect(first.message.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
      { type: 'thinking', thinking: 'opaque-data', redacted: true },
      { type: 'text', text: 'Done thinking.' },
    ]);
    expect(first.events.filter((e) => e.type === 'thinking_delta')).toHaveLength(2);
    await collect(provider, context([user('q'), first.message, user('next')]));
    expect(server.requests[1]!.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
        { type: 'redacted_thinking', data: 'opaque-data' },
        { type: 'text', text: 'Done thinking.' },
      ],
    });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'error'],
    ['refusal', 'error'],
    ['some_future_reason', 'error'],
  ])('maps stop reason %s to %s', async (wire, expected) => {
    const { provider } = await setup([{ text: 'x', stopReason: wire }]);
    const out = await collect(provider, context([user('q')]));
    expect(out.message.stopReason).toBe(expected);
    if (wire === 'refusal') {
      expect(out.message.errorKind).toBe('refusal');
      expect(out.message.errorMessage).toMatch(/refusal/);
    }
    if (wire === 'model_context_window_exceeded') {
      // the context is full, not the output: the loop compacts on this kind
      expect(out.message.errorKind).toBe('context_length');
      expect(out.message.errorMessage).toContain('model_context_window_exceeded');
    }
    if (wire === 'some_future_reason') {
      // an unknown reason is an error that names it, never a success
      expect(out.message.errorKind).toBe('other');
      expect(out.message.errorMessage).toContain('"some_future_reason"');
    }
  });

  it('maps tool_use to toolUse', async () => {
    const { provider } = await setup([
      { toolCalls: [{ id: 't1', name: 'read_file', json: '{"path":"a"}' }] },
    ]);
    expect((await collect(provider, context([user('q')]))).message.stopReason).toBe('toolUse');
  });
});

describe('anthropic adapter: failures and retries', () => {
  it('retries a 429 after the retry-after it was given, then a 500 and a 529, then succeeds', async () => {
    const { server, provider } = await setup([
      {
        http: {
          status: 429,
          type: 'rate_limit_error',
          message: 'slow down',
          headers: { 'retry-after': '0.05' },
        },
      },
      { http: { status: 500, type: 'api_error', message: 'boom' } },
      { http: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'finally' },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.message.stopReason).toBe('stop');
    expect(out.message.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(out.retries.map((r) => [r.attempt, r.status, r.errorKind])).toEqual([
      [1, 429, 'rate_limit'],
      [2, 500, 'server'],
      [3, 529, 'overloaded'],
    ]);
    expect(out.retries[0]!.delayMs).toBeGreaterThanOrEqual(50);
    expect(out.retries[1]!.delayMs).toBeLessThanOrEqual(FAST_RETRY.maxDelayMs);
    expect(server.requests).toHaveLength(4);
    // every attempt sends the same request
    expect(new Set(server.requests.map((r) => r.raw)).size).toBe(1);
  });

  it('retries a connection cut mid-stream and keeps only the successful attempt', async () => {
    const { server, provider } = await setup([
      { text: ['par', 'tial', ' more'], cutAfter: 4 },
      { text: 'whole' },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.retries).toHaveLength(1);
    expect(out.retries[0]!.errorKind).toBe('network');
    expect(out.events.some((e) => e.type === 'text_delta' && e.delta === 'par')).toBe(true);
    expect(out.message.content).toEqual([{ type: 'text', text: 'whole' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries an overloaded_error event inside the stream', async () => {
    const { provider } = await setup([
      { text: ['a', 'b'], errorEvent: { type: 'overloaded_error', message: 'Overloaded', after: 4 } },
      { text: 'recovered' },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.retries.map((r) => r.errorKind)).toEqual(['overloaded']);
    expect(out.retries[0]!.message).toMatch(/Overloaded/);
    expect(out.message.content).toEqual([{ type: 'text', text: 'recovered' }]);
  });

  it('ends in error with the partial content when an error event is not retryable', async () => {
    const { server, provider } = await setup([
      {
        text: ['kept ', 'part'],
        errorEvent: { type: 'invalid_request_error', message: 'bad thing', after: 5 },
      },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('bad_request');
    expect(out.message.errorMessage).toMatch(/bad thing/);
    expect(out.message.content).toEqual([{ type: 'text', text: 'kept part' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 400, and never puts the key in the message', async () => {
    const { server, provider } = await setup([
      { http: { status: 400, type: 'invalid_request_error', message: `tools.0: bad schema for ${KEY}` } },
      { text: 'never' },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.retries).toHaveLength(0);
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('bad_request');
    expect(out.message.errorMessage).toMatch(/400.*bad schema/);
    expect(out.message.errorMessage).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('classifies a context-length error so the loop can compact, without retrying', async () => {
    const { server, provider } = await setup([
      {
        http: {
          status: 400,
          type: 'invalid_request_error',
          message: 'prompt is too long: 210000 tokens > 200000 maximum',
        },
      },
    ]);
    const out = await collect(provider, context([user('q')]));
    expect(out.message.errorKind).toBe('context_length');
    expect(out.message.stopReason).toBe('error');
    expect(server.requests).toHaveLength(1);
  });

  it('classifies a 401 as auth and gives up once the retries are spent on 500s', async () => {
    const auth = await setup([
      { http: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
    ]);
    expect((await collect(auth.provider, context([user('q')]))).message.errorKind).toBe('auth');
    await auth.server.close();

    const { server, provider } = await setup(
      () => ({ http: { status: 500, type: 'api_error', message: 'down' } }),
      undefined,
      {
        ...FAST_RETRY,
        maxRetries: 2,
      },
    );
    const out = await collect(provider, context([user('q')]));
    expect(out.retries).toHaveLength(2);
    expect(out.message.errorKind).toBe('server');
    expect(server.requests).toHaveLength(3);
  });

  it('ends as aborted with the partial content when the signal aborts mid-stream', async () => {
    const { server, provider } = await setup([{ text: ['first ', 'second', 'third'], hangAfter: 5 }]);
    const controller = new AbortController();
    const out = await collect(provider, context([user('q')]), { signal: controller.signal }, (e) => {
      if (e.type === 'text_delta' && e.delta === 'second') controller.abort();
    });
    expect(out.message.stopReason).toBe('aborted');
    expect(out.message.content).toEqual([{ type: 'text', text: 'first second' }]);
    expect(out.retries).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up a hung connection after the read timeout and retries it', async () => {
    const { server, provider } = await setup(
      [{ text: ['stuck ', 'here'], hangAfter: 3 }, { text: 'answered' }],
      'claude-sonnet-5-5',
      { ...FAST_RETRY, idleTimeoutMs: 300 },
    );
    const out = await collect(provider, context([user('q')]));
    expect(out.retries).toHaveLength(1);
    expect(out.retries[0]).toMatchObject({
      errorKind: 'network',
      message: expect.stringContaining('no data from the provider'),
    });
    expect(out.message).toMatchObject({ stopReason: 'stop', content: [{ type: 'text', text: 'answered' }] });
    expect(server.requests).toHaveLength(2);
  });

  it('ends as aborted without a request when the signal is already aborted', async () => {
    const { server, provider } = await setup([{ text: 'x' }]);
    const out = await collect(provider, context([user('q')]), { signal: AbortSignal.abort() });
    expect(out.message.stopReason).toBe('aborted');
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });

  it('stops waiting between retries when aborted', async () => {
    const { server, provider } = await setup(
      () => ({
        http: { status: 429, type: 'rate_limit_error', message: 'wait', headers: { 'retry-after': '30' } },
      }),
      undefined,
      { ...FAST_RETRY, maxTotalMs: 120_000 },
    );
    const controller = new AbortController();
    const out = await collect(provider, context([user('q')]), { signal: controller.signal }, (e) => {
      if (e.type === 'retry') controller.abort();
    });
    expect(out.retries[0]!.delayMs).toBe(30_000);
    expect(out.message.stopReason).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});

describe('anthropic adapter: history', () => {
  it('continues a foreign session: a 450-character id with | becomes a valid id, paired with its result', async () => {
    const longId = `call_${'x'.repeat(100)}|fc_${'y'.repeat(341)}`;
    expect(longId).toHaveLength(450);
    const sibling = `${longId.slice(0, 100)}${'z'.repeat(350)}`; // shares the first 100 characters
    const messages = [
      user('fix it'),
      assistant(
        [
          { type: 'thinking', thinking: 'reasoning from elsewhere' },
          { type: 'toolCall', id: longId, name: 'read_file', input: { path: 'a.ts' } },
          { type: 'toolCall', id: sibling, name: 'read_file', input: { path: 'b.ts' } },
        ],
        { provider: 'openai-responses', model: 'gpt-5' },
      ),
      result(longId, 'content of a'),
      result(sibling, 'content of b'),
    ];
    const before = JSON.stringify(messages);
    const { server, provider } = await setup([{ text: 'ok' }]);
    const out = await collect(provider, context(messages));
    expect(out.message.stopReason).toBe('stop');
    expect(JSON.stringify(messages)).toBe(before);

    const sent = server.requests[0]!.body.messages;
    const uses = sent[1].content.filter((b: { type: string }) => b.type === 'tool_use');
    const results = sent[2].content.filter((b: { type: string }) => b.type === 'tool_result');
    expect(sent[1].content[0]).toEqual({ type: 'text', text: 'reasoning from elsewhere' });
    expect(uses).toHaveLength(2);
    for (const u of uses) expect(u.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(uses[0].id).not.toBe(uses[1].id);
    expect(results.map((r: { tool_use_id: string }) => r.tool_use_id)).toEqual(
      uses.map((u: { id: string }) => u.id),
    );
    expect(results[0].content).toEqual([{ type: 'text', text: 'content of a' }]);
    expect(results[1].content).toEqual([{ type: 'text', text: 'content of b' }]);
  });

  it('keeps two ids that differ only after character 64 distinct', async () => {
    const base = 'a'.repeat(64);
    const [id1, id2] = [`${base}-one`, `${base}-two`];
    const messages = [
      user('q'),
      assistant([
        { type: 'toolCall', id: id1, name: 'read_file', input: { path: '1' } },
        { type: 'toolCall', id: id2, name: 'read_file', input: { path: '2' } },
      ]),
      result(id2, 'two'),
      result(id1, 'one'),
    ];
    const { server, provider } = await setup([{ text: 'ok' }]);
    await collect(provider, context(messages));
    const sent = server.requests[0]!.body.messages;
    const [u1, u2] = sent[1].content;
    expect(u1.id).not.toBe(u2.id);
    expect(u1.id.length).toBeLessThanOrEqual(64);
    // results are sent in call order, each with its own call's id
    expect(
      sent[2].content.map((r: { tool_use_id: string; content: { text: string }[] }) => [
        r.tool_use_id,
        r.content[0]!.text,
      ]),
    ).toEqual([
      [u1.id, 'one'],
      [u2.id, 'two'],
    ]);
    expect((messages[1] as { content: { id: string }[] }).content.map((c) => c.id)).toEqual([id1, id2]);
  });

  it('closes orphaned calls, drops the calls of failed turns with their results, sends tool images', async () => {
    const messages = [
      user('q'),
      assistant([{ type: 'toolCall', id: 'orphan', name: 'read_file', input: { path: 'x' } }]),
      user('continue'),
      assistant(
        [
          { type: 'text', text: 'I was about to' },
          { type: 'toolCall', id: 'cut', name: 'write_file', input: '{"path": "a' },
        ],
        { stopReason: 'aborted' },
      ),
      result('cut', 'Tool call not run: aborted', { isError: true }),
      user('again'),
      assistant([{ type: 'toolCall', id: 'img', name: 'read_file', input: { path: 'p.png' } }]),
      result('img', '', {
        content: [
          { type: 'text', text: 'an image' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      }),
    ];
    const { server, provider } = await setup([{ text: 'ok' }]);
    await collect(provider, context(messages));
    const sent = server.requests[0]!.body.messages;
    expect(sent.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(sent[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'orphan', is_error: true });
    expect(sent[2].content[1]).toEqual({ type: 'text', text: 'continue' });
    expect(sent[3].content).toEqual([{ type: 'text', text: 'I was about to' }]);
    expect(JSON.stringify(sent)).not.toContain('"cut"');
    expect(sent[6].content[0].content).toEqual([
      { type: 'text', text: 'an image' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    // the two newest user turns carry the conversation's cache breakpoints
    const marked = sent.filter((m: { content: { cache_control?: unknown }[] }) =>
      m.content.some((b) => b.cache_control !== undefined),
    );
    expect(marked).toEqual([sent[4], sent[6]]);
  });
});

describe('anthropic adapter: thinking from another model', () => {
  it('sends signed thinking of another Claude model as plain text and drops its redacted blocks', async () => {
    const messages = [
      user('q'),
      assistant(
        [
          { type: 'thinking', thinking: 'older reasoning', signature: 'sig-old' },
          { type: 'thinking', thinking: 'opaque', redacted: true },
          { type: 'text', text: 'answer' },
        ],
        { model: 'claude-opus-4-8' },
      ),
      user('next'),
    ];
    const { server, provider } = await setup([{ text: 'ok' }]);
    await collect(provider, context(messages));
    expect(server.requests[0]!.body.messages[1].content).toEqual([
      { type: 'text', text: 'older reasoning' },
      { type: 'text', text: 'answer' },
    ]);
  });
});

describe('anthropic adapter: a request without tools', () => {
  it('sends earlier tool calls and results as text, since tool blocks need tool definitions', async () => {
    const messages = [
      user('q'),
      assistant([{ type: 'toolCall', id: 't1', name: 'read_file', input: { path: 'a' } }]),
      result('t1', 'file text'),
      user('summarise'),
    ];
    const { server, provider } = await setup([{ text: 'summary' }]);
    await collect(provider, context(messages, { tools: [] }));
    const body = server.requests[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(JSON.stringify(body.messages)).not.toMatch(/tool_use|tool_result/);
    expect(body.messages[1].content).toEqual([
      { type: 'text', text: 'Tool call t1: read_file {"path":"a"}' },
    ]);
    expect(body.messages[2].content.map((b: { text: string }) => b.text)).toEqual([
      'Result of tool call t1:',
      'file text',
      'summarise',
    ]);
  });
});

describe('anthropic adapter: argument deltas decoded a run at a time', () => {
  const frame = (partial: string) =>
    `{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":${partial}}}`;

  it('takes the raw string body of an argument delta only in the exact shape the API writes', () => {
    expect(argumentPiece(frame(JSON.stringify('{"a": "x\\ty')))).toEqual({
      index: 3,
      raw: JSON.stringify('{"a": "x\\ty').slice(1, -1),
    });
    expect(argumentPiece(frame('"ends in \\\\\\\\"'))).toEqual({ index: 3, raw: 'ends in \\\\\\\\' });
    // an escape cut short at the end is left to JSON.parse, frame by frame
    expect(argumentPiece(frame('"kept \\\\u00"'))).toEqual({ index: 3, raw: 'kept \\\\u00' });
    expect(argumentPiece(frame('"cut \\u00"'))).toBeUndefined();
    expect(argumentPiece(frame('"odd \\"'))).toBeUndefined();
    // another key order, another key, another delta type
    expect(
      argumentPiece(
        '{"index":3,"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"x"}}',
      ),
    ).toBeUndefined();
    expect(argumentPiece(frame('"x","extra":1'))).toBeUndefined();
    expect(
      argumentPiece('{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"x"}}'),
    ).toBeUndefined();
  });

  it('reads a long argument in 16-byte deltas, escapes and all, as the same text', async () => {
    const content = 'const s = "tab\\tquote\\" é \u{1F600}";\n'.repeat(400);
    const json = JSON.stringify({ path: 'big.js', content });
    const pieces = Array.from({ length: Math.ceil(json.length / 16) }, (_, i) =>
      json.slice(i * 16, i * 16 + 16),
    );
    const { provider } = await setup([
      { toolCalls: [{ id: 'toolu_big', name: 'write_file', json: pieces }], usage: { input: 1, output: 1 } },
    ]);
    const out = await collect(provider, context([user('go')]));
    expect(out.message.content).toEqual([
      { type: 'toolCall', id: 'toolu_big', name: 'write_file', input: { path: 'big.js', content } },
    ]);
  });

  it('fails the turn on a malformed delta among well-formed ones, as a frame parsed alone would', async () => {
    server = await startSseServer({
      route: (method, path) => method === 'POST' && path === '/v1/messages',
      notFound: () => ({}),
      reply: () => ({
        kind: 'sse',
        frames: [
          sseFrame(
            {
              type: 'message_start',
              message: {
                id: 'msg_1',
                type: 'message',
                role: 'assistant',
                model: 'claude-sonnet-5-5',
                content: [],
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: 1, output_tokens: 1 },
              },
            },
            'message_start',
          ),
          sseFrame(
            {
              type: 'content_block_start',
              index: 0,
              content_block: { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} },
            },
            'content_block_start',
          ),
          sseFrame(frame('"{\\"path\\": "'), 'content_block_delta'),
          // a raw newline inside a JSON string: not valid JSON
          `event: content_block_delta\ndata: ${frame('"\\"a\u0001b\\"}"')}\n\n`,
          sseFrame({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
          sseFrame(
            { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 1 } },
            'message_delta',
          ),
          sseFrame({ type: 'message_stop' }, 'message_stop'),
        ],
      }),
    });
    const provider = createAnthropicProvider({
      model: 'claude-sonnet-5-5',
      apiKey: KEY,
      baseUrl: server.url,
      retry: { ...FAST_RETRY, maxRetries: 0 },
    });
    const out = await collect(provider, context([user('go')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorMessage).toMatch(/JSON/);
  });
});
