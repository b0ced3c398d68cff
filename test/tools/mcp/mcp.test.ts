// MCP servers as tools, with real servers: @modelcontextprotocol/server-everything over stdio
// (started as a command, unsandboxed here: the sandboxed case runs through the bundled action in
// test/hardening/attacks-mcp.test.ts) and a server built with the SDK's classes over Streamable
// HTTP on loopback.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileValidator } from '../../../src/protocol/arguments.js';
import { createRedactor } from '../../../src/protocol/redact.js';
import { filterAllowedTools } from '../../../src/tools/allowed.js';
import { McpConfigError, mcpSecrets, parseMcpConfig } from '../../../src/tools/mcp/config.js';
import { describeMcpServers, startMcpServers, type McpSession } from '../../../src/tools/mcp/servers.js';
import { pathOutside, resolveProgram } from '../../../src/tools/mcp/program.js';
import { startFixtureServer, type FixtureServer } from './mcp-server-fixture.js';
import { rpcServer, type RpcServer } from './rpc-server.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const SECRET = 'mcp-env-secret-7f3a9c2b4d1e';
const TOKEN = 'mcp-header-token-0a1b2c3d4e5f';

let scratch: string;
let fixture: FixtureServer;
const sessions: McpSession[] = [];
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'patchloop-mcp-'));
  fixture = await startFixtureServer(TOKEN);
});
afterAll(async () => {
  await fixture.close();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

/** Pids of processes whose command line contains `text` (this test's own pgrep excepted). */
function running(text: string): number[] {
  const r = spawnSync('pgrep', ['-f', '--', text], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => pid !== r.pid);
}
/** Waits (bounded) for every such process to end; true when none is left. */
async function gone(text: string): Promise<boolean> {
  for (let i = 0; i < 100 && running(text).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return running(text).length === 0;
}

const redact = createRedactor([SECRET, TOKEN]);
const call = (
  s: McpSession,
  name: string,
  args: Record<string, unknown>,
  signal = new AbortController().signal,
) => {
  const tool = s.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${s.tools.map((t) => t.name).join(', ')}`);
  return tool.execute(args, { signal, toolCallId: 'c1' });
};
async function start(config: unknown, extra: Partial<Parameters<typeof startMcpServers>[1]> = {}) {
  const session = await startMcpServers(parseMcpConfig(JSON.stringify(config)), {
    root: scratch,
    commands: true,
    redact,
    artifactsDir: scratch,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, JOB_SECRET: 'job-secret-never-passed' },
    ...extra,
  });
  sessions.push(session);
  return session;
}
const everything = (env: Record<string, string> = {}) => ({
  mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env } },
});

describe('mcp-config', () => {
  it('reads stdio and HTTP servers in the .mcp.json shape, and says exactly what is wrong', () => {
    const servers = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          docs: { command: 'npx', args: ['-y', 'docs-server'], env: { DOCS_TOKEN: 'abc' } },
          tracker: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer xyz' } },
          legacy: { type: 'sse', url: 'https://old.example.com/sse' },
        },
      }),
    );
    expect(servers).toEqual([
      {
        kind: 'stdio',
        name: 'docs',
        command: 'npx',
        args: ['-y', 'docs-server'],
        env: { DOCS_TOKEN: 'abc' },
      },
      {
        kind: 'http',
        name: 'tracker',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer xyz' },
        transport: 'streamable-http',
      },
      { kind: 'http', name: 'legacy', url: 'https://old.example.com/sse', headers: {}, transport: 'sse' },
    ]);
    expect(mcpSecrets(servers)).toEqual(['abc', 'Bearer xyz']);

    const bad: [unknown, RegExp][] = [
      ['{', /not valid JSON/],
      [{ servers: {} }, /expected \{"mcpServers"/],
      [{ mcpServers: { 'a b': { command: 'x' } } }, /server name "a b"/],
      [{ mcpServers: { a__b: { command: 'x' } } }, /server name "a__b"/],
      [{ mcpServers: { a: { command: 'x', args: 'y' } } }, /mcpServers\.a\.args must be an array of strings/],
      [{ mcpServers: { a: { command: 'x', env: { T: 1 } } } }, /mcpServers\.a\.env\.T must be a string/],
      [
        { mcpServers: { a: { command: 'x', cwd: 'tools' } } },
        /a\.cwd: a stdio server starts in an empty folder/,
      ],
      [
        { mcpServers: { a: { command: 'node_modules/.bin/x' } } },
        /a\.command must be a program name .* or an absolute path/,
      ],
      [{ mcpServers: { a: { command: './x' } } }, /a\.command must be a program name/],
      [{ mcpServers: { a: { url: 'ftp://x' } } }, /url must be http or https/],
      [{ mcpServers: { a: { url: 'https://u:p@x/' } } }, /must not hold credentials/],
      [{ mcpServers: { a: { command: 'x', url: 'https://x' } } }, /needs either "command"/],
      [{ mcpServers: { a: { command: 'x', headers: {} } } }, /headers is not a setting of a stdio server/],
    ];
    for (const [config, message] of bad) {
      const text = typeof config === 'string' ? config : JSON.stringify(config);
      expect(() => parseMcpConfig(text)).toThrow(McpConfigError);
      expect(() => parseMcpConfig(text)).toThrow(message);
    }
  });
});

describe('a stdio server (server-everything)', () => {
  it('offers its tools as mcp__everything__*, calls them, maps text and images, and redacts its own env', async () => {
    const s = await start(everything({ EVERYTHING_TOKEN: SECRET }));
    expect(s.servers).toMatchObject([{ name: 'everything', kind: 'stdio', failed: false }]);
    const names = s.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-env']));

    const echo = await call(s, 'mcp__everything__echo', { message: 'hello from the model' });
    expect(echo.isError).toBe(false);
    expect(JSON.stringify(echo.content)).toContain('hello from the model');

    const image = await call(s, 'mcp__everything__get-tiny-image', {});
    expect(image.content.some((b) => b.type === 'image' && b.mimeType === 'image/png')).toBe(true);

    // the server's environment: its own variable reached it (redacted before the model sees
    // it), the job's did not
    const env = await call(s, 'mcp__everything__get-env', {});
    const text = JSON.stringify(env.content);
    expect(text).toContain('EVERYTHING_TOKEN');
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('job-secret-never-passed');
  });

  it('validates arguments with the server’s schema before calling', async () => {
    const s = await start(everything());
    const echo = s.tools.find((t) => t.name === 'mcp__everything__echo')!;
    const check = compileValidator(echo);
    expect(await check({ message: 'x' })).toEqual({ ok: true });
    const bad = await check({ message: 42 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/"message" must be string/);
  });

  it('a call past its deadline is an error result the model can read', async () => {
    const s = await start(everything(), { callTimeoutMs: 500 });
    await expect(
      call(s, 'mcp__everything__trigger-long-running-operation', { duration: 20, steps: 2 }),
    ).rejects.toThrow(/did not answer the call: .*timed out/i);
  });

  it('a server that never answers its handshake is left out by the deadline, named, and stopped', async () => {
    // a duration no other test's sleep has, so the check below finds this server's process only
    const seconds = `120.${process.pid}${Date.now() % 100_000}`;
    const s = await start(
      { mcpServers: { silent: { command: 'sleep', args: [seconds] } } },
      { handshakeTimeoutMs: 800 },
    );
    expect(s.tools).toEqual([]);
    expect(s.servers[0]).toMatchObject({ name: 'silent', failed: true });
    expect(describeMcpServers(s.servers)[0]).toMatch(
      /MCP server "silent" \(stdio\) was left out: did not start: no answer within 800 ms/,
    );
    // the handshake's failure stopped it: no process of it is left
    expect(await gone(`sleep ${seconds}`)).toBe(true);
  });

  it('a stdio server is left out where commands may not run', async () => {
    const s = await start(everything(), { commands: false });
    expect(s.tools).toEqual([]);
    expect(describeMcpServers(s.servers)[0]).toMatch(/commands cannot be isolated/);
  });

  it('stops the server and everything it started when the session closes', async () => {
    const marker = `pl-mcp-${process.pid}-${Date.now()}`;
    const s = await start({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio', marker] } },
    });
    expect(s.tools.length).toBeGreaterThan(0);
    expect(running(marker).length).toBeGreaterThan(0);
    await s.close();
    expect(await gone(marker)).toBe(true);
  });
});

describe('an HTTP server (Streamable HTTP on loopback)', () => {
  it('sends the configured headers, lists every page, leaves out a tool whose schema cannot compile', async () => {
    const s = await start({
      mcpServers: { tracker: { url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } } },
    });
    expect(s.tools.map((t) => t.name)).toEqual(['mcp__tracker__lookup', 'mcp__tracker__huge']);
    expect(describeMcpServers(s.servers)[0]).toMatch(
      /2 tools; tool "broken" left out: its input schema cannot be compiled/,
    );
    const r = await call(s, 'mcp__tracker__lookup', { id: 7 });
    expect(r.content).toEqual([{ type: 'text', text: 'ticket 7: the login page times out' }]);
    // the 2020-12 $schema is not passed on; the rest of the schema is checked
    const lookup = s.tools[0]!;
    expect(lookup.parameters).not.toHaveProperty('$schema');
    expect((await compileValidator(lookup)({ id: 'seven' })).ok).toBe(false);
  });

  it('cuts a 5 MB result to the byte cap with a notice, and saves it whole where read_file can read it', async () => {
    const s = await start({
      mcpServers: { tracker: { url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } } },
    });
    const r = await call(s, 'mcp__tracker__huge', {});
    const text = r.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024);
    expect(text).toMatch(
      /\[Result cut: showing the first .* of 4\.8 MB\. The whole result is saved at (\S+):/,
    );
    const path = /saved at (\S+):/.exec(text)![1]!;
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8').endsWith('THE-END')).toBe(true);
    expect(r.details).toMatchObject({ truncated: true, fullResultPath: path });
  });

  it('a wrong token: the server is left out and named, and the token is not in the reason', async () => {
    const refused = fixture.refused;
    const s = await start({
      mcpServers: { tracker: { url: fixture.url, headers: { Authorization: `Bearer ${SECRET}` } } },
    });
    expect(s.tools).toEqual([]);
    expect(fixture.refused).toBeGreaterThan(refused);
    const line = describeMcpServers(s.servers)[0]!;
    expect(line).toMatch(/MCP server "tracker" \(http\) was left out: did not start/);
    expect(line).not.toContain(SECRET);
  });
});

describe('allowed-tools', () => {
  it('filters built-in and MCP tools alike, with * wildcards; empty allows all', () => {
    const tools = [
      'read_file',
      'bash',
      'run_tests',
      'mcp__tracker__lookup',
      'mcp__tracker__huge',
      'mcp__docs__search',
    ].map((name) => ({ name }));
    const names = (patterns: string[]) => filterAllowedTools(tools, patterns).tools.map((t) => t.name);
    expect(names([])).toHaveLength(6);
    expect(names(['read_file', 'mcp__tracker__*'])).toEqual([
      'read_file',
      'mcp__tracker__lookup',
      'mcp__tracker__huge',
    ]);
    expect(names(['*'])).toHaveLength(6);
    expect(names(['mcp__*__search', 'run_*'])).toEqual(['run_tests', 'mcp__docs__search']);
    expect(filterAllowedTools(tools, ['read_file']).leftOut).toContain('bash');
    // a dot or a bracket in a pattern is itself, not a regular expression
    expect(names(['read.file', 'ba[s]h'])).toEqual([]);
  });
});

/** A workspace (the session's root) and, outside it, a folder of scripts; both removed after. */
function workspaceWithPlantedBin(name: string): { root: string; outside: string; bin: string } {
  const root = mkdtempSync(join(scratch, 'ws-'));
  const bin = join(root, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, name), '#!/bin/sh\necho planted-ran\n');
  chmodSync(join(bin, name), 0o755);
  const outside = mkdtempSync(join(scratch, 'bin-'));
  return { root, outside, bin };
}
function script(dir: string, name: string, o: RpcServer): string {
  const path = join(dir, name);
  writeFileSync(path, rpcServer(o));
  return path;
}

describe('where a stdio server’s code comes from', () => {
  it('its program is looked up on PATH outside the workspace, and its own PATH is cut the same way', () => {
    const { root, outside, bin } = workspaceWithPlantedBin('docs-mcp');
    const path = [bin, 'relative/bin', join(root, 'missing'), outside, '/usr/bin'].join(':');
    expect(pathOutside(path, root)).toBe(`${outside}:/usr/bin`);
    expect(() => resolveProgram('docs-mcp', { workspace: root, path })).toThrow(
      /"docs-mcp" was not found on PATH outside the workspace/,
    );
    expect(() => resolveProgram(join(bin, 'docs-mcp'), { workspace: root, path })).toThrow(
      /lies in the workspace/,
    );
    expect(() => resolveProgram('node_modules/.bin/docs-mcp', { workspace: root, path })).toThrow(
      /relative path/,
    );
    // a link outside the workspace that leads into it is refused too
    writeFileSync(join(outside, 'real-tool'), '#!/bin/sh\n');
    chmodSync(join(outside, 'real-tool'), 0o755);
    spawnSync('ln', ['-s', join(bin, 'docs-mcp'), join(outside, 'docs-mcp')]);
    expect(() => resolveProgram('docs-mcp', { workspace: root, path })).toThrow(/not found on PATH outside/);
    expect(resolveProgram('real-tool', { workspace: root, path })).toBe(join(outside, 'real-tool'));
    expect(resolveProgram('sh', { workspace: root, path: '/usr/bin:/bin' })).toMatch(/^\/(usr\/)?bin\/sh$/);
  });

  it('starts in an empty folder of its own, not the workspace; what it says on stderr is kept for the transcript alone', async () => {
    const { root, bin } = workspaceWithPlantedBin('docs-mcp');
    const s = await start(
      {
        mcpServers: {
          where: {
            command: 'sh',
            args: ['-c', 'echo "cwd=$PWD path=$PATH" >&2; ls -A >&2; echo "$T" >&2; exit 3'],
            env: { T: SECRET },
          },
          planted: { command: 'docs-mcp' },
        },
      },
      { root, env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME } },
    );
    const [where, planted] = s.servers;
    const line = describeMcpServers(s.servers).join('\n');
    expect(line).toMatch(
      /MCP server "where" \(stdio\) was left out: did not start: it exited \(exit code 3\) \(its stderr and the full error are in the transcript\)/,
    );
    expect(line).toMatch(
      /MCP server "planted" \(stdio\) was left out: did not start: its program "docs-mcp" was not found/,
    );
    expect(line).not.toMatch(/cwd=|planted-ran/);
    const cwd = /cwd=(\S+)/.exec(where!.detail ?? '')?.[1];
    expect(cwd).toBeDefined();
    expect(cwd!.startsWith(root)).toBe(false);
    // the folder was empty, and is gone with the server
    expect(where!.detail).toMatch(/cwd=\S+ path=\S+\n\[REDACTED\]/);
    expect(where!.detail).not.toContain(bin);
    expect(existsSync(cwd!)).toBe(false);
    expect(planted!.detail).toBeDefined();
    // the transcript gets each failure once it is there
    const events: unknown[] = [];
    s.record({ event: (event, data) => events.push({ event, ...data }) });
    expect(events).toMatchObject([
      { event: 'mcp-server', server: 'where', detail: expect.stringContaining('[REDACTED]') },
      { event: 'mcp-server', server: 'planted' },
    ]);
  });

  it('the handshake deadline starts when the server is launched, not while commands wait for the sandbox', async () => {
    const ready = new Promise<void>((r) => setTimeout(r, 4000));
    const s = await start(
      {
        mcpServers: {
          slow: { command: process.execPath, args: [script(scratch, 'quick.mjs', { tools: [ECHO] })] },
        },
      },
      { commandsReady: ready, handshakeTimeoutMs: 3000 },
    );
    expect(describeMcpServers(s.servers), s.servers[0]!.detail).toEqual([
      'MCP server "slow" (stdio): 1 tool',
    ]);
  });
});

const ECHO = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: {} } };

describe('a stdio server that writes more than 10 MiB without a newline', () => {
  it('is left out at its start, and stopped at a call, with its tools answering why; nothing else stops', async () => {
    const dropped: string[] = [];
    const s = await start(
      {
        mcpServers: {
          flood: {
            command: process.execPath,
            args: [script(scratch, 'flood.mjs', { tools: [ECHO], flood: 'start' })],
          },
          late: {
            command: process.execPath,
            args: [script(scratch, 'late.mjs', { tools: [ECHO], flood: 'call' })],
          },
        },
      },
      { onDropped: (line) => dropped.push(line) },
    );
    expect(describeMcpServers(s.servers)[0]).toMatch(
      /"flood" \(stdio\) was left out: did not start: it wrote more than 10 MiB to stdout without a newline/,
    );
    expect(s.tools.map((t) => t.name)).toEqual(['mcp__late__echo']);
    await expect(call(s, 'mcp__late__echo', {})).rejects.toThrow(
      /The MCP server "late" was stopped: it wrote more than 10 MiB to stdout without a newline/,
    );
    await expect(call(s, 'mcp__late__echo', {})).rejects.toThrow(/was stopped/);
    expect(dropped).toEqual([
      expect.stringMatching(/MCP server "late" \(stdio\) was stopped: it wrote more than 10 MiB/),
    ]);
  });
});
