import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommandResult } from '../../src/tools/command-output.js';
import { commandEnv } from '../../src/tools/env.js';
import { runCommand, type CommandSandbox } from '../../src/tools/process.js';
import { tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.cleanup());

/** A process that is gone or a zombie no longer runs anything (PID 1 here may not reap orphans). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Members of a process group that still run (zombies excluded, as above). */
function runningMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const stat = readFileSync(`/proc/${e}/stat`, 'latin1');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(running);
}

function groupGone(pgid: number): NodeJS.ErrnoException | undefined {
  try {
    process.kill(-pgid, 0);
    return undefined;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

describe('runCommand', () => {
  it('stops `sleep 30` at a 1 s timeout and leaves no process group behind', async () => {
    const r = await runCommand({ command: 'sleep 30', cwd: dir.path, timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    // It returned long before the sleep would have ended on its own.
    expect(r.durationMs).toBeLessThan(10_000);
    expect(groupGone(r.pid!)?.code).toBe('ESRCH');
    const out = formatCommandResult('sleep 30', r);
    expect(out.isError).toBe(true);
    expect(out.content[0]).toMatchObject({ text: expect.stringMatching(/^Timed out after/) });
  });

  it('kills a grandchild that ignores SIGTERM', async () => {
    const r = await runCommand({
      command: "(trap '' TERM; exec sleep 60) & echo $!; wait",
      cwd: dir.path,
      timeoutMs: 500,
      killGraceMs: 300,
    });
    const grandchild = Number(r.text.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(r.timedOut).toBe(true);
    expect(running(grandchild)).toBe(false);
  });

  it('kills background processes the command leaves when it exits', async () => {
    const r = await runCommand({ command: 'sleep 60 & echo $!', cwd: dir.path, timeoutMs: 10_000 });
    expect(r.exitCode).toBe(0);
    expect(r.timedOut).toBe(false);
    expect(running(Number(r.text.trim()))).toBe(false);
  });

  it('stops the whole group on abort', async () => {
    const controller = new AbortController();
    const pending = runCommand({
      command: 'sleep 30 & sleep 30; wait',
      cwd: dir.path,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const r = await pending;
    expect(r.aborted).toBe(true);
    expect(runningMembers(r.pid!)).toEqual([]);
    expect(formatCommandResult('x', r).content[0]).toMatchObject({
      text: expect.stringMatching(/^Cancelled/),
    });
  });

  // the overlay's move into the checkout (src/sandbox/overlay.ts) is a sandbox's settle()
  it('awaits the sandbox’s settle once the command has ended, and hands its note to the model as an error', async () => {
    let seen = '';
    const sandbox: CommandSandbox = {
      wrap: (spec) => ({
        file: '/bin/sh',
        args: ['-c', spec.command],
        env: spec.env,
        // the command's last write is there by the time it is called
        settle: async () => {
          seen = readFileSync(`${dir.path}/settled.txt`, 'utf8');
          return 'one of the command’s changes could not be moved into the workspace';
        },
      }),
    };
    const r = await runCommand({ command: 'sleep 0.2; echo done > settled.txt', cwd: dir.path, sandbox });
    expect(seen).toBe('done\n');
    expect(r.exitCode).toBe(0);
    expect(r.workspaceNote).toMatch(/could not be moved/);
    const out = formatCommandResult('x', r);
    expect(out.isError).toBe(true);
    expect(out.content[0]).toMatchObject({ text: expect.stringContaining('[one of the command’s changes') });
    // a settle that throws still ends in a note, never in a lost result
    const failing: CommandSandbox = {
      wrap: (spec) => ({
        file: '/bin/sh',
        args: ['-c', spec.command],
        env: spec.env,
        settle: () => Promise.reject(new Error('layer unreadable')),
      }),
    };
    const r2 = await runCommand({ command: 'true', cwd: dir.path, sandbox: failing });
    expect(r2.workspaceNote).toMatch(/could not be put into the workspace: Error: layer unreadable/);
  });

  it('does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await runCommand({ command: 'echo never', cwd: dir.path, signal: controller.signal });
    expect(r.aborted).toBe(true);
    expect(r.pid).toBeUndefined();
    expect(r.totalBytes).toBe(0);
  });

  it('returns the tail of 200 MB of output with bounded memory, and saves its first and last 8 MiB with what was dropped between them', async () => {
    let peak = process.memoryUsage().rss;
    const before = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const r = await runCommand({
      command: "yes 'a line of output that repeats' | head -c 200000000; echo; echo LAST LINE",
      cwd: dir.path,
      artifactsDir: dir.path,
      timeoutMs: 120_000,
    });
    clearInterval(sampler);
    expect(r.exitCode).toBe(0);
    expect(r.totalBytes).toBe(200_000_000 + 1 + 10);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    expect(r.fullOutputPath).toBeDefined();
    const MiB = 1024 ** 2;
    expect(r.droppedBytes).toBe(r.totalBytes - 16 * MiB);
    const saved = readFileSync(r.fullOutputPath!);
    const marker = `\n[… ${(r.droppedBytes! / MiB).toFixed(1)} MB of output dropped here: patchloop keeps the first 8.0 MB and the last 8.0 MB of a command's output …]\n`;
    expect(saved.length).toBe(16 * MiB + Buffer.byteLength(marker));
    expect(saved.subarray(0, 31).toString()).toBe('a line of output that repeats\na');
    expect(saved.subarray(8 * MiB, 8 * MiB + Buffer.byteLength(marker)).toString()).toBe(marker);
    expect(saved.subarray(saved.length - 11).toString()).toBe('\nLAST LINE\n');
    const out = formatCommandResult('yes', r);
    const text = (out.content[0] as { text: string }).text;
    expect(text).toMatch(
      /LAST LINE\n\[Output cut: showing the last \d+ lines of 6666668 lines \(190\.7 MB in all\)\./,
    );
    expect(text).toContain(
      `The output's beginning and end are saved to ${r.fullOutputPath} (174.7 MB in between were dropped).`,
    );
    expect(Buffer.byteLength(text)).toBeLessThan(60 * 1024);
    expect(out.details?.truncated).toBe(true);
  });

  it('stops a command whose output passes the total limit, and says so', async () => {
    const r = await runCommand({
      command: 'echo FIRST; yes',
      cwd: dir.path,
      artifactsDir: dir.path,
      timeoutMs: 120_000,
      outputBounds: { stopBytes: 64 * 1024 ** 2 },
    });
    expect(r.outputLimit).toBe(64 * 1024 ** 2);
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBeNull();
    expect(r.totalBytes).toBeGreaterThan(64 * 1024 ** 2);
    expect(groupGone(r.pid!)?.code).toBe('ESRCH');
    const saved = readFileSync(r.fullOutputPath!);
    expect(saved.subarray(0, 8).toString()).toBe('FIRST\ny\n');
    expect(saved.includes('MB of output dropped here: patchloop keeps the first 8.0 MB')).toBe(true);
    expect(saved.length).toBeLessThan(17 * 1024 ** 2);
    const out = formatCommandResult('yes', r);
    expect(out.isError).toBe(true);
    expect(out.details?.outputLimit).toBe(64 * 1024 ** 2);
    expect((out.content[0] as { text: string }).text).toMatch(
      /^Stopped after (?:\d+ ms|\d+\.\d s|\d+ min(?: \d+ s)?): the command printed more than 64\.0 MB of output, the most patchloop reads from one command, so it and all its processes were stopped\./,
    );
  });

  it('saves an output between the bounds whole, with nothing dropped', async () => {
    const r = await runCommand({
      command: 'seq 1 100000',
      cwd: dir.path,
      artifactsDir: dir.path,
      outputBounds: { headBytes: 1000, tailBytes: 600_000 },
    });
    expect(r.droppedBytes).toBeUndefined();
    expect(readFileSync(r.fullOutputPath!, 'utf8')).toBe(
      Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join(''),
    );
  });

  it('saves the full output when only the line limit is passed', async () => {
    const r = await runCommand({ command: 'seq 1 3000', cwd: dir.path, artifactsDir: dir.path });
    expect(r.totalLines).toBe(3000);
    expect(readFileSync(r.fullOutputPath!, 'utf8')).toBe(
      Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join(''),
    );
    const text = (formatCommandResult('seq', r).content[0] as { text: string }).text;
    expect(text.split('\n')[1]).toBe('1001');
    expect(text).toContain('showing the last 2000 lines of 3000 lines');
  });

  it('keeps small output whole, with no saved file', async () => {
    const r = await runCommand({ command: 'echo out; echo err >&2; exit 3', cwd: dir.path });
    expect(r.exitCode).toBe(3);
    expect(r.text.split('\n').sort()).toEqual(['', 'err', 'out']);
    expect(r.fullOutputPath).toBeUndefined();
    const out = formatCommandResult('x', r);
    expect(out.isError).toBe(true);
    expect((out.content[0] as { text: string }).text).toMatch(/^Exit code 3 \(/);
  });

  it('gives the duration in the one style of every surface (350 ms, 4.2 s, 2 min 5 s)', async () => {
    const r = await runCommand({ command: 'exit 1', cwd: dir.path });
    const status = (durationMs: number) =>
      (formatCommandResult('x', { ...r, durationMs }).content[0] as { text: string }).text.split('\n')[0];
    expect(status(350)).toBe('Exit code 1 (350 ms).');
    expect(status(4_200)).toBe('Exit code 1 (4.2 s).');
    expect(status(125_000)).toBe('Exit code 1 (2 min 5 s).');
    expect(
      (formatCommandResult('x', { ...r, durationMs: 1_000, timedOut: true }).content[0] as { text: string })
        .text,
    ).toMatch(/^Timed out after 1\.0 s;/);
  });

  it('decodes bytes that are not UTF-8 as replacement characters', async () => {
    const r = await runCommand({ command: "printf 'ok \\377\\376 end\\n'", cwd: dir.path });
    expect(r.text).toBe('ok \uFFFD\uFFFD end\n');
  });

  it('gives the command /dev/null as stdin', async () => {
    const r = await runCommand({ command: 'cat; echo done', cwd: dir.path, timeoutMs: 20_000 });
    expect(r.timedOut).toBe(false);
    expect(r.text).toBe('done\n');
  });

  it('runs in its own process group', async () => {
    const r = await runCommand({ command: 'ps -o pgid= -p $$', cwd: dir.path });
    expect(Number(r.text.trim())).toBe(r.pid);
  });

  it('launches through a sandbox when one is given', async () => {
    const seen: string[] = [];
    const sandbox: CommandSandbox = {
      wrap(spec) {
        seen.push(spec.command);
        return {
          file: '/bin/sh',
          args: ['-c', `echo wrapped; ${spec.command}`],
          env: { ...spec.env, WRAPPED: 'yes' },
        };
      },
    };
    const r = await runCommand({ command: 'echo $WRAPPED', cwd: dir.path, sandbox });
    expect(seen).toEqual(['echo $WRAPPED']);
    expect(r.text).toBe('wrapped\nyes\n');
  });

  it('reports a command that cannot be started', async () => {
    const sandbox: CommandSandbox = {
      wrap: (spec) => ({ file: '/nonexistent/launcher', args: [], env: spec.env }),
    };
    const r = await runCommand({ command: 'true', cwd: dir.path, sandbox });
    expect(r.spawnError).toMatch(/ENOENT/);
    const out = formatCommandResult('true', r);
    expect(out.isError).toBe(true);
    expect((out.content[0] as { text: string }).text).toMatch(/could not be started/);
  });
});

describe('allow-listed environment', () => {
  const planted = {
    GITHUB_TOKEN: 'ghs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    ANTHROPIC_API_KEY: 'sk-ant-secret2',
    'INPUT_API-KEY': 'secret6',
    ACTIONS_RUNTIME_TOKEN: 'secret8',
    // what a deny-list of secret-looking names let through
    DATABASE_URL: 'postgres://app:hunter2-secret9@db/app',
    SLACK_WEBHOOK: 'https://hooks.example/services/secret10',
    SENTRY_DSN: 'https://secret11@sentry.example/1',
    DEPLOY_PASS: 'secret12',
    GITHUB_REPOSITORY: 'o/r-secret13',
  };
  const neutral = {
    HOME: '/home/runner',
    LANG: 'C.UTF-8',
    TERM: 'xterm',
    TZ: 'Europe/Paris',
    USER: 'runner',
  };

  it('passes only the neutral variables and the names listed in command-env', async () => {
    const r = await runCommand({
      command: 'env',
      cwd: dir.path,
      env: { ...planted, ...neutral, PATH: process.env.PATH, NODE_OPTIONS: '--max-old-space-size=512' },
      envOptions: { pass: ['NODE_OPTIONS', 'NOT_SET_ANYWHERE'] },
    });
    for (const value of Object.values(planted)) expect(r.text).not.toContain(value);
    for (const [name, value] of Object.entries(neutral)) expect(r.text).toContain(`${name}=${value}\n`);
    expect(r.text).toContain('NODE_OPTIONS=--max-old-space-size=512\n');
    expect(r.text).toContain('CI=true\n');
    const names = r.text
      .trim()
      .split('\n')
      .map((l) => l.slice(0, l.indexOf('=')));
    // PWD, SHLVL and _ are the shell's own
    expect(names.filter((n) => !['PWD', 'SHLVL', '_'].includes(n)).sort()).toEqual(
      [
        ...Object.keys(neutral),
        'PATH',
        'CI',
        'TMPDIR',
        'LOGNAME',
        'GIT_TERMINAL_PROMPT',
        'PAGER',
        'GIT_PAGER',
        'npm_config_update_notifier',
        'NODE_OPTIONS',
      ].sort(),
    );
  });

  it('drops PATH entries inside private folders, even when PATH is listed', () => {
    const env = commandEnv(
      { PATH: '/runner/_temp/bin:/usr/bin:relative/bin:/runner/_temp:/bin' },
      { pass: ['PATH'], privateDirs: ['/runner/_temp'] },
    );
    expect(env.PATH).toBe('/usr/bin:/bin');
  });
});
