import {
  pieces,
  sseFrame,
  startSseServer,
  type FakeProviderServer,
  type Pieces,
  type RecordedRequest,
  type Reply,
} from './sse.js';

export type { Pieces };

/*
 * A loopback stand-in for OpenAI Chat Completions (POST /v1/chat/completions, stream: true),
 * speaking the real wire format: `data: {chat.completion.chunk}` frames with content deltas and
 * tool_calls deltas by index, a last chunk with finish_reason, then (with
 * stream_options.include_usage) a chunk with empty choices and the usage, then `data: [DONE]`.
 *
 *   const server = await startOpenAIChatServer([turn1, turn2]);    // or (request, index) => turn
 *   new OpenAI({ baseURL: server.url, apiKey: 'test', maxRetries: 0 })   // url ends in /v1
 *
 * A Turn streams `reasoning` (as delta.reasoning_content, which compatible servers send), `text`,
 * `toolCalls` (each `args` piece one arguments delta; the first delta carries id and name), a
 * finish reason (default tool_calls when there are calls, else stop) and `usage` (omitted: no
 * usage chunk). Faults: `http` answers with an error status and OpenAI's error body; `errorChunk`
 * puts a `data: {"error": ...}` frame after `after` frames; `cutAfter` drops the connection;
 * `hangAfter` stops sending and keeps the stream open; `noDone` leaves out `[DONE]`.
 */

export interface ChatUsage {
  prompt: number;
  completion: number;
  cached?: number;
  reasoning?: number;
}

export interface ChatTurn {
  reasoning?: Pieces;
  text?: Pieces;
  toolCalls?: { id: string; name: string; args: Pieces }[];
  finishReason?: string | null;
  usage?: ChatUsage;
  model?: string;
  http?: { status: number; type: string; message: string; code?: string; headers?: Record<string, string> };
  errorChunk?: { message: string; type: string; code?: string; after?: number };
  cutAfter?: number;
  hangAfter?: number;
  noDone?: boolean;
}

export type ChatScript = ChatTurn[] | ((request: RecordedRequest, index: number) => ChatTurn);

export function openaiError(type: string, message: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

export function chatFrames(turn: ChatTurn, index = 0): string[] {
  const base = {
    id: `chatcmpl-fake${index}`,
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: turn.model ?? 'gpt-6.2-sol',
  };
  const withUsage = turn.usage !== undefined;
  const frames: string[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    frames.push(
      sseFrame({
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(withUsage ? { usage: null } : {}),
      }),
    );
  chunk({ role: 'assistant', content: '' });
  for (const r of pieces(turn.reasoning ?? [])) chunk({ reasoning_content: r });
  for (const t of pieces(turn.text ?? [])) chunk({ content: t });
  (turn.toolCalls ?? []).forEach((call, i) => {
    const args = pieces(call.args);
    chunk({
      tool_calls: [{ index: i, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const a of args) chunk({ tool_calls: [{ index: i, function: { arguments: a } }] });
  });
  const finish =
    turn.finishReason === undefined ? (turn.toolCalls?.length ? 'tool_calls' : 'stop') : turn.finishReason;
  if (finish !== null) chunk({}, finish);
  if (turn.usage) {
    const u = turn.usage;
    frames.push(
      sseFrame({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: u.prompt,
          completion_tokens: u.completion,
          total_tokens: u.prompt + u.completion,
          prompt_tokens_details: { cached_tokens: u.cached ?? 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0, audio_tokens: 0 },
        },
      }),
    );
  }
  if (!turn.noDone) frames.push(sseFrame('[DONE]'));
  if (turn.errorChunk) {
    const at = turn.errorChunk.after ?? 1;
    const e = turn.errorChunk;
    frames.splice(at, frames.length - at, sseFrame(openaiError(e.type, e.message, e.code ?? null)));
  }
  return frames;
}

export function chatReply(turn: ChatTurn, index = 0): Reply {
  if (turn.http) {
    const h = turn.http;
    return {
      kind: 'json',
      status: h.status,
      body: openaiError(h.type, h.message, h.code ?? null),
      headers: { 'x-request-id': `req_fake_${index}`, ...h.headers },
    };
  }
  return {
    kind: 'sse',
    frames: chatFrames(turn, index),
    ...(turn.cutAfter !== undefined ? { cutAfter: turn.cutAfter } : {}),
    ...(turn.hangAfter !== undefined ? { hangAfter: turn.hangAfter } : {}),
    headers: { 'x-request-id': `req_fake_${index}` },
  };
}

export async function startOpenAIChatServer(script: ChatScript): Promise<FakeProviderServer> {
  const server = await startSseServer({
    route: (method, path) => method === 'POST' && path === '/v1/chat/completions',
    notFound: (path) =>
      openaiError('invalid_request_error', `Unknown request URL: POST ${path}`, 'unknown_url'),
    reply: (request, index) => {
      const turn = typeof script === 'function' ? script(request, index) : script[index];
      if (!turn) {
        return {
          kind: 'json',
          status: 400,
          body: openaiError(
            'invalid_request_error',
            `fake server: no scripted turn for request ${index + 1}`,
          ),
        };
      }
      return chatReply(turn, index);
    },
  });
  return { ...server, url: `${server.url}/v1` };
}
