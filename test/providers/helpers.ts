import type { AssistantMessage, Message, ToolResultMessage } from '../../src/protocol/types.js';
import type { AssistantEvent, Context, Provider, StreamOptions } from '../../src/providers/types.js';

// Shared by the provider tests: draining a stream, building histories, tiny retry delays.

export const FAST_RETRY = {
  maxRetries: 3,
  baseDelayMs: 1,
  maxDelayMs: 5,
  maxTotalMs: 20_000,
  idleTimeoutMs: 10_000,
};

export interface Collected {
  events: AssistantEvent[];
  message: AssistantMessage;
  text: string;
  retries: Extract<AssistantEvent, { type: 'retry' }>[];
}

export async function collect(
  provider: Provider,
  context: Context,
  options?: StreamOptions,
  onEvent?: (e: AssistantEvent) => void,
): Promise<Collected> {
  const events: AssistantEvent[] = [];
  for await (const e of provider.stream(context, options)) {
    events.push(e);
    onEvent?.(e);
  }
  const done = events.filter((e) => e.type === 'done');
  if (done.length !== 1) throw new Error(`expected exactly one done event, got ${done.length}`);
  if (events[events.length - 1]!.type !== 'done') throw new Error('done was not the last event');
  const message = (done[0] as Extract<AssistantEvent, { type: 'done' }>).message;
  const lastRetry = events.map((e) => e.type).lastIndexOf('retry');
  const text = events
    .slice(lastRetry + 1)
    .flatMap((e) => (e.type === 'text_delta' ? [e.delta] : []))
    .join('');
  return {
    events,
    message,
    text,
    retries: events.filter((e): e is Extract<AssistantEvent, { type: 'retry' }> => e.type === 'retry'),
  };
}

export function user(text: string, timestamp = 1): Message {
  return { role: 'user', content: text, timestamp };
}

export function assistant(
  content: AssistantMessage['content'],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: 'assistant',
    content,
    provider: 'anthropic',
    model: 'claude-sonnet-5-5',
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    stopReason: content.some((c) => c.type === 'toolCall') ? 'toolUse' : 'stop',
    timestamp: 2,
    ...extra,
  };
}

export function result(
  toolCallId: string,
  text: string,
  extra: Partial<ToolResultMessage> = {},
): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId,
    toolName: 'read_file',
    content: [{ type: 'text', text }],
    isError: false,
    timestamp: 3,
    ...extra,
  };
}

export const READ_FILE_TOOL = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
};

export function context(messages: Message[], extra: Partial<Context> = {}): Context {
  return { systemPrompt: 'You fix code.', messages, tools: [READ_FILE_TOOL], ...extra };
}
