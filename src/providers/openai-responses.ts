import OpenAI from 'openai';
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseInputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import type { ToolDefinition } from '../protocol/tool.js';
import type { AssistantMessage, ImageContent, Message, ToolResultMessage } from '../protocol/types.js';
import {
  classifyError,
  createAdapterProvider,
  type AdapterSpec,
  type AttemptEvent,
  type AttemptFailure,
  type TurnBuilder,
} from './base.js';
import { foreignThinkingAsText, wireInput } from './convert.js';
import { streamCutFailure } from './errors.js';
import { capabilitiesOf } from './capabilities.js';
import type { FailureHints } from './hints.js';
import { OPENAI_RESPONSES_ID_POLICY } from './ids.js';
import { ByteMeter } from './metered-fetch.js';
import { SdkNotices } from './sdk-notices.js';
import type { RetryPolicy } from './retry.js';
import type { AssistantEvent, Provider } from './types.js';

/*
 * OpenAI Responses API (POST /v1/responses, streamed, store: false).
 *
 * Tool-call ids: the function_call's `call_id` is the protocol id. The API rejects a call_id longer
 * than 64 characters ("Invalid 'input[n].call_id': string too long"), so ids from other providers
 * are rewritten to at most 64 of [A-Za-z0-9_-] for each request (ids.ts); the transcript keeps
 * the originals.
 *
 * Reasoning: with store: false an earlier reasoning item can only be sent back whole, with its
 * encrypted_content (a bare item id fails with "Items are not persisted when `store` is set to
 * false"). Reasoning models are therefore asked for the encrypted content, which is kept as the
 * thinking block's signature and returned to the same model only; reasoning from any other
 * provider or model goes as plain text (convert.ts).
 *
 * Item ids: the API pairs a replayed reasoning item with the item that followed it by that item's
 * id, and refuses the request otherwise ("Item 'rs_…' of type 'reasoning' was provided without
 * its required following item"; langchain-ai/langchainjs#9082 fixed it by sending the
 * function_call's `fc_…` id). So the id of a message or function_call that follows a reasoning
 * item is kept on its block (`itemId`) and sent back with it to the same model, as the docs'
 * "append the response's output to the input" does; other items, and every item of another
 * model, go without ids.
 *
 * Arguments: a call whose argument text never parsed is sent back as `{}`, as every adapter
 * does (convert.ts wireInput); its error result tells the model what was wrong.
 */

export const OPENAI_RESPONSES_PROVIDER = 'openai-responses';

export interface OpenAIResponsesConfig {
  model: string;
  apiKey: string;
  /** Including `/v1`, as the OpenAI SDK takes it. */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
}

/** The signature of a thinking block written by this adapter: the reasoning item to send back. */
interface ReasoningSignature {
  id: string;
  encrypted_content: string;
}

function parseReasoningSignature(signature: string | undefined): ReasoningSignature | undefined {
  if (!signature) return undefined;
  try {
    const value = JSON.parse(signature) as Partial<ReasoningSignature>;
    if (typeof value.id === 'string' && typeof value.encrypted_content === 'string') {
      return { id: value.id, encrypted_content: value.encrypted_content };
    }
  } catch {
    // not ours
  }
  return undefined;
}

function imageUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

function resultOutput(result: ToolResultMessage): string {
  const text = result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
  if (text) return text;
  return result.content.some((c) => c.type === 'image')
    ? '(the image follows in the next message)'
    : '(no output)';
}

function assistantItems(m: AssistantMessage, own: boolean): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const c of m.content) {
    if (c.type === 'text') {
      if (!c.text) continue;
      if (own && c.itemId) {
        items.push({
          type: 'message',
          role: 'assistant',
          id: c.itemId,
          status: 'completed',
          content: [{ type: 'output_text', text: c.text, annotations: [] }],
        });
      } else {
        items.push({ type: 'message', role: 'assistant', content: c.text });
      }
    } else if (c.type === 'thinking') {
      // Only this model's own reasoning reaches here (prepare turned the rest into text).
      const sig = own ? parseReasoningSignature(c.signature) : undefined;
      if (!sig) continue;
      items.push({
        type: 'reasoning',
        id: sig.id,
        summary: c.thinking ? [{ type: 'summary_text', text: c.thinking }] : [],
        encrypted_content: sig.encrypted_content,
      });
    } else {
      items.push({
        type: 'function_call',
        ...(own && c.itemId ? { id: c.itemId } : {}),
        call_id: c.id,
        name: c.name,
        arguments: JSON.stringify(wireInput(c)),
      });
    }
  }
  return items;
}

/**
 * Protocol history → Responses input items. Tool results become function_call_output items; their
 * images go in one user message after the results of that turn, since an output is read as text.
 */
export function toResponsesInput(messages: readonly Message[], model: string): ResponseInputItem[] {
  const input: ResponseInputItem[] = [];
  let pendingImages: ResponseInputItem[] = [];
  const flushImages = () => {
    if (pendingImages.length > 0) input.push(...pendingImages);
    pendingImages = [];
  };
  for (const m of messages) {
    if (m.role !== 'toolResult') flushImages();
    if (m.role === 'user') {
      const content =
        typeof m.content === 'string'
          ? [{ type: 'input_text' as const, text: m.content }]
          : m.content.map((c) =>
              c.type === 'text'
                ? { type: 'input_text' as const, text: c.text }
                : { type: 'input_image' as const, detail: 'auto' as const, image_url: imageUrl(c) },
            );
      input.push({ type: 'message', role: 'user', content });
    } else if (m.role === 'assistant') {
      const own = m.provider === OPENAI_RESPONSES_PROVIDER && m.model === model;
      input.push(...assistantItems(m, own));
    } else {
      input.push({ type: 'function_call_output', call_id: m.toolCallId, output: resultOutput(m) });
      const images = m.content.filter((c): c is ImageContent => c.type === 'image');
      if (images.length > 0) {
        pendingImages.push({
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: `Image output of the ${m.toolName} call ${m.toolCallId}:` },
            ...images.map((c) => ({
              type: 'input_image' as const,
              detail: 'auto' as const,
              image_url: imageUrl(c),
            })),
          ],
        });
      }
    }
  }
  flushImages();
  return input;
}

export function toResponsesTools(tools: readonly ToolDefinition[]): FunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.parameters,
    strict: false,
  }));
}

export function buildResponsesRequest(
  context: { systemPrompt: string; messages: readonly Message[]; tools: readonly ToolDefinition[] },
  model: string,
  maxTokens?: number,
): ResponseCreateParamsStreaming {
  const body: ResponseCreateParamsStreaming = {
    model,
    input: toResponsesInput(context.messages, model),
    stream: true,
    store: false,
  };
  if (context.systemPrompt) body.instructions = context.systemPrompt;
  if (context.tools.length > 0) body.tools = toResponsesTools(context.tools);
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  if (capabilitiesOf(OPENAI_RESPONSES_PROVIDER, model).reasoning)
    body.include = ['reasoning.encrypted_content'];
  return body;
}

function setUsage(builder: TurnBuilder, usage: ResponseUsage | null | undefined): void {
  if (!usage) return;
  // cached_tokens are part of input_tokens: counted once, as cache reads.
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  builder.setUsage({
    inputTokens: Math.max(0, usage.input_tokens - cached),
    cacheReadTokens: cached,
    outputTokens: usage.output_tokens,
  });
}

function failureFrom(message: string, code: string | null | undefined): AttemptFailure {
  return classifyError({ message, error: { code: code ?? undefined, message } });
}

/**
 * Reads one response stream into the TurnBuilder. Content blocks are keyed by output_index.
 * Yields the deltas, then `done` or `failure`; a stream that ends without a terminal event is a
 * cut connection.
 */
export async function* readResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  builder: TurnBuilder,
): AsyncGenerator<AttemptEvent> {
  // Argument characters received per call, so an item that arrives whole (no deltas) still counts.
  const argsSeen = new Map<number, number>();
  const textSeen = new Set<number>();
  const refusals: string[] = [];
  const emit = (e: AssistantEvent | undefined) => (e ? [e] : []);
  // Output items that are reasoning: the item after one is paired with it by id (see above).
  const reasoningAt = new Set<number>();
  const pairedId = (index: number, id: string | undefined) =>
    id && reasoningAt.has(index - 1) ? builder.bind(index, { itemId: id }) : undefined;

  for await (const event of events) {
    switch (event.type) {
      case 'response.output_item.added':
        if (event.item.type === 'reasoning') reasoningAt.add(event.output_index);
        if (event.item.type === 'function_call') {
          yield* emit(builder.toolCallStart(event.output_index, event.item.call_id, event.item.name));
          if (event.item.arguments) {
            argsSeen.set(event.output_index, event.item.arguments.length);
            yield* emit(builder.toolCallDelta(event.output_index, event.item.arguments));
          }
        }
        break;
      case 'response.output_text.delta':
        textSeen.add(event.output_index);
        yield* emit(builder.text(event.output_index, event.delta));
        break;
      case 'response.refusal.delta':
        textSeen.add(event.output_index);
        refusals.push(event.delta);
        yield* emit(builder.text(event.output_index, event.delta));
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        textSeen.add(event.output_index);
        yield* emit(builder.thinking(event.output_index, event.delta));
        break;
      case 'response.function_call_arguments.delta':
        argsSeen.set(event.output_index, (argsSeen.get(event.output_index) ?? 0) + event.delta.length);
        yield* emit(builder.toolCallDelta(event.output_index, event.delta));
        break;
      case 'response.function_call_arguments.done':
        if (!argsSeen.get(event.output_index) && event.arguments) {
          argsSeen.set(event.output_index, event.arguments.length);
          yield* emit(builder.toolCallDelta(event.output_index, event.arguments));
        }
        break;
      case 'response.output_item.done': {
        const item = event.item;
        const index = event.output_index;
        if (item.type === 'function_call') {
          yield* emit(builder.toolCallStart(index, item.call_id, item.name));
          if (!argsSeen.get(index) && item.arguments) {
            argsSeen.set(index, item.arguments.length);
            yield* emit(builder.toolCallDelta(index, item.arguments));
          }
          pairedId(index, item.id);
          yield* emit(builder.toolCallEnd(index));
        } else if (item.type === 'reasoning') {
          reasoningAt.add(index);
          if (!textSeen.has(index)) {
            const summary = item.summary.map((s) => s.text).join('\n\n');
            if (summary) yield* emit(builder.thinking(index, summary));
          }
          if (item.encrypted_content) {
            const sig: ReasoningSignature = { id: item.id, encrypted_content: item.encrypted_content };
            builder.thinkingSignature(index, JSON.stringify(sig));
          }
        } else if (item.type === 'message') {
          if (!textSeen.has(index)) {
            for (const part of item.content) {
              if (part.type === 'output_text') yield* emit(builder.text(index, part.text));
              else {
                refusals.push(part.refusal);
                yield* emit(builder.text(index, part.refusal));
              }
            }
          }
          pairedId(index, item.id);
        }
        break;
      }
      case 'response.completed':
        setUsage(builder, event.response.usage);
        yield* builder.endToolCalls();
        if (refusals.length > 0) {
          yield {
            type: 'failure',
            failure: {
              kind: 'refusal',
              retryable: false,
              message: `The model refused: ${refusals.join('')}`,
            },
          };
        } else {
          yield { type: 'done', message: builder.finish('stop') };
        }
        return;
      case 'response.incomplete': {
        setUsage(builder, event.response.usage);
        const reason = event.response.incomplete_details?.reason;
        if (reason === 'max_output_tokens') {
          yield { type: 'done', message: builder.finish('length') };
        } else if (reason === 'content_filter') {
          yield {
            type: 'failure',
            failure: {
              kind: 'refusal',
              retryable: false,
              message: 'The response was stopped by the content filter.',
            },
          };
        } else {
          yield {
            type: 'failure',
            failure: {
              kind: 'other',
              retryable: false,
              message: `The response is incomplete (${reason ?? 'no reason given'}).`,
            },
          };
        }
        return;
      }
      case 'response.failed': {
        setUsage(builder, event.response.usage);
        const error = event.response.error;
        yield {
          type: 'failure',
          failure: failureFrom(`The response failed: ${error?.message ?? 'no reason given'}`, error?.code),
        };
        return;
      }
      case 'error': {
        const failure = failureFrom(event.message || 'error event in the stream', event.code);
        // An error event without a code is the server failing mid-response: worth another try.
        const uncoded = !event.code && failure.kind === 'other';
        yield {
          type: 'failure',
          failure: uncoded ? { ...failure, kind: 'server', retryable: true } : failure,
        };
        return;
      }
      default:
        break;
    }
  }
  yield { type: 'failure', failure: streamCutFailure() };
}

export function createOpenAIResponsesProvider(cfg: OpenAIResponsesConfig): Provider {
  const notices = new SdkNotices('openai');
  const meter = new ByteMeter();
  const client = new OpenAI({
    logger: notices.logger(),
    apiKey: cfg.apiKey,
    ...(cfg.baseUrl ? { baseURL: cfg.baseUrl } : {}),
    // The harness retries, with events and abortable waits.
    maxRetries: 0,
    fetch: meter.fetch,
  });
  const model = cfg.model;
  const spec: AdapterSpec = {
    name: OPENAI_RESPONSES_PROVIDER,
    model,
    idPolicy: OPENAI_RESPONSES_ID_POLICY,
    secrets: [cfg.apiKey],
    meter,
    ...(cfg.hints ? { hints: cfg.hints } : {}),
    prepare: (messages) =>
      foreignThinkingAsText(messages, (m) => m.provider === OPENAI_RESPONSES_PROVIDER && m.model === model),
    // `signal` is the harness's own for this attempt (released when the attempt ends).
    async *attempt(context, signal, { builder, maxTokens }) {
      const body = buildResponsesRequest(context, model, maxTokens);
      const stream = await client.responses.create(body, { signal });
      yield* notices.drain();
      yield* readResponsesStream(stream, builder);
    },
  };
  return createAdapterProvider(spec, cfg.retry);
}
