// The CLI's manners, through the built bundle: -h everywhere, near-miss flags, usage before
// environment, -o - to stdout, a closed pipe, a 0-column terminal, colour on a terminal only,
// the start and end lines of `run`, and `run --continue` that checks before it moves the checkout.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptWriter } from '../../src/protocol/transcript.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, initRepo, tempRepo } from '../agent/helpers.js';
import { buildCli, type BuiltCli } from './build-cli.js';

let cli: BuiltCli;
let dir: string;
let transcript: string;

/** A transcript whose `inspect --json` is far larger than a pipe's buffer. */
function bigTranscript(path: string): void {
  const w = new TranscriptWriter(path);
  w.session({
    id: 'run-big',
    startedAt: new Date().toISOString(),
    repository: 'r',
    trigger: 'cli',
    provider: 'anthropic',
    model: 'm1',
  });
  w.message({ role: 'user', content: 'Read everything', timestamp: Date.now() });
  for (let i = 0; i < 300; i++) {
    w.message({
      role: 'assistant',
      content: [{ type: 'text', text: `Turn ${i}: ${'words '.repeat(100)}` }],
      provider: 'anthropic',
      model: 'm1',
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: 'stop',
      timestamp: Date.now(),
    });
  }
  w.summary({
    conclusion: 'success',
    durationMs: 1000,
    usage: { inputTokens: 3000, outputTokens: 1500, cacheReadTokens: 0, cacheWriteTokens: 0 },
  });
  w.close();
}

function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir, ...extra };
  for (const k of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'NO_COLOR'])
    if (!(k in extra)) delete env[k];
  return env;
}

function runCli(
  args: string[],
  env = cleanEnv(),
  cwd = dir,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.path, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// eslint-disable-next-line no-control-regex -- colour codes, removed before counting columns
const ANSI = /\x1b\[[0-9;]*m/g;

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** The CLI in a pseudo-terminal (util-linux `script`) of `cols` columns; what the terminal showed. */
function inPty(args: string[], cols: number, env = cleanEnv(), cwd = dir): string {
  const command = `stty cols ${cols} rows 50; ${quote(process.execPath)} ${[cli.path, ...args].map(quote).join(' ')}`;
  const r = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.error) throw r.error;
  return r.stdout.replace(/\r\n/g, '\n');
}

beforeAll(async () => {
  cli = await buildCli();
  dir = mkdtempSync(join(tmpdir(), 'patchloop-cli-ux-'));
  transcript = join(dir, 'big.jsonl');
  bigTranscript(transcript);
});
afterAll(() => {
  cli?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('usage', () => {
  it.each(['run', 'tool', 'inspect', 'export', 'replay'])(
    '%s -h prints its usage and exits 0',
    async (command) => {
      const r = await runCli([command, '-h']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: patchloop ${command}`));
    },
  );

  it('suggests the flag a typo meant', async () => {
    const r = await runCli(['run', '--mdoel', 'x', 'fix it']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^patchloop run: unknown option --mdoel; did you mean --model\?$/m);
    const far = await runCli(['inspect', '--zzzzzz', transcript]);
    expect(far.stderr).toMatch(/unknown option --zzzzzz\n/);
  });

  it('refuses an empty task as a usage error, before asking for a key', async () => {
    for (const task of ['', '   ']) {
      const r = await runCli(['run', '--repo', dir, task]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/missing the task/);
      expect(r.stderr).not.toMatch(/API_KEY|api key/i);
    }
  });
});

describe('output', () => {
  it('export -o - writes the page to stdout and no file named -', async () => {
    const r = await runCli(['export', transcript, '-o', '-']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<!doctype html>/);
    expect(r.stdout.trimEnd()).toMatch(/<\/html>$/);
    expect(existsSync(join(dir, '-'))).toBe(false);
  });

  it('inspect --json | head ends quietly', () => {
    const r = spawnSync(
      'sh',
      [
        '-c',
        `${quote(process.execPath)} ${quote(cli.path)} inspect --json ${quote(transcript)} | head -n 2; echo "status $?"`,
      ],
      {
        encoding: 'utf8',
        env: cleanEnv(),
      },
    );
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['{', expect.stringMatching(/^ {2}"/)]);
    expect(r.stderr).toBe('');
  });

  it('a 0-column terminal is taken as 80 columns', () => {
    const shown = inPty(['inspect', transcript], 0);
    const turnLines = shown.split('\n').filter((l) => l.includes('words words'));
    expect(turnLines.length).toBeGreaterThan(10);
    // Cut to the terminal's 80 columns, not to 20 characters.
    const widest = Math.max(...turnLines.map((l) => [...l.replace(ANSI, '')].length));
    expect(widest).toBeGreaterThan(60);
    expect(widest).toBeLessThanOrEqual(80);
  });
});

describe('run', () => {
  function demoRepo(): { root: string; git: (...a: string[]) => string } {
    const root = mkdtempSync(join(dir, 'demo-'));
    cpSync('examples/demo-repo', root, { recursive: true });
    return { root, git: initRepo(root) };
  }
  const replay = (root: string) => [
    'run',
    '--repo',
    root,
    '--replay',
    'examples/demo-session.jsonl',
    '--test-command',
    'node --test',
    '--sandbox',
    'off',
  ];

  it('on a terminal: says what it uses, colours ✓ and the outcome, ends with the branch', () => {
    const { root, git } = demoRepo();
    const shown = inPty(replay(root), 100, cleanEnv(), process.cwd());
    expect(shown).toMatch(
      /^patchloop: scripted \S+ via no endpoint \(replayed\) · commands NOT isolated \(--sandbox off\), network unrestricted$/m,
    );
    expect(shown).toContain('  \x1b[32m✓\x1b[39m edit_file src/math.js');
    const branch = git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    expect(branch).toMatch(/^patchloop\//);
    expect(shown).toContain(`\x1b[32msuccess\x1b[39m · You are on branch ${branch}.`);
  });

  it('with NO_COLOR, or not on a terminal, writes no colour', async () => {
    const a = demoRepo();
    const shown = inPty(replay(a.root), 100, cleanEnv({ NO_COLOR: '1' }), process.cwd());
    expect(shown).not.toContain('\x1b[32m');
    expect(shown).toMatch(/^success · You are on branch patchloop\/.+\.$/m);
    const b = demoRepo();
    const r = await runCli(replay(b.root), cleanEnv(), process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('\x1b[');
    expect(r.stdout).toMatch(/^success · You are on branch patchloop\/.+\.$/m);
  });

  it('--continue with a usage error leaves the checkout on its branch; a good one says what it continues', async () => {
    const { root, git } = demoRepo();
    const first = await runCli(
      [...replay(root), '--transcript', join(dir, 'first.jsonl')],
      cleanEnv(),
      process.cwd(),
    );
    expect(first.code).toBe(0);
    const runBranch = git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    git('checkout', '-q', 'main');
    for (const bad of [['--sandbox', 'bogus', 'next'], [''], ['--max-turns', '0', 'next']]) {
      const r = await runCli(['run', '--repo', root, '--continue', join(dir, 'first.jsonl'), ...bad]);
      expect(r.code).toBe(2);
      expect(git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    }
    // Missing key: an environment error, still before the checkout moves.
    const noKey = await runCli([
      'run',
      '--repo',
      root,
      '--continue',
      join(dir, 'first.jsonl'),
      '--provider',
      'anthropic',
      'next',
    ]);
    expect(noKey.code).toBe(2);
    expect(git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(readdirSync(root)).not.toContain('-');
    expect(runBranch).toMatch(/^patchloop\//);
  });

  it('--continue keeps the recorded model and base URL when --provider repeats the recorded one, and says so', async () => {
    const repo = tempRepo(BUGGY_PROJECT);
    const model = 'claude-sonnet-4-5';
    const key = 'sk-ant-api03-ux-continue-0123456789abcdef';
    const server = await startAnthropicServer([{ text: 'Nothing to change.' }, { text: 'Still nothing.' }]);
    try {
      const env = cleanEnv({ ANTHROPIC_API_KEY: key });
      const t1 = join(dir, 'recorded.jsonl');
      const r1 = await runCli(
        [
          'run',
          '--repo',
          repo.root,
          '--model',
          model,
          '--base-url',
          server.url,
          '--transcript',
          t1,
          'Look at it',
        ],
        env,
      );
      expect(r1.code, r1.stderr).toBe(0);
      expect(r1.stderr).toMatch(
        new RegExp(`^patchloop: anthropic ${model} via 127\\.0\\.0\\.1:\\d+ · `, 'm'),
      );
      const r2 = await runCli(
        ['run', '--repo', repo.root, '--continue', t1, '--provider', 'anthropic', 'Look again'],
        env,
      );
      expect(r2.code, r2.stderr).toBe(0);
      expect(r2.stderr).toMatch(
        /^patchloop: continuing session \S+ from .*recorded\.jsonl \(\d+ messages\)$/m,
      );
      expect(server.requests).toHaveLength(2);
      expect((server.requests[1]!.body as { model: string }).model).toBe(model);
      expect(r2.stdout).toMatch(/^no-changes · You are on branch main\.$/m);
    } finally {
      await server.close();
      repo.cleanup();
    }
  });
});
