// The real CLI bundle run as a process: dispatch, `tool`, and `run` with a replayed session, with
// the loopback Anthropic server, and interrupted by SIGINT.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import type { ToolResultMessage } from '../../src/protocol/types.js';
import { textOf } from '../../src/protocol/types.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, DIVIDE_FIX, initRepo, tempRepo, type TempRepo } from '../agent/helpers.js';
import { buildCli, type BuiltCli } from './build-cli.js';

let cli: BuiltCli;
let scratch: string;
/** The CLI processes' temp folder (TMPDIR), where `run` puts its transcripts by default. */
let processTmp: string;
const repos: TempRepo[] = [];

beforeAll(async () => {
  cli = await buildCli();
  processTmp = mkdtempSync(join(tmpdir(), 'patchloop-cli-tmp-'));
});
afterAll(() => {
  cli.cleanup();
  rmSync(processTmp, { recursive: true, force: true });
});
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function newScratch(): string {
  scratch = mkdtempSync(join(tmpdir(), 'patchloop-cli-'));
  return scratch;
}

function repoOf(files: Record<string, string>): TempRepo {
  const repo = tempRepo(files);
  repos.push(repo);
  return repo;
}

/** The environment of a user without provider keys. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: processTmp, ...extra };
  for (const k of [
    'ANTHROPIC_API_KEY',
    'OPENAI_API_KEY',
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'ANTHROPIC_BASE_URL',
    'OPENAI_BASE_URL',
  ]) {
    if (!(k in extra)) delete env[k];
  }
  return env;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; onStart?: (pid: number) => void } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.path, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    options.onStart?.(child.pid!);
  });
}

function transcriptPathOf(stdout: string): string {
  const m = /^Transcript: (.+)$/m.exec(stdout);
  if (!m) throw new Error(`no transcript path in:\n${stdout}`);
  return m[1]!.trim();
}

async function waitFor(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 25));
}

describe('patchloop CLI dispatch and tool', () => {
  it('runs one tool call: read_file with {} is an error result that names path, exit 0', async () => {
    const r = await runCli(['tool', 'read_file', '{}', '--repo', '.']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!) as ToolResultMessage;
    expect(result).toMatchObject({ role: 'toolResult', toolName: 'read_file', isError: true });
    expect(textOf(result.content)).toMatch(/"path"/);
  });

  it('runs every tool through the same registry on a real checkout', async () => {
    const repo = repoOf(BUGGY_PROJECT);
    const tool = async (name: string, args: string, ...flags: string[]) => {
      const r = await runCli(['tool', name, args, '--repo', repo.root, ...flags]);
      expect(r.code).toBe(0);
      const result = JSON.parse(r.stdout) as ToolResultMessage;
      return { isError: result.isError, text: textOf(result.content) };
    };
    // The read-only calls do not depend on each other; run them side by side.
    const [list, find, grep, bashOff, bashOn] = await Promise.all([
      tool('list_dir', '{}'),
      tool('find_files', '{"pattern":"**/*.js"}'),
      tool('grep', '{"pattern":"a / b"}'),
      tool('bash', '{"command":"echo hi"}'),
      tool('bash', '{"command":"echo hi"}', '--allow-bash'),
    ]);
    expect(list).toMatchObject({ isError: false, text: expect.stringContaining('src/') });
    expect(find).toMatchObject({ isError: false, text: expect.stringContaining('test/math.test.js') });
    expect(grep).toMatchObject({ isError: false, text: expect.stringContaining('src/math.js:2:') });
    expect(bashOff).toMatchObject({ isError: true, text: expect.stringContaining('Unknown tool "bash"') });
    expect(bashOn).toMatchObject({ isError: false, text: expect.stringContaining('hi') });
    expect(await tool('edit_file', JSON.stringify({ path: 'src/math.js', ...DIVIDE_FIX }))).toMatchObject({
      isError: false,
    });
    expect(await tool('write_file', '{"path":"notes/todo.txt","content":"done\\n"}')).toMatchObject({
      isError: false,
    });
    expect(readFileSync(join(repo.root, 'notes/todo.txt'), 'utf8')).toBe('done\n');
    expect(await tool('run_tests', '{}', '--test-command', 'node --test')).toMatchObject({
      isError: false,
      text: expect.stringMatching(/Exit code 0/),
    });
  });

  it('answers usage errors with exit 2 and the usage on stderr', async () => {
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"[\s\S]*Usage:/);
    const noName = await runCli(['tool', '--repo', '.']);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/missing the tool NAME/);
    const badFlag = await runCli(['run', '--max-turns', 'many', 'task']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/--max-turns must be a positive whole number/);
  });

  it('refuses a --command-network that is not none, all or host names, with exit 2', async () => {
    const bad = await runCli(['run', '--command-network', 'https://registry.npmjs.org', 'task']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--command-network is none, all, or host names [^\n]*"https:\/\/registry\.npmjs\.org" is not a host name/,
    );
  });

  it('lists the tools in tool --help, and says a file error once, with exit 1 and no usage hint', async () => {
    const help = await runCli(['tool', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/read_file\(path, offset\?, limit\?\)/);
    expect(help.stdout).toMatch(/run_tests\(args\?\)/);
    const dir = newScratch();
    const missing = await runCli(['inspect', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^patchloop inspect: cannot read transcript \S+nope\.jsonl: no such file\n$/,
    );
  });

  it('refuses to run on a folder that is not a checkout, or on uncommitted changes', async () => {
    const plain = newScratch();
    const missing = await runCli(['run', '--repo', join(plain, 'no-such-folder'), 'fix it']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^patchloop run: --repo \S+no-such-folder is not a folder\n/);
    const notRepo = await runCli(['run', '--repo', plain, 'fix it']);
    expect(notRepo.code).toBe(2);
    expect(notRepo.stderr).toMatch(/not inside a git checkout/);
    const repo = repoOf({ 'a.txt': 'a\n' });
    writeFileSync(join(repo.root, 'a.txt'), 'changed\n');
    const dirty = await runCli(['run', '--repo', repo.root, 'fix it']);
    expect(dirty.code).toBe(2);
    expect(dirty.stderr).toMatch(/uncommitted changes \(a\.txt\)/);
  });
});

describe('patchloop run', () => {
  it('replays the demo session on the demo repository: fix committed on a new branch, checkout clean', async () => {
    const dir = newScratch();
    const root = join(dir, 'demo-repo');
    cpSync('examples/demo-repo', root, { recursive: true });
    const git = initRepo(root);

    const r = await runCli([
      'run',
      '--repo',
      root,
      '--replay',
      'examples/demo-session.jsonl',
      '--test-command',
      'node --test',
    ]);
    expect(r.stderr).toMatch(/✓ edit_file src\/math\.js/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Outcome: success$/m);
    expect(r.stdout).toMatch(/Scripted model session/);
    expect(r.stdout).toMatch(/src\/math\.js\s+\+3 -0/);
    const branch = /^Branch: (.+)$/m.exec(r.stdout)![1]!;
    expect(git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(branch);
    expect(git('status', '--porcelain').trim()).toBe('');
    expect(git('show', '--stat', '--format=%s', 'HEAD')).toMatch(
      /patchloop: Fix the divide-by-zero[\s\S]*src\/math\.js/,
    );

    const path = transcriptPathOf(r.stdout);
    expect(path.startsWith(join(processTmp, 'patchloop'))).toBe(true);
    const t = parseTranscript(readFileSync(path, 'utf8'));
    expect(t.session).toMatchObject({ trigger: 'cli', scripted: true });
    expect(t.summary).toMatchObject({ conclusion: 'success', commitSha: git('rev-parse', 'HEAD').trim() });
    const results = t.messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(results.at(-1)).toMatchObject({ toolName: 'run_tests', isError: false });
  });

  it('fixes a bug end to end against the loopback Anthropic server', async () => {
    const repo = repoOf(BUGGY_PROJECT);
    const apiKey = 'sk-ant-test-0123456789abcdefghij';
    const server = await startAnthropicServer([
      {
        text: 'Reading the code.',
        toolCalls: [{ id: 'toolu_01', name: 'read_file', json: ['{"path":', '"src/math.js"}'] }],
      },
      {
        toolCalls: [
          {
            id: 'toolu_02',
            name: 'edit_file',
            json: JSON.stringify({
              path: 'src/math.js',
              oldText: '  return a / b;',
              newText: "  if (b === 0) throw new RangeError('division by zero');\n  return a / b;",
            }),
          },
        ],
        usage: { input: 900, output: 60, cacheRead: 1200 },
      },
      { toolCalls: [{ id: 'toolu_03', name: 'run_tests', json: '{}' }] },
      { text: ['divide() now throws ', 'a RangeError; tests pass.'], usage: { input: 1500, output: 20 } },
    ]);
    try {
      const r = await runCli(
        [
          'run',
          '--repo',
          repo.root,
          '--model',
          'claude-sonnet-4-5',
          '--base-url',
          server.url,
          '--test-command',
          'node --test',
          'Fix the divide-by-zero in src/math.js',
        ],
        { env: cleanEnv({ ANTHROPIC_API_KEY: apiKey }) },
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Outcome: success$/m);
      expect(server.requests[0]!.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
      expect(r.stdout).toMatch(/^Model: claude-sonnet-4-5/m);
      expect(r.stdout).toMatch(/^Tokens: input 2400, output 80, cache read 1200, cache write 0$/m);
      expect(r.stdout).toMatch(/divide\(\) now throws a RangeError; tests pass\./);
      expect(readFileSync(join(repo.root, 'src/math.js'), 'utf8')).toContain('RangeError');
      expect(repo.git('status', '--porcelain').trim()).toBe('');
      expect(server.requests).toHaveLength(4);
      // the model received each result, paired with its call id
      const last = server.requests[3]!.body as { messages: { role: string; content: unknown }[] };
      expect(JSON.stringify(last.messages)).toMatch(/"tool_use_id":"toolu_03"/);
      const transcript = readFileSync(transcriptPathOf(r.stdout), 'utf8');
      expect(transcript).not.toContain(apiKey);
      expect(parseTranscript(transcript).summary).toMatchObject({ conclusion: 'success', turns: 4 });
    } finally {
      await server.close();
    }
  });

  it('stops cleanly on SIGINT during a long run_tests: exit 130, no process left, transcript complete', async () => {
    const repo = repoOf(BUGGY_PROJECT);
    const dir = newScratch();
    const pidFile = join(dir, 'tests.pid');
    const script = join(dir, 'script.jsonl');
    const assistant = (content: unknown[], stopReason: string) => ({
      type: 'message',
      message: {
        role: 'assistant',
        content,
        provider: 'scripted',
        model: 'scripted',
        usage: {},
        stopReason,
        timestamp: 1,
      },
    });
    writeFileSync(
      script,
      [
        { type: 'message', message: { role: 'user', content: 'Run the tests.', timestamp: 0 } },
        assistant([{ type: 'toolCall', id: 'call_tests', name: 'run_tests', input: {} }], 'toolUse'),
        assistant([{ type: 'text', text: 'never reached' }], 'stop'),
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    let pid = 0;
    const deadline = { timer: undefined as ReturnType<typeof setTimeout> | undefined };
    const run = runCli(
      // Without the sandbox: the test reads the command's process group from outside the workspace.
      [
        'run',
        '--repo',
        repo.root,
        '--replay',
        script,
        '--sandbox',
        'off',
        '--test-command',
        `echo $$ > ${pidFile}; sleep 60`,
      ],
      { onStart: (p) => (pid = p) },
    );
    await waitFor(pidFile);
    while (readFileSync(pidFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 25));
    const testsPgid = Number(readFileSync(pidFile, 'utf8').trim());
    process.kill(pid, 'SIGINT');
    // The contract's bound: a run still going 3 s after SIGINT is killed, and then fails below.
    deadline.timer = setTimeout(() => process.kill(pid, 'SIGKILL'), 3000);
    const r = await run;
    clearTimeout(deadline.timer);

    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(() => process.kill(-testsPgid, 0)).toThrow(/ESRCH/);
    expect(r.stdout).toMatch(/^Outcome: cancelled$/m);
    const t = parseTranscript(readFileSync(transcriptPathOf(r.stdout), 'utf8'));
    expect(t.summary).toMatchObject({ conclusion: 'cancelled' });
    const result = t.messages.find((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(result).toMatchObject({ toolCallId: 'call_tests', isError: true });
    expect(t.events).toContainEqual(expect.objectContaining({ event: 'cancel' }));
    expect(repo.git('status', '--porcelain').trim()).toBe('');
  });
});
