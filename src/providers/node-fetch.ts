import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/*
 * The fetch the provider SDKs and Octokit are given: a request over node:http(s) with a keep-alive
 * agent, answered with a standard Response. Node's own fetch parses HTTP with undici's
 * WebAssembly llhttp (compiled when first used, ~25 MB once V8 optimises it) and hands the body
 * over through web streams; node:http parses in C++, and the adapters' SSE reader takes the
 * body's chunks straight from the socket's stream (`bodyChunks`), so a MiB streamed in 16-byte
 * deltas costs no web-stream step per chunk. What this does not cover goes to Node's fetch
 * unchanged: a Request object, a body other than text or bytes, a redirect (the request is made
 * again there, and Node's fetch follows it as fetch does, dropping `authorization` on a move to
 * another origin; the first answer was only the redirect, so nothing was done twice).
 */

type Fetch = typeof globalThis.fetch;

/** Called when the response headers arrive and on each chunk of the body. */
export type OnActivity = () => void;

const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

const NULL_BODY = new Set([204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);
const CHUNKS = Symbol('patchloop.bodyChunks');

type WithChunks = Response & { [CHUNKS]?: () => AsyncIterable<Uint8Array> };

/**
 * The body of a response made by `nodeFetch` as the chunks the socket delivered, when nothing has
 * read it yet; its web stream is locked from then on. Undefined for any other response.
 */
export function bodyChunks(response: Response): AsyncIterable<Uint8Array> | undefined {
  const take = (response as WithChunks)[CHUNKS];
  if (!take || response.bodyUsed || !response.body || response.body.locked) return undefined;
  response.body.getReader(); // the web stream is not read once the chunks are
  return take();
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function requestBody(body: unknown): Buffer | undefined | false {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return false;
}

// An error (an abort, a cut connection) waits on the stream for its reader, who may come later:
// an IncomingMessage keeps one only when something listens, and an error nothing hears is thrown.
const keep = () => {};

function decoded(res: IncomingMessage): Readable {
  res.on('error', keep);
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const unzip =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!unzip) return res;
  unzip.on('error', keep);
  res.on('error', (err) => unzip.destroy(err));
  // A reader that stops early (or bad data) ends the decoder; the response, and so the
  // connection, ends with it rather than staying paused on the socket.
  unzip.once('close', () => {
    if (!res.readableEnded) res.destroy();
  });
  return res.pipe(unzip);
}

/** A web stream that reads `source` only when it is read itself. */
function webBody(source: Readable, onChunk: OnActivity | undefined): ReadableStream<Uint8Array> {
  let it: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        it ??= source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        const { value, done } = await it.next();
        if (done) {
          controller.close();
          return;
        }
        onChunk?.();
        controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      cancel() {
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The chunks of `source`, each reported; stopping early ends the source at once. */
function counted(source: Readable, onChunk: OnActivity | undefined): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      return {
        async next() {
          const r = await it.next();
          if (!r.done) onChunk?.();
          return r;
        },
        async return() {
          source.destroy();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Node's fetch for what nodeFetch leaves to it, with activity reported the same way. */
async function viaNodeFetch(
  input: Parameters<Fetch>[0],
  init: RequestInit | undefined,
  onActivity: OnActivity | undefined,
): Promise<Response> {
  const response = await globalThis.fetch(input, init);
  if (!onActivity) return response;
  onActivity();
  if (!response.body) return response;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onActivity();
        controller.enqueue(chunk);
      },
    }),
  );
  const metered = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(metered, 'url', { value: response.url });
  return metered;
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const given = init?.headers;
  if (!given) return out;
  const h = given instanceof Headers ? given : new Headers(given);
  h.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/**
 * fetch(url, init) over node:http(s). `onActivity` hears of the headers and of each body chunk
 * (see metered-fetch.ts).
 */
export async function nodeFetch(
  input: Parameters<Fetch>[0],
  init?: RequestInit,
  onActivity?: OnActivity,
): Promise<Response> {
  const body = requestBody(init?.body);
  const target = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const url = target === undefined ? undefined : new URL(target);
  if (body === false || !url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return viaNodeFetch(input, init, onActivity);
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) throw abortError(signal);
  const headers = headersOf(init);
  if (body) headers['content-length'] = String(body.length);
  const method = (init?.method ?? 'GET').toUpperCase();

  const attempt = (): Promise<IncomingMessage | 'stale'> =>
    new Promise((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method,
        headers,
        agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
      });
      let response: IncomingMessage | undefined;
      // Before the response the request fails with the abort's reason; after it, the body does.
      const onAbort = () => (response ?? req).destroy(abortError(signal!) as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      req.on('response', (res) => {
        // The body may be read long after; an abort meanwhile ends it with the abort's reason.
        response = res;
        res.once('close', done);
        resolve(res);
      });
      req.on('error', (err) => {
        done();
        if (signal?.aborted) return reject(abortError(signal));
        // A kept-alive connection the server had already closed: sent again on a new one, as
        // Node's documentation advises (the body is bytes, so it can be).
        const code = (err as NodeJS.ErrnoException).code;
        if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) return resolve('stale');
        reject(new TypeError('fetch failed', { cause: err }));
      });
      req.end(body);
    });

  let res = await attempt();
  if (res === 'stale') res = await attempt();
  if (res === 'stale') throw new TypeError('fetch failed: the connection was closed');
  const status = res.statusCode ?? 0;
  if (REDIRECT.has(status) && init?.redirect !== 'manual') {
    res.resume();
    return viaNodeFetch(input, init, onActivity);
  }
  const responseHeaders = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i]!, raw[i + 1]!);
  onActivity?.();
  if (NULL_BODY.has(status) || method === 'HEAD') {
    res.resume();
    const empty = new Response(null, { status, statusText: res.statusMessage, headers: responseHeaders });
    Object.defineProperty(empty, 'url', { value: url.href });
    return empty;
  }
  const source = decoded(res);
  const response = new Response(webBody(source, onActivity), {
    status,
    statusText: res.statusMessage,
    headers: responseHeaders,
  }) as WithChunks;
  Object.defineProperty(response, 'url', { value: url.href });
  Object.defineProperty(response, CHUNKS, { value: () => counted(source, onActivity) });
  return response;
}
