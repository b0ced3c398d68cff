import Anthropic from '@anthropic-ai/sdk';
import type { ToolDefinition } from '../protocol/tool.js';
import type { ErrorKind, ImageContent, Message, StopReason, TextContent } from '../protocol/types.js';
import { createAdapterProvider, type AttemptEvent, type AttemptOptions } from './base.js';
import { foreignThinkingAsText, wireInput } from './convert.js';
import { classifyError, streamCutFailure, unknownStop } from './errors.js';
import { capabilitiesOf } from './capabilities.js';
import type { FailureHints } from './hints.js';
import { ANTHROPIC_ID_POLICY } from './ids.js';
import { ByteMeter } from './metered-fetch.js';
import { SdkNotices } from './sdk-notices.js';
import { sseBatches } from './sse-reader.js';
import type { TurnBuilder } from './turn-builder.js';
import type { RetryPolicy } from './retry.js';
import type { Context, Provider } from './types.js';

type Param = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;

export interface AnthropicConfig {
  model: string;
  apiKey: string;
  /** Host root (the SDK appends /v1/messages). */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
  now?: () => number;
}

const DEFAULT_MAX_TOKENS = 16_384;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const EPHEMERAL = { type: 'ephemeral' } as const;

function image(c: ImageContent): Anthropic.ImageBlockParam | Anthropic.TextBlockParam {
  if (!IMAGE_TYPES.has(c.mimeType))
    return { type: 'text', text: `(an image of type ${c.mimeType} was left out)` };
  return {
    type: 'image',
    source: {
      type: 'base64',
      media_type: c.mimeType as Anthropic.Base64ImageSource['media_type'],
      data: c.data,
    },
  };
}

// Anthropic rejects empty text blocks ("text content blocks must be non-empty").
function blocks(content: string | (TextContent | ImageContent)[], empty: string) {
  const parts = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
  const out: (Anthropic.TextBlockParam | Anthropic.ImageBlockParam)[] = [];
  for (const c of parts) {
    if (c.type === 'image') out.push(image(c));
    else if (c.text) out.push({ type: 'text', text: c.text });
  }
  return out.length > 0 ? out : [{ type: 'text' as const, text: empty }];
}

/**
 * Protocol messages → Messages API messages (consecutive same-role messages are merged). A request
 * that offers no tools may not carry tool_use / tool_result blocks ("Requests which include
 * `tool_use` or `tool_result` blocks must define tools"), so without tools they are sent as text.
 */

// An argument delta as the API writes it. A run of them in one chunk is decoded with one
// JSON.parse of the joined string bodies instead of one per frame (a MiB in 16-byte deltas is
// ~70,000 frames); anything that does not look exactly like this takes JSON.parse.
const PIECE_HEAD = '{"type":"content_block_delta","index":';
const PIECE_MID = ',"delta":{"type":"input_json_delta","partial_json":"';
const PIECE_TAIL = '"}}';

/** The block index and the raw JSON string body of an argument delta frame, or undefined. */
export function argumentPiece(data: string): { index: number; raw: string } | undefined {
  if (!data.startsWith(PIECE_HEAD) || !data.endsWith(PIECE_TAIL)) return undefined;
  let at = PIECE_HEAD.length;
  let index = 0;
  const digits = at;
  for (let c = data.charCodeAt(at); c >= 48 && c <= 57 && at - digits < 6; c = data.charCodeAt(++at))
    index = index * 10 + (c - 48);
  if (at === digits || !data.startsWith(PIECE_MID, at)) return undefined;
  const raw = data.slice(at + PIECE_MID.length, data.length - PIECE_TAIL.length);
  // An escape cut short at the end (`\u00`) would be completed by the next piece's text once
  // joined: such a piece is parsed on its own, and fails there as it should.
  // Only the last backslash can start such an escape (four hex digits hold none), and only when
  // it is within six characters of the end and not itself escaped.
  const last = raw.lastIndexOf('\\');
  if (last >= 0 && last >= raw.length - 6) {
    let run = 1;
    while (last - run >= 0 && raw.charCodeAt(last - run) === 0x5c) run++;
    const needs = raw.charCodeAt(last + 1) === 0x75 ? 6 : 2;
    if (run % 2 === 1 && last + needs > raw.length) return undefined;
  }
  return { index, raw };
}

/**
 * The text of a run of argument deltas: the raw bodies joined and decoded at once. A body that is
 * not a valid JSON string on its own (an unescaped quote, a control character) makes the joined
 * one invalid too; then each frame is parsed as it came, so a malformed frame fails as it would.
 */
function joinedDeltas(run: { parts: string[]; raw: string[]; frames: string[] }): string {
  if (run.raw.length) {
    let text: string;
    try {
      text = JSON.parse(`"${run.raw.join('')}"`) as string;
    } catch {
      text = run.frames
        .map((f) => (JSON.parse(f) as { delta: { partial_json: string } }).delta.partial_json)
        .join('');
    }
    run.parts.push(text);
    run.raw = [];
    run.frames = [];
  }
  const joined = run.parts.length === 1 ? run.parts[0]! : run.parts.join('');
  run.parts = [];
  return joined;
}

export function toAnthropicMessages(messages: readonly Message[], toolsOffered = true): Param[] {
  const out: Param[] = [];
  const add = (role: 'user' | 'assistant', content: Block[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) (last.content as Block[]).push(...content);
    else out.push({ role, content } as Param);
  };
  for (const m of messages) {
    if (m.role === 'user') {
      add('user', blocks(m.content, '(empty message)'));
    } else if (m.role === 'toolResult' && !toolsOffered) {
      const note = {
        type: 'text' as const,
        text: `Result of tool call ${m.toolCallId}${m.isError ? ' (error)' : ''}:`,
      };
      add('user', [note, ...blocks(m.content, '(no output)')]);
    } else if (m.role === 'toolResult') {
      add('user', [
        {
          type: 'tool_result',
          tool_use_id: m.toolCallId,
          content: blocks(m.content, '(no output)'),
          ...(m.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      const content: Block[] = [];
      for (const c of m.content) {
        if (c.type === 'text') {
          if (c.text) content.push({ type: 'text', text: c.text });
        } else if (c.type === 'thinking') {
          if (c.redacted) content.push({ type: 'redacted_thinking', data: c.thinking });
          else if (c.signature)
            content.push({ type: 'thinking', thinking: c.thinking, signature: c.signature });
          else if (c.thinking.trim()) content.push({ type: 'text', text: c.thinking });
        } else if (toolsOffered) {
          content.push({ type: 'tool_use', id: c.id, name: c.name, input: wireInput(c) });
        } else {
          content.push({
            type: 'text',
            text: `Tool call ${c.id}: ${c.name} ${JSON.stringify(wireInput(c))}`,
          });
        }
      }
      if (content.length > 0) add('assistant', content);
    }
  }
  markCacheBreakpoints(out);
  return out;
}

/**
 * Prompt caching: the tools and the system prompt carry one breakpoint each (see request()), and
 * the last two user messages one each, so every request reads the conversation up to the previous
 * turn from cache and writes the new turn (4 breakpoints, the API's maximum).
 */
function markCacheBreakpoints(messages: Param[]): void {
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < 2; i--) {
    const m = messages[i]!;
    if (m.role !== 'user' || typeof m.content === 'string' || m.content.length === 0) continue;
    const last = m.content[m.content.length - 1] as Block & { cache_control?: unknown };
    if (last.type === 'text' || last.type === 'image' || last.type === 'tool_result') {
      m.content[m.content.length - 1] = { ...last, cache_control: EPHEMERAL } as Block;
      marked++;
    }
  }
}

function toAnthropicTools(tools: readonly ToolDefinition[]): Anthropic.Tool[] {
  return tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as Anthropic.Tool.InputSchema,
    ...(i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}

function mapStopReason(reason: string | null): {
  stop: StopReason;
  error?: string | { message: string; kind: ErrorKind };
} {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return { stop: 'stop' };
    case 'tool_use':
      return { stop: 'toolUse' };
    case 'max_tokens':
      return { stop: 'length' };
    case 'model_context_window_exceeded':
      // The conversation filled the context window (not the output limit): asking the model to
      // continue would only make it larger, so the loop compacts it instead.
      return {
        stop: 'error',
        error: {
          message:
            'The conversation filled the model’s context window (stop reason "model_context_window_exceeded").',
          kind: 'context_length',
        },
      };
    case 'refusal':
      return { stop: 'error', error: 'The model declined to answer (stop reason "refusal").' };
    default:
      // A stop reason added to the API after this adapter: what the turn holds is not known to
      // be complete, so it is an error that names the reason, never a success.
      return { stop: 'error', error: unknownStop('Anthropic', 'stop reason', reason) };
  }
}

/** An `event: error` frame as the SDK's own reader turns it into an error. */
function errorFrame(data: string, headers: Headers): Error {
  let body: unknown = data;
  try {
    body = JSON.parse(data);
  } catch {
    // the raw text then
  }
  const type = (body as { error?: { type?: string } } | null)?.error?.type;
  return new Anthropic.APIError(
    undefined,
    body as object,
    undefined,
    headers,
    type as ConstructorParameters<typeof Anthropic.APIError>[4],
  );
}

interface TurnState {
  stopReason: string | null;
  stopped: boolean;
}

/** What the Messages stream code needs of a client: the direct API's, Bedrock's or Vertex's. */
export interface MessagesClient {
  messages: Pick<Anthropic['messages'], 'create'>;
}

/** A Messages API adapter on a client someone built (the direct API, Bedrock, Vertex). */
export interface AnthropicMessagesSpec {
  /** provider name as in the `provider` input */
  name: string;
  model: string;
  client: MessagesClient;
  /** The meter whose fetch the client was given, and the notices its logger writes to. */
  meter: ByteMeter;
  notices: SdkNotices;
  /** Credentials that must never appear in a message. */
  secrets: string[];
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
  now?: () => number;
}

export function createAnthropicProvider(config: AnthropicConfig): Provider {
  const notices = new SdkNotices('@anthropic-ai/sdk');
  const meter = new ByteMeter();
  const client = new Anthropic({
    logger: notices.logger(),
    apiKey: config.apiKey,
    ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
    // Our retry policy retries (with events); the SDK's own retries would be invisible.
    maxRetries: 0,
    fetch: meter.fetch,
  });
  return createAnthropicMessagesProvider({
    name: 'anthropic',
    model: config.model,
    client,
    meter,
    notices,
    secrets: [config.apiKey],
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.hints ? { hints: config.hints } : {}),
    ...(config.now ? { now: config.now } : {}),
  });
}

export function createAnthropicMessagesProvider(config: AnthropicMessagesSpec): Provider {
  const { client, meter, notices } = config;
  const maxOutput = capabilitiesOf(config.name, config.model).maxOutputTokens ?? DEFAULT_MAX_TOKENS;

  function request(ctx: Context, maxTokens: number | undefined): Anthropic.MessageCreateParamsStreaming {
    return {
      model: config.model,
      max_tokens: Math.min(maxTokens ?? DEFAULT_MAX_TOKENS, maxOutput),
      ...(ctx.systemPrompt
        ? { system: [{ type: 'text', text: ctx.systemPrompt, cache_control: EPHEMERAL }] }
        : {}),
      ...(ctx.tools.length > 0 ? { tools: toAnthropicTools(ctx.tools) } : {}),
      messages: toAnthropicMessages(ctx.messages, ctx.tools.length > 0),
      stream: true,
    };
  }

  /** One parsed event of the stream into the builder; returns the event to yield, if any. */
  function apply(
    ev: Anthropic.RawMessageStreamEvent,
    builder: TurnBuilder,
    turn: TurnState,
  ): AttemptEvent | undefined {
    switch (ev.type) {
      case 'message_start': {
        const u = ev.message.usage;
        builder.setUsage({
          inputTokens: u.input_tokens,
          outputTokens: u.output_tokens,
          cacheReadTokens: u.cache_read_input_tokens ?? 0,
          cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
        });
        return undefined;
      }
      case 'content_block_start': {
        const b = ev.content_block;
        if (b.type === 'tool_use') return builder.toolCallStart(ev.index, b.id, b.name);
        if (b.type === 'text') return builder.text(ev.index, b.text);
        if (b.type === 'thinking') return builder.thinking(ev.index, b.thinking);
        if (b.type === 'redacted_thinking') builder.redactedThinking(ev.index, b.data);
        return undefined;
      }
      case 'content_block_delta': {
        const d = ev.delta;
        if (d.type === 'text_delta') return builder.text(ev.index, d.text);
        if (d.type === 'input_json_delta') return builder.toolCallDelta(ev.index, d.partial_json);
        if (d.type === 'thinking_delta') return builder.thinking(ev.index, d.thinking);
        if (d.type === 'signature_delta') builder.thinkingSignature(ev.index, d.signature);
        return undefined;
      }
      case 'content_block_stop':
        return builder.toolCallEnd(ev.index);
      case 'message_delta': {
        turn.stopReason = ev.delta.stop_reason ?? turn.stopReason;
        const u = ev.usage;
        builder.setUsage({
          outputTokens: u.output_tokens,
          ...(u.input_tokens != null ? { inputTokens: u.input_tokens } : {}),
          ...(u.cache_read_input_tokens != null ? { cacheReadTokens: u.cache_read_input_tokens } : {}),
          ...(u.cache_creation_input_tokens != null
            ? { cacheWriteTokens: u.cache_creation_input_tokens }
            : {}),
        });
        return undefined;
      }
      case 'message_stop':
        turn.stopped = true;
        return undefined;
      default:
        return undefined;
    }
  }

  async function* attempt(
    ctx: Context,
    signal: AbortSignal,
    opts: AttemptOptions,
  ): AsyncGenerator<AttemptEvent> {
    const { builder } = opts;
    const turn: TurnState = { stopReason: null, stopped: false };
    try {
      // The SDK makes the request (headers, error statuses → its errors); the body is read here,
      // a chunk's frames at a time (sse-reader.ts), instead of through its Stream, frame by frame.
      const pending = notices.capture(() =>
        client.messages.create(request(ctx, opts.maxTokens), { signal }).asResponse(),
      );
      yield* notices.drain();
      const response = await pending;
      if (!response.body)
        throw new Anthropic.AnthropicError('the response to a streamed request had no body');
      for await (const frames of sseBatches(response.body)) {
        const out: AttemptEvent[] = [];
        // A run of argument deltas to one tool call within the chunk goes to the builder as one
        // delta (a MiB of arguments in 16-byte pieces is ~70,000 frames). Text and thinking keep
        // an event per frame.
        let run: { index: number; parts: string[]; raw: string[]; frames: string[] } | undefined;
        const flush = () => {
          if (!run) return;
          const e = builder.toolCallDelta(run.index, joinedDeltas(run));
          if (e) out.push(e);
          run = undefined;
        };
        let failure: unknown;
        for (const frame of frames) {
          // As the SDK's reader: pings and unnamed frames carry nothing; an error frame is an APIError.
          if (frame.event === 'ping' || frame.event === null) continue;
          if (frame.event === 'error') {
            failure = errorFrame(frame.data, response.headers);
            break;
          }
          if (!frame.data) continue;
          const piece = frame.event === 'content_block_delta' ? argumentPiece(frame.data) : undefined;
          if (piece) {
            if (run && run.index !== piece.index) flush();
            run ??= { index: piece.index, parts: [], raw: [], frames: [] };
            run.raw.push(piece.raw);
            run.frames.push(frame.data);
            continue;
          }
          const ev = JSON.parse(frame.data) as Anthropic.RawMessageStreamEvent;
          if (ev.type === 'content_block_delta' && ev.delta.type === 'input_json_delta') {
            if (run && run.index !== ev.index) flush();
            run ??= { index: ev.index, parts: [], raw: [], frames: [] };
            if (run.raw.length) run.parts.push(joinedDeltas(run));
            run.parts.push(ev.delta.partial_json);
            continue;
          }
          flush();
          const e = apply(ev, builder, turn);
          if (e) out.push(e);
        }
        flush();
        yield* out;
        if (failure !== undefined) throw failure;
      }
    } catch (err) {
      // The SDK ends quietly when the request is aborted; so does this reader.
      if (!signal.aborted) {
        yield { type: 'failure', failure: classifyError(err) };
        return;
      }
    }
    // A missing message_stop is either an abort or a connection that closed early; the harness
    // tells them apart by the signal.
    if (!turn.stopped) {
      yield { type: 'failure', failure: streamCutFailure('the stream ended before message_stop') };
      return;
    }
    const mapped = mapStopReason(turn.stopReason);
    yield* builder.end(mapped.stop, mapped.error);
  }

  return createAdapterProvider(
    {
      name: config.name,
      model: config.model,
      idPolicy: ANTHROPIC_ID_POLICY,
      // Signed thinking is bound to the model that wrote it (Claude Sonnet 5.5 rejects others').
      prepare: (messages) =>
        foreignThinkingAsText(messages, (m) => m.provider === config.name && m.model === config.model),
      attempt,
      secrets: config.secrets,
      meter,
      ...(config.hints ? { hints: config.hints } : {}),
      ...(config.now ? { now: config.now } : {}),
    },
    config.retry,
  );
}
