import { chmodSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { lookup } from 'node:dns/promises';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { hostAllowed, isPublicAddress, normalHost, type RefusedHost } from './network.js';

// The proxy commands reach with `command-network: <hosts>`: an HTTP proxy on a unix socket outside
// the commands' network namespace (a bridge inside it forwards a loopback port here, launch.ts).
// It takes `CONNECT host:443` (HTTPS, and anything tunnelled) and plain `GET http://host/…`
// requests, and only to an allowed host on port 80 or 443. It resolves the name itself and
// connects to the address it checked, so neither a name that points at the runner's own services
// (loopback, the metadata address, the private network) nor a second answer of the name server
// can lead a command there.

/** Where to connect for `host:port`: the system's resolver by default. */
export type Resolver = (host: string, port: number) => Promise<{ address: string; port: number }[]>;

export interface ProxyOptions {
  /** Allowed host patterns (`registry.npmjs.org`, `*.pythonhosted.org`). */
  hosts: readonly string[];
  /** The unix socket to listen on (made readable and writable by everyone: the bridge runs as the sandbox user). */
  socketPath: string;
  /** Tests only: where a name leads (a loopback upstream in place of the internet). */
  resolve?: Resolver;
  /** Tests only: which resolved addresses may be connected to. Default: public unicast ones. */
  addressAllowed?: (address: string) => boolean;
  /** Called once per refusal, with what was refused and why. */
  onRefused?: (host: string, reason: string) => void;
}

export interface NetworkProxy {
  socketPath: string;
  /** Every destination refused so far, deduplicated (by host), in the order first refused. */
  refused(): RefusedHost[];
  /** How many refusals so far (each one, not deduplicated): a mark to ask `refusedSince` from. */
  refusals(): number;
  /** The destinations refused after `mark` refusals, deduplicated. */
  refusedSince(mark: number): RefusedHost[];
  close(): Promise<void>;
}

const PORTS = new Set([80, 443]);
const CONNECT_TIMEOUT_MS = 30_000;
// How many distinct refused hosts are remembered by name; a command that tries thousands of names
// must not grow patchloop's memory or the summary. The rest are counted under one entry.
const MAX_REMEMBERED = 200;
const EVENTS_KEPT = 10_000;

const systemResolver: Resolver = async (host, port) => {
  if (isIP(host)) return [{ address: host, port }];
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, port }));
};

// A host name or address as recorded: only the characters a name or an address is made of, so a
// refusal never carries a command's markup into the log or the summary.
function recordable(host: string): string {
  return /^[a-z0-9.:-]{1,253}$/.test(host) ? host : '(a malformed destination)';
}

function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  return { host: normalHost(m[1]!), port: Number(m[2]) };
}

type Decision = { ok: true; targets: { address: string; port: number }[] } | { ok: false; reason: string };

export async function startNetworkProxy(o: ProxyOptions): Promise<NetworkProxy> {
  const resolve = o.resolve ?? systemResolver;
  const addressAllowed = o.addressAllowed ?? isPublicAddress;
  const patterns = o.hosts.map(normalHost);
  const byHost = new Map<string, RefusedHost>();
  // refusals in order, for `refusedSince`; the oldest are dropped past EVENTS_KEPT (`base` counts them)
  let events: string[] = [];
  let base = 0;
  const live = new Set<Duplex>();

  const refuse = (host: string, reason: string): Decision => {
    let key = recordable(host);
    if (!byHost.has(key) && byHost.size >= MAX_REMEMBERED) key = '(other hosts)';
    const entry = byHost.get(key) ?? { host: key, reason, count: 0 };
    entry.count++;
    byHost.set(key, entry);
    events.push(key);
    if (events.length > EVENTS_KEPT) {
      base += events.length - EVENTS_KEPT / 2;
      events = events.slice(-EVENTS_KEPT / 2);
    }
    o.onRefused?.(key, reason);
    return { ok: false, reason };
  };

  const decide = async (host: string, port: number): Promise<Decision> => {
    if (!host) return refuse('(a malformed destination)', 'not a host name');
    if (!hostAllowed(patterns, host)) return refuse(host, 'not in command-network');
    if (!PORTS.has(port)) return refuse(`${host}:${port}`, 'only ports 80 and 443 are allowed');
    let targets: { address: string; port: number }[];
    try {
      targets = await resolve(host, port);
    } catch {
      return { ok: false, reason: `${host} could not be resolved` };
    }
    const allowed = targets.filter((t) => addressAllowed(t.address));
    if (!allowed.length) return refuse(host, 'it resolves to a loopback, private or link-local address');
    return { ok: true, targets: allowed };
  };

  const open = (targets: { address: string; port: number }[]): Promise<Socket> =>
    new Promise((done, fail) => {
      const next = (i: number, last?: Error) => {
        const t = targets[i];
        if (!t) return fail(last ?? new Error('no address'));
        const s = connect({ host: t.address, port: t.port });
        s.setTimeout(CONNECT_TIMEOUT_MS, () => s.destroy(new Error('connect timeout')));
        s.once('connect', () => {
          s.setTimeout(0);
          done(s);
        });
        s.once('error', (err) => next(i + 1, err));
      };
      next(0);
    });

  const track = (s: Duplex) => {
    live.add(s);
    s.once('close', () => live.delete(s));
  };

  const server = createServer();
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => undefined);
    const target = splitAuthority(req.url ?? '');
    void (async () => {
      const d = target ? await decide(target.host, target.port) : refuse('', 'not a host name');
      if (!d.ok) {
        const status = d.reason.includes('resolved') ? '502 Bad Gateway' : '403 Forbidden';
        client.end(
          `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\npatchloop command-network: ${target ? recordable(target.host) : 'this destination'} is refused (${d.reason}).\n`,
        );
        return;
      }
      let upstream: Socket;
      try {
        upstream = await open(d.targets);
      } catch (err) {
        client.end(`HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n${(err as Error).message}\n`);
        return;
      }
      track(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    })();
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      let url: URL | undefined;
      try {
        url = new URL(req.url ?? '');
      } catch {
        url = undefined;
      }
      if (!url || url.protocol !== 'http:') {
        refuse('', 'not an absolute http:// request');
        res
          .writeHead(400, { 'content-type': 'text/plain' })
          .end(
            'patchloop command-network: the proxy takes CONNECT host:443 and absolute http:// requests only.\n',
          );
        return;
      }
      const host = normalHost(url.hostname);
      const port = url.port ? Number(url.port) : 80;
      const d = await decide(host, port);
      if (!d.ok) {
        res
          .writeHead(d.reason.includes('resolved') ? 502 : 403, { 'content-type': 'text/plain' })
          .end(`patchloop command-network: ${recordable(host)} is refused (${d.reason}).\n`);
        return;
      }
      const headers = { ...req.headers };
      for (const h of ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive'])
        delete headers[h];
      const t = d.targets[0]!;
      const up = httpRequest({
        host: t.address,
        port: t.port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host },
        setHost: false,
      });
      up.setTimeout(CONNECT_TIMEOUT_MS, () => up.destroy(new Error('timeout')));
      up.on('response', (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`${err.message}\n`);
        else res.destroy();
      });
      req.pipe(up);
    })();
  });
  // a request line Node's parser will not take (`CONNECT <!--x-->:443`) is refused like any other
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code !== 'ECONNRESET' && socket.writable) {
      refuse('', 'not a valid request');
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    } else socket.destroy();
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(o.socketPath, () => {
      server.off('error', fail);
      done();
    });
  });
  chmodSync(o.socketPath, 0o666);

  const dedupe = (keys: string[]): RefusedHost[] => {
    const out = new Map<string, RefusedHost>();
    for (const k of keys) {
      const e = out.get(k) ?? { host: k, reason: byHost.get(k)?.reason ?? '', count: 0 };
      e.count++;
      out.set(k, e);
    }
    return [...out.values()];
  };

  return {
    socketPath: o.socketPath,
    refused: () => [...byHost.values()].map((e) => ({ ...e })),
    refusals: () => base + events.length,
    refusedSince: (mark) => dedupe(events.slice(Math.max(0, mark - base))),
    close: () =>
      new Promise<void>((done) => {
        for (const s of live) s.destroy();
        server.close(() => done());
      }),
  };
}
