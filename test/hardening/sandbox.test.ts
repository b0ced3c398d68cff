import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { available, setfacl } from '../support/requirements.js';
import { record } from './figures.js';
import { findSecrets, plantSecrets } from './planted.js';

// The sandbox as patchloop uses it: a parent process holding the secrets (environment, command
// line, a file in RUNNER_TEMP) runs model-chosen commands through the real bash and run_tests
// tools. Every way of reading the parent's secrets from such a command must come up empty.

const isRoot = process.getuid?.() === 0;
const hasSudo = existsSync('/usr/bin/sudo');
// Skipped with a notice where setfacl is missing, except in CI (CI=true), where the ACL tests must run.
const hasSetfacl = available(setfacl());
const linux = process.platform === 'linux';

let dir: string;
let driver: string;
const planted = plantSecrets();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-sandbox-'));
  chmodSync(dir, 0o755);
  driver = join(dir, 'driver.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'fixtures', 'sandbox-driver.ts')],
    outfile: driver,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface DriverResult {
  pid: number;
  kind: 'isolated' | 'unavailable' | 'failed';
  reason: string;
  results: { name: string; input: Record<string, unknown>; isError: boolean; text: string }[];
}

interface Layout {
  workspace: string;
  runnerTemp: string;
}

/** A checkout with a package.json whose test script snoops, and RUNNER_TEMP with a secret file. */
function makeLayout(root: string): Layout {
  const workspace = join(root, 'work', 'repo', 'repo');
  const runnerTemp = join(root, 'work', '_temp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(runnerTemp, { recursive: true });
  writeFileSync(join(runnerTemp, 'credentials.txt'), `token=${planted.fileSecret}\n`);
  writeFileSync(
    join(workspace, 'package.json'),
    JSON.stringify({
      scripts: {
        test: 'env; cat /proc/$PPID/environ; cat /proc/*/environ; cat /proc/*/cmdline; echo tests-ran',
      },
    }),
  );
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  execFileSync('git', ['add', '.'], { cwd: workspace });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init'], {
    cwd: workspace,
  });
  return { workspace, runnerTemp };
}

const marker = `pl-daemon-${process.pid}-${Date.now()}`;

/** Commands a hostile model would try, each one an attempt to reach a secret. */
function snoopingCalls(layout: Layout): { name: string; input: Record<string, unknown> }[] {
  const bash = (command: string) => ({ name: 'bash', input: { command } });
  return [
    bash('env'),
    bash('cat /proc/$PPID/environ'),
    bash('cat /proc/*/environ'),
    bash('cat /proc/*/cmdline'),
    bash(
      'p=$$; while [ "$p" -gt 1 ]; do tr "\\0" "\\n" < /proc/$p/environ; p=$(cut -d" " -f4 /proc/$p/stat); done',
    ),
    bash(`cat ${layout.runnerTemp}/*; ls -la ${layout.runnerTemp}`),
    bash('sudo -n env'),
    bash('git config --list; cat .git/config'),
    { name: 'run_tests', input: {} },
  ];
}

/** Calls that check the workspace stays usable by both users, and .git stays closed. */
function workspaceCalls(): { name: string; input: Record<string, unknown> }[] {
  const bash = (command: string) => ({ name: 'bash', input: { command } });
  return [
    bash(
      'id -un; echo made-by-sandbox > made.txt && mkdir -p build/cache && echo c > build/cache/x && echo ok',
    ),
    { name: 'write_file', input: { path: 'made.txt', content: 'rewritten-by-tools\n' } },
    { name: 'write_file', input: { path: 'src/tool-made.ts', content: 'export const a = 1;\n' } },
    bash('cat made.txt && echo appended >> src/tool-made.ts && rm build/cache/x && echo edited'),
    {
      name: 'edit_file',
      input: { path: 'src/tool-made.ts', oldText: 'appended', newText: 'edited-by-tools' },
    },
    bash('echo "#!/bin/sh" > .git/hooks/pre-commit; echo hooks=$?; echo x >> .git/config; echo config=$?'),
    bash(
      `(trap "" TERM; setsid bash -c 'exec -a ${marker} sleep 600' >/dev/null 2>&1 &); echo daemon-started`,
    ),
    { name: 'bash', input: { command: 'trap "" TERM; sleep 600', timeout: 1 } },
  ];
}

function runDriver(
  layout: Layout,
  calls: { name: string; input: Record<string, unknown> }[],
  opts: {
    mode?: 'auto' | 'off';
    access?: 'acl' | 'group';
    asUser?: { uid: number; gid: number; home: string };
    privateDirs?: string[];
  } = {},
): DriverResult {
  const input = join(mkdtempSync(join(dir, 'in-')), 'input.json');
  writeFileSync(
    input,
    JSON.stringify({
      sandbox: {
        workspace: layout.workspace,
        mode: opts.mode ?? 'auto',
        access: opts.access,
        privateDirs: opts.privateDirs ?? [layout.runnerTemp],
      },
      calls,
    }),
  );
  chmodSync(join(input, '..'), 0o755);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.asUser?.home ?? process.env.HOME ?? '/root',
    RUNNER_TEMP: layout.runnerTemp,
    ...planted.env,
  };
  const argv = [process.execPath, driver, input, '--api-key', planted.cliArg];
  const prefix = opts.asUser
    ? [
        'setpriv',
        '--reuid',
        String(opts.asUser.uid),
        '--regid',
        String(opts.asUser.gid),
        '--init-groups',
        '--',
      ]
    : [];
  const all = [...prefix, ...argv];
  const r = spawnSync(all[0]!, all.slice(1), { env, encoding: 'utf8', timeout: 90_000, cwd: dir });
  if (r.status !== 0) throw new Error(`driver failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as DriverResult;
}

/** Pids of the test's daemons still running. */
function daemonsLeft(): number[] {
  const r = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' });
  return r.stdout.trim() ? r.stdout.trim().split('\n').map(Number) : [];
}

/** Checks the snooping results and records the figures; returns the leaks. */
function checkSnooping(group: string, result: DriverResult): string[] {
  const leaks: string[] = [];
  let refused = 0;
  for (const r of result.results) {
    const found = findSecrets(r.text, planted.values);
    if (found.length === 0) refused++;
    for (const f of found) leaks.push(`${r.name} ${JSON.stringify(r.input)} printed ${f.slice(0, 12)}…`);
  }
  record(group, {
    escapesTried: result.results.length,
    escapesRefused: refused,
    secretChecks: result.results.length,
    secretsFound: leaks.length,
  });
  return leaks;
}

function checkWorkspace(layout: Layout, result: DriverResult): void {
  const [made, rewrite, create, sandboxEdit, toolEdit, gitWrite, daemon, timeout] = result.results;
  expect(made!.text).toContain('patchloop-sandbox');
  expect(made!.text).toContain('ok');
  expect(rewrite!.isError).toBe(false);
  expect(create!.isError).toBe(false);
  expect(sandboxEdit!.text).toContain('rewritten-by-tools');
  expect(sandboxEdit!.text).toContain('edited');
  expect(toolEdit!.isError).toBe(false);
  expect(readFileSync(join(layout.workspace, 'src', 'tool-made.ts'), 'utf8')).toContain('edited-by-tools');
  expect(gitWrite!.text).toMatch(/hooks=1/);
  expect(gitWrite!.text).toMatch(/config=1/);
  expect(existsSync(join(layout.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
  expect(daemon!.text).toContain('daemon-started');
  expect(timeout!.text).toMatch(/timed out|timeout/i);
  const left = daemonsLeft();
  for (const pid of left) process.kill(pid, 'SIGKILL');
  // only a PID namespace takes down a daemon that left the command's process group (setsid)
  if (result.reason.includes('own PID')) expect(left).toEqual([]);
}

describe.skipIf(!linux)('command sandbox', () => {
  it('mode off isolates nothing and says so', async () => {
    const setup = await createSandbox({ workspace: dir, mode: 'off' });
    expect(setup).toEqual({ kind: 'unavailable', reason: 'turned off' });
  });

  it('a missing workspace is a set-up failure (the run stops), not "unisolated"', async () => {
    await expect(createSandbox({ workspace: join(dir, 'nope'), mode: 'auto' })).rejects.toThrow(
      /not a folder/,
    );
  });

  it.skipIf(!isRoot)('without the sandbox the same probes do find the secrets (the probes work)', () => {
    const layout = makeLayout(mkdtempSync(join(dir, 'control-')));
    const result = runDriver(
      layout,
      [{ name: 'bash', input: { command: 'cat /proc/$PPID/environ; cat /proc/$PPID/cmdline' } }],
      {
        mode: 'off',
      },
    );
    expect(result.kind).toBe('unavailable');
    expect(findSecrets(result.results[0]!.text, planted.values)).toContain(planted.cliArg);
    expect(findSecrets(result.results[0]!.text, planted.values)).toContain(planted.env.ANTHROPIC_API_KEY);
  });

  const accessModes = (['acl', 'group'] as const).filter((m) => m === 'group' || hasSetfacl);
  for (const access of accessModes) {
    it.skipIf(!isRoot)(`as root (${access} access): no command can read a planted secret`, () => {
      const root = mkdtempSync(join(dir, `root-${access}-`));
      chmodSync(root, 0o755);
      const layout = makeLayout(root);
      const result = runDriver(layout, [...snoopingCalls(layout), ...workspaceCalls()], { access });
      expect(result.kind, result.reason).toBe('isolated');
      expect(result.reason).toContain('patchloop-sandbox');
      const snoop = result.results.slice(0, snoopingCalls(layout).length);
      expect(checkSnooping('sandbox', { ...result, results: snoop })).toEqual([]);
      // the probes really ran: run_tests executed the snooping test script
      expect(snoop.at(-1)!.text).toContain('tests-ran');
      const runnerTempProbe = snoop.find((r) => String(r.input.command ?? '').includes(layout.runnerTemp));
      expect(runnerTempProbe!.text).toMatch(/Permission denied|No such file/);
      checkWorkspace(layout, { ...result, results: result.results.slice(snoop.length) });
    });
  }

  for (const access of accessModes) {
    it.skipIf(!isRoot)(
      `as root (${access} access): a private folder above the workspace stays closed`,
      () => {
        const root = mkdtempSync(join(dir, `above-${access}-`));
        chmodSync(root, 0o755);
        const layout = makeLayout(root);
        // the transcript lives next to the checkout, in a folder that also holds the checkout
        const work = join(root, 'work');
        writeFileSync(join(work, 'transcript.jsonl'), `{"secret":"${planted.fileSecret}"}\n`);
        const result = runDriver(
          layout,
          [
            {
              name: 'bash',
              input: { command: `ls ${work}; cat ${work}/transcript.jsonl; ls ${work}/_temp` },
            },
            { name: 'bash', input: { command: 'echo ok > made.txt && cat made.txt' } },
          ],
          { access, privateDirs: [work] },
        );
        expect(result.kind, result.reason).toBe('isolated');
        const [snoop, use] = result.results;
        expect(checkSnooping('sandbox', { ...result, results: [snoop!] })).toEqual([]);
        expect(snoop!.text).toMatch(/Permission denied|No such file/);
        expect(use!.isError).toBe(false);
        expect(use!.text).toContain('ok');
      },
    );
  }

  describe.skipIf(!isRoot || !hasSudo || !hasSetfacl)('as a runner-like user with passwordless sudo', () => {
    const name = 'pl-test-runner';
    let account: { uid: number; gid: number; home: string };

    beforeAll(() => {
      spawnSync('userdel', ['-r', name], { stdio: 'ignore' });
      execFileSync('useradd', ['--create-home', '--shell', '/bin/bash', name]);
      writeFileSync(`/etc/sudoers.d/${name}`, `${name} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
      const [uid, gid, home] = execFileSync('getent', ['passwd', name], { encoding: 'utf8' })
        .trim()
        .split(':')
        .filter((_, i) => i === 2 || i === 3 || i === 5);
      account = { uid: Number(uid), gid: Number(gid), home: home! };
      // a home folder that other users cannot enter, as on GitHub's runners
      chmodSync(account.home, 0o750);
    });

    afterAll(() => {
      rmSync(`/etc/sudoers.d/${name}`, { force: true });
      spawnSync('userdel', ['-r', name], { stdio: 'ignore' });
    });

    it('no command can read a planted secret, and the workspace stays shared', () => {
      const layout = makeLayout(account.home);
      execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, join(account.home, 'work')]);
      const result = runDriver(layout, [...snoopingCalls(layout), ...workspaceCalls()], { asUser: account });
      expect(result.kind, result.reason).toBe('isolated');
      const snoop = result.results.slice(0, snoopingCalls(layout).length);
      expect(checkSnooping('sandbox', { ...result, results: snoop })).toEqual([]);
      expect(snoop.at(-1)!.text).toContain('tests-ran');
      checkWorkspace(layout, { ...result, results: result.results.slice(snoop.length) });
    });
  });

  it.skipIf(!isRoot)('an unprivileged user without sudo gets no sandbox, and the reason says why', () => {
    const root = mkdtempSync(join(dir, 'nobody-'));
    chmodSync(root, 0o777);
    const workspace = join(root, 'ws');
    mkdirSync(workspace, { mode: 0o777 });
    const result = runDriver({ workspace, runnerTemp: root }, [], {
      asUser: { uid: 65534, gid: 65534, home: '/' },
    });
    expect(result.kind).toBe('unavailable');
    expect(result.reason).toMatch(/not root, and sudo/);
  });
});
