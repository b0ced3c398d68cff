import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCi } from '../support/requirements.js';
import { createSandbox, SANDBOX_USER, type SandboxSetup } from '../../src/sandbox/index.js';
import { createBashTool } from '../../src/tools/bash.js';
import { createRunTestsTool } from '../../src/tools/run-tests.js';
import { runCommand, type CommandSandbox } from '../../src/tools/process.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, textOf } from '../tools/helpers.js';
import {
  CREDENTIAL,
  createFixture,
  missingForSandbox,
  processesWith,
  RUNNER_SECRET,
  SECRET,
  type Fixture,
} from './fixture.js';

// Each defence with the attack it stops, run for real as the sandbox user. Every attack is also
// run with its defence left out (or without the sandbox), to show the attack itself works.

const found = missingForSandbox();
if (found && !inCi()) console.warn(`skipping the sandbox tests: ${found}`);
// In CI nothing is skipped: a machine that cannot run them fails here, saying what is missing.
const missing = inCi() ? undefined : found;
if (found !== undefined && inCi())
  it('has what the sandbox tests need (CI=true: they must not be skipped)', () => {
    throw new Error(found);
  });

function isolated(setup: SandboxSetup): Extract<SandboxSetup, { kind: 'isolated' }> {
  if (setup.kind !== 'isolated') throw new Error(`not isolated: ${setup.reason}`);
  return setup;
}

async function sh(sandbox: CommandSandbox | undefined, f: Fixture, command: string, timeoutMs = 20_000) {
  return runCommand({ command, cwd: f.workspace, env: f.env, sandbox, timeoutMs });
}

/** Polls `read` until `done` holds (or 10 s pass, on a machine too busy to get there); returns the last value. */
async function settle<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  let value = read();
  // up to 30 s: at a load of 10 and more on two cores, a namespace's end has taken over 10 s
  for (let i = 0; i < 600 && !done(value); i++) {
    await new Promise((res) => setTimeout(res, 50));
    value = read();
  }
  return value;
}

describe.skipIf(missing !== undefined).each(['/tmp', '/var/tmp'] as const)(
  'sandbox, HOME under %s',
  (base) => {
    let f: Fixture;
    let setup: Extract<SandboxSetup, { kind: 'isolated' }>;
    beforeAll(async () => {
      f = createFixture(base);
      setup = isolated(
        await createSandbox({
          workspace: f.workspace,
          privateDirs: [f.runnerTemp, f.runDir],
          readOnlyDirs: [f.outputs],
          env: f.env,
          commandEnv: ['CARGO_TERM_COLOR'],
        }),
      );
    });
    afterAll(async () => {
      await setup?.dispose();
      f?.cleanup();
    });

    it('runs commands as the sandbox user, in the workspace, with its own HOME', async () => {
      const r = await sh(setup.sandbox, f, 'id -un; pwd; echo "$HOME"; touch made && ls -l made');
      expect(r.exitCode, r.text).toBe(0);
      const [user, cwd, home, made] = r.text.trim().split('\n');
      expect(user).toBe(SANDBOX_USER);
      expect(cwd).toBe(f.workspace);
      expect(home).toBe('/tmp/home');
      expect(made).toContain(SANDBOX_USER);
      // the user's umask (022) under the overlay; under the ACL walks the folder's default ACL
      // decides (its mask lets patchloop's own user edit the file too)
      expect(made).toMatch(setup.reason.includes('overlay') ? /^-rw-r--r-- / : /^-rw-rw-r--/);
      expect(setup.reason).toMatch(/PID and mount namespace/);
    });

    it('gives commands none of the job environment but the neutral variables and command-env', async () => {
      f.env.CARGO_TERM_COLOR = 'always';
      const r = await sh(setup.sandbox, f, 'env');
      delete f.env.CARGO_TERM_COLOR;
      expect(r.text).toContain('CARGO_TERM_COLOR=always');
      expect(r.text).toContain('CI=true');
      expect(r.text).not.toContain(SECRET);
      expect(r.text).not.toContain('RUNNER_TEMP');
      // without the allow-list (the name listed in command-env) the planted secret does arrive
      const open = await runCommand({
        command: 'env',
        cwd: f.workspace,
        env: f.env,
        envOptions: { pass: ['PLANTED_SECRET'] },
      });
      expect(open.text).toContain(SECRET);
    });

    it("cannot read patchloop's /proc/<pid>/environ, nor see its process", async () => {
      const attack = `cat /proc/${process.pid}/environ | tr '\\0' '\\n'; ls /proc | grep -x ${process.pid} || echo no-such-pid`;
      const r = await sh(setup.sandbox, f, attack);
      expect(r.text).not.toContain('PATH=');
      expect(r.text).toContain('no-such-pid');
      // unisolated, the same command reads it
      expect((await sh(undefined, f, attack)).text).toContain('PATH=');
    });

    it("cannot read RUNNER_TEMP or the run's own folder", async () => {
      const attack = `cat ${f.runnerTemp}/checkout-credential ${f.runDir}/transcript.jsonl`;
      const r = await sh(setup.sandbox, f, attack);
      expect(r.text).not.toContain(RUNNER_SECRET);
      // RUNNER_TEMP shows empty (or not at all); the run's folder shows only the way to the outputs
      const listed = await sh(
        setup.sandbox,
        f,
        `ls -A ${f.runnerTemp} 2>/dev/null; echo --; ls -A ${f.runDir}`,
      );
      expect(listed.text).toBe('--\noutputs\n');
      // the files are 0644: only the hiding keeps them away (as root, unisolated, they are read)
      expect((await sh(undefined, f, attack)).text).toContain(RUNNER_SECRET);
    });

    it('cannot reach a credential in the private HOME above the workspace', async () => {
      const r = await sh(
        setup.sandbox,
        f,
        `ls -A ${f.home}; cat ${f.home}/.netrc; cat ../../.netrc; cd / && cat ${f.home}/.netrc`,
      );
      expect(r.text).not.toContain(CREDENTIAL);
      // the HOME shows only the way down to the workspace
      expect(r.text.split('\n')[0]).toBe('work');
    });

    it('cannot rename, replace or write .git', async () => {
      const r = await sh(
        setup.sandbox,
        f,
        'mv .git stolen; rm -rf .git; echo "[core]" >> .git/config; mkdir -p .git/hooks && echo x > .git/hooks/pre-commit; ls -d .git/hooks/pre-commit .git/config stolen',
      );
      expect(r.text).toMatch(/Device or resource busy|Read-only file system/);
      expect(existsSync(join(f.workspace, '.git', 'HEAD'))).toBe(true);
      expect(existsSync(join(f.workspace, 'stolen'))).toBe(false);
      expect(existsSync(join(f.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(readFileSync(join(f.workspace, '.git', 'config'), 'utf8')).not.toMatch(/\[core\]\n$/);
    });

    it('can read saved command output, but not change it', async () => {
      const bash = createBashTool(createWorkspace(f.workspace), {
        env: f.env,
        sandbox: setup.sandbox,
        artifactsDir: f.outputs,
      });
      const long = await call([bash], 'bash', { command: 'seq 1 5000' });
      const saved = (long.details as { fullOutputPath?: string }).fullOutputPath!;
      expect(saved.startsWith(f.outputs)).toBe(true);
      const r = await call([bash], 'bash', {
        command: `wc -l < ${saved}; echo x >> ${saved} || echo refused`,
      });
      expect(textOf(r)).toContain('\n5000\n');
      expect(textOf(r)).toMatch(/(Read-only file system|Permission denied)/);
      expect(textOf(r)).toContain('refused');
      expect(readFileSync(saved, 'utf8').endsWith('5000\n')).toBe(true);
    });

    it('leaves no process behind: background jobs and setsid daemons end with the command', async () => {
      const marker = String(900_000 + Math.floor(Math.random() * 99_999));
      const attack = `sleep ${marker} & setsid sleep ${marker} & nohup sleep ${marker} >/dev/null 2>&1 & touch /tmp/left-${marker} /var/tmp/left-${marker} /dev/shm/left-${marker} && echo started`;
      const r = await sh(setup.sandbox, f, attack);
      expect(r.text).toContain('started');
      // nor a file in the machine's scratch folders: each command has fresh ones
      for (const d of ['/tmp', '/var/tmp', '/dev/shm']) expect(existsSync(`${d}/left-${marker}`)).toBe(false);
      // the namespace's end kills them; on a busy machine that takes a moment, so wait for it (bounded)
      expect(
        await settle(
          () => processesWith('sleep', marker),
          (p) => p.length === 0,
        ),
      ).toEqual([]);
      // unisolated, killing the process group misses the daemon that left it with setsid
      const other = String(Number(marker) + 1);
      // (the command waits until the daemon has its own session: on a loaded machine the process
      // group could otherwise be killed before setsid ran, and take the daemon with it)
      await sh(
        undefined,
        f,
        `setsid sh -c 'echo $$ > .daemon-${other}; exec sleep ${other}' & until [ -s .daemon-${other} ]; do sleep 0.05; done; rm -f .daemon-${other}; echo started`,
      );
      const escaped = await settle(
        () => processesWith('sleep', other),
        (p) => p.length > 0,
      );
      for (const pid of escaped) process.kill(pid, 'SIGKILL');
      expect(escaped.length).toBe(1);
    }, 90_000);

    it('hands run_tests args to the test program as words, even as the sandbox user', async () => {
      const tool = createRunTestsTool(createWorkspace(f.workspace), {
        env: f.env,
        sandbox: setup.sandbox,
        testCommand: "printf '[%s]\\n'",
      });
      const r = await call([tool], 'run_tests', { args: '; cat /etc/passwd $(id) `id -u` >x' });
      expect(textOf(r).split('\n').slice(2)).toEqual([
        '[;]',
        '[cat]',
        '[/etc/passwd]',
        '[$(id)]',
        '[`id]',
        '[-u`]',
        '[>x]',
      ]);
      expect(existsSync(join(f.workspace, 'x'))).toBe(false);
    });

    it('stops a command on abort, with everything it started', async () => {
      const marker = String(700_000 + Math.floor(Math.random() * 99_999));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 500);
      const r = await runCommand({
        command: `setsid sleep ${marker} & sleep ${marker}`,
        cwd: f.workspace,
        env: f.env,
        sandbox: setup.sandbox,
        signal: controller.signal,
      });
      expect(r.aborted).toBe(true);
      expect(r.durationMs).toBeLessThan(10_000);
      expect(processesWith('sleep', marker)).toEqual([]);
    });

    it('stops a command at its timeout, with everything it started', async () => {
      const marker = String(800_000 + Math.floor(Math.random() * 99_999));
      const r = await sh(setup.sandbox, f, `sleep ${marker} & sleep ${marker}`, 1000);
      expect(r.timedOut).toBe(true);
      expect(r.durationMs).toBeLessThan(10_000);
      expect(processesWith('sleep', marker)).toEqual([]);
    });
  },
);

describe.skipIf(missing !== undefined)('sandbox limits', () => {
  let f: Fixture;
  beforeAll(() => {
    f = createFixture();
  });
  afterAll(() => f?.cleanup());

  // dash (Debian's /bin/sh) gives up at the first failed fork; bash would retry for seconds
  const bomb = `/bin/sh -c 'i=0; while [ $i -lt 200 ]; do sleep 20 & i=$((i+1)); done; echo forked $i' 2>&1; echo "nproc $(ulimit -u)"`;
  const big = 'head -c 3000000 /dev/zero > big.bin; echo "exit $?"; wc -c < big.bin; rm -f big.bin';

  it('bounds processes and file size', async () => {
    const setup = isolated(
      await createSandbox({
        workspace: f.workspace,
        env: f.env,
        limits: { processes: 40, fileBytes: 1024 * 1024 },
      }),
    );
    try {
      const forked = await sh(setup.sandbox, f, bomb, 15_000);
      expect(forked.text).toContain('nproc 40');
      expect(forked.text).toMatch(/Cannot fork|Resource temporarily unavailable/);
      expect(forked.text).not.toContain('forked 200');
      const written = await sh(setup.sandbox, f, big);
      expect(written.text).toMatch(/exit 153\n1048576\n/);
    } finally {
      await setup.dispose();
    }
  });

  it('without the limits the same commands run unbounded (the attacks work)', async () => {
    const setup = isolated(
      await createSandbox({ workspace: f.workspace, env: f.env, weaken: ['limits'], selfCheck: false }),
    );
    try {
      expect((await sh(setup.sandbox, f, bomb, 15_000)).text).toContain('forked 200');
      expect((await sh(setup.sandbox, f, big)).text).toMatch(/exit 0\n3000000\n/);
    } finally {
      await setup.dispose();
    }
  });
});
