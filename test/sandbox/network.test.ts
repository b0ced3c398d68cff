import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCi } from '../support/requirements.js';
import { createSandbox, type SandboxOptions, type SandboxSetup } from '../../src/sandbox/index.js';
import { createBashTool } from '../../src/tools/bash.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, textOf } from '../tools/helpers.js';
import { createFixture, missingForSandbox, type Fixture } from './fixture.js';

// command-network for real: commands as the sandbox user in their own network namespace, a
// listener of this host's loopback they must not reach, an outside address (TEST-NET-1, which
// must fail at once with "Network is unreachable": nothing is ever routed), and with a host list
// the proxy, whose test resolver sends every allowed name to a loopback upstream.

const found = missingForSandbox();
const missing = inCi() ? undefined : found;
if (found !== undefined && inCi())
  it('has what the sandbox tests need (CI=true: they must not be skipped)', () => {
    throw new Error(found);
  });

// the statement below is about Node 20 (the version this suite's CI machine has at /usr/bin)
const systemNode20 = (() => {
  try {
    return /^v20\./.test(execFileSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
})();

type Isolated = Extract<SandboxSetup, { kind: 'isolated' }>;

/** A listener on this host's loopback that counts who reached it. */
async function hostListener(): Promise<{ port: number; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((c) => {
    hits++;
    c.end('host-secret-service\n');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { port: (server.address() as { port: number }).port, hits: () => hits, server };
}

// A Node whose fetch honours HTTP(S)_PROXY when NODE_USE_ENV_PROXY=1 (24.5 and later): this one
// when it is, or PL_NODE_ENV_PROXY (a path to such a node, e.g. from `npx -p node@24`).
function envProxyNode(): string | undefined {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major! > 24 || (major === 24 && minor! >= 5)) return process.execPath;
  return process.env.PL_NODE_ENV_PROXY || undefined;
}

describe.skipIf(missing !== undefined)('command-network for real, as the sandbox user', () => {
  let f: Fixture;
  let host: Awaited<ReturnType<typeof hostListener>>;
  let upstream: HttpServer;
  let upstreamPort = 0;
  const upstreamSaw: string[] = [];
  const boxes: Isolated[] = [];

  beforeAll(async () => {
    f = createFixture('/tmp');
    host = await hostListener();
    upstream = createHttpServer((req, res) => {
      upstreamSaw.push(`${req.headers.host} ${req.url}`);
      res.end(`upstream-body ${req.url}\n`);
    });
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    upstreamPort = (upstream.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const b of boxes) await b.dispose();
    host?.server.close();
    upstream?.close();
    f?.cleanup();
  });

  async function sandbox(o: Partial<SandboxOptions>): Promise<Isolated> {
    const setup = await createSandbox({
      workspace: f.workspace,
      privateDirs: [f.runnerTemp, f.runDir],
      readOnlyDirs: [f.outputs],
      env: f.env,
      ...o,
    });
    if (setup.kind !== 'isolated') throw new Error(`not isolated: ${setup.reason}`);
    boxes.push(setup);
    return setup;
  }

  async function bash(box: Isolated, command: string): Promise<string> {
    const tool = createBashTool(createWorkspace(f.workspace), { env: f.env, sandbox: box.sandbox });
    return textOf(await call([tool], 'bash', { command, timeout: 60 }));
  }

  const reachHost = () => `(exec 3<>/dev/tcp/127.0.0.1/${host.port} && cat <&3) 2>&1 || echo HOST-UNREACHED`;
  const reachOutside = '(exec 3<>/dev/tcp/192.0.2.1/80) 2>&1 || echo OUTSIDE-UNREACHED';
  // a server on the command's own loopback, and a client of it, both inside the command
  const ownServer = `node -e 'const n=require("net");const s=n.createServer(c=>c.end("own-loopback-ok\\n")).listen(0,"127.0.0.1",()=>n.connect(s.address().port,"127.0.0.1").on("data",d=>{process.stdout.write(d);process.exit(0)}))'`;

  it('none (the default): the own loopback works; the host’s loopback listener and outside addresses do not', async () => {
    const box = await sandbox({});
    expect(box.network.policy).toEqual({ kind: 'none' });
    const before = host.hits();
    const out = await bash(
      box,
      [ownServer, reachHost(), reachOutside, 'curl -sS -m 5 http://192.0.2.1:80/ 2>&1 || :'].join('\n'),
    );
    expect(out).toContain('own-loopback-ok');
    expect(out).toMatch(/Connection refused[\s\S]*HOST-UNREACHED/);
    expect(out).not.toContain('host-secret-service');
    expect(out).toMatch(/Network is unreachable[\s\S]*OUTSIDE-UNREACHED/);
    expect(host.hits()).toBe(before);
    // the model is told why, in the result itself
    expect(out).toMatch(/\[command-network is none: commands have no network but their own loopback/);
  });

  it('with the namespace left out (weaken: network), the same command reaches the host’s listener', async () => {
    const box = await sandbox({ weaken: ['network'], selfCheck: false });
    const before = host.hits();
    const out = await bash(box, reachHost());
    expect(out).toContain('host-secret-service');
    expect(host.hits()).toBe(before + 1);
  });

  it('all: the runner’s network, as before command-network (the host’s listener is reachable)', async () => {
    const box = await sandbox({ network: { kind: 'all' } });
    expect(box.network.policy).toEqual({ kind: 'all' });
    expect(await bash(box, reachHost())).toContain('host-secret-service');
  });

  describe('a host list', () => {
    let box: Isolated;
    beforeAll(async () => {
      box = await sandbox({
        network: { kind: 'hosts', hosts: ['allowed.test', '*.good.test'] },
        proxyOverride: {
          resolve: async () => [{ address: '127.0.0.1', port: upstreamPort }],
          addressAllowed: () => true,
        },
      });
    });

    it('curl reaches an allowed host through the proxy (plain and CONNECT) and is refused another, which the result names', async () => {
      upstreamSaw.length = 0;
      const out = await bash(
        box,
        [
          'curl -sS http://allowed.test/plain',
          'curl -sS --proxytunnel http://pkg.good.test/tunnel',
          'curl -sS http://refused.test/steal; echo "exit $?"',
          'curl -sS --proxytunnel https://refused.test/steal 2>&1; echo "exit $?"',
          reachHost(),
          reachOutside,
        ].join('\n'),
      );
      expect(out).toContain('upstream-body /plain');
      expect(out).toContain('upstream-body /tunnel');
      expect(out).toContain('patchloop command-network: refused.test is refused (not in command-network)');
      expect(out).toMatch(/CONNECT tunnel failed, response 403/);
      expect(out).toContain('HOST-UNREACHED');
      expect(out).toContain('OUTSIDE-UNREACHED');
      expect(upstreamSaw).toEqual(['allowed.test /plain', 'pkg.good.test /tunnel']);
      expect(out).toMatch(/\[command-network refused refused\.test \(2×\) \(not in command-network\)/);
      expect(box.network.refused()).toEqual([
        { host: 'refused.test', reason: 'not in command-network', count: 2 },
      ]);
    });

    it.skipIf(!systemNode20)(
      'Node 20’s fetch does not use the proxy variables: it finds no network, and reaches nothing',
      async () => {
        upstreamSaw.length = 0;
        const out = await bash(
          box,
          `/usr/bin/node -e 'fetch("http://allowed.test/node20").then(r=>r.text()).then(t=>console.log("GOT",t),e=>console.log("FAILED",e.cause?.code))'`,
        );
        expect(out).toMatch(/FAILED (EAI_AGAIN|ENOTFOUND|ENETUNREACH)/);
        expect(upstreamSaw).toEqual([]);
      },
    );

    it.skipIf(!envProxyNode())(
      'Node’s fetch with NODE_USE_ENV_PROXY=1 (24.5+, set by patchloop) goes through the proxy',
      async () => {
        // a copy the sandbox user may run, inside the workspace
        const bin = join(f.workspace, '.node-env-proxy', 'node');
        mkdirSync(join(f.workspace, '.node-env-proxy'), { recursive: true, mode: 0o755 });
        copyFileSync(envProxyNode()!, bin);
        upstreamSaw.length = 0;
        const fetchIt = (url: string) =>
          `${bin} -e 'fetch("${url}").then(r=>r.text()).then(t=>console.log("GOT",t),e=>console.log("FAILED",e.cause?.code??e.message))'`;
        const out = await bash(
          box,
          [
            'echo "NODE_USE_ENV_PROXY=$NODE_USE_ENV_PROXY"',
            fetchIt('http://allowed.test/node-fetch'),
            fetchIt('http://refused.test/node-fetch'),
          ].join('\n'),
        );
        expect(out).toContain('NODE_USE_ENV_PROXY=1');
        expect(out).toContain('GOT upstream-body /node-fetch');
        // undici tunnels http:// too (CONNECT), so the 403 comes back as a failed fetch
        expect(out).toMatch(/FAILED/);
        expect(out).toMatch(/\[command-network refused refused\.test \(not in command-network\)/);
        expect(upstreamSaw).toEqual(['allowed.test /node-fetch']);
      },
      120_000,
    );
  });
});
