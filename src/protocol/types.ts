// The message protocol shared by every layer. Pure data: nothing here does I/O.

export interface TextContent {
  type: 'text';
  text: string;
  /** Assistant text only: see ProviderBinding. */
  signature?: ProviderBinding['signature'];
  itemId?: ProviderBinding['itemId'];
}

/**
 * What a provider attached to an assistant block so that the same model can verify or pair it
 * when the block is sent back; sent to that provider and model only, never to another.
 *
 *   signature  Gemini's thoughtSignature on a functionCall or text part (Gemini 3 rejects a
 *              replayed call without it);
 *   itemId     the OpenAI Responses output item id (`fc_…`, `msg_…`): a replayed reasoning item
 *              is paired with the item that followed it by this id.
 */
export interface ProviderBinding {
  signature?: string;
  itemId?: string;
}

export interface ImageContent {
  type: 'image';
  /** base64, without a data: prefix */
  data: string;
  mimeType: string;
}

/** Reasoning a provider returned; kept for the same provider, turned into text or dropped for others. */
export interface ThinkingContent {
  type: 'thinking';
  thinking: string;
  /** Provider-specific opaque signature (Anthropic) needed to send the block back unchanged. */
  signature?: string;
  /** Set when the provider redacted the reasoning; `thinking` then holds the opaque payload. */
  redacted?: boolean;
}

/**
 * A request from the model to run a tool. `input` is the parsed argument object, or the raw
 * argument text when it could not be parsed (it is then answered with an error result).
 */
export interface ToolCall extends ProviderBinding {
  type: 'toolCall';
  id: string;
  name: string;
  input: Record<string, unknown> | string;
}

export type UserContent = TextContent | ImageContent;
export type AssistantContent = TextContent | ThinkingContent | ToolCall;
export type ToolResultContent = TextContent | ImageContent;

export const STOP_REASONS = ['stop', 'toolUse', 'length', 'error', 'aborted'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** Why a turn failed, so the loop can act on it without knowing the provider. */
export type ErrorKind =
  | 'context_length'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'auth'
  | 'bad_request'
  | 'refusal'
  /** The model produced a tool call the API could not read (Gemini MALFORMED_FUNCTION_CALL). */
  | 'malformed_call'
  | 'other';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Estimated from the price table; absent when the model's price is unknown. */
  costUsd?: number;
}

export interface UserMessage {
  role: 'user';
  content: string | UserContent[];
  /** milliseconds since the epoch */
  timestamp: number;
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContent[];
  /** provider name as in the `provider` input (`anthropic`, `openai`, ...) */
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  errorKind?: ErrorKind;
  timestamp: number;
}

export interface ToolResultMessage<TDetails = unknown> {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: ToolResultContent[];
  /** For people and the UI only; never sent to a model. */
  details?: TDetails;
  isError: boolean;
  timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** Sums two usages. The cost sums the parts whose price is known; absent when neither is. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
  if (a.costUsd !== undefined || b.costUsd !== undefined) sum.costUsd = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return sum;
}

export function textOf(content: string | readonly (UserContent | AssistantContent)[]): string {
  if (typeof content === 'string') return content;
  return content
    .filter((c): c is TextContent => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((c): c is ToolCall => c.type === 'toolCall');
}
