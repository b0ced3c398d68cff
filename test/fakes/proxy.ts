// A loopback HTTP proxy of the kind a self-hosted runner sits behind: CONNECT tunnels (what
// undici's ProxyAgent and `tunnel` use, for http and https targets alike) and plain forwarding of
// absolute-URI requests (what http-proxy-agent sends for http targets). It is the only thing that
// knows the fakes' host names: `hosts` maps a name (`api.github.test`) to a loopback port's host,
// so a request that bypasses it cannot reach them. It never connects anywhere but 127.0.0.1.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxiedRequest {
  via: 'connect' | 'forward';
  /** the host name the client asked for, as written (lower case) */
  host: string;
  port: number;
  /** forwarded requests only */
  method?: string;
  path?: string;
  /** what the client sent as Proxy-Authorization, if anything */
  proxyAuthorization?: string;
}

export interface FakeProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** every tunnel opened and every request forwarded, in order */
  seen: ProxiedRequest[];
  /** the host names the proxy was asked for */
  hostsSeen(): Set<string>;
  /** requests refused because the host is not one the proxy knows */
  refused: string[];
  close(): Promise<void>;
}

const LOOPBACK_LITERAL = /^(?:127(?:\.\d{1,3}){3}|\[::1\]|\[::ffff:7f00:1\])$/i;

/**
 * Starts the proxy. `names` are the host names it resolves (each to 127.0.0.1, the port as asked);
 * loopback literals are allowed too.
 */
export async function startFakeProxy(names: readonly string[]): Promise<FakeProxy> {
  const known = new Set(names.map((n) => n.toLowerCase()));
  const seen: ProxiedRequest[] = [];
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const target = (host: string): string | undefined =>
    known.has(host) || LOOPBACK_LITERAL.test(host) ? '127.0.0.1' : undefined;
  const auth = (req: IncomingMessage) => {
    const a = req.headers['proxy-authorization'];
    return a ? { proxyAuthorization: a } : {};
  };

  const server: Server = createServer((req, res) => {
    // forwarding: the request line carries the absolute URL
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('the proxy takes absolute URLs');
      return;
    }
    const host = url.hostname.toLowerCase();
    const to = target(host);
    if (!to || url.protocol !== 'http:') {
      refused.push(url.host);
      res.writeHead(502).end(`the proxy does not know ${url.host}`);
      return;
    }
    const port = Number(url.port || 80);
    seen.push({ via: 'forward', host, port, method: req.method ?? 'GET', path: url.pathname, ...auth(req) });
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = request(
      { host: to, port, method: req.method, path: `${url.pathname}${url.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(upstream);
  });

  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    const at = (req.url ?? '').lastIndexOf(':');
    const host = (req.url ?? '').slice(0, at).toLowerCase();
    const port = Number((req.url ?? '').slice(at + 1));
    const to = target(host);
    if (!to || !port) {
      refused.push(req.url ?? '');
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    seen.push({ via: 'connect', host, port, ...auth(req) });
    const upstream = connect(port, to, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.once('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    refused,
    hostsSeen: () => new Set(seen.map((s) => s.host)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
