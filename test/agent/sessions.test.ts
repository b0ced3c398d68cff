// Long and messy sessions through the real adapters and SDKs against the loopback fakes: repeated
// overflows, a fallback to a smaller window, silent thinking, a hang after a long stream, billed
// attempts that were cut, empty turns, Gemini's unreadable calls and repeated tool-call ids.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent, type AgentOptions } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/agent/index.js';
import { pairToolResults } from '../../src/protocol/pairing.js';
import { parseTranscript, TranscriptWriter } from '../../src/protocol/transcript.js';
import type { Message, ToolResultMessage } from '../../src/protocol/types.js';
import { textOf } from '../../src/protocol/types.js';
import { createFallbackProvider, createProvider, priceUsage } from '../../src/providers/index.js';
import type { ProviderName } from '../../src/providers/types.js';
import type { RetryPolicy } from '../../src/providers/retry.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { PNG } from 'pngjs';
import { anthropicFrames, startAnthropicServer, type AnthropicScript } from '../fakes/anthropic-server.js';
import { startOpenAIChatServer, type ChatScript } from '../fakes/openai-chat-server.js';
import { chunk, part, startGoogleServer, type GoogleScript } from '../fakes/google-server.js';
import { startSseServer, type FakeProviderServer } from '../fakes/sse.js';
import { BUGGY_PROJECT, tempRepo, type TempRepo } from './helpers.js';

let repo: TempRepo;
let out: string;
let servers: FakeProviderServer[] = [];

beforeEach(() => {
  repo = tempRepo(BUGGY_PROJECT);
  out = mkdtempSync(join(tmpdir(), 'patchloop-sessions-'));
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  repo.cleanup();
  rmSync(out, { recursive: true, force: true });
});

const QUICK: Partial<RetryPolicy> = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5, maxTotalMs: 10_000 };

async function serve<T extends FakeProviderServer>(server: Promise<T>): Promise<T> {
  const s = await server;
  servers.push(s);
  return s;
}

function provider(name: ProviderName, model: string, baseUrl: string, retry: Partial<RetryPolicy> = QUICK) {
  return createProvider({ provider: name, model, apiKey: 'test-key-0123456789', baseUrl, retry, env: {} });
}

function setup(p: AgentOptions['provider'], extra: Partial<AgentOptions> = {}) {
  const transcript = new TranscriptWriter(join(out, 'transcript.jsonl'));
  const events: AgentEvent[] = [];
  const options: AgentOptions = {
    provider: p,
    tools: createWorkspaceTools({ root: repo.root, testCommand: 'node --test', artifactsDir: out }),
    systemPrompt: 'You are patchloop.',
    task: 'Fix the divide-by-zero in src/math.js',
    maxTurns: 12,
    transcript,
    onEvent: (e) => events.push(e),
    ...extra,
  };
  const lines = () => {
    transcript.close();
    return parseTranscript(readFileSync(transcript.path, 'utf8'));
  };
  return { options, events, lines };
}

const results = (messages: Message[]) =>
  messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');

const read = (id: string, path: string) => ({ id, name: 'read_file', args: JSON.stringify({ path }) });

const contextLengthError = {
  http: {
    status: 400,
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    message:
      "This model's maximum context length is 32768 tokens. However, your messages resulted in 40960 tokens. Please reduce the length of the messages.",
  },
};

describe('compaction in a long session', () => {
  it('compacts when Anthropic stops with model_context_window_exceeded, and never asks the model to continue', async () => {
    const server = await serve(
      startAnthropicServer([
        { toolCalls: [{ id: 'toolu_c1', name: 'read_file', json: '{"path":"src/math.js"}' }] },
        { toolCalls: [{ id: 'toolu_c2', name: 'read_file', json: '{"path":"test/math.test.js"}' }] },
        // The context filled up while the model was writing a call: the stop reason says so.
        {
          text: 'Now I will read',
          toolCalls: [{ id: 'toolu_c3', name: 'read_file', json: '{"path":"pack' }],
          stopReason: 'model_context_window_exceeded',
        },
        { text: 'Read everything I needed.' },
      ] satisfies AnthropicScript),
    );
    const { options, events, lines } = setup(provider('anthropic', 'claude-sonnet-5-5', server.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.finalText).toBe('Read everything I needed.');
    const recorded = lines();
    const compactions = recorded.events.filter((e) => e.event === 'compaction');
    expect(compactions.map((e) => e.reason)).toEqual(['context_length']);
    // No "continue" of any kind: not the length stop's, and no continue message to the model.
    expect(events.filter((e) => e.type === 'continue')).toEqual([]);
    const fourth = JSON.stringify(server.requests[3]!.body.messages);
    expect(fourth).not.toMatch(/continue/i);
    expect(fourth).toContain('Earlier turns of this session were removed');
    // The cut call got its one result, as every call does.
    const cut = results(recorded.messages).filter((r) => r.toolCallId === 'toolu_c3');
    expect(cut).toHaveLength(1);
    expect(cut[0]!.isError).toBe(true);
  });

  it('compacts on every context-length error of a server with no known window', async () => {
    const chat = await serve(
      startOpenAIChatServer([
        { toolCalls: [read('c1', 'src/math.js')], usage: { prompt: 900, completion: 10 } },
        { toolCalls: [read('c2', 'test/math.test.js')], usage: { prompt: 1400, completion: 10 } },
        contextLengthError,
        { toolCalls: [read('c3', 'package.json')], usage: { prompt: 900, completion: 10 } },
        contextLengthError,
        { text: 'Read everything I needed.', usage: { prompt: 700, completion: 10 } },
      ] satisfies ChatScript),
    );
    const { options, lines } = setup(provider('openai-compatible', 'local-model', chat.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.finalText).toBe('Read everything I needed.');
    const compactions = lines().events.filter((e) => e.event === 'compaction');
    expect(compactions.map((e) => e.reason)).toEqual(['context_length', 'context_length']);
    // What was sent after each compaction is a valid history that still starts with the task.
    for (const i of [3, 5]) {
      const sent = chat.requests[i]!.body.messages as { role: string; content: unknown }[];
      expect(sent[1]!.role).toBe('user');
      expect(JSON.stringify(sent[1]!.content)).toContain('Earlier turns of this session were removed');
    }
  });

  it('after a fallback, compacts at the fallback model’s window', async () => {
    const anthropic = await serve(
      startAnthropicServer([
        { toolCalls: [{ id: 'toolu_1', name: 'read_file', json: '{"path":"src/math.js"}' }] },
        { toolCalls: [{ id: 'toolu_2', name: 'read_file', json: '{"path":"package.json"}' }] },
        { http: { status: 500, type: 'api_error', message: 'Internal server error' } },
      ] satisfies AnthropicScript),
    );
    // gpt-4o has a 128,000-token window: 110,000 tokens of prompt is past its threshold, far
    // below the 1,000,000 of the primary.
    const chat = await serve(
      startOpenAIChatServer([
        { toolCalls: [read('call_a', 'test/math.test.js')], usage: { prompt: 110_000, completion: 20 } },
        { text: 'Done.', usage: { prompt: 2_000, completion: 5 } },
      ]),
    );
    const p = createFallbackProvider(
      provider('anthropic', 'claude-sonnet-5-5', anthropic.url, { ...QUICK, maxRetries: 0 }),
      provider('openai', 'gpt-4o', chat.url),
    );
    const { options, events } = setup(p);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(events.some((e) => e.type === 'fallback')).toBe(true);
    expect(
      events.filter((e) => e.type === 'compaction').map((e) => e.type === 'compaction' && e.reason),
    ).toEqual(['threshold']);
    const last = chat.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(last[1]!.content)).toContain('Earlier turns of this session were removed');
  });
});

describe('streams that hang or think in silence', () => {
  it('keeps a stream alive on pings: a model thinking longer than the idle timeout is not cut', async () => {
    const anthropic = await serve(
      startAnthropicServer(() => ({
        thinkSilently: { pings: 10, everyMs: 50 },
        text: 'Thought it through.',
      })),
    );
    const { options, events } = setup(
      provider('anthropic', 'claude-sonnet-5-5', anthropic.url, { ...QUICK, idleTimeoutMs: 300 }),
    );
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.finalText).toBe('Thought it through.');
    expect(events.filter((e) => e.type === 'retry')).toEqual([]);
    expect(anthropic.requests).toHaveLength(1);
  });

  it('retries a stream that hangs after streaming for longer than the retry budget', async () => {
    // A reply streamed slowly (a frame every 40 ms, 640 ms in all), then silence before its end:
    // the retry budget (900 ms) counts from the last byte, not from the start of the turn.
    const slow = anthropicFrames({ text: Array.from({ length: 12 }, (_, i) => `part ${i} `) });
    const stalled = slow.flatMap((f) => [{ pauseMs: 40 }, f]);
    const hangAt = stalled.findIndex((f) => typeof f === 'string' && f.startsWith('event: message_delta'));
    const anthropic = await serve(
      startSseServer({
        route: (method, path) => method === 'POST' && path === '/v1/messages',
        notFound: () => ({}),
        reply: (_r, index) =>
          index === 0
            ? { kind: 'sse', frames: stalled, hangAfter: hangAt }
            : { kind: 'sse', frames: anthropicFrames({ text: 'Second attempt.' }) },
      }),
    );
    const { options, events } = setup(
      provider('anthropic', 'claude-sonnet-5-5', anthropic.url, {
        ...QUICK,
        idleTimeoutMs: 400,
        maxTotalMs: 900,
      }),
    );
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.finalText).toBe('Second attempt.');
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ errorKind: 'network' });
  });
});

describe('usage of every attempt', () => {
  it('counts the tokens of an attempt cut mid-stream, and shows them on its retry event', async () => {
    const anthropic = await serve(
      startAnthropicServer([
        { text: ['Start', 'ing'], usage: { input: 1000, cacheRead: 200 }, cutAfter: 4 },
        { text: 'Done.', usage: { input: 1000, cacheRead: 200, output: 40 } },
      ]),
    );
    const { options, lines } = setup(provider('anthropic', 'claude-sonnet-5-5', anthropic.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.usage).toMatchObject({ inputTokens: 2000, cacheReadTokens: 400 });
    const { events, messages } = lines();
    const retry = events.find((e) => e.event === 'retry');
    expect(retry?.usage).toMatchObject({ inputTokens: 1000, cacheReadTokens: 200 });
    const cut = (retry!.usage as { costUsd: number }).costUsd;
    expect(cut).toBeGreaterThan(0);
    // The turn's recorded usage is the sum, so a report read from the transcript bills both.
    const reply = messages.find((m) => m.role === 'assistant');
    expect(reply?.role === 'assistant' && reply.usage.inputTokens).toBe(2000);
    expect(result.usage.costUsd).toBeCloseTo(priceUsage('claude-sonnet-5-5', result.usage).costUsd!, 12);
  });

  it('measures the context by the attempt that answered, not by the sum of the bill', async () => {
    // A first attempt billed for 800,000 prompt tokens, then cut; the retry's prompt is small.
    const anthropic = await serve(
      startAnthropicServer([
        { toolCalls: [{ id: 'toolu_1', name: 'list_dir', json: '{}' }], usage: { input: 1000 } },
        { text: 'Looking', usage: { input: 800_000 }, cutAfter: 4 },
        { toolCalls: [{ id: 'toolu_2', name: 'list_dir', json: '{"path":"src"}' }], usage: { input: 1200 } },
        { text: 'Done.', usage: { input: 1400 } },
      ]),
    );
    const { options, events } = setup(provider('anthropic', 'claude-sonnet-5-5', anthropic.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.usage.inputTokens).toBe(803_600);
    expect(events.filter((e) => e.type === 'compaction')).toEqual([]);
  });

  it('counts what the primary billed for a turn that moved to the fallback', async () => {
    const anthropic = await serve(
      startAnthropicServer([
        {
          text: 'Work',
          usage: { input: 3000 },
          errorEvent: { type: 'api_error', message: 'Internal error', after: 4 },
        },
      ]),
    );
    const chat = await serve(
      startOpenAIChatServer([{ text: 'Done.', usage: { prompt: 500, completion: 5 } }]),
    );
    const p = createFallbackProvider(
      provider('anthropic', 'claude-sonnet-5-5', anthropic.url, { ...QUICK, maxRetries: 0 }),
      provider('openai', 'gpt-4o', chat.url),
    );
    const { options, lines } = setup(p);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.usage.inputTokens).toBe(3500);
    expect(lines().events.find((e) => e.event === 'fallback')?.usage).toMatchObject({ inputTokens: 3000 });
  });
});

describe('odd turns', () => {
  it('nudges the model once after an empty stop turn, and goes on', async () => {
    const anthropic = await serve(
      startAnthropicServer([
        { toolCalls: [{ id: 'toolu_1', name: 'list_dir', json: '{}' }] },
        { blocks: [] },
        { text: 'The code is in src/.' },
      ]),
    );
    const { options, lines } = setup(provider('anthropic', 'claude-sonnet-5-5', anthropic.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.finalText).toBe('The code is in src/.');
    expect(anthropic.requests[2]!.raw).toContain('You stopped without saying anything');
    expect(lines().events).toContainEqual(expect.objectContaining({ event: 'continue', reason: 'empty' }));
  });

  it('ends the run, saying why, after a second empty stop turn in a row', async () => {
    const anthropic = await serve(startAnthropicServer([{ blocks: [] }, { blocks: [] }, { text: 'never' }]));
    const { options } = setup(provider('anthropic', 'claude-sonnet-5-5', anthropic.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('failure');
    expect(result.error).toMatch(/stopped 2 times in a row without a word or a tool call/);
    expect(anthropic.requests).toHaveLength(2);
  });

  it('tells Gemini its call was malformed and lets it try again', async () => {
    const malformed = 'Malformed function call: print(default_api.read_file(path=src/math.js))';
    const google = await serve(
      startGoogleServer([
        { chunks: [chunk([], { finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: malformed })] },
        { chunks: [chunk([part.call('read_file', { path: 'src/math.js' })], { finishReason: 'STOP' })] },
        { chunks: [chunk([part.text('divide() is in src/math.js.')], { finishReason: 'STOP' })] },
      ] satisfies GoogleScript),
    );
    const { options, lines } = setup(provider('google', 'gemini-3.5-flash', google.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(results(result.messages)).toHaveLength(1);
    const feedback = google.requests[1]!.raw;
    expect(feedback).toContain('Your last tool call could not be read');
    expect(feedback).toContain('MALFORMED_FUNCTION_CALL');
    expect(lines().events).toContainEqual(
      expect.objectContaining({ event: 'continue', reason: 'malformed_call' }),
    );
  });
});

describe('repeated tool-call ids', () => {
  it('runs every call of a turn that repeats an id, and re-keys repeats for each target', async () => {
    const chat = await serve(
      startOpenAIChatServer([
        // A server that numbers its calls from 0 in every turn and repeats within one.
        { toolCalls: [read('call_0', 'src/math.js'), read('call_0', 'package.json')] },
        { toolCalls: [read('call_0', 'test/math.test.js')] },
        { http: { status: 503, type: 'server_error', message: 'The server is overloaded.' } },
      ]),
    );
    const anthropic = await serve(startAnthropicServer([{ text: 'All three files read.' }]));
    const p = createFallbackProvider(
      provider('openai-compatible', 'local-model', chat.url, { ...QUICK, maxRetries: 0 }),
      provider('anthropic', 'claude-sonnet-5-5', anthropic.url),
    );
    const { options, lines } = setup(p);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');

    // Every call ran and has its own result; the record keeps the provider's ids.
    const got = results(result.messages);
    expect(got.map((r) => r.toolCallId)).toEqual(['call_0', 'call_0', 'call_0']);
    expect(textOf(got[0]!.content)).toContain('divide');
    expect(textOf(got[1]!.content)).toContain('"name": "calc"');
    expect(pairToolResults(result.messages)).toEqual(result.messages);
    expect(lines().messages).toEqual(result.messages);

    // The Chat request pairs each call with its own result under distinct ids.
    const sent = chat.requests[1]!.body.messages as {
      role: string;
      tool_calls?: { id: string }[];
      tool_call_id?: string;
      content: string;
    }[];
    const callIds = sent.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
    const resultIds = sent.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    expect(new Set(callIds).size).toBe(2);
    expect(resultIds).toEqual(callIds);
    expect(sent.find((m) => m.tool_call_id === callIds[1])?.content).toContain('"name": "calc"');

    // Anthropic, after the fallback, gets three distinct tool_use ids (its fake rejects repeats).
    const blocks = (anthropic.requests[0]!.body.messages as { content: { type: string; id?: string }[] }[])
      .flatMap((m) => m.content)
      .filter((b) => b.type === 'tool_use');
    expect(new Set(blocks.map((b) => b.id)).size).toBe(3);
  });
});

describe('images over the provider’s limit', () => {
  // A PNG of 4.5 MiB: within read_file's 5 MiB, but 6 MiB as base64, over Anthropic's 5 MB.
  function bigPng(): Buffer {
    const png = Buffer.alloc(Math.round(4.5 * 1024 * 1024));
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
    for (let i = 8; i < png.length; i += 4) png.writeUInt32BE((i * 2654435761) >>> 0, i);
    return png;
  }

  // A real PNG of noise (PNG cannot compress it) of about 4.5 MiB.
  function noisePng(): Buffer {
    const png = new PNG({ width: 1200, height: 1150 });
    let x = 2463534242;
    for (let i = 0; i < png.data.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      png.data[i] = i % 4 === 3 ? 255 : x & 0xff;
    }
    return PNG.sync.write(png);
  }

  it('scales a 4.5 MiB PNG down to fit Anthropic’s 5 MB, once, and says so', async () => {
    const png = noisePng();
    expect(png.length).toBeGreaterThan(4.4 * 1024 * 1024);
    writeFileSync(join(repo.root, 'shot.png'), png);
    const anthropic = await serve(
      startAnthropicServer([
        { toolCalls: [{ id: 'toolu_1', name: 'read_file', json: '{"path":"shot.png"}' }] },
        { toolCalls: [{ id: 'toolu_2', name: 'read_file', json: '{"path":"src/math.js"}' }] },
        { text: 'The screenshot shows noise.' },
      ]),
    );
    const { options } = setup(provider('anthropic', 'claude-sonnet-5-5', anthropic.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    const sent = (r: (typeof anthropic.requests)[number]) =>
      (
        r.body.messages as {
          content: {
            type: string;
            content?: { type: string; text?: string; source?: { media_type: string; data: string } }[];
          }[];
        }[]
      )
        .flatMap((m) => m.content)
        .flatMap((b) => b.content ?? []);
    const [second, third] = [sent(anthropic.requests[1]!), sent(anthropic.requests[2]!)];
    const image = second.find((b) => b.type === 'image')!;
    expect(image.source!.media_type).toBe('image/jpeg');
    expect(image.source!.data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(second.some((b) => /scaled down from 1200×1150 to \d+×\d+ pixels/.test(b.text ?? ''))).toBe(true);
    // The later request carries the same scaled image (scaled once, the prompt cache still hits).
    expect(third.find((b) => b.type === 'image')!.source!.data).toBe(image.source!.data);
  });

  it('leaves an oversized image it cannot scale out of the request with a note, and the session goes on', async () => {
    writeFileSync(join(repo.root, 'shot.png'), bigPng());
    const anthropic = await serve(
      startAnthropicServer([
        { toolCalls: [{ id: 'toolu_1', name: 'read_file', json: '{"path":"shot.png"}' }] },
        { toolCalls: [{ id: 'toolu_2', name: 'read_file', json: '{"path":"src/math.js"}' }] },
        { text: 'The screenshot was too big; the code is fine.' },
      ]),
    );
    const { options } = setup(provider('anthropic', 'claude-sonnet-5-5', anthropic.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(anthropic.requests).toHaveLength(3);
    for (const r of anthropic.requests.slice(1)) {
      expect(r.raw).toContain(
        '[An image (image/png) was left out: it is 6.0 MB as base64, over the 5.0 MB anthropic accepts per image.]',
      );
      expect(r.raw.length).toBeLessThan(1024 * 1024);
    }
    // The record keeps the image as the tool returned it.
    expect(results(result.messages)[0]!.content.some((c) => c.type === 'image')).toBe(true);
  });

  it('sends a request the API refused for an image again without it, and never the image again', async () => {
    // The image is within OpenAI's limits; this server refuses it all the same.
    writeFileSync(join(repo.root, 'tiny.png'), bigPng().subarray(0, 4096));
    let refusals = 0;
    const chat = await serve(
      startOpenAIChatServer((request, index) => {
        if (request.raw.includes('data:image/png;base64,')) {
          refusals++;
          return {
            http: {
              status: 400,
              type: 'invalid_request_error',
              code: 'image_parse_error',
              message: 'Invalid image.',
            },
          };
        }
        return [
          { toolCalls: [read('c1', 'tiny.png')] },
          { toolCalls: [read('c2', 'src/math.js')] },
          { text: 'Done.' },
        ][Math.min(index - refusals, 2)]!;
      }),
    );
    const { options, events } = setup(provider('openai', 'gpt-4o', chat.url, { ...QUICK, maxRetries: 0 }));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(refusals).toBe(1);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(chat.requests.at(-1)!.raw).toContain('was left out: openai refused it in an earlier request');
  });

  it('gives a model of unknown image input a note in place of the image read_file returned', async () => {
    writeFileSync(join(repo.root, 'tiny.png'), bigPng().subarray(0, 4096));
    const chat = await serve(
      startOpenAIChatServer([{ toolCalls: [read('c1', 'tiny.png')] }, { text: 'Read the note.' }]),
    );
    const { options } = setup(provider('openai-compatible', 'local-model', chat.url));
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    const second = chat.requests[1]!.raw;
    expect(second).not.toContain('image_url');
    expect(second).toContain(
      '[An image (image/png) was left out: the model in use (openai-compatible) does not take images.]',
    );
    // The record keeps the image as the tool returned it.
    expect(results(result.messages)[0]!.content.some((c) => c.type === 'image')).toBe(true);
  });
});

describe('a refused connection', () => {
  it('retries once, then fails in one line that names the base URL and where it is set', async () => {
    const gone = await serve(startAnthropicServer([]));
    const url = gone.url;
    await gone.close();
    servers = servers.filter((s) => s !== gone);
    const { options, events } = setup(
      provider('anthropic', 'claude-sonnet-5-5', url, { ...QUICK, maxRetries: 5 }),
    );
    const result = await runAgent(options);
    expect(result.conclusion).toBe('failure');
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(result.error).toContain(`Check the base URL ${url}`);
    expect(result.error).toContain('the base-url input of the patchloop step');
    expect(result.error).toContain('ANTHROPIC_BASE_URL');
    expect(result.error).not.toContain('\n');
  });
});
