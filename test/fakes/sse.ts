import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * A loopback HTTP server for provider fakes. Each request to the route is recorded and answered
 * by `reply(request, index)` with one Reply:
 *
 *   { kind: 'sse', frames, cutAfter?, hangAfter?, headers? }
 *       a text/event-stream response writing `frames` (already formatted, see sseFrame; frames
 *       without a pause between them are written together, up to 16 KiB at a time; a
 *       `{ pauseMs }` item waits that long before the next frame, as a server does while the
 *       model thinks, and counts as a frame for cutAfter / hangAfter);
 *       `cutAfter: n` destroys the socket after n frames (a connection lost mid-stream);
 *       `hangAfter: n` stops after n frames and keeps the response open until the client leaves.
 *   { kind: 'json', status, body, headers? }
 *       a plain JSON response (errors: 400, 429 with retry-after, 500, 529, ...).
 *
 * Other paths get a 404 in the shape `notFound` gives. `close()` ends every open connection.
 */

export interface RecordedRequest {
  method: string;
  /** Path with the query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body, or the raw text when it was not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The exact bytes received, as text. */
  raw: string;
}

/** A wait between frames. */
export interface Pause {
  pauseMs: number;
}

export type Reply =
  | {
      kind: 'sse';
      frames: (string | Pause)[];
      cutAfter?: number;
      hangAfter?: number;
      headers?: Record<string, string>;
    }
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> };

export interface SseServerOptions {
  route: (method: string, pathname: string) => boolean;
  reply: (request: RecordedRequest, index: number) => Reply | Promise<Reply>;
  notFound: (path: string) => unknown;
}

export interface FakeProviderServer {
  /** http://127.0.0.1:PORT (no trailing slash) */
  url: string;
  requests: RecordedRequest[];
  /** Resolves once `count` requests have been received. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A streamed string: one piece, or the pieces each sent as a delta frame of its own. */
export type Pieces = string | string[];

export const pieces = (p: Pieces): string[] => (typeof p === 'string' ? [p] : p);

/** `count` copies of `frame`, each after a pause of `everyMs` (keep-alives while a model thinks). */
export function keepAlives(frame: string, count: number, everyMs: number): (string | Pause)[] {
  const out: (string | Pause)[] = [];
  for (let i = 0; i < count; i++) out.push({ pauseMs: everyMs }, frame);
  return out;
}

/** One SSE frame: an optional `event:` line, a `data:` line, a blank line. */
export function sseFrame(data: unknown, event?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${text}\n\n`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Bytes of frames written at once (about a TLS record's worth of text). */
const COALESCE = 16 * 1024;

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(text, () => resolve());
  });
}

export async function startSseServer(options: SseServerOptions): Promise<FakeProviderServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!options.route(req.method ?? 'GET', url.pathname)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(options.notFound(url.pathname)));
      return;
    }
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // kept as text
    }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      raw,
    };
    const index = requests.push(recorded) - 1;
    for (const w of waiters.filter((w) => requests.length >= w.count)) w.resolve();
    const reply = await options.reply(recorded, index);
    if (reply.kind === 'json') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...reply.headers,
    });
    res.flushHeaders();
    // Frames that follow one another without a pause go out together, up to COALESCE bytes a
    // write, as a server's TLS records and TCP segments carry them; what was written is flushed
    // before a pause, a cut or a hang, so the client has seen every frame before it.
    let pending = '';
    const flush = async () => {
      if (pending) await write(res, pending);
      pending = '';
    };
    for (let i = 0; i < reply.frames.length; i++) {
      if (reply.cutAfter !== undefined && i >= reply.cutAfter) {
        await flush();
        res.socket?.destroy();
        return;
      }
      if (reply.hangAfter !== undefined && i >= reply.hangAfter) return flush();
      const frame = reply.frames[i]!;
      if (typeof frame === 'string') {
        pending += frame;
        if (pending.length >= COALESCE) await flush();
      } else {
        await flush();
        await new Promise((resolve) => setTimeout(resolve, frame.pauseMs));
      }
    }
    await flush();
    if (reply.cutAfter !== undefined && reply.cutAfter >= reply.frames.length) {
      res.socket?.destroy();
      return;
    }
    if (reply.hangAfter !== undefined) return;
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(err) }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
