import {
  sseFrame,
  startSseServer,
  type FakeProviderServer,
  type RecordedRequest,
  type Reply,
} from './sse.js';

/*
 * A loopback stand-in for the Gemini API's streaming endpoint,
 * POST /v1beta/models/{model}:streamGenerateContent?alt=sse, answering with `data: <json>` frames
 * (no `event:` lines). Each frame is a whole GenerateContentResponse; usageMetadata in later
 * frames repeats the running totals, and function calls arrive whole.
 *
 *   const server = await startGoogleServer([{ chunks: [chunk([part.text('Hi')], { finishReason: 'STOP' })] }]);
 *   new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.url } })   // url is the host root
 *
 * A step is a stream of chunks (`cutAfter` / `hangAfter` as in sse.ts; an `{ error: ... }` chunk is
 * how Gemini reports a failure inside a stream), or a plain HTTP answer with Google's error body.
 * Requests past the end of the script get a 400 saying so.
 */

export type GeminiChunk = Record<string, unknown>;

export type GoogleStep =
  | { chunks: GeminiChunk[]; cutAfter?: number; hangAfter?: number; headers?: Record<string, string> }
  | { status: number; body: unknown; headers?: Record<string, string> };

export type GoogleScript = GoogleStep[] | ((request: RecordedRequest, index: number) => GoogleStep);

/** The body Google sends with an HTTP error (and, inside a stream, as an error chunk). */
export function googleErrorBody(code: number, message: string, status: string) {
  return { error: { code, message, status } };
}

export function googleReply(step: GoogleStep | undefined): Reply {
  if (!step) {
    return {
      kind: 'json',
      status: 400,
      body: googleErrorBody(400, 'fake server: script exhausted', 'INVALID_ARGUMENT'),
    };
  }
  if ('status' in step) return { kind: 'json', status: step.status, body: step.body, headers: step.headers };
  return {
    kind: 'sse',
    frames: step.chunks.map((c) => sseFrame(c)),
    cutAfter: step.cutAfter,
    hangAfter: step.hangAfter,
    headers: step.headers,
  };
}

/** Loopback Gemini API; `url` is the host root, as @google/genai takes `httpOptions.baseUrl`. */
export function startGoogleServer(script: GoogleScript): Promise<FakeProviderServer> {
  return startSseServer({
    route: (method, pathname) =>
      method === 'POST' && /^\/v1beta\/models\/[^/]+:streamGenerateContent$/.test(pathname),
    reply: (request, index) =>
      googleReply(typeof script === 'function' ? script(request, index) : script[index]),
    notFound: (path) => googleErrorBody(404, `Requested entity was not found: ${path}`, 'NOT_FOUND'),
  });
}

// ---- builders ----

export interface GeminiUsage {
  prompt: number;
  candidates: number;
  cached?: number;
  thoughts?: number;
}

export type GeminiPart = Record<string, unknown>;

export const part = {
  text: (text: string): GeminiPart => ({ text }),
  thought: (text: string, thoughtSignature?: string): GeminiPart =>
    thoughtSignature ? { text, thought: true, thoughtSignature } : { text, thought: true },
  call: (
    name: string,
    args: Record<string, unknown>,
    opts: { id?: string; thoughtSignature?: string } = {},
  ) => {
    const functionCall: Record<string, unknown> = { name, args };
    if (opts.id) functionCall.id = opts.id;
    const p: GeminiPart = { functionCall };
    if (opts.thoughtSignature) p.thoughtSignature = opts.thoughtSignature;
    return p;
  },
};

function usageMetadata(u: GeminiUsage) {
  const meta: Record<string, unknown> = {
    promptTokenCount: u.prompt,
    candidatesTokenCount: u.candidates,
    totalTokenCount: u.prompt + u.candidates + (u.thoughts ?? 0),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: u.prompt }],
  };
  if (u.cached !== undefined) {
    meta.cachedContentTokenCount = u.cached;
    meta.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: u.cached }];
  }
  if (u.thoughts !== undefined) meta.thoughtsTokenCount = u.thoughts;
  return meta;
}

/** One streamed GenerateContentResponse with a single candidate. */
export function chunk(
  parts: GeminiPart[],
  opts: { finishReason?: string; finishMessage?: string; usage?: GeminiUsage; model?: string } = {},
): GeminiChunk {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
  if (opts.finishReason) candidate.finishReason = opts.finishReason;
  if (opts.finishMessage) candidate.finishMessage = opts.finishMessage;
  const out: GeminiChunk = { candidates: [candidate] };
  if (opts.usage) out.usageMetadata = usageMetadata(opts.usage);
  out.modelVersion = opts.model ?? 'gemini-test';
  out.responseId = 'resp-fake-1';
  return out;
}

/** The single frame Gemini sends when it refuses the prompt itself. */
export function promptBlocked(
  reason: string,
  usage: GeminiUsage = { prompt: 7, candidates: 0 },
): GeminiChunk {
  return {
    promptFeedback: { blockReason: reason },
    usageMetadata: usageMetadata(usage),
    modelVersion: 'gemini-test',
    responseId: 'resp-fake-1',
  };
}
