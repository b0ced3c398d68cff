import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/protocol/types.js';
import { createGoogleProvider } from '../../src/providers/google.js';
import {
  chunk,
  googleErrorBody,
  part,
  promptBlocked,
  startGoogleServer,
  type GoogleScript,
} from '../fakes/google-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { FAST_RETRY, assistant, collect, context, result, user } from './helpers.js';

const KEY = 'AIza-test-key-0123456789abcdef';
let server: FakeProviderServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  script: GoogleScript,
  model = 'gemini-test',
  retry: Partial<typeof FAST_RETRY> = FAST_RETRY,
) {
  server = await startGoogleServer(script);
  const provider = createGoogleProvider({ model, apiKey: KEY, baseUrl: server.url, retry });
  return { server, provider };
}

const NO_RETRY = { ...FAST_RETRY, maxRetries: 0 };
const STOP = { finishReason: 'STOP', usage: { prompt: 20, candidates: 5 } };

describe('google adapter: streaming', () => {
  it('streams text; the request is the one the SDK sends to streamGenerateContent?alt=sse', async () => {
    const { server, provider } = await setup([
      { chunks: [chunk([part.text('Hello')]), chunk([part.text(' there')], STOP)] },
    ]);
    const out = await collect(provider, context([user('hi')]), { maxTokens: 300 });

    expect(out.events[0]).toEqual({ type: 'start', provider: 'google', model: 'gemini-test' });
    expect(out.events.filter((e) => e.type === 'text_delta')).toHaveLength(2);
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(out.message.stopReason).toBe('stop');
    expect(out.message.usage).toEqual({
      inputTokens: 20,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });

    const req = server.requests[0]!;
    expect(req.path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(req.headers['x-goog-api-key']).toBe(KEY);
    expect(req.body.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(req.body.systemInstruction).toEqual({ parts: [{ text: 'You fix code.' }], role: 'user' });
    expect(req.body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'read_file',
            description: 'Read a file.',
            parametersJsonSchema: context([]).tools[0]!.parameters,
          },
        ],
      },
    ]);
    expect(req.body.generationConfig).toEqual({ maxOutputTokens: 300 });
    expect(JSON.stringify(req.body)).not.toContain('automaticFunctionCalling');
  });

  it('reports whole function calls as start, delta and end, keeping ids Gemini gave and making the rest', async () => {
    const { provider } = await setup([
      {
        chunks: [
          chunk([part.text('Reading.')]),
          chunk([
            part.call(
              'read_file',
              { path: 'a "quoted" name.ts' },
              { id: 'gem-call-1', thoughtSignature: 'c2lnLTE=' },
            ),
            part.call('read_file', { path: 'b.ts' }),
          ]),
          chunk([], STOP),
        ],
      },
    ]);
    const out = await collect(provider, context([user('go')]));
    expect(out.message.stopReason).toBe('toolUse');
    const [text, first, second] = out.message.content;
    expect(text).toEqual({ type: 'text', text: 'Reading.' });
    expect(first).toEqual({
      type: 'toolCall',
      id: 'gem-call-1',
      name: 'read_file',
      input: { path: 'a "quoted" name.ts' },
      signature: 'c2lnLTE=',
    });
    expect(second).toMatchObject({ type: 'toolCall', name: 'read_file', input: { path: 'b.ts' } });
    expect((second as { id: string }).id).toMatch(/^call_[0-9a-f]+$/);
    expect(out.events.filter((e) => e.type.startsWith('toolcall_')).map((e) => e.type)).toEqual([
      'toolcall_start',
      'toolcall_delta',
      'toolcall_end',
      'toolcall_start',
      'toolcall_delta',
      'toolcall_end',
    ]);
  });

  it('takes the last running usage totals: cached tokens once, thoughts as output', async () => {
    const { provider } = await setup(
      [
        {
          chunks: [
            chunk([part.text('a')], { usage: { prompt: 1000, candidates: 1, cached: 600, thoughts: 30 } }),
            chunk([part.text('b')], { usage: { prompt: 1000, candidates: 20, cached: 600, thoughts: 30 } }),
            chunk([], {
              finishReason: 'STOP',
              usage: { prompt: 1000, candidates: 20, cached: 600, thoughts: 30 },
            }),
          ],
        },
      ],
      'gemini-2.5-flash',
    );
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.usage).toEqual({
      inputTokens: 400,
      cacheReadTokens: 600,
      outputTokens: 50,
      cacheWriteTokens: 0,
      costUsd: (400 * 0.3 + 600 * 0.03 + 50 * 2.5) / 1e6,
    });
  });

  it('turns thought parts into thinking blocks and sends them, with signatures, back to the same model only', async () => {
    const model = 'gemini-3-pro-preview';
    const ok = () => ({ chunks: [chunk([part.text('ok')], STOP)] });
    const { server, provider } = await setup(
      [
        {
          chunks: [
            chunk([part.thought('Look at a.ts', 'dGhvdWdodA==')]),
            chunk([part.call('read_file', { path: 'a.ts' }, { id: 'c1', thoughtSignature: 'Y2FsbA==' })]),
            chunk([], STOP),
          ],
        },
        ok(),
        ok(),
      ],
      model,
    );
    const first = await collect(provider, context([user('go')]));
    expect(server.requests[0]!.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true });
    expect(first.message.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Look at a.ts',
      signature: 'dGhvdWdodA==',
    });
    expect(first.events.some((e) => e.type === 'thinking_delta')).toBe(true);

    const history: Message[] = [user('go'), first.message, result('c1', 'export const a = 1;')];
    await collect(provider, context(history));
    expect(server.requests[1]!.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [
          { text: 'Look at a.ts', thought: true, thoughtSignature: 'dGhvdWdodA==' },
          {
            functionCall: { id: 'c1', name: 'read_file', args: { path: 'a.ts' } },
            thoughtSignature: 'Y2FsbA==',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'read_file', response: { output: 'export const a = 1;' } } },
        ],
      },
    ]);

    // Another Gemini 3 model cannot verify these signatures: the thought goes as text, the call
    // carries the documented sentinel instead.
    const other = createGoogleProvider({
      model: 'gemini-3-flash',
      apiKey: KEY,
      baseUrl: server.url,
      retry: FAST_RETRY,
    });
    await collect(other, context(history));
    expect(server.requests[2]!.body.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'Look at a.ts' },
        {
          functionCall: { id: 'c1', name: 'read_file', args: { path: 'a.ts' } },
          thoughtSignature: 'skip_thought_signature_validator',
        },
      ],
    });
  });

  it('keeps a signature that came on a text part and returns it to the same model', async () => {
    const { server, provider } = await setup(
      [
        {
          chunks: [
            chunk([part.text('All done.')]),
            chunk([{ text: '', thoughtSignature: 'dGV4dA==' }], STOP),
          ],
        },
        { chunks: [chunk([part.text('ok')], STOP)] },
      ],
      'gemini-3-pro-preview',
    );
    const first = await collect(provider, context([user('go')]));
    expect(first.message.content).toEqual([{ type: 'text', text: 'All done.', signature: 'dGV4dA==' }]);
    await collect(provider, context([user('go'), first.message, user('thanks')]));
    expect(server.requests[1]!.body.contents[1]).toEqual({
      role: 'model',
      parts: [{ text: 'All done.', thoughtSignature: 'dGV4dA==' }],
    });
  });

  it('reads a usage chunk after the finish reason, and a connection lost after the finish loses nothing', async () => {
    const { server, provider } = await setup(
      [
        {
          chunks: [
            chunk([part.text('Complete.')], { finishReason: 'STOP' }),
            { usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 4, totalTokenCount: 34 } },
          ],
          cutAfter: 2,
        },
      ],
      'gemini-test',
      NO_RETRY,
    );
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('stop');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Complete.' }]);
    expect(out.message.usage).toMatchObject({ inputTokens: 30, outputTokens: 4 });
    expect(out.retries).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });
});

describe('google adapter: stop reasons', () => {
  it('maps MAX_TOKENS to length, keeping the text', async () => {
    const { provider } = await setup([
      { chunks: [chunk([part.text('Partial')]), chunk([], { finishReason: 'MAX_TOKENS' })] },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('length');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Partial' }]);
  });

  it.each([
    ['SAFETY', 'refusal'],
    ['RECITATION', 'refusal'],
    ['PROHIBITED_CONTENT', 'refusal'],
    ['BLOCKLIST', 'refusal'],
    ['SPII', 'refusal'],
    ['MALFORMED_FUNCTION_CALL', 'malformed_call'],
    ['UNEXPECTED_TOOL_CALL', 'malformed_call'],
    ['OTHER', 'other'],
  ])('maps %s to an error (%s) naming the reason, not retried', async (reason, kind) => {
    const { server, provider } = await setup([
      { chunks: [chunk([part.text('Some')]), chunk([], { finishReason: reason })] },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe(kind);
    expect(out.message.errorMessage).toContain(reason);
    expect(out.message.content).toEqual([{ type: 'text', text: 'Some' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('maps a blocked prompt to a refusal', async () => {
    const { provider } = await setup([{ chunks: [promptBlocked('PROHIBITED_CONTENT')] }]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('refusal');
    expect(out.message.errorMessage).toContain('PROHIBITED_CONTENT');
    expect(out.message.usage.inputTokens).toBe(7);
  });

  it('reports an over-long prompt as a context-length error, not retried', async () => {
    const { server, provider } = await setup([
      {
        status: 400,
        body: googleErrorBody(
          400,
          'The input token count (1100000) exceeds the maximum number of tokens allowed (1048576).',
          'INVALID_ARGUMENT',
        ),
      },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.errorKind).toBe('context_length');
    expect(server.requests).toHaveLength(1);
  });
});

describe('google adapter: failures and retries', () => {
  it('retries 429 and 500, then succeeds', async () => {
    const { server, provider } = await setup([
      {
        status: 429,
        body: googleErrorBody(429, 'Resource has been exhausted (e.g. check quota).', 'RESOURCE_EXHAUSTED'),
      },
      { status: 500, body: googleErrorBody(500, 'An internal error has occurred.', 'INTERNAL') },
      { chunks: [chunk([part.text('Finally')], STOP)] },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries.map((r) => [r.status, r.errorKind])).toEqual([
      [429, 'rate_limit'],
      [500, 'server'],
    ]);
    expect(out.message.content).toEqual([{ type: 'text', text: 'Finally' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a bad key and never shows it', async () => {
    const { server, provider } = await setup([
      {
        status: 400,
        body: googleErrorBody(
          400,
          `API key not valid: ${KEY}. Please pass a valid API key.`,
          'INVALID_ARGUMENT',
        ),
      },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(JSON.stringify(out.events)).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream cut mid-way and streams the answer afresh', async () => {
    const chunks = [chunk([part.text('Hello')]), chunk([part.text(' world')]), chunk([part.text('!')], STOP)];
    const { server, provider } = await setup([{ chunks, cutAfter: 2 }, { chunks }]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries).toHaveLength(1);
    expect(out.retries[0]!.errorKind).toBe('network');
    expect(out.text).toBe('Hello world!');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hello world!' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('ends a cut stream as a network error with the partial text when no retry is left', async () => {
    const chunks = [chunk([part.text('Hello')]), chunk([part.text(' world')]), chunk([part.text('!')], STOP)];
    const { provider } = await setup([{ chunks, cutAfter: 2 }], 'gemini-test', NO_RETRY);
    const out = await collect(provider, context([user('hi')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('network');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Hello world' }]);
  });

  it('retries an error chunk mid-stream', async () => {
    const { server, provider } = await setup([
      {
        chunks: [
          chunk([part.text('Start')]),
          googleErrorBody(503, 'The model is overloaded.', 'UNAVAILABLE'),
        ],
      },
      { chunks: [chunk([part.text('Again')], STOP)] },
    ]);
    const out = await collect(provider, context([user('hi')]));
    expect(out.retries).toHaveLength(1);
    expect(out.retries[0]!.status).toBe(503);
    expect(out.message.content).toEqual([{ type: 'text', text: 'Again' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('aborts mid-stream, keeping the partial content', async () => {
    const { server, provider } = await setup([
      {
        chunks: [
          chunk([part.text('Partial')]),
          chunk([part.text(' text')]),
          chunk([part.text('never')], STOP),
        ],
        hangAfter: 2,
      },
    ]);
    const controller = new AbortController();
    const out = await collect(provider, context([user('hi')]), { signal: controller.signal }, (e) => {
      if (e.type === 'text_delta' && e.delta === ' text') controller.abort();
    });
    expect(out.message.stopReason).toBe('aborted');
    expect(out.message.content).toEqual([{ type: 'text', text: 'Partial text' }]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('google adapter: history from another provider', () => {
  const LONG_A = `call_|${'a'.repeat(300)}|${'x'.repeat(143)}`;
  const LONG_B = `call_|${'a'.repeat(300)}|${'y'.repeat(143)}`;
  const PNG = 'iVBORw0KGgo=';

  it('accepts ids with | and 450 characters, thinking blocks and an image in a tool result, correctly paired', async () => {
    const { server, provider } = await setup(
      [{ chunks: [chunk([part.text('Done.')], STOP)] }],
      'gemini-3-pro-preview',
    );
    const history: Message[] = [
      user('fix it'),
      assistant(
        [
          {
            type: 'thinking',
            thinking: 'Both files matter.',
            signature: '{"id":"rs_1","encrypted_content":"x"}',
          },
          { type: 'toolCall', id: LONG_A, name: 'read_file', input: { path: 'a.ts' } },
          { type: 'toolCall', id: LONG_B, name: 'list_dir', input: {} },
          { type: 'toolCall', id: 'orphan|1', name: 'read_file', input: '{"path": "c.ts"' },
        ],
        { provider: 'openai-responses', model: 'gpt-5' },
      ),
      result(LONG_A, 'export const a = 1;'),
      {
        role: 'toolResult',
        toolCallId: LONG_B,
        toolName: 'list_dir',
        content: [
          { type: 'text', text: 'Listing failed.' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
        isError: true,
        timestamp: 3,
      },
      user('continue'),
    ];
    const snapshot = JSON.stringify(history);
    const out = await collect(provider, context(history));
    expect(out.message.stopReason).toBe('stop');
    expect(JSON.stringify(history)).toBe(snapshot);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const contents = server.requests[0]!.body.contents as { role: string; parts: Record<string, any>[] }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    const model = contents[1]!.parts;
    expect(model[0]).toEqual({ text: 'Both files matter.' });
    const calls = model.slice(1).map((p) => p.functionCall);
    expect(calls.map((c) => c.name)).toEqual(['read_file', 'list_dir', 'read_file']);
    expect(calls[2].args).toEqual({});
    for (const p of model.slice(1)) expect(p.thoughtSignature).toBe('skip_thought_signature_validator');
    for (const c of calls) expect(c.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(calls.map((c) => c.id)).size).toBe(3);

    const parts = contents[2]!.parts;
    const responses = parts.filter((p) => p.functionResponse).map((p) => p.functionResponse);
    expect(responses.map((r) => [r.id, r.name])).toEqual(calls.map((c) => [c.id, c.name]));
    expect(responses[0].response).toEqual({ output: 'export const a = 1;' });
    expect(responses[1].response).toEqual({ error: 'Listing failed.' });
    expect(responses[2].response.error).toMatch(/not run/i);
    expect(parts.slice(2, 4)).toEqual([
      { text: `Image output of the list_dir call ${String(calls[1].id)}:` },
      { inlineData: { mimeType: 'image/png', data: PNG } },
    ]);
    expect(parts[parts.length - 1]).toEqual({ text: 'continue' });
  });
});
