import type { ToolDefinition } from '../protocol/tool.js';
import type { Capabilities } from './capabilities.js';
import type { AssistantMessage, ErrorKind, Message, ToolCall, Usage } from '../protocol/types.js';

export const PROVIDER_NAMES = [
  'anthropic',
  'openai',
  'openai-responses',
  'google',
  'openai-compatible',
  'anthropic-bedrock',
  'anthropic-vertex',
  'google-vertex',
  'azure-openai',
] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Everything a model request carries. Messages are in protocol form, with original tool-call ids. */
export interface Context {
  systemPrompt: string;
  messages: Message[];
  tools: ToolDefinition[];
}

/**
 * Events of one streamed turn. The stream always ends with exactly one `done` event carrying the
 * final message, whatever happened (its stopReason says `error` or `aborted` when things failed).
 * `retry` and `fallback` are progress reports from the retry policy and the fallback chain.
 */
export type AssistantEvent =
  | { type: 'start'; provider: string; model: string }
  | { type: 'text_delta'; delta: string }
  | { type: 'thinking_delta'; delta: string }
  | { type: 'toolcall_start'; index: number; id: string; name: string }
  /** `partial` holds the top-level fields parsed so far (for progress, e.g. the path). */
  | { type: 'toolcall_delta'; index: number; delta: string; partial?: Record<string, unknown> }
  | { type: 'toolcall_end'; index: number; toolCall: ToolCall }
  | {
      type: 'retry';
      attempt: number;
      delayMs: number;
      status?: number;
      errorKind: ErrorKind;
      message: string;
      /** What the provider reported for the failed attempt (billed; also in the turn's usage). */
      usage?: Usage;
    }
  /** `usage`: what the primary's failed turn was billed (also in the fallback turn's usage). */
  | { type: 'fallback'; from: string; to: string; reason: string; usage?: Usage }
  /** Something the SDK said by itself (a model's deprecation, say), kept off the terminal. */
  | { type: 'notice'; source: string; message: string }
  | { type: 'done'; message: AssistantMessage };

export interface StreamOptions {
  signal?: AbortSignal;
  /** Output token limit of the request. */
  maxTokens?: number;
}

export interface Provider {
  /** provider name as in the `provider` input */
  readonly name: string;
  readonly model: string;
  /** Context window in tokens when known (for compaction). */
  readonly contextWindow?: number;
  /** What the model takes and needs (images and their limits, reasoning, ...), when known. */
  readonly capabilities?: Capabilities;
  /** Streams one assistant turn. Never throws once called: failures end in a `done` with stopReason `error`. */
  stream(context: Context, options?: StreamOptions): AsyncIterable<AssistantEvent>;
}

/** Drains a stream and returns its final message. */
export async function complete(
  provider: Provider,
  context: Context,
  options?: StreamOptions,
  onEvent?: (e: AssistantEvent) => void,
): Promise<AssistantMessage> {
  let final: AssistantMessage | undefined;
  for await (const event of provider.stream(context, options)) {
    onEvent?.(event);
    if (event.type === 'done') final = event.message;
  }
  if (!final) throw new Error(`provider ${provider.name} ended its stream without a final message`);
  return final;
}
