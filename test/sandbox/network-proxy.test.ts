import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  hostAllowed,
  isPublicAddress,
  listRefused,
  networkNote,
  parseCommandNetwork,
} from '../../src/sandbox/network.js';
import { startNetworkProxy, type NetworkProxy, type ProxyOptions } from '../../src/sandbox/proxy.js';

// The proxy of `command-network: <hosts>` on its unix socket, spoken to as curl and npm speak to
// an HTTP proxy (CONNECT and absolute-URI requests), with a loopback upstream standing in for the
// internet: a test resolver maps every name to it, so nothing leaves this machine.

let upstream: Server;
let upstreamPort = 0;
const seen: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push(`${req.method} ${req.headers.host} ${req.url}`);
    res.end(`upstream: ${req.headers.host} ${req.url}\n`);
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamPort = (upstream.address() as { port: number }).port;
});
afterAll(() => upstream.close());

let dir: string | undefined;
let proxy: NetworkProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  proxy = undefined;
  dir = undefined;
  seen.length = 0;
});

async function start(hosts: string[], o: Partial<ProxyOptions> = {}): Promise<NetworkProxy> {
  dir = mkdtempSync(join(tmpdir(), 'pl-proxy-'));
  proxy = await startNetworkProxy({
    hosts,
    socketPath: join(dir, 'proxy.sock'),
    resolve: async () => [{ address: '127.0.0.1', port: upstreamPort }],
    addressAllowed: () => true,
    ...o,
  });
  return proxy;
}

function body(res: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('end', () => done(text));
  });
}

/** An absolute-URI request, as a client with HTTP_PROXY sends a plain http:// request. */
function plain(p: NetworkProxy, url: string): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const req = request({ socketPath: p.socketPath, path: url, headers: { host: new URL(url).host } });
    req.on('response', (res) => void body(res).then((text) => done({ status: res.statusCode ?? 0, text })));
    req.on('error', fail);
    req.end();
  });
}

/** CONNECT host:port, then (when the tunnel opens) one HTTP request through it. */
function tunnel(p: NetworkProxy, authority: string): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const req = request({ socketPath: p.socketPath, method: 'CONNECT', path: authority });
    req.on('connect', (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        done({ status: res.statusCode ?? 0, text: '' });
        return;
      }
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (text += c));
      socket.on('end', () => done({ status: 200, text }));
      socket.write(`GET /through-tunnel HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.on('error', fail);
    req.end();
  });
}

describe('command-network: the input', () => {
  it('reads none, all and host lists; refuses what is not a host name', () => {
    expect(parseCommandNetwork('')).toEqual({ kind: 'none' });
    expect(parseCommandNetwork(' ALL ')).toEqual({ kind: 'all' });
    expect(parseCommandNetwork('registry.npmjs.org,\n*.pythonhosted.org, pypi.org.')).toEqual({
      kind: 'hosts',
      hosts: ['registry.npmjs.org', '*.pythonhosted.org', 'pypi.org'],
    });
    expect(() => parseCommandNetwork('https://pypi.org')).toThrow(/"https:\/\/pypi.org" is not a host name/);
    expect(() => parseCommandNetwork('pypi.org:443')).toThrow(/not a host name/);
  });

  it('matches a host exactly, or any subdomain of a *. pattern (not the domain itself)', () => {
    const p = ['registry.npmjs.org', '*.pythonhosted.org'];
    expect(hostAllowed(p, 'registry.npmjs.org')).toBe(true);
    expect(hostAllowed(p, 'REGISTRY.npmjs.org.')).toBe(true);
    expect(hostAllowed(p, 'files.pythonhosted.org')).toBe(true);
    expect(hostAllowed(p, 'a.b.pythonhosted.org')).toBe(true);
    expect(hostAllowed(p, 'pythonhosted.org')).toBe(false);
    expect(hostAllowed(p, 'evilpythonhosted.org')).toBe(false);
    expect(hostAllowed(p, 'registry.npmjs.org.evil.example')).toBe(false);
    expect(hostAllowed(p, 'npmjs.org')).toBe(false);
  });

  it('counts only public unicast addresses as public', () => {
    for (const a of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14'])
      expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '127.1.2.3',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '192.0.2.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      'not-an-address',
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });
});

describe('command-network: the proxy', () => {
  it('passes plain requests and CONNECT tunnels to an allowed host, and only there', async () => {
    const p = await start(['allowed.test', '*.good.test']);
    expect(await plain(p, 'http://allowed.test/plain?x=1')).toEqual({
      status: 200,
      text: 'upstream: allowed.test /plain?x=1\n',
    });
    const t = await tunnel(p, 'pkg.good.test:443');
    expect(t.status).toBe(200);
    expect(t.text).toContain('upstream: pkg.good.test:443 /through-tunnel');
    expect(seen).toEqual(['GET allowed.test /plain?x=1', 'GET pkg.good.test:443 /through-tunnel']);
    expect(p.refused()).toEqual([]);
  });

  it('refuses other hosts, other ports and other schemes with 403, records each once with a count, and sends nothing upstream', async () => {
    const p = await start(['allowed.test']);
    const r1 = await plain(p, 'http://evil.test/steal');
    expect(r1.status).toBe(403);
    expect(r1.text).toMatch(/evil\.test is refused \(not in command-network\)/);
    expect((await tunnel(p, 'evil.test:443')).status).toBe(403);
    expect((await tunnel(p, 'allowed.test:22')).status).toBe(403);
    expect((await tunnel(p, 'good.test.evil.test:443')).status).toBe(403);
    expect(seen).toEqual([]);
    expect(p.refused()).toEqual([
      { host: 'evil.test', reason: 'not in command-network', count: 2 },
      { host: 'allowed.test:22', reason: 'only ports 80 and 443 are allowed', count: 1 },
      { host: 'good.test.evil.test', reason: 'not in command-network', count: 1 },
    ]);
    expect(p.refusals()).toBe(4);
    expect(p.refusedSince(2).map((r) => r.host)).toEqual(['allowed.test:22', 'good.test.evil.test']);
  });

  it('refuses an allowed name that resolves to loopback, the metadata address or a private network', async () => {
    for (const address of ['127.0.0.1', '169.254.169.254', '10.0.0.7', '::1']) {
      const p = await start(['allowed.test'], {
        resolve: async (_h, port) => [{ address, port }],
        addressAllowed: undefined,
      });
      const r = await plain(p, 'http://allowed.test/');
      expect(r.status, address).toBe(403);
      expect(r.text).toMatch(/resolves to a loopback, private or link-local address/);
      expect((await tunnel(p, 'allowed.test:443')).status, address).toBe(403);
      expect(p.refused()[0]).toMatchObject({ host: 'allowed.test', count: 2 });
      await p.close();
      rmSync(dir!, { recursive: true, force: true });
      proxy = undefined;
      dir = undefined;
    }
    expect(seen).toEqual([]);
  });

  it('records a destination that is not a host name without its text', async () => {
    const p = await start(['allowed.test']);
    expect((await tunnel(p, '<!--x-->:443')).status).toBe(400);
    expect((await tunnel(p, 'ev%il.test:443')).status).toBe(403);
    const r = await new Promise<number>((done, fail) => {
      const req = request({ socketPath: p.socketPath, path: '/relative' });
      req.on('response', (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end();
    });
    expect(r).toBe(400);
    expect(listRefused(p.refused())).toBe('(a malformed destination) (3×)');
  });

  it('gives the model a note naming the refused hosts, or saying that there is no network', () => {
    const hosts = { kind: 'hosts' as const, hosts: ['registry.npmjs.org'] };
    expect(
      networkNote(hosts, [{ host: 'evil.test', reason: 'not in command-network', count: 3 }], ''),
    ).toMatch(
      /^\[command-network refused evil\.test \(3×\) \(not in command-network\)\. Commands may reach only registry\.npmjs\.org/,
    );
    expect(networkNote({ kind: 'none' }, [], 'curl: (6) Could not resolve host: x')).toMatch(
      /command-network is none/,
    );
    expect(networkNote({ kind: 'none' }, [], 'all tests passed')).toBeUndefined();
    // corepack's own words when it may not download (COREPACK_ENABLE_NETWORK=0)
    expect(
      networkNote(
        { kind: 'none' },
        [],
        "Network access disabled by the environment; can't reach https://registry.npmjs.org/pnpm/-/pnpm-8.15.1.tgz",
      ),
    ).toMatch(
      /^\[corepack wanted to download https:\/\/registry\.npmjs\.org\/pnpm\/-\/pnpm-8\.15\.1\.tgz: .*command-network is none/,
    );
    expect(networkNote({ kind: 'all' }, [], 'Network is unreachable')).toBeUndefined();
  });
});
