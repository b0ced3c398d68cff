// MCP servers as tools, with real servers: @modelcontextprotocol/server-everything over stdio
// (started as a command, unsandboxed here: the sandboxed case runs through the bundled action in
// test/hardening/attacks-mcp.test.ts) and a server built with the SDK's classes over Streamable
// HTTP on loopback.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileValidator } from '../../../src/protocol/arguments.js';
import { createRedactor } from '../../../src/protocol/redact.js';
import { filterAllowedTools } from '../../../src/tools/allowed.js';
import { McpConfigError, mcpSecrets, parseMcpConfig } from '../../../src/tools/mcp/config.js';
import { describeMcpServers, startMcpServers, type McpSession } from '../../../src/tools/mcp/servers.js';
import { startFixtureServer, type FixtureServer } from './mcp-server-fixture.js';

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
          docs: { command: 'npx', args: ['-y', 'docs-server'], env: { DOCS_TOKEN: 'abc' }, cwd: 'tools/' },
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
        cwd: 'tools',
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
      [{ mcpServers: { a: { command: 'x', cwd: '../up' } } }, /cwd must be a folder inside the workspace/],
      [
        { mcpServers: { a: { command: 'x', cwd: '.git/hooks' } } },
        /cwd must be a folder inside the workspace/,
      ],
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
