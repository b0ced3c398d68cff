import {
  keepAlives,
  pieces,
  sseFrame,
  startSseServer,
  type FakeProviderServer,
  type Pause,
  type Pieces,
  type RecordedRequest,
  type Reply,
} from './sse.js';

export type { Pieces };

/*
 * A loopback stand-in for the Anthropic Messages API (POST /v1/messages, stream: true), speaking
 * the real SSE wire format: every frame an `event:` line and a `data:` line (message_start, ping,
 * content_block_start / _delta / _stop, message_delta, message_stop, error).
 *
 *   const server = await startAnthropicServer([turn1, turn2]);     // or (request, index) => turn
 *   new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 })
 *   server.requests[0].body                                         // what the client sent
 *
 * A Turn is either a streamed answer (blocks, or the `text` / `toolCalls` shorthands, a stop
 * reason, usage) or a fault: `http` answers with an error status and Anthropic's error body;
 * `errorEvent` puts an `event: error` frame into the stream after `after` frames; `cutAfter` drops
 * the connection after that many frames; `hangAfter` stops sending and keeps the stream open.
 * Each delta string of `text: [...]` / `json: [...]` becomes one content_block_delta frame.
 * `thinkSilently` sends `event: ping` frames for a while after message_start, as the API does
 * while the model works (the SDK drops pings: only the bytes show the connection is alive).
 * A request beyond the end of a script array gets a 400 saying so, and so does one whose
 * tool_use ids repeat, in the API's words ("messages.1.content.1: `tool_use` ids must be unique"),
 * and one carrying an image whose base64 text is over 5 MB ("messages.1.content.0.content.1.image
 * .source.base64: image exceeds 5 MB maximum: 6291456 bytes > 5242880 bytes").
 */

export type AnthropicBlock =
  | { type: 'text'; text: Pieces }
  | { type: 'thinking'; thinking: Pieces; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: Pieces };

export interface AnthropicUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface AnthropicTurn {
  blocks?: AnthropicBlock[];
  /** Shorthand for a leading text block. */
  text?: Pieces;
  /** Shorthand for tool_use blocks after the text. */
  toolCalls?: { id: string; name: string; json: Pieces }[];
  /** Defaults to tool_use when there are tool calls, else end_turn. */
  stopReason?: string;
  usage?: AnthropicUsage;
  model?: string;
  http?: { status: number; type: string; message: string; headers?: Record<string, string> };
  errorEvent?: { type: string; message: string; after?: number };
  thinkSilently?: { pings: number; everyMs: number };
  cutAfter?: number;
  hangAfter?: number;
  /**
   * Render the frames once and reuse them for every later request answered with this same turn
   * object (a benchmark keeps the fake's own rendering out of what it measures).
   */
  renderOnce?: boolean;
}

export type AnthropicScript = AnthropicTurn[] | ((request: RecordedRequest, index: number) => AnthropicTurn);

export function anthropicError(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

export function blocksOf(turn: AnthropicTurn): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [...(turn.blocks ?? [])];
  if (turn.text !== undefined) blocks.unshift({ type: 'text', text: turn.text });
  for (const c of turn.toolCalls ?? []) blocks.push({ type: 'tool_use', ...c });
  return blocks;
}

/** The SSE frames of a streamed turn. */
export function anthropicFrames(turn: AnthropicTurn, index = 0): (string | Pause)[] {
  const blocks = blocksOf(turn);
  const usage = turn.usage ?? {};
  const stopReason = turn.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const frames: (string | Pause)[] = [];
  const push = (type: string, data: Record<string, unknown>) =>
    frames.push(sseFrame({ type, ...data }, type));
  push('message_start', {
    message: {
      id: `msg_fake_${index}`,
      type: 'message',
      role: 'assistant',
      model: turn.model ?? 'claude-sonnet-5-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input ?? 0,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        output_tokens: 1,
      },
    },
  });
  frames.push(sseFrame({ type: 'ping' }, 'ping'));
  if (turn.thinkSilently) {
    const t = turn.thinkSilently;
    frames.push(...keepAlives(sseFrame({ type: 'ping' }, 'ping'), t.pings, t.everyMs));
  }
  blocks.forEach((b, i) => {
    switch (b.type) {
      case 'text':
        push('content_block_start', { index: i, content_block: { type: 'text', text: '' } });
        for (const text of pieces(b.text))
          push('content_block_delta', { index: i, delta: { type: 'text_delta', text } });
        break;
      case 'thinking':
        push('content_block_start', {
          index: i,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        for (const thinking of pieces(b.thinking)) {
          push('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking } });
        }
        push('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: b.signature } });
        break;
      case 'redacted_thinking':
        push('content_block_start', { index: i, content_block: { type: 'redacted_thinking', data: b.data } });
        break;
      case 'tool_use':
        push('content_block_start', {
          index: i,
          content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
        });
        for (const partial_json of pieces(b.json)) {
          push('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json } });
        }
        break;
    }
    push('content_block_stop', { index: i });
  });
  push('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output ?? 0 },
  });
  push('message_stop', {});
  if (turn.errorEvent) {
    const at = turn.errorEvent.after ?? 2;
    frames.splice(
      at,
      frames.length - at,
      sseFrame(anthropicError(turn.errorEvent.type, turn.errorEvent.message), 'error'),
    );
  }
  return frames;
}

const renderedFrames = new WeakMap<AnthropicTurn, Map<number, (string | Pause)[]>>();

function rendered(turn: AnthropicTurn, index: number): (string | Pause)[] {
  let byIndex = renderedFrames.get(turn);
  if (!byIndex) renderedFrames.set(turn, (byIndex = new Map()));
  let frames = byIndex.get(index);
  if (!frames) byIndex.set(index, (frames = anthropicFrames(turn, index)));
  return frames;
}

export function anthropicReply(turn: AnthropicTurn, index = 0): Reply {
  if (turn.http) {
    return {
      kind: 'json',
      status: turn.http.status,
      body: anthropicError(turn.http.type, turn.http.message),
      headers: { 'request-id': `req_fake_${index}`, ...turn.http.headers },
    };
  }
  return {
    kind: 'sse',
    frames: turn.renderOnce ? rendered(turn, index) : anthropicFrames(turn, index),
    ...(turn.cutAfter !== undefined ? { cutAfter: turn.cutAfter } : {}),
    ...(turn.hangAfter !== undefined ? { hangAfter: turn.hangAfter } : {}),
    headers: { 'request-id': `req_fake_${index}` },
  };
}

const IMAGE_LIMIT = 5 * 1024 * 1024;

/** The API's message for the first image over 5 MB of base64, with its place in the request. */
function oversizedImage(body: unknown): string | undefined {
  const messages = (body as { messages?: { content?: unknown }[] } | undefined)?.messages;
  if (!Array.isArray(messages)) return undefined;
  type Block = { type?: string; source?: { data?: string }; content?: unknown };
  const look = (blocks: unknown, where: string): string | undefined => {
    if (!Array.isArray(blocks)) return undefined;
    for (const [k, b] of (blocks as Block[]).entries()) {
      const data = b.type === 'image' ? b.source?.data : undefined;
      if (typeof data === 'string' && data.length > IMAGE_LIMIT) {
        return `${where}.${k}.image.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${IMAGE_LIMIT} bytes`;
      }
      const inner = b.type === 'tool_result' ? look(b.content, `${where}.${k}.content`) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  for (const [n, m] of messages.entries()) {
    const found = look(m.content, `messages.${n}.content`);
    if (found) return found;
  }
  return undefined;
}

/** Where a request's tool_use ids first repeat (`messages.N.content.M`), as the API checks. */
function repeatedToolUseId(body: unknown): string | undefined {
  const messages = (body as { messages?: { content?: unknown }[] } | undefined)?.messages;
  if (!Array.isArray(messages)) return undefined;
  const seen = new Set<string>();
  for (const [n, m] of messages.entries()) {
    if (!Array.isArray(m.content)) continue;
    for (const [k, block] of (m.content as { type?: string; id?: string }[]).entries()) {
      if (block.type !== 'tool_use' || typeof block.id !== 'string') continue;
      if (seen.has(block.id)) return `messages.${n}.content.${k}`;
      seen.add(block.id);
    }
  }
  return undefined;
}

/** A script may also answer later (a test that acts on GitHub while the model "thinks"). */
export function startAnthropicServer(
  script: AnthropicScript | ((request: RecordedRequest, index: number) => Promise<AnthropicTurn>),
): Promise<FakeProviderServer> {
  return startSseServer({
    route: (method, path) => method === 'POST' && path === '/v1/messages',
    notFound: (path) => anthropicError('not_found_error', `Not found: ${path}`),
    reply: async (request, index) => {
      const oversized = oversizedImage(request.body);
      if (oversized)
        return { kind: 'json', status: 400, body: anthropicError('invalid_request_error', oversized) };
      const repeated = repeatedToolUseId(request.body);
      if (repeated) {
        return {
          kind: 'json',
          status: 400,
          body: anthropicError('invalid_request_error', `${repeated}: \`tool_use\` ids must be unique`),
        };
      }
      const turn = typeof script === 'function' ? await script(request, index) : script[index];
      if (!turn) {
        return {
          kind: 'json',
          status: 400,
          body: anthropicError(
            'invalid_request_error',
            `fake server: no scripted turn for request ${index + 1}`,
          ),
        };
      }
      return anthropicReply(turn, index);
    },
  });
}
