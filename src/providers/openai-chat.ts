import OpenAI from 'openai';
import type { ToolDefinition } from '../protocol/tool.js';
import type { ErrorKind, ImageContent, Message, StopReason, TextContent } from '../protocol/types.js';
import { createAdapterProvider, type AttemptEvent, type AttemptOptions } from './base.js';
import { wireInput } from './convert.js';
import { classifyError, streamCutFailure, unknownStop } from './errors.js';
import type { FailureHints } from './hints.js';
import { OPENAI_CHAT_ID_POLICY } from './ids.js';
import { lookupModel } from './pricing.js';
import { ByteMeter } from './metered-fetch.js';
import { SdkNotices } from './sdk-notices.js';
import { sseBatches } from './sse-reader.js';
import type { RetryPolicy } from './retry.js';
import type { Context, Provider } from './types.js';

type Param = OpenAI.Chat.ChatCompletionMessageParam;
type Part = OpenAI.Chat.ChatCompletionContentPart;

export interface OpenAIChatConfig {
  model: string;
  apiKey: string;
  /** Including /v1 (the SDK appends /chat/completions). */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  /**
   * `openai-compatible`: any server speaking Chat Completions. Its price is unknown, and the
   * output limit is sent as the older `max_tokens`, which such servers accept more widely.
   */
  name?: 'openai' | 'openai-compatible';
  hints?: FailureHints;
  now?: () => number;
}

const dataUrl = (c: ImageContent) => `data:${c.mimeType};base64,${c.data}`;

function userContent(content: string | (TextContent | ImageContent)[]): string | Part[] {
  if (typeof content === 'string') return content;
  if (content.every((c) => c.type === 'text')) return content.map((c) => (c as TextContent).text).join('\n');
  return content.map((c): Part =>
    c.type === 'text'
      ? { type: 'text', text: c.text }
      : { type: 'image_url', image_url: { url: dataUrl(c) } },
  );
}

/**
 * Protocol messages → Chat Completions messages. Reasoning is not sent (Chat has no field for
 * it). A `tool` message takes text only, so images a tool returned go into one user message
 * after the turn's tool messages (a user message between them would break the call/result run).
 */
export function toChatMessages(systemPrompt: string, messages: readonly Message[]): Param[] {
  const out: Param[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
  let images: Part[] = [];
  const flushImages = () => {
    if (images.length === 0) return;
    out.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...images],
    });
    images = [];
  };
  for (const m of messages) {
    if (m.role !== 'toolResult') flushImages();
    if (m.role === 'user') {
      out.push({ role: 'user', content: userContent(m.content) });
    } else if (m.role === 'assistant') {
      const text = m.content
        .filter((c): c is TextContent => c.type === 'text')
        .map((c) => c.text)
        .join('');
      const calls = m.content.flatMap((c) =>
        c.type === 'toolCall'
          ? [
              {
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(wireInput(c)) },
              },
            ]
          : [],
      );
      if (!text && calls.length === 0) continue;
      out.push({
        role: 'assistant',
        content: text || null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
    } else {
      const text = m.content
        .filter((c): c is TextContent => c.type === 'text')
        .map((c) => c.text)
        .join('\n');
      const pictures = m.content.filter((c): c is ImageContent => c.type === 'image');
      for (const p of pictures) images.push({ type: 'image_url', image_url: { url: dataUrl(p) } });
      const note = pictures.length > 0 ? `(${pictures.length} image(s) follow in the next user message)` : '';
      out.push({
        role: 'tool',
        tool_call_id: m.toolCallId,
        content: [text, note].filter(Boolean).join('\n') || '(no output)',
      });
    }
  }
  flushImages();
  return out;
}

function toChatTools(tools: readonly ToolDefinition[]): OpenAI.Chat.ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

function mapFinishReason(reason: string | null): {
  stop: StopReason;
  error?: string | { message: string; kind: ErrorKind };
} {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return { stop: 'toolUse' };
    case 'length':
      return { stop: 'length' };
    case 'content_filter':
      return {
        stop: 'error',
        error: 'The response was stopped by the content filter (finish_reason "content_filter").',
      };
    // `eos` / `eos_token`: what some compatible servers say for the end of the answer
    // (text-generation-inference)
    case 'stop':
    case 'eos':
    case 'eos_token':
      return { stop: 'stop' };
    case 'model_length':
      // Mistral's: the conversation reached the model's context length.
      return {
        stop: 'error',
        error: {
          message: 'The conversation filled the model’s context window (finish_reason "model_length").',
          kind: 'context_length',
        },
      };
    default:
      // A finish_reason this adapter does not know (a newer API, or a compatible server's own):
      // an error that names it, never a success.
      return { stop: 'error', error: unknownStop('The model server', 'finish_reason', reason) };
  }
}

/** A Chat Completions adapter on a client someone built (OpenAI's, a compatible server's, Azure's). */
export interface OpenAIChatSpec {
  /** provider name as in the `provider` input */
  name: string;
  model: string;
  client: OpenAI;
  /** The meter whose fetch the client was given, and the notices its logger writes to. */
  meter: ByteMeter;
  notices: SdkNotices;
  /** Credentials that must never appear in a message. */
  secrets: string[];
  /** An OpenAI-compatible server: unknown price, the output limit sent as `max_tokens`. */
  compatible?: boolean;
  /** Price by the model the stream names (Azure: `model` is a deployment's name). */
  priceByServedModel?: boolean;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
  now?: () => number;
}

export function createOpenAIChatProvider(config: OpenAIChatConfig): Provider {
  const name = config.name ?? 'openai';
  const notices = new SdkNotices('openai');
  const meter = new ByteMeter();
  const client = new OpenAI({
    logger: notices.logger(),
    apiKey: config.apiKey,
    ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
    // Our retry policy retries (with events); the SDK's own retries would be invisible.
    maxRetries: 0,
    fetch: meter.fetch,
  });
  return createChatCompletionsProvider({
    name,
    model: config.model,
    client,
    meter,
    notices,
    secrets: [config.apiKey],
    compatible: name === 'openai-compatible',
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.hints ? { hints: config.hints } : {}),
    ...(config.now ? { now: config.now } : {}),
  });
}

export function createChatCompletionsProvider(config: OpenAIChatSpec): Provider {
  const { name, client, meter, notices } = config;
  const compatible = config.compatible === true;
  // The model the last stream said it was (Azure names the model behind a deployment).
  let served: string | undefined;

  function request(
    ctx: Context,
    maxTokens: number | undefined,
  ): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
    return {
      model: config.model,
      messages: toChatMessages(ctx.systemPrompt, ctx.messages),
      ...(ctx.tools.length > 0 ? { tools: toChatTools(ctx.tools) } : {}),
      ...(maxTokens ? (compatible ? { max_tokens: maxTokens } : { max_completion_tokens: maxTokens }) : {}),
      stream: true,
      stream_options: { include_usage: true },
    };
  }

  async function* attempt(
    ctx: Context,
    signal: AbortSignal,
    opts: AttemptOptions,
  ): AsyncGenerator<AttemptEvent> {
    const { builder } = opts;
    let finish: string | null = null;
    // Some compatible servers number every call 0 and tell them apart only by id.
    const byIndex = new Map<number, { key: string; id: string }>();
    let calls = 0;
    try {
      // The SDK makes the request (headers, error statuses → its errors); the body is read here,
      // a chunk's frames at a time (sse-reader.ts), instead of through its Stream, frame by frame.
      const pending = client.chat.completions.create(request(ctx, opts.maxTokens), { signal }).asResponse();
      yield* notices.drain();
      const response = await pending;
      if (!response.body) throw new OpenAI.OpenAIError('the response to a streamed request had no body');
      let done = false;
      for await (const frames of sseBatches(response.body)) {
        const out: AttemptEvent[] = [];
        // Argument deltas of one call within the chunk go to the builder joined (a MiB of
        // arguments in 16-byte pieces is ~70,000 frames); everything else keeps its frame's event.
        let run: { key: string; parts: string[] } | undefined;
        const flush = () => {
          if (!run) return;
          const e = builder.toolCallDelta(
            run.key,
            run.parts.length === 1 ? run.parts[0]! : run.parts.join(''),
          );
          if (e) out.push(e);
          run = undefined;
        };
        const emit = (e: AttemptEvent | undefined) => {
          flush();
          if (e) out.push(e);
        };
        let failure: unknown;
        for (const frame of frames) {
          // As the SDK's reader: nothing after [DONE]; a body with `error` is an APIError.
          if (done) continue;
          if (frame.data.startsWith('[DONE]')) {
            done = true;
            continue;
          }
          if (frame.event !== null && frame.event.startsWith('thread.')) continue;
          const chunk = JSON.parse(frame.data) as OpenAI.Chat.ChatCompletionChunk & { error?: unknown };
          if (chunk && chunk.error) {
            failure = new OpenAI.APIError(undefined, chunk.error as object, undefined, response.headers);
            break;
          }
          if (typeof chunk.model === 'string' && chunk.model) served = chunk.model;
          const u = chunk.usage;
          if (u) {
            const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
            // cached_tokens are part of prompt_tokens: counted once, as cache reads.
            builder.setUsage({
              inputTokens: Math.max(0, u.prompt_tokens - cached),
              cacheReadTokens: cached,
              outputTokens: u.completion_tokens,
            });
          }
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = (choice.delta ?? {}) as OpenAI.Chat.ChatCompletionChunk.Choice.Delta & {
            reasoning_content?: string | null;
            reasoning?: string | null;
          };
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (typeof reasoning === 'string') emit(builder.thinking('reasoning', reasoning));
          if (typeof delta.content === 'string') emit(builder.text('text', delta.content));
          for (const tc of delta.tool_calls ?? []) {
            const index = tc.index ?? 0;
            let slot = byIndex.get(index);
            if (!slot || (tc.id && slot.id && tc.id !== slot.id)) {
              slot = { key: `call${calls++}`, id: tc.id ?? '' };
              byIndex.set(index, slot);
            }
            if (tc.id && !slot.id) slot.id = tc.id;
            if (tc.id || tc.function?.name)
              emit(builder.toolCallStart(slot.key, tc.id ?? '', tc.function?.name ?? ''));
            const args = tc.function?.arguments;
            if (args) {
              if (run && run.key !== slot.key) flush();
              if (run) run.parts.push(args);
              else run = { key: slot.key, parts: [args] };
            }
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
        flush();
        yield* out;
        if (failure !== undefined) throw failure;
        // After [DONE] the body is still read to its end, so the connection can serve the next turn.
      }
    } catch (err) {
      yield { type: 'failure', failure: classifyError(err) };
      return;
    }
    if (finish === null) {
      yield { type: 'failure', failure: streamCutFailure('the stream ended before a finish_reason') };
      return;
    }
    const mapped = mapFinishReason(finish);
    yield* builder.end(mapped.stop, mapped.error);
  }

  return createAdapterProvider(
    {
      name,
      model: config.model,
      idPolicy: OPENAI_CHAT_ID_POLICY,
      attempt,
      priced: !compatible,
      ...(config.priceByServedModel
        ? { pricedAs: () => (lookupModel(config.model) || !served ? undefined : served) }
        : {}),
      secrets: config.secrets,
      meter,
      ...(config.hints ? { hints: config.hints } : {}),
      ...(config.now ? { now: config.now } : {}),
    },
    config.retry,
  );
}
