import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

// A machine as a hosted runner has it: a private HOME (0700) with a credential file in it and the
// checkout below, RUNNER_TEMP outside that HOME holding patchloop's and checkout's own files, and
// secrets in the job's environment.

const TOOLS = ['unshare', 'setpriv', 'prlimit', 'setfacl', 'getfacl', 'mount', 'keyctl'];

/**
 * Why the sandbox cannot be tested for real here, or undefined when it can. `keyctl: false`: the
 * tests do without keyutils' keyctl (the sandbox itself can use Perl instead).
 */
export function missingForSandbox(need: { keyctl?: boolean } = {}): string | undefined {
  if (process.platform !== 'linux') return 'the sandbox needs Linux';
  if (process.getuid?.() !== 0 && spawnSync('sudo', ['-n', 'true']).status !== 0)
    return 'the sandbox tests need root or passwordless sudo';
  const missing = TOOLS.filter(
    (t) =>
      (need.keyctl !== false || t !== 'keyctl') &&
      !['/usr/bin', '/bin', '/usr/sbin', '/sbin'].some((d) => existsSync(join(d, t))),
  );
  if (missing.length)
    return `the sandbox tests need ${missing.join(', ')} (apt-get install util-linux acl keyutils)`;
  const ns = spawnSync('unshare', ['--pid', '--fork', '--mount', '--mount-proc', 'true']);
  if (ns.status !== 0) return 'the sandbox tests need PID and mount namespaces (unshare failed)';
  return undefined;
}

export const SECRET = 'planted-secret-7f3a9c';
export const CREDENTIAL = 'machine github.com login x password netrc-secret-51b2';
export const RUNNER_SECRET = 'runner-temp-secret-c0ffee';

export interface Fixture {
  /** The private HOME (0700, root's), holding .netrc and the workspace. */
  home: string;
  workspace: string;
  /** RUNNER_TEMP: outside the home, not under /tmp, with a credential file. */
  runnerTemp: string;
  /** The run's folder (under /tmp) and, in it, where commands' full output is saved. */
  runDir: string;
  outputs: string;
  /** The job's environment: the test process's plus planted secrets. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/**
 * `homeBase` is where the HOME goes ('/tmp', or '/var/tmp' as a stand-in for /home on a runner).
 * RUNNER_TEMP goes under /var/lib with a HOME in /tmp (a private folder the sandbox covers with a
 * tmpfs of its own), and under /tmp with a HOME in /var/tmp (hidden with the fresh /tmp).
 */
export function createFixture(homeBase: '/tmp' | '/var/tmp' = '/tmp'): Fixture {
  const home = mkdtempSync(`${homeBase}/pl-sbx-home-`);
  chmodSync(home, 0o700);
  // 0644: only the 0700 HOME keeps another user from reading it (an ancestor ACL broke that)
  writeFileSync(join(home, '.netrc'), `${CREDENTIAL}\n`, { mode: 0o644 });
  const workspace = join(home, 'work', 'repo');
  mkdirSync(workspace, { recursive: true });
  execFileSync('git', ['init', '-q', workspace]);
  writeFileSync(join(workspace, 'README.md'), 'hello\n');
  const runnerTemp = mkdtempSync(`${homeBase === '/tmp' ? '/var/lib' : '/tmp'}/pl-sbx-rt-`);
  chmodSync(runnerTemp, 0o755);
  writeFileSync(join(runnerTemp, 'checkout-credential'), `${RUNNER_SECRET}\n`, { mode: 0o644 });
  const runDir = mkdtempSync('/tmp/pl-sbx-run-');
  chmodSync(runDir, 0o755);
  writeFileSync(join(runDir, 'transcript.jsonl'), `${RUNNER_SECRET}\n`, { mode: 0o644 });
  const outputs = join(runDir, 'outputs');
  mkdirSync(outputs, { mode: 0o755 });
  const env = {
    ...process.env,
    RUNNER_TEMP: runnerTemp,
    PLANTED_SECRET: SECRET,
    GITHUB_TOKEN: `ghs_${SECRET}`,
    DATABASE_URL: `postgres://app:${SECRET}@db/app`,
  };
  return {
    home,
    workspace,
    runnerTemp,
    runDir,
    outputs,
    env,
    cleanup() {
      for (const d of [home, runnerTemp, runDir]) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Pids of running processes (zombies excluded) whose command line contains all of `words`. */
export function processesWith(...words: string[]): number[] {
  const found: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state === 'Z' || state === 'X') continue;
      const argv = readFileSync(`/proc/${e}/cmdline`, 'latin1').split('\0');
      if (words.every((w) => argv.includes(w))) found.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The ACL entries naming `user` on `path` and on each folder above it. */
export function aclEntriesAbove(path: string, user: string): string[] {
  const found: string[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    const out = execFileSync('getfacl', ['-p', '-c', '--', dir], { encoding: 'utf8' });
    for (const line of out.split('\n')) if (line.includes(`:${user}:`)) found.push(`${dir}: ${line}`);
    if (dir === dirname(dir)) return found;
  }
}
