import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitRunner, resolveGit, SAFE_CONFIG } from '../../src/git/index.js';

// The runner itself: what a git process patchloop starts can see, and how it is stopped. A `-c
// alias.x=!cmd` stands in for any program git might start (a filter, a helper, a hook).
const runner = createGitRunner(resolveGit());
const cwd = tmpdir();
// unique durations, so a sleeper of another run is never mistaken for ours
const tag = String(process.pid).padStart(6, '0');

function running(needle: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(needle);
      } catch {
        return false;
      }
    });
}

afterEach(() => {
  delete process.env.PATCHLOOP_TEST_SECRET;
});

describe('the git runner', () => {
  it('gives git a minimal environment: no job secret, an empty HOME, no system or global config', async () => {
    process.env.PATCHLOOP_TEST_SECRET = 'sk-should-not-leak';
    const out = await runner.text(['-c', 'alias.dumpenv=!env', 'dumpenv'], { cwd });
    expect(out).not.toContain('sk-should-not-leak');
    const env = Object.fromEntries(
      out.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(env).toMatchObject({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      LC_ALL: 'C',
    });
    expect(env.HOME).not.toBe(process.env.HOME);
    expect(readdirSync(env.HOME!)).toEqual([]);
    for (const dir of env.PATH!.split(':')) expect(dir.startsWith('/')).toBe(true);
  });

  it('puts our overrides on every call, after any config file', async () => {
    const out = await runner.text(['config', '--show-scope', '--list'], { cwd });
    for (const c of SAFE_CONFIG) expect(out).toContain(`command\t${c.toLowerCase().replace(/=.*/, '')}`);
    expect(out).not.toMatch(/^(global|system)\t/m);
  });

  it('kills the whole process group when the time bound passes', async () => {
    const started = Date.now();
    const r = await runner.run(['-c', `alias.hang=!sleep 97.${tag}`, 'hang'], { cwd, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    // the alias sleeps 97 s: a run that waited for it is far past this, however busy the machine
    expect(Date.now() - started).toBeLessThan(60_000);
    await new Promise((res) => setTimeout(res, 100));
    expect(running(`sleep 97.${tag}`)).toEqual([]);
  });

  it('stops git on abort and when its output passes the cap', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const aborted = await runner.run(['-c', `alias.hang=!sleep 98.${tag}`, 'hang'], {
      cwd,
      signal: controller.signal,
    });
    expect(aborted).toMatchObject({ stopped: true, timedOut: false });
    await new Promise((res) => setTimeout(res, 100));
    expect(running(`sleep 98.${tag}`)).toEqual([]);

    const big = await runner.run(['-c', 'alias.flood=!yes', 'flood'], { cwd, maxOutputBytes: 100_000 });
    expect(big.stopped).toBe(true);
    expect(big.stdout.length).toBeLessThanOrEqual(100_000);
    await expect(
      runner.text(['-c', 'alias.flood=!yes', 'flood'], { cwd, maxOutputBytes: 1000 }),
    ).rejects.toThrow(/output too large/);
  });

  it('refuses a relative binary', () => {
    expect(() => createGitRunner('git')).toThrow(/absolute/);
  });
});

describe('a helper that escapes the process group', () => {
  it('does not keep the call open once git has exited', async () => {
    // setsid puts the sleeper in a session of its own, holding git's stdout
    const started = Date.now();
    const r = await runner.run(['-c', `alias.escape=!setsid sleep 96.${tag} & exit 0`, 'escape'], {
      cwd,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const pid of running(`sleep 96.${tag}`)) process.kill(Number(pid), 'SIGKILL');
  });
});

describe('stopping a git that holds a lock', () => {
  it('sends SIGTERM first, so git removes its index.lock as it exits', async () => {
    const { existsSync, mkdtempSync, writeFileSync } = await import('node:fs');
    const { execFileSync } = await import('node:child_process');
    const dir = mkdtempSync(`${tmpdir()}/pl-exec-lock-`);
    const g = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
    g('init', '-q');
    writeFileSync(`${dir}/a.txt`, 'a\n');
    g('add', 'a.txt');
    g('commit', '-q', '-m', 'first');
    writeFileSync(`${dir}/a.txt`, 'b\n');
    // `commit -a --file=<fifo>` stages into index.lock, then blocks opening the FIFO for its message.
    execFileSync('mkfifo', [`${dir}/message`]);
    const controller = new AbortController();
    const commit = runner.run(['commit', '-a', `--file=${dir}/message`], {
      cwd: dir,
      signal: controller.signal,
      env: {
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@e',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@e',
      },
    });
    while (!existsSync(`${dir}/.git/index.lock`)) await new Promise((res) => setTimeout(res, 10));
    controller.abort();
    const r = await commit;
    expect(r.stopped).toBe(true);
    // A SIGKILL would have left it, and the next commit in that git dir would fail on it.
    expect(existsSync(`${dir}/.git/index.lock`)).toBe(false);
  });

  it('kills a git that ignores SIGTERM', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await runner.run(['-c', `alias.stubborn=!trap '' TERM; sleep 94.${tag}`, 'stubborn'], {
      cwd,
      signal: controller.signal,
    });
    expect(r.stopped).toBe(true);
    await new Promise((res) => setTimeout(res, 100));
    expect(running(`sleep 94.${tag}`)).toEqual([]);
  });
});
