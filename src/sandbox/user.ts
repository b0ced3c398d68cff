import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxSetupError } from './error.js';

export const SANDBOX_USER = 'patchloop-sandbox';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell; never throws (a missing program is exit 127). */
export function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; maxBuffer?: number } = {},
): Promise<RunResult> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
        encoding: 'utf8',
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: options.maxBuffer ?? 4 << 20,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
        done({
          code,
          stdout: String(stdout),
          stderr: String(stderr || (err && code === 127 ? err.message : '')),
        });
      },
    );
  });
}

export function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

// Only system folders: a PATH entry inside the workspace (node_modules/.bin added to GITHUB_PATH)
// must never decide which `mount` or `setpriv` runs as root.
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** Absolute path of a system program, or undefined when it is not installed. */
export function systemBin(name: string): string | undefined {
  for (const dir of SYSTEM_DIRS) {
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** What runs a program as root: nothing when we are root, passwordless sudo otherwise. */
export interface RootAccess {
  /** [] as root; [sudo, '-n', '--'] otherwise. */
  prefix: string[];
  viaSudo: boolean;
}

/** Root access, or the reason there is none. */
export async function findRootAccess(): Promise<RootAccess | string> {
  if (process.getuid?.() === 0) return { prefix: [], viaSudo: false };
  const sudo = systemBin('sudo');
  if (!sudo) return 'not root, and sudo is not installed';
  const ok = await run(sudo, ['-n', 'true'], { timeoutMs: 10_000 });
  if (ok.code !== 0) return 'not root, and sudo asks for a password';
  return { prefix: [sudo, '-n', '--'], viaSudo: true };
}

export function asRoot(
  root: RootAccess,
  bin: string,
  args: string[],
  options: { timeoutMs?: number; maxBuffer?: number } = {},
): Promise<RunResult> {
  const [file, rest] = rootArgv(root, bin, args);
  return run(file, rest, options);
}

/** The program and arguments that run `bin args` as root: through the prefix (sudo) when there is one. */
export function rootArgv(root: RootAccess, bin: string, args: string[]): [string, string[]] {
  return root.prefix.length ? [root.prefix[0]!, [...root.prefix.slice(1), bin, ...args]] : [bin, args];
}

export interface Account {
  user: string;
  uid: number;
  gid: number;
  /** The home folder /etc/passwd names (the JVM's user.home); undefined when not known. */
  home?: string;
}

/** The sandbox user's home on the machine: real, private (0700, its own), outside any workspace. */
export function accountHome(user: string): string {
  return join('/var/lib', user);
}

/** The user's line in /etc/passwd (where useradd puts it), without starting a process. */
function localAccount(user: string): Account | undefined {
  let text: string;
  try {
    text = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f[0] !== user || f.length < 7) continue;
    const uid = Number(f[2]);
    const gid = Number(f[3]);
    if (f[2] === '' || f[3] === '' || !Number.isInteger(uid) || !Number.isInteger(gid)) return undefined;
    return { user, uid, gid, home: f[5] || undefined };
  }
  return undefined;
}

async function lookup(user: string): Promise<Account | undefined> {
  // A system user made by useradd is a local one; other name services are asked through getent.
  const local = localAccount(user);
  if (local) return local;
  const getent = systemBin('getent');
  if (!getent) return undefined;
  const r = await run(getent, ['passwd', user]);
  if (r.code !== 0) return undefined;
  const f = r.stdout.trim().split(':');
  return { user, uid: Number(f[2]), gid: Number(f[3]), home: f[5] || undefined };
}

/**
 * The unprivileged account commands run as, created on first use. Its home in /etc/passwd is a
 * real folder of its own (0700), because the JVM takes user.home from there, not from HOME
 * (Maven's ~/.m2, Gradle's and sbt's caches); in a command's view that path leads to the command's
 * own fresh HOME. An account made by an earlier version with /nonexistent is moved to it.
 */
export async function ensureUser(root: RootAccess, user: string): Promise<Account> {
  let found = await lookup(user);
  if (!found) {
    const useradd = systemBin('useradd');
    if (!useradd)
      throw new SandboxSetupError('useradd is not installed, so the sandbox user cannot be created');
    const nologin = ['/usr/sbin/nologin', '/sbin/nologin'].find((p) => existsSync(p)) ?? '/bin/false';
    const r = await asRoot(root, useradd, [
      '--system',
      '--user-group',
      '--no-create-home',
      '--home-dir',
      accountHome(user),
      '--shell',
      nologin,
      user,
    ]);
    found = await lookup(user);
    // another run may have created it at the same moment: only a user still missing is a failure
    if (!found)
      throw new SandboxSetupError(
        `could not create user ${user}: ${firstLine(r.stderr) || `exit ${r.code}`}`,
      );
  }
  if (!Number.isInteger(found.uid) || found.uid === 0 || !Number.isInteger(found.gid) || found.gid === 0)
    throw new SandboxSetupError(`user ${user} exists but is not an unprivileged user (uid ${found.uid})`);
  return ensureHome(root, found);
}

/**
 * The account's home made real: moved from /nonexistent (or none), created 0700 and its own. usermod
 * refuses while the user runs a process (another run's command): the old home is then kept, and a
 * command's view still leads it to the command's HOME (launch.ts).
 */
async function ensureHome(root: RootAccess, account: Account): Promise<Account> {
  let home = account.home;
  const own = accountHome(account.user);
  if (!home || home === '/nonexistent' || !home.startsWith('/')) {
    const usermod = systemBin('usermod');
    const r = usermod ? await asRoot(root, usermod, ['--home', own, account.user]) : undefined;
    if (r?.code !== 0) return account;
    home = own;
  }
  if (home === own) {
    const install = systemBin('install');
    if (!install) throw new SandboxSetupError('install (coreutils) is not installed');
    const r = await asRoot(root, install, [
      '-d',
      '-m',
      '0700',
      '-o',
      String(account.uid),
      '-g',
      String(account.gid),
      home,
    ]);
    if (r.code !== 0)
      throw new SandboxSetupError(
        `could not make the home folder ${home}: ${firstLine(r.stderr) || `exit ${r.code}`}`,
      );
  }
  return { ...account, home };
}
