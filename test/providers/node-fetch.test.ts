import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { nodeFetch } from '../../src/providers/node-fetch.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { FAST_RETRY, collect, context, user } from './helpers.js';

/*
 * nodeFetch against loopback node:http servers: what the provider SDKs rely on from a fetch
 * (decoded bodies, redirects, aborts, stale keep-alive connections, errors shaped as Node's fetch
 * shapes them) and what the adapters add (onActivity). Its proxy handling: proxy.test.ts.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Served {
  url: string;
  server: Server;
  /** Every connection the server accepted, in order. */
  connections: Socket[];
  close(): Promise<void>;
}

const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<Served> {
  const server = createServer(handler);
  const connections: Socket[] = [];
  server.on('connection', (socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const served: Served = {
    url: `http://127.0.0.1:${port}`,
    server,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(served);
  return served;
}

/** Resolves when the socket has closed. */
function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });
}

/** `promise`, or a rejection after `ms`. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A deferred the server's handler waits on and the test settles. */
function signalled<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Writes `pieces` one at a time with a pause between, then ends the response. */
async function writeSlowly(res: ServerResponse, pieces: string[], pauseMs = 25): Promise<void> {
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await sleep(pauseMs);
    res.write(piece);
  }
  res.end();
}

const PAYLOAD = { id: 'msg_1', text: 'héllo wörld', items: [1, 2, 3], nested: { ok: true } };

describe('nodeFetch: response bodies', () => {
  it.each([
    ['gzip', (b: Buffer) => gzipSync(b)],
    ['br', (b: Buffer) => brotliCompressSync(b)],
    ['deflate', (b: Buffer) => deflateSync(b)],
  ])('decodes a %s-encoded JSON body', async (encoding, encode) => {
    const raw = Buffer.from(JSON.stringify(PAYLOAD));
    const sent = encode(raw);
    expect(sent.equals(raw)).toBe(false);
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(sent);
    });
    const response = await nodeFetch(`${url}/json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe(encoding);
    expect(await response.json()).toEqual(PAYLOAD);
  });

  it('gives a 204 a null body and keeps every response header, repeated ones included', async () => {
    const { url } = await serve((_req, res) => {
      res.setHeader('x-multi', ['first', 'second']);
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.setHeader('x-request-id', 'req_123');
      res.writeHead(204);
      res.end();
    });
    const response = await nodeFetch(`${url}/empty`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.ok).toBe(true);
    expect(response.body).toBeNull();
    expect(response.url).toBe(`${url}/empty`);
    expect(response.headers.get('x-multi')).toBe('first, second');
    expect(response.headers.get('X-Request-Id')).toBe('req_123');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('follows a 302 to another path through Node fetch', async () => {
    const paths: string[] = [];
    const { url } = await serve((req, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/from') {
        res.writeHead(302, { location: '/to' });
        res.end('moved');
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('the target');
      }
    });
    const response = await nodeFetch(`${url}/from`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('the target');
    expect(response.url).toBe(`${url}/to`);
    expect(paths).toContain('/to');

    // With a listener the fallback's response is metered too, and keeps its final url.
    let activity = 0;
    const metered = await nodeFetch(`${url}/from`, undefined, () => activity++);
    expect(await metered.text()).toBe('the target');
    expect(metered.url).toBe(`${url}/to`);
    expect(activity).toBeGreaterThanOrEqual(2);
  });
});

describe('nodeFetch: onActivity and reading the body', () => {
  const PIECES = ['data: one\n\n', 'data: two\n\n', 'data: three\n\n', 'data: four\n\n'];

  it('yields the chunks as the socket delivered them, each reported', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void writeSlowly(res, PIECES);
    });
    let activity = 0;
    const response = await nodeFetch(`${url}/sse`, undefined, () => activity++);
    // the headers, and the first chunk if it came with them
    expect(activity).toBeGreaterThanOrEqual(1);

    const got: string[] = [];
    for await (const chunk of response.body!) {
      expect(chunk).toBeInstanceOf(Uint8Array);
      got.push(Buffer.from(chunk).toString('utf8'));
    }
    expect(got.join('')).toBe(PIECES.join(''));
    expect(got.length).toBe(PIECES.length); // the pauses keep the writes apart
    expect(activity).toBe(1 + got.length);
  });

  it('reports each chunk when the body is read as text instead', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void writeSlowly(res, PIECES);
    });
    let activity = 0;
    const response = await nodeFetch(`${url}/sse`, undefined, () => activity++);
    expect(await response.text()).toBe(PIECES.join(''));
    expect(activity).toBe(1 + PIECES.length);
  });

  it('ends the connection at once when the reader breaks off after the first chunk', async () => {
    const arrived = signalled<Socket>();
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n'); // and nothing more: the response stays open
      arrived.resolve(req.socket);
    });
    const response = await nodeFetch(`${url}/held`);
    const socket = await arrived.promise;
    const gone = closed(socket);
    const got: string[] = [];
    for await (const chunk of response.body!) {
      got.push(Buffer.from(chunk).toString('utf8'));
      break;
    }
    expect(got).toEqual(['data: first\n\n']);
    await within(500, gone, 'the server seeing its socket close');
  });

  it('ends the connection at once when the reader breaks off a gzip-encoded stream', async () => {
    const arrived = signalled<Socket>();
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.write('data: first\n\n');
      gzip.flush(constants.Z_SYNC_FLUSH); // and nothing more: the response stays open
      arrived.resolve(req.socket);
    });
    const response = await nodeFetch(`${url}/held`);
    const socket = await arrived.promise;
    const gone = closed(socket);
    const got: string[] = [];
    for await (const chunk of response.body!) {
      got.push(Buffer.from(chunk).toString('utf8'));
      break;
    }
    expect(got).toEqual(['data: first\n\n']);
    await within(500, gone, 'the server seeing its socket close');
  });

  it('ends the connection when the web body is cancelled', async () => {
    const arrived = signalled<Socket>();
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      arrived.resolve(req.socket);
    });
    const response = await nodeFetch(`${url}/held`);
    const gone = closed(await arrived.promise);
    const reader = response.body!.getReader();
    expect(Buffer.from((await reader.read()).value!).toString('utf8')).toBe('data: first\n\n');
    await reader.cancel();
    await within(500, gone, 'the server seeing its socket close');
  });
});

describe('nodeFetch: aborts', () => {
  it('rejects with an AbortError when aborted before the response arrives', async () => {
    const arrived = signalled<Socket>();
    const { url } = await serve((req) => arrived.resolve(req.socket)); // never answers
    const controller = new AbortController();
    const pending = nodeFetch(`${url}/slow`, { signal: controller.signal });
    const socket = await arrived.promise;
    const gone = closed(socket);
    controller.abort();
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('AbortError');
    await within(500, gone, 'the server seeing its socket close');
  });

  it('rejects with an AbortError at once when the signal is already aborted', async () => {
    let requests = 0;
    const { url } = await serve((_req, res) => {
      requests++;
      res.end();
    });
    const controller = new AbortController();
    controller.abort();
    await expect(nodeFetch(`${url}/x`, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(requests).toBe(0);
  });

  it.each([
    ['its async iterator', false],
    ['a reader', true],
  ])(
    'rejects reading the body (%s) when aborted after the headers, and closes the connection',
    async (_how, web) => {
      const arrived = signalled<Socket>();
      const { url } = await serve((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n'); // then holds
        arrived.resolve(req.socket);
      });
      const controller = new AbortController();
      const response = await nodeFetch(`${url}/held`, { signal: controller.signal });
      const gone = closed(await arrived.promise);
      const read = async () => {
        const seen: string[] = [];
        if (web) {
          const reader = response.body!.getReader();
          for (let r = await reader.read(); !r.done; r = await reader.read()) {
            seen.push(Buffer.from(r.value).toString('utf8'));
            if (seen.length === 1) controller.abort();
          }
        } else {
          for await (const chunk of response.body!) {
            seen.push(Buffer.from(chunk).toString('utf8'));
            if (seen.length === 1) controller.abort();
          }
        }
        return seen;
      };
      const err = await within(500, read(), 'the read ending').then(
        (seen) => seen,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).name).toBe('AbortError');
      await within(500, gone, 'the server seeing its socket close');
    },
  );

  it('ends a gzip-encoded body with the abort, before anything read it', async () => {
    const arrived = signalled<Socket>();
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.write('data: first\n\n');
      gzip.flush(constants.Z_SYNC_FLUSH);
      arrived.resolve(req.socket);
    });
    const controller = new AbortController();
    const response = await nodeFetch(`${url}/held`, { signal: controller.signal });
    const gone = closed(await arrived.promise);
    controller.abort();
    await within(500, gone, 'the server seeing its socket close');
    await sleep(10);
    await expect(response.text()).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('nodeFetch: connections', () => {
  // A request on a kept-alive connection the server drops just as it is reused fails with
  // "fetch failed" (undici does not send it again); the provider retry policy and Octokit's retry
  // plugin treat that as a lost connection and retry.

  it('does not fail a request on a kept-alive connection the server closed while idle', async () => {
    let requests = 0;
    const served = await serve((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`answer ${requests}`);
    });
    served.server.keepAliveTimeout = 20;
    const first = await nodeFetch(`${served.url}/one`);
    expect(await first.text()).toBe('answer 1');
    await closed(served.connections[0]!);
    const second = await nodeFetch(`${served.url}/two`);
    expect(await second.text()).toBe('answer 2');
    expect(served.connections).toHaveLength(2);
    expect(requests).toBe(2);
  });

  it('reuses kept-alive connections', async () => {
    const served = await serve((_req, res) => res.end('ok'));
    for (let i = 0; i < 6; i++) expect(await (await nodeFetch(`${served.url}/n`)).text()).toBe('ok');
    // undici may open a second connection while the first is being handed back to its pool
    expect(served.connections.length).toBeLessThanOrEqual(2);
  });

  it('rejects a refused connection with TypeError "fetch failed" and its ECONNREFUSED cause', async () => {
    const served = await serve(() => undefined);
    const url = served.url;
    await served.close();
    const err = await nodeFetch(`${url}/nothing`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('fetch failed');
    expect(((err as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });
});

describe('nodeFetch: the request', () => {
  interface Seen {
    method: string;
    url: string;
    headers: IncomingMessage['headers'];
    body: Buffer;
  }

  async function recorder() {
    const seen: Seen[] = [];
    const served = await serve((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (b: Buffer) => parts.push(b));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(parts),
        });
        res.end('ok');
      });
    });
    return { url: served.url, seen };
  }

  it('sends the method, the headers of a Headers object and a string body with its byte length', async () => {
    const { url, seen } = await recorder();
    const headers = new Headers({ 'content-type': 'application/json', 'x-api-key': 'sk-test' });
    headers.append('x-multi', 'a');
    headers.append('x-multi', 'b');
    const body = JSON.stringify({ text: 'naïve – ünïcode ✓' });
    const response = await nodeFetch(`${url}/v1/messages?beta=true`, { method: 'POST', headers, body });
    expect(await response.text()).toBe('ok');
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/messages?beta=true');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-api-key']).toBe('sk-test');
    expect(req.headers['x-multi']).toBe('a, b');
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(Number(req.headers['content-length'])).toBeGreaterThan(body.length);
    expect(req.body.toString('utf8')).toBe(body);
  });

  it('sends exactly the bytes of a Uint8Array body, a view into a larger buffer', async () => {
    const { url, seen } = await recorder();
    const whole = new Uint8Array(64).map((_, i) => i);
    const view = whole.subarray(10, 42);
    const response = await nodeFetch(new URL(`${url}/upload`), {
      method: 'put',
      headers: [['content-type', 'application/octet-stream']],
      body: view,
    });
    expect(await response.text()).toBe('ok');
    const req = seen[0]!;
    expect(req.method).toBe('PUT');
    expect(req.headers['content-type']).toBe('application/octet-stream');
    expect(req.headers['content-length']).toBe('32');
    expect([...req.body]).toEqual([...view]);
  });

  it('sends a GET with no body', async () => {
    const { url, seen } = await recorder();
    await (await nodeFetch(`${url}/get`)).text();
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.body.length).toBe(0);
    expect(seen[0]!.headers['content-length']).toBeUndefined();
  });
});

describe('nodeFetch: through the Anthropic SDK', () => {
  let fake: FakeProviderServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it("streams a turn without Node's global fetch", async () => {
    fake = await startAnthropicServer([{ text: ['Hel', 'lo'], usage: { input: 3, output: 2 } }]);
    const original = globalThis.fetch;
    let calls = 0;
    globalThis.fetch = (() => {
      calls++;
      throw new Error('the global fetch was used');
    }) as typeof globalThis.fetch;
    try {
      const provider = createAnthropicProvider({
        model: 'claude-sonnet-5-5',
        apiKey: 'sk-ant-test-key-0123456789',
        baseUrl: fake.url,
        retry: FAST_RETRY,
      });
      const out = await collect(provider, context([user('hi')]));
      expect(out.retries).toEqual([]);
      expect(out.message.stopReason).toBe('stop');
      expect(out.message.content).toEqual([{ type: 'text', text: 'Hello' }]);
    } finally {
      globalThis.fetch = original;
    }
    expect(calls).toBe(0);
    expect(fake.requests).toHaveLength(1);
  });
});
