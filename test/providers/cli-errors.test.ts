// What a user sees when the provider cannot be used: the real CLI bundle run as a process against
// a closed port and the loopback Anthropic server. One line says what failed and what to check;
// a refused connection is not retried five times; the SDK's own warnings stay off the terminal.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { startAnthropicServer, type AnthropicScript } from '../fakes/anthropic-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { tempRepo, type TempRepo } from '../agent/helpers.js';
import { buildCli, type BuiltCli } from '../cli/build-cli.js';
import { startCli } from '../hardening/cli-process.js';

let cli: BuiltCli;
let processTmp: string;
let repo: TempRepo;
let server: FakeProviderServer | undefined;

beforeAll(async () => {
  cli = await buildCli();
  processTmp = mkdtempSync(join(tmpdir(), 'patchloop-cli-errors-'));
});
afterAll(() => {
  cli.cleanup();
  rmSync(processTmp, { recursive: true, force: true });
});
afterEach(async () => {
  repo?.cleanup();
  await server?.close();
  server = undefined;
});

const KEY = 'sk-ant-api03-cli-errors-0123456789';

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, TMPDIR: processTmp };
  for (const k of Object.keys(e)) if (/^(ANTHROPIC|OPENAI|GEMINI|GOOGLE)_/.test(k)) delete e[k];
  return e;
}

async function run(baseUrl: string, extra: string[] = []) {
  repo = tempRepo({ 'a.txt': 'a\n' });
  const args = ['run', '--sandbox', 'off', '--repo', repo.root, '--provider', 'anthropic'];
  const p = startCli(cli.path, [...args, '--api-key', KEY, '--base-url', baseUrl, ...extra, 'Say hi'], {
    env: env(),
    cwd: repo.root,
  });
  const code = await p.exited;
  return { code, out: p.stdout(), err: p.stderr(), all: p.stdout() + p.stderr() };
}

const count = (text: string, part: string) => text.split(part).length - 1;

async function serve(script: AnthropicScript): Promise<string> {
  server = await startAnthropicServer(script);
  return server.url;
}

describe('provider errors as the CLI shows them', () => {
  it('connection refused: one retry, then one error that names the base URL and its variable', async () => {
    const closed = await startAnthropicServer([]);
    const url = closed.url;
    await closed.close();
    const r = await run(url);
    expect(r.code).toBe(1);
    expect(count(r.err, '↻ retry')).toBe(1);
    const hint = `Check the base URL ${url}: set it with --base-url or ANTHROPIC_BASE_URL.`;
    // Once in the timeline (the failed turn) and once in the summary, not four times.
    expect(count(r.out, hint)).toBe(1);
    expect(count(r.err, hint)).toBe(1);
    expect(count(r.err, '✗')).toBe(1);
  });

  it('401: says which key to check, never the key itself', async () => {
    const url = await serve([
      { http: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
    ]);
    const r = await run(url);
    expect(r.code).toBe(1);
    // in the CLI's words: a flag or a variable, no word of inputs or repository secrets
    expect(r.out).toContain(
      `Check the API key: --api-key or ANTHROPIC_API_KEY; it must be an anthropic key valid for the base URL ${url}.`,
    );
    expect(r.out).not.toMatch(/secret|api-key input/);
    expect(r.all).not.toContain(KEY);
    expect(count(r.err, '↻ retry')).toBe(0);
  });

  it('an unknown model: names the model id, the flag and the provider’s default', async () => {
    const url = await serve([
      { http: { status: 404, type: 'not_found_error', message: 'model: claude-nope-1' } },
    ]);
    const r = await run(url, ['--model', 'claude-nope-1']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'Check the model id "claude-nope-1" (--model); the anthropic default is claude-sonnet-5-5.',
    );
  });

  it('keeps the SDK’s deprecation warning off the terminal and puts it in the transcript', async () => {
    const url = await serve([{ text: 'Hi.' }]);
    // A model the Anthropic SDK lists as deprecated (1.16: claude-opus-4-5): it console.warns on every request.
    const r = await run(url, ['--model', 'claude-opus-4-5']);
    expect(r.code).toBe(0);
    expect(r.all).not.toContain('is deprecated');
    const path = /Transcript: (\S+)/.exec(r.out)?.[1];
    expect(path).toBeDefined();
    const notices = parseTranscript(readFileSync(path!, 'utf8')).events.filter((e) => e.event === 'notice');
    expect(notices).toHaveLength(1);
    expect(String(notices[0]!.message)).toContain("The model 'claude-opus-4-5' is deprecated");
  });
});
