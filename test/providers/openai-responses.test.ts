import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/protocol/types.js';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses.js';
import {
  ResponsesTurn,
  openaiErrorBody,
  startResponsesServer,
  type ResponsesScript,
} from '../fakes/openai-responses-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { FAST_RETRY, assistant, collect, context, result, user } from './helpers.js';

const KEY = 'sk-proj-test-key-0123456789abcdef';
let server: FakeProviderServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  script: ResponsesScript,
  model = 'gpt-test',
  retry: Partial<typeof FAST_RETRY> = FAST_RETRY,
) {
  server = await startResponsesServer(script);
  const provider = createOpenAIResponsesProvider({ model, apiKey: KEY, baseUrl: server.url, retry });
  return { server, provider };
}

const NO_RETRY = { ...FAST_RETRY, maxRetries: 0 };

describe('openai-responses adapter: streaming', () => {
  it('streams text and sends a stateless request with instructions and non-strict tools', async () => {
    const { server, provider } = await setup([
      { events: new ResponsesTurn().text('Hello there', 3).completed({ input: 120, output: 7 }) },
    ]);
    const out = await collect(provider, context([user('hi')]), { maxTokens: 500 });

    expect(out.events[0]).toEqual({ type: 'start', provider: 'openai-responses', model: 'gpt-test' });
    expect(out.events.filter((e) => e.type === 'text_delta')).toHaveLength(3);
    expect(out.text).toBe('Hello there');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(out.message.stopReason).toBe('stop');
    expect(out.message.provider).toBe('openai-responses');
    expect(out.message.usage).toEqual({
      inputTokens: 120,
      outputTokens: 7,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });

    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/responses');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      store: false,
      instructions: 'You fix code.',
    });
    expect(req.body.max_output_tokens).toBe(500);
    expect(req.body.include).toBeUndefined();
    expect(req.body.tools).toEqual([
      {
        type: 'function',
        name: 'read_file',
        description: 'Read a file.',
        parameters: context([]).tools[0]!.parameters,
        strict: false,
      },
    ]);
    expect(req.body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
    ]);
  });

  it('reads several tool calls whose arguments are split mid-string and mid-escape', async () => {
    const args1 = JSON.stringify({ path: 'src/a.ts', content: 'line1\nline2 é "q"\\ \u2028' });
    const args2 = '{"path":"b.ts"}';
    const { provider } = await setup([
      {
        events: new ResponsesTurn()
          .text('Writing.')
          .functionCall('call_A1', 'write_file', args1, 9)
          .functionCall('call_B2', 'read_file', args2, 4)
          .completed(),
      },
    ]);
    const out = await collect(provider, context([user('go')]));

    expect(out.message.stopReason).toBe('toolUse');
    expect(out.message.content).toEqual([
      { type: 'text', text: 'Writing.' },
      { type: 'toolCall', id: 'call_A1', name: 'write_file', input: JSON.parse(args1) },
      { type: 'toolCall', id: 'call_B2', name: 'read_file', input: { path: 'b.ts' } },
    ]);
    const starts = out.events.filter((e) => e.type === 'toolcall_start');
    expect(starts).toEqual([
      { type: 'toolcall_start', index: 0, id: 'call_A1', name: 'write_file' },
      { type: 'toolcall_start', index: 1, id: 'call_B2', name: 'read_file' },
    ]);
    const deltas = out.events.filter((e) => e.type === 'toolcall_delta' && e.index === 0);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((e) => (e as { delta: string }).delta).join('')).toBe(args1);
    expect(out.events.filter((e) => e.type === 'toolcall_end')).toHaveLength(2);
  });

  it('keeps an argument text that is not JSON as the raw string, for the tool runtime to answer', async () => {
    const { provider } = await setup([
      { events: new ResponsesTurn().functionCall('call_1', 'read_file', '{"path": "a.ts"', 3).completed() },
    ]);
    const out = await collect(provider, context([user('go')]));
    expect(out.message.stopReason).toBe('toolUse');
    expect(out.message.content).toEqual([
      { type: 'toolCall', id: 'call_1', name: 'read_file', input: '{"path": "a.ts"' },
    ]);
  });

  it('counts cached tokens once, as cache reads, and prices them', async () => {
    const { provider } = await setup(
      [
        {
          events: new ResponsesTurn('gpt-4.1').text('ok').completed({ input: 1000, cached: 800, output: 50 }),
        },
      ],
      'gpt-4.1',
    );
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.usage).toEqual({
      inputTokens: 200,
      cacheReadTokens: 800,
      outputTokens: 50,
      cacheWriteTokens: 0,
      costUsd: (200 * 2 + 800 * 0.5 + 50 * 8) / 1e6,
    });
  });
});

describe('openai-responses adapter: stop reasons', () => {
  it('maps max_output_tokens to length, keeping the text', async () => {
    const { provider } = await setup([
      { events: new ResponsesTurn().text('Partial answ').incomplete('max_output_tokens') },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('length');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Partial answ' }]);
    expect(out.retries).toHaveLength(0);
  });

  it('maps content_filter to an error of kind refusal, not retried', async () => {
    const { server, provider } = await setup([
      { events: new ResponsesTurn().text('I').incomplete('content_filter') },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('refusal');
    expect(out.message.errorMessage).toMatch(/content filter/);
    expect(server.requests).toHaveLength(1);
  });

  it('maps a refusal part to an error of kind refusal with its text', async () => {
    const turn = new ResponsesTurn()
      .raw({
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'msg_0', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      })
      .raw({
        type: 'response.refusal.delta',
        item_id: 'msg_0',
        output_index: 0,
        content_index: 0,
        delta: "I can't help",
      })
      .raw({
        type: 'response.refusal.delta',
        item_id: 'msg_0',
        output_index: 0,
        content_index: 0,
        delta: ' with that.',
      });
    const { provider } = await setup([{ events: turn.completed() }]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('refusal');
    expect(out.message.errorMessage).toBe("The model refused: I can't help with that.");
  });

  it('maps response.failed to an error with the reason', async () => {
    const { provider } = await setup(
      [{ events: new ResponsesTurn().failed('invalid_prompt', 'The prompt was flagged as invalid.') }],
      'gpt-test',
      NO_RETRY,
    );
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorMessage).toContain('The prompt was flagged as invalid.');
  });

  it('reports a context-length failure distinctly and does not retry it', async () => {
    const { server, provider } = await setup([
      {
        status: 400,
        body: openaiErrorBody(
          'Your input exceeds the context window of this model.',
          'invalid_request_error',
          'context_length_exceeded',
        ),
      },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('context_length');
    expect(server.requests).toHaveLength(1);
  });
});

describe('openai-responses adapter: failures and retries', () => {
  it('retries 429 (honouring retry-after-ms) and 500, then succeeds', async () => {
    const { server, provider } = await setup([
      {
        status: 429,
        body: openaiErrorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
        headers: { 'retry-after-ms': '3' },
      },
      { status: 500, body: openaiErrorBody('The server had an error', 'server_error') },
      { events: new ResponsesTurn().text('Finally').completed() },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries.map((r) => [r.status, r.errorKind])).toEqual([
      [429, 'rate_limit'],
      [500, 'server'],
    ]);
    expect(out.retries[0]!.delayMs).toBeGreaterThanOrEqual(3);
    expect(out.message.stopReason).toBe('stop');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Finally' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 401 and never shows the key', async () => {
    const { server, provider } = await setup([
      {
        status: 401,
        body: openaiErrorBody(
          `Incorrect API key provided: ${KEY}.`,
          'invalid_request_error',
          'invalid_api_key',
        ),
      },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('auth');
    expect(out.message.errorMessage).not.toContain(KEY);
    expect(JSON.stringify(out.events)).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream cut mid-way and streams the answer afresh', async () => {
    const turn = () => new ResponsesTurn().text('Hello world', 4).completed();
    const { server, provider } = await setup([{ events: turn(), cutAfter: 5 }, { events: turn() }]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries).toHaveLength(1);
    expect(out.retries[0]!.errorKind).toBe('network');
    expect(out.text).toBe('Hello world');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hello world' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('ends a cut stream as a network error with the partial text when no retry is left', async () => {
    const { provider } = await setup(
      [{ events: new ResponsesTurn().text('Hello world', 4).completed(), cutAfter: 5 }],
      'gpt-test',
      NO_RETRY,
    );
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('network');
    // Frames sent: created, in_progress, item added, part added, then the first delta only.
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hel' }]);
  });

  it('turns an error event mid-stream into a failure that is retried', async () => {
    const { server, provider } = await setup([
      {
        events: new ResponsesTurn()
          .text('Start')
          .raw({
            type: 'error',
            code: 'server_error',
            message: 'The server had an error while processing your request.',
            param: null,
          })
          .partial(),
      },
      { events: new ResponsesTurn().text('Again').completed() },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries).toHaveLength(1);
    expect(out.retries[0]!.errorKind).toBe('server');
    expect(out.retries[0]!.message).toContain('The server had an error');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Again' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries an error event that carries no code as a server failure', async () => {
    const { server, provider } = await setup([
      {
        events: new ResponsesTurn()
          .raw({
            type: 'error',
            code: null,
            message: 'An error occurred while processing your request.',
            param: null,
          })
          .partial(),
      },
      { events: new ResponsesTurn().text('ok').completed() },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries.map((r) => r.errorKind)).toEqual(['server']);
    expect(out.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('ends with the error event when no retry is left', async () => {
    const { provider } = await setup(
      [
        {
          events: new ResponsesTurn()
            .text('Start')
            .raw({ type: 'error', code: 'server_error', message: 'Upstream failed.', param: null })
            .partial(),
        },
      ],
      'gpt-test',
      NO_RETRY,
    );
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorMessage).toBe('Upstream failed.');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Start' }]);
  });

  it('aborts mid-stream, keeping the partial content', async () => {
    const { server, provider } = await setup([
      {
        events: new ResponsesTurn()
          .text('Partial text', 2)
          .functionCall('call_1', 'read_file', '{"path":"x"}')
          .completed(),
        hangAfter: 6,
      },
    ]);
    const controller = new AbortController();
    const out = await collect(provider, context([user('hi')]), { signal: controller.signal }, (e) => {
      if (e.type === 'text_delta' && e.delta === 'l text') controller.abort();
    });
    expect(out.message.stopReason).toBe('aborted');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Partial text' }]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('openai-responses adapter: history', () => {
  const LONG_A = `toolu_|${'a'.repeat(300)}|${'x'.repeat(143)}`;
  const LONG_B = `toolu_|${'a'.repeat(300)}|${'y'.repeat(143)}`;
  const PNG = 'iVBORw0KGgo=';

  function crossProviderHistory(): Message[] {
    return [
      user('fix it'),
      assistant([
        { type: 'thinking', thinking: 'The bug is in a.ts.', signature: 'anthropic-signature' },
        { type: 'text', text: 'Reading both.' },
        { type: 'toolCall', id: LONG_A, name: 'read_file', input: { path: 'a.ts' } },
        { type: 'toolCall', id: LONG_B, name: 'read_file', input: { path: 'logo.png' } },
        { type: 'toolCall', id: 'orphan|1', name: 'read_file', input: { path: 'c.ts' } },
      ]),
      result(LONG_A, 'export const a = 1;'),
      {
        role: 'toolResult',
        toolCallId: LONG_B,
        toolName: 'read_file',
        content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
        isError: false,
        timestamp: 3,
      },
      user('continue'),
    ];
  }

  it('accepts a history from another provider: ids rewritten and paired, thinking as text, images after the outputs', async () => {
    const { server, provider } = await setup([{ events: new ResponsesTurn().text('Done.').completed() }]);
    const history = crossProviderHistory();
    const snapshot = JSON.stringify(history);
    const out = await collect(provider, context(history));
    expect(out.message.stopReason).toBe('stop');
    expect(JSON.stringify(history)).toBe(snapshot);

    const input = server.requests[0]!.body.input as Record<string, unknown>[];
    const calls = input.filter((i) => i.type === 'function_call');
    const outputs = input.filter((i) => i.type === 'function_call_output');
    expect(calls).toHaveLength(3);
    expect(outputs).toHaveLength(3);
    for (const c of calls) expect(c.call_id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(calls.map((c) => c.call_id)).size).toBe(3);
    expect(outputs.map((o) => o.call_id)).toEqual(calls.map((c) => c.call_id));
    expect(outputs[0]!.output).toBe('export const a = 1;');
    expect(outputs[2]!.output).toMatch(/not run/i);
    expect(input.some((i) => i.type === 'reasoning')).toBe(false);

    expect(input.map((i) => `${i.type}:${String(i.role ?? '')}`)).toEqual([
      'message:user',
      'message:assistant',
      'message:assistant',
      'function_call:',
      'function_call:',
      'function_call:',
      'function_call_output:',
      'function_call_output:',
      'function_call_output:',
      'message:user',
      'message:user',
    ]);
    expect(input[1]!.content).toBe('The bug is in a.ts.');
    expect(input[2]!.content).toBe('Reading both.');
    expect(input[9]!.content).toEqual([
      { type: 'input_text', text: `Image output of the read_file call ${String(calls[1]!.call_id)}:` },
      { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PNG}` },
    ]);
    expect(input[10]!.content).toEqual([{ type: 'input_text', text: 'continue' }]);
  });

  it('sends its own encrypted reasoning back to the same model only, and asks reasoning models for it', async () => {
    const turn = new ResponsesTurn('gpt-5')
      .reasoning({ summary: 'Check a.ts first.', encrypted: 'gAAAA-encrypted' })
      .functionCall('call_r1', 'read_file', '{"path":"a.ts"}')
      .completed({ input: 10, output: 40, reasoning: 30 });
    const ok = () => ({ events: new ResponsesTurn('gpt-5').text('ok').completed() });
    const { server, provider } = await setup([{ events: turn }, ok(), ok()], 'gpt-5');
    const first = await collect(provider, context([user('go')]));
    expect(server.requests[0]!.body.include).toEqual(['reasoning.encrypted_content']);
    expect(first.message.content[0]).toMatchObject({ type: 'thinking', thinking: 'Check a.ts first.' });
    expect(first.events.some((e) => e.type === 'thinking_delta')).toBe(true);
    expect(first.message.usage.outputTokens).toBe(40);

    const history: Message[] = [user('go'), first.message, result('call_r1', 'a')];
    await collect(provider, context(history));
    const input = server.requests[1]!.body.input as Record<string, unknown>[];
    expect(input[1]).toEqual({
      type: 'reasoning',
      id: 'rs_0',
      summary: [{ type: 'summary_text', text: 'Check a.ts first.' }],
      encrypted_content: 'gAAAA-encrypted',
    });
    expect(input[2]).toMatchObject({ type: 'function_call', call_id: 'call_r1' });

    // The same turn read by another model: the reasoning goes as text, never as an item.
    const other = createOpenAIResponsesProvider({
      model: 'o3',
      apiKey: KEY,
      baseUrl: server.url,
      retry: FAST_RETRY,
    });
    await collect(other, context(history));
    const otherInput = server.requests[2]!.body.input as Record<string, unknown>[];
    expect(otherInput.some((i) => i.type === 'reasoning')).toBe(false);
    expect(otherInput[1]).toEqual({ type: 'message', role: 'assistant', content: 'Check a.ts first.' });
  });
});

describe('openai-responses adapter: replayed items', () => {
  it('sends its own items back with their ids, so a reasoning item pairs with its call', async () => {
    const first = new ResponsesTurn('gpt-5', 'resp_t1')
      .reasoning({ summary: 'Read a.ts.', encrypted: 'gAAAA-1' })
      .functionCall('call_1', 'read_file', '{"path":"a.ts"}')
      .completed();
    const second = new ResponsesTurn('gpt-5', 'resp_t2')
      .reasoning({ encrypted: 'gAAAA-2' })
      .text('a.ts holds the bug.')
      .completed();
    const { server: fake, provider } = await setup(
      [
        { events: first },
        { events: second },
        { events: new ResponsesTurn('gpt-5', 'resp_t3').text('ok').completed() },
      ],
      'gpt-5',
    );
    const one = await collect(provider, context([user('go')]));
    expect(one.message.content[1]).toMatchObject({ type: 'toolCall', id: 'call_1', itemId: 'fc_1_t1' });
    const two = await collect(provider, context([user('go'), one.message, result('call_1', 'x')]));
    expect(two.message.stopReason).toBe('stop');
    expect(two.message.content[1]).toMatchObject({ type: 'text', itemId: 'msg_1_t2' });

    await collect(
      provider,
      context([user('go'), one.message, result('call_1', 'x'), two.message, user('and?')]),
    );
    const input = fake.requests[2]!.body.input as Record<string, unknown>[];
    expect(input.map((i) => `${String(i.type)}:${String(i.id ?? '')}`)).toEqual([
      'message:',
      'reasoning:rs_0_t1',
      'function_call:fc_1_t1',
      'function_call_output:',
      'reasoning:rs_0_t2',
      'message:msg_1_t2',
      'message:',
    ]);
    expect(input[5]).toEqual({
      type: 'message',
      role: 'assistant',
      id: 'msg_1_t2',
      status: 'completed',
      content: [{ type: 'output_text', text: 'a.ts holds the bug.', annotations: [] }],
    });

    // Another model gets the turn without ids (and without the reasoning items).
    const otherFake = await startResponsesServer([
      { events: new ResponsesTurn('o3').text('ok').completed() },
    ]);
    const other = createOpenAIResponsesProvider({
      model: 'o3',
      apiKey: KEY,
      baseUrl: otherFake.url,
      retry: NO_RETRY,
    });
    await collect(other, context([user('go'), one.message, result('call_1', 'x')]));
    const foreign = otherFake.requests[0]!.body.input as Record<string, unknown>[];
    await otherFake.close();
    expect(foreign.find((i) => i.type === 'function_call')).not.toHaveProperty('id');
  });

  it('sends a call whose arguments never parsed back as {}, as the other adapters do', async () => {
    const { server, provider } = await setup([{ events: new ResponsesTurn().text('ok').completed() }]);
    const broken = assistant(
      [{ type: 'toolCall', id: 'call_x', name: 'read_file', input: '{"path": "a.ts' }],
      {
        provider: 'openai-responses',
        model: 'gpt-test',
      },
    );
    await collect(
      provider,
      context([user('go'), broken, result('call_x', 'invalid JSON', { isError: true })]),
    );
    const input = server.requests[0]!.body.input as Record<string, unknown>[];
    expect(input[1]).toMatchObject({ type: 'function_call', call_id: 'call_x', arguments: '{}' });
  });
});
