// `run --mcp-config` and `replay --mcp-config` through the built CLI: the model calls a tool of an
// MCP server (an SDK-built server over Streamable HTTP on loopback), the transcript records it, and
// replay calls it again only where the user configured the same server; elsewhere the call is
// listed as not run, never reported as a divergence.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, tempRepo } from '../agent/helpers.js';
import { startFixtureServer, type FixtureServer } from '../tools/mcp/mcp-server-fixture.js';
import { buildCli, type BuiltCli } from './build-cli.js';

const TOKEN = 'mcp-cli-token-9f8e7d6c5b4a';
let cli: BuiltCli;
let fixture: FixtureServer;
let scratch: string;
beforeAll(async () => {
  cli = await buildCli();
  fixture = await startFixtureServer(TOKEN);
  scratch = mkdtempSync(join(tmpdir(), 'patchloop-cli-mcp-'));
});
afterAll(async () => {
  cli.cleanup();
  await fixture.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const all: NodeJS.ProcessEnv = { ...process.env, TMPDIR: scratch, ...env };
  delete all.ANTHROPIC_BASE_URL;
  try {
    const r = await promisify(execFile)(process.execPath, [cli.path, ...args], {
      env: all,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the CLI with MCP servers', () => {
  it('run offers the server’s tools and records the call; replay does not call it without the server and repeats it with it', async () => {
    const repo = tempRepo(BUGGY_PROJECT);
    const config = join(scratch, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { tracker: { url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } } },
      }),
    );
    const model = await startAnthropicServer([
      { toolCalls: [{ id: 'toolu_m1', name: 'mcp__tracker__lookup', json: '{"id":42}' }] },
      { toolCalls: [{ id: 'toolu_r1', name: 'read_file', json: '{"path":"src/math.js"}' }] },
      { text: 'Ticket 42 is about the login page, not this code.' },
    ]);
    try {
      const r = await runCli(
        [
          'run',
          '--repo',
          repo.root,
          '--base-url',
          model.url,
          '--sandbox',
          'off',
          '--mcp-config',
          config,
          'Look at ticket 42',
        ],
        { ANTHROPIC_API_KEY: 'sk-ant-cli-mcp-0123456789' },
      );
      expect(r.stderr).toMatch(/MCP server "tracker" \(http\): 2 tools/);
      expect(r.code).toBe(0);
      const offered = (model.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect(offered).toEqual(expect.arrayContaining(['mcp__tracker__lookup', 'mcp__tracker__huge']));
      expect(JSON.stringify(model.requests[1]!.body)).toContain('ticket 42: the login page times out');
      const transcript = /^Transcript: (.+)$/m.exec(r.stdout)![1]!.trim();
      const text = readFileSync(transcript, 'utf8');
      expect(text).toContain('mcp__tracker__lookup');
      expect(text).not.toContain(TOKEN);

      const calls = fixture.calls.length;
      const without = await runCli(['replay', transcript, '--repo', repo.root]);
      expect(without.stdout).toMatch(
        /mcp__tracker__lookup .*not run: MCP servers are called again only with replay --mcp-config/,
      );
      expect(without.stdout).toMatch(/All 1 compared call\(s\) match .*; 1 not run \(/);
      expect(without.code).toBe(0);
      expect(fixture.calls.length).toBe(calls);

      const withServer = await runCli(['replay', transcript, '--repo', repo.root, '--mcp-config', config]);
      expect(withServer.stdout).toMatch(/All 2 compared call\(s\) match/);
      expect(withServer.code).toBe(0);
      expect(fixture.calls.length).toBe(calls + 1);

      const bad = await runCli([
        'run',
        '--repo',
        repo.root,
        '--mcp-config',
        '{"mcpServers":{"x":{}}}',
        'task',
      ]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--mcp-config: mcpServers\.x needs either "command"/);
    } finally {
      await model.close();
      repo.cleanup();
    }
  });
});
