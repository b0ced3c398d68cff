// `patchloop help COMMAND`, `tool`'s clean-up of its sandbox on every path, and `--command-env`,
// through the built CLI as a user runs it.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUGGY_PROJECT, tempRepo, type TempRepo } from '../agent/helpers.js';
import { missingForSandbox } from '../sandbox/fixture.js';
import { buildCli, type BuiltCli } from './build-cli.js';

let cli: BuiltCli;
let dir: string;
const repos: TempRepo[] = [];
const noSandbox = missingForSandbox({ keyctl: false });

beforeAll(async () => {
  cli = await buildCli();
  dir = mkdtempSync(join(tmpdir(), 'patchloop-cli-flags-'));
});
afterAll(() => {
  cli?.cleanup();
  for (const r of repos) r.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(
  args: string[],
  o: { env?: NodeJS.ProcessEnv; onStart?: (pid: number) => void; cwd?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.path, ...args], {
      env: o.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
      cwd: o.cwd ?? process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    o.onStart?.(child.pid!);
  });
}

/** A temp folder of this call's own, given to the CLI as TMPDIR: everything patchloop makes there. */
function privateTmp(): string {
  const t = mkdtempSync(join(dir, 'tmp-'));
  chmodSync(t, 0o755);
  return t;
}

describe('patchloop help COMMAND', () => {
  it.each(['run', 'tool', 'inspect', 'export', 'replay'])(
    'help %s prints that command’s usage, as --help does',
    async (command) => {
      const viaHelp = await runCli(['help', command]);
      const viaFlag = await runCli([command, '--help']);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toMatch(new RegExp(`^Usage: patchloop ${command}`));
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    },
  );

  it('help alone is the top-level help; help of an unknown command is a usage error', async () => {
    const top = await runCli(['help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^patchloop \S+: run an LLM coding agent/);
    const unknown = await runCli(['help', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });
});

describe.skipIf(noSandbox)('patchloop tool takes its sandbox down however the call ends', () => {
  const tool = (repo: string, args: string) => ['tool', 'bash', args, '--allow-bash', '--repo', repo];

  it('after a command that succeeds, one whose arguments are invalid, and one cancelled by SIGINT', async () => {
    const repo = tempRepo(BUGGY_PROJECT);
    repos.push(repo);
    const env = (tmp: string) => ({ PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmp });

    const ok = privateTmp();
    const r = await runCli([...tool(repo.root, '{"command":"id -un > made.txt"}')], { env: env(ok) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ toolName: 'bash', isError: false });
    // the command really ran, in the sandbox
    expect(readFileSync(join(repo.root, 'made.txt'), 'utf8').trim()).toBe('patchloop-sandbox');
    expect(readdirSync(ok)).toEqual([]);

    const bad = privateTmp();
    const b = await runCli([...tool(repo.root, '{"command": 42}')], { env: env(bad) });
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ isError: true });
    expect(readdirSync(bad)).toEqual([]);

    const cancelled = privateTmp();
    const marker = join(repo.root, 'started');
    let pid = 0;
    const running = runCli([...tool(repo.root, `{"command":"touch started; sleep 60"}`)], {
      env: env(cancelled),
      onStart: (p) => (pid = p),
    });
    // the overlay moves what a command wrote in only when it ends: wait for its process instead
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !sleeping()) await new Promise((res) => setTimeout(res, 50));
    expect(sleeping()).toBe(true);
    process.kill(pid, 'SIGINT');
    const c = await running;
    expect(c.code).toBe(130);
    expect(JSON.parse(c.stdout)).toMatchObject({ isError: true });
    expect(existsSync(marker)).toBe(true);
    expect(readdirSync(cancelled)).toEqual([]);
  });
});

/** Whether a `sleep 60` of the sandbox user is running. */
function sleeping(): boolean {
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const argv = readFileSync(`/proc/${e}/cmdline`, 'latin1').split('\0');
      if (
        argv[0] === 'sleep' &&
        argv[1] === '60' &&
        readFileSync(`/proc/${e}/status`, 'latin1').match(/^Uid:\s+(\d+)/m)?.[1] !== '0'
      )
        return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

describe('--command-env', () => {
  it('passes the named variables to tool’s commands, and nothing else of the shell', async () => {
    const repo = tempRepo(BUGGY_PROJECT);
    repos.push(repo);
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: privateTmp(),
      PL_PASSED: 'passed-value-1',
      PL_KEPT: 'kept-value-2',
    };
    const command = '{"command":"echo \\"[$PL_PASSED][$PL_KEPT]\\""}';
    const args = ['tool', 'bash', command, '--allow-bash', '--repo', repo.root];
    const without = await runCli(args, { env });
    expect(JSON.parse(without.stdout).content[0].text).toContain('[][]');
    const withIt = await runCli([...args, '--command-env', 'PL_PASSED'], { env });
    expect(JSON.parse(withIt.stdout).content[0].text).toContain('[passed-value-1][]');
  });

  it('refuses a cloud credential and a name that is not one, as the action does, in run, tool and replay', async () => {
    const cases: string[][] = [
      ['tool', 'bash', '{"command":"true"}', '--allow-bash', '--command-env', 'PATH,AWS_SECRET_ACCESS_KEY'],
      ['run', '--command-env', 'GOOGLE_APPLICATION_CREDENTIALS', 'fix it'],
      ['replay', 'x.jsonl', '--run-commands', '--command-env', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'],
    ];
    for (const args of cases) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--command-env may not name \w+: it holds a cloud credential/);
    }
    const bad = await runCli(['run', '--command-env', 'NOT-A-NAME', 'fix it'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--command-env lists names of environment variables .*"NOT-A-NAME" is not one/,
    );
  });
});
