import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isSecretName } from '../protocol/redact.js';
import type { CommandSandbox, CommandSpec } from './process.js';
import type { SignalGroup } from './process-group.js';

// Commands the model chooses (bash, run_tests) run as a separate unprivileged user, so they cannot
// read what the run holds: another uid may not open /proc/<pid>/environ of patchloop or of any
// ancestor (the kernel's ptrace access check), RUNNER_TEMP is closed to that user, and where the
// machine allows it each command also gets its own PID namespace with a fresh /proc, which hides
// every other process (their cmdline included) and takes down whatever the command leaves behind.
//
// Privilege comes from being root, or from passwordless sudo (GitHub-hosted runners). Setup is
// done once per run; each command is then launched through setpriv (and unshare) from wrap().

export const SANDBOX_USER = 'patchloop-sandbox';

export interface SandboxOptions {
  workspace: string;
  mode: 'auto' | 'off';
  /** Folders the sandboxed user must not read. Default: RUNNER_TEMP when set. */
  privateDirs?: string[];
  /** Environment read for RUNNER_TEMP. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Name of the unprivileged user. */
  user?: string;
  /** Use a PID namespace when the machine allows it. Default true. */
  pidNamespace?: boolean;
  /** How the workspace is opened to the user; default: ACLs when setfacl exists, else (as root) the group. */
  access?: 'acl' | 'group';
}

export interface SandboxSetup {
  sandbox?: CommandSandbox;
  isolated: boolean;
  /** One sentence for the log and the summary: what protects the secrets, or why nothing does. */
  reason: string;
}

interface Plan {
  user: string;
  uid: number;
  gid: number;
  home: string;
  workspace: string;
  /** Prefix that runs a command as root: [] when we are root, sudo otherwise. */
  sudo: string[];
  bins: { setpriv: string; unshare?: string; env: string; bash: string; sh: string; kill: string };
  pidNamespace: boolean;
  access: 'acl' | 'group';
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { ...options, encoding: 'utf8', timeout: 120_000, maxBuffer: 4 << 20 },
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

function which(name: string): string | undefined {
  for (const dir of ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin']) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

const notIsolated = (reason: string): SandboxSetup => ({ isolated: false, reason });

// PID 1 of the command's namespace. The kernel delivers to a namespace's init only the signals it
// has handlers for, so this small init traps them and passes them on to the command (running as
// its own job, so a Ctrl-C reaches it too); when the command ends, init ends, and the kernel kills
// everything left in the namespace, daemons that ignore SIGTERM included.
// Its own job notices ("[1]+ Done") go to /dev/null; the command keeps the real stderr.
const NAMESPACE_INIT = [
  'exec 3>&2 2>/dev/null',
  'set -m',
  'trap \'kill -TERM -- -"$c"\' TERM INT HUP',
  '/bin/bash -c "$1" 0<&0 2>&3 3>&- &',
  'c=$!',
  'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done',
].join('\n');

// Runs as root just before privileges are dropped (group access only): files the tools created
// since the last command join the sandbox group and become group-writable. Symlinks are never
// followed (-h, ! -type l): a link planted in the workspace must not redirect a chmod.
const GROUP_REFRESH = [
  'ws=$1; g=$2; shift 2',
  'umask 002',
  'find "$ws" -path "$ws/.git" -prune -o ! -group "$g" -exec chgrp -h "$g" {} + 2>/dev/null',
  'find "$ws" -path "$ws/.git" -prune -o -type d ! -perm -2070 -exec chmod g+rwxs {} + -o ! -type d ! -type l ! -perm -060 -exec chmod g+rw {} + 2>/dev/null',
  'exec "$@"',
].join('\n');

/** The environment a sandboxed command sees: the scrubbed one, with the sandbox user's own home. */
function sandboxEnv(plan: Plan, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    // the tools scrub the environment already; this is the second lock on the same door
    if (value === undefined || isSecretName(name)) continue;
    out[name] = value;
  }
  out.HOME = plan.home;
  out.USER = plan.user;
  out.LOGNAME = plan.user;
  // git refuses a repository owned by another user unless told it is safe
  const n = Number(out.GIT_CONFIG_COUNT ?? 0) || 0;
  out[`GIT_CONFIG_KEY_${n}`] = 'safe.directory';
  out[`GIT_CONFIG_VALUE_${n}`] = '*';
  out.GIT_CONFIG_COUNT = String(n + 1);
  return out;
}

/** The argv that runs `command` as the sandbox user (without the sudo/env prefix). */
function commandArgv(plan: Plan, command: string): string[] {
  const { bins } = plan;
  const argv: string[] = [];
  if (plan.pidNamespace && bins.unshare) {
    // --pdeathsig: if our parent (patchloop or sudo) dies, unshare dies, and with it the namespace
    argv.push(bins.setpriv, '--pdeathsig', 'KILL', '--');
    argv.push(bins.unshare, '--pid', '--fork', '--mount-proc', '--kill-child', '--');
  }
  if (plan.access === 'group')
    argv.push(bins.sh, '-c', GROUP_REFRESH, 'sh', plan.workspace, String(plan.gid));
  argv.push(
    bins.setpriv,
    '--reuid',
    String(plan.uid),
    '--regid',
    String(plan.gid),
    '--clear-groups',
    '--no-new-privs',
    '--inh-caps=-all',
    '--bounding-set=-all',
  );
  if (!plan.pidNamespace) argv.push('--pdeathsig', 'KILL');
  argv.push('--');
  if (plan.pidNamespace) argv.push(bins.bash, '-c', NAMESPACE_INIT, 'patchloop-init', command);
  else argv.push(bins.bash, '-c', command);
  return argv;
}

function makeSandbox(plan: Plan): CommandSandbox {
  const wrap = (spec: CommandSpec) => {
    const env = sandboxEnv(plan, spec.env);
    const argv = commandArgv(plan, spec.command);
    if (plan.sudo.length === 0) return { file: argv[0]!, args: argv.slice(1), env };
    // sudo resets the environment, so it is handed over explicitly; it holds no secrets.
    const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    return {
      file: plan.sudo[0]!,
      args: [...plan.sudo.slice(1), plan.bins.env, '-i', ...pairs, ...argv],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    };
  };
  const signal: SignalGroup = (pgid, sig) => {
    if (plan.sudo.length === 0) {
      try {
        process.kill(-pgid, sig);
      } catch {
        // the group is gone
      }
      return;
    }
    // The group's members run as root and as the sandbox user; only root may signal them all.
    spawnSync(
      plan.sudo[0]!,
      [...plan.sudo.slice(1), plan.bins.kill, '-s', sig.replace(/^SIG/, ''), '--', `-${pgid}`],
      {
        stdio: 'ignore',
        timeout: 10_000,
      },
    );
  };
  return { wrap, signal };
}

async function ensureUser(
  sudo: string[],
  user: string,
): Promise<{ uid: number; gid: number; home: string } | string> {
  const lookup = async () => {
    const r = await run('getent', ['passwd', user]);
    if (r.code !== 0) return undefined;
    const f = r.stdout.trim().split(':');
    return { uid: Number(f[2]), gid: Number(f[3]), home: f[5] ?? '' };
  };
  let found = await lookup();
  if (!found) {
    if (!which('useradd')) return 'useradd is not available to create the sandbox user';
    const r = await asRoot(sudo, 'useradd', [
      '--system',
      '--user-group',
      '--create-home',
      '--home-dir',
      `/home/${user}`,
      '--shell',
      '/usr/sbin/nologin',
      user,
    ]);
    found = await lookup();
    // another run may have created the user at the same moment; only a missing user is fatal
    if (!found) return `could not create user ${user}: ${firstLine(r.stderr) || `exit ${r.code}`}`;
  }
  if (!Number.isInteger(found.uid) || found.uid === 0)
    return `user ${user} exists but is not an unprivileged user`;
  if (!found.home || found.home === '/' || found.home === '/nonexistent' || !existsSync(found.home)) {
    const home = `/home/${user}`;
    const mk = await asRoot(sudo, 'install', [
      '-d',
      '-m',
      '700',
      '-o',
      String(found.uid),
      '-g',
      String(found.gid),
      home,
    ]);
    if (mk.code !== 0) return `could not create a home folder for ${user}: ${firstLine(mk.stderr)}`;
    found.home = home;
  }
  return found;
}

function asRoot(sudo: string[], name: string, args: string[]): Promise<Run> {
  const bin = which(name) ?? name;
  return sudo.length ? run(sudo[0]!, [...sudo.slice(1), bin, ...args]) : run(bin, args);
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    out.push(dir);
    if (dir === dirname(dir)) return out;
  }
}

function otherMayPass(dir: string): boolean {
  try {
    return (statSync(dir).mode & 0o001) !== 0;
  } catch {
    return false;
  }
}

/** How the workspace is opened to the user and private folders closed to it. */
interface AccessOps {
  /** Folders above the workspace the user cannot pass through yet. */
  blocked(ancestors: string[]): Promise<string[]>;
  /** Lets the user pass through (not list) these folders. */
  traverse(dirs: string[]): Promise<string | undefined>;
  /** Read and write on the workspace, now and for files created later; .git read-only. */
  openWorkspace(): Promise<string | undefined>;
  /** Nothing at all for the user. */
  close(paths: string[]): Promise<string | undefined>;
  /** A private folder on the way to the workspace: passable, not listable, new entries closed. */
  passOnly(dir: string): Promise<string | undefined>;
}

function failure(what: string, r: Run): string | undefined {
  return r.code === 0 ? undefined : `${what}: ${firstLine(r.stderr) || `exit ${r.code}`}`;
}

function aclOps(plan: Plan): AccessOps {
  const { sudo, user, workspace } = plan;
  const acl = (args: string[]) => asRoot(sudo, 'setfacl', args);
  return {
    async blocked(ancestors) {
      // an entry for the user decides alone (an earlier run may have left one); else `other` does
      const r = await asRoot(sudo, 'getfacl', ['-p', '-c', '--', ...ancestors]);
      const blocks = r.stdout.split(/\n\s*\n/);
      return ancestors.filter((dir, i) => {
        const entry = blocks[i]?.match(new RegExp(`^user:${user}:([rwx-]{3})`, 'm'));
        return entry ? !entry[1]!.includes('x') : !otherMayPass(dir);
      });
    },
    traverse: async (dirs) =>
      dirs.length
        ? failure(`could not open ${dirs.join(', ')} to ${user}`, await acl(['-m', `u:${user}:x`, ...dirs]))
        : undefined,
    async openWorkspace() {
      const main = process.getuid?.() ?? 0;
      // the main user keeps full access to what the sandbox creates (root has it anyway)
      const forMain = main === 0 ? '' : `,d:u:${main}:rwX`;
      const r = await acl(['-R', '-m', `u:${user}:rwX,d:u:${user}:rwX${forMain}`, workspace]);
      const git = join(workspace, '.git');
      // .git stays read-only: a hook or config written there would run later as the main user
      if (r.code !== 0 || !existsSync(git)) return failure(`could not open the workspace to ${user}`, r);
      return failure(
        `could not make .git read-only to ${user}`,
        await acl(['-R', '-m', `u:${user}:rX,d:u:${user}:rX`, git]),
      );
    },
    close: async (paths) =>
      paths.length
        ? failure(
            `could not close ${paths.join(', ')} to ${user}`,
            await acl(['-P', '-m', `u:${user}:---`, ...paths]),
          )
        : undefined,
    passOnly: async (dir) =>
      failure(`could not close ${dir} to ${user}`, await acl(['-m', `u:${user}:x,d:u:${user}:---`, dir])),
  };
}

// Without ACLs (as root only): the workspace goes to the sandbox user's group, group-writable,
// and private folders are closed to all other users, the only way to close them to that one.
function groupOps(plan: Plan): AccessOps {
  const { sudo, workspace } = plan;
  const git = join(workspace, '.git');
  const find = (args: string[]) => asRoot(sudo, 'find', [workspace, '-path', git, '-prune', '-o', ...args]);
  return {
    blocked: async (ancestors) => ancestors.filter((dir) => !otherMayPass(dir)),
    traverse: async (dirs) =>
      dirs.length ? `${dirs[0]} cannot be passed by other users and setfacl is not available` : undefined,
    async openWorkspace() {
      const grp = await find(['-exec', 'chgrp', '-h', String(plan.gid), '{}', '+']);
      if (grp.code !== 0) return failure(`could not give the workspace to group ${plan.user}`, grp);
      const mod = await find([
        '-type',
        'd',
        '-exec',
        'chmod',
        'g+rwxs',
        '{}',
        '+',
        '-o',
        '!',
        '-type',
        'l',
        '-exec',
        'chmod',
        'g+rw',
        '{}',
        '+',
      ]);
      if (mod.code !== 0 || !existsSync(git))
        return failure('could not make the workspace group-writable', mod);
      // .git stays out of the group; it must not be writable by others either (a hook or config
      // written there would run later as the main user)
      return failure(
        'could not make .git read-only to others',
        await asRoot(sudo, 'chmod', ['-R', 'o-w', git]),
      );
    },
    close: async (paths) =>
      paths.length
        ? failure(`could not close ${paths.join(', ')}`, await asRoot(sudo, 'chmod', ['o-rwx', ...paths]))
        : undefined,
    passOnly: async (dir) => failure(`could not close ${dir}`, await asRoot(sudo, 'chmod', ['o-rw', dir])),
  };
}

async function grantAccess(plan: Plan, privateDirs: string[]): Promise<string | undefined> {
  const ops = plan.access === 'acl' ? aclOps(plan) : groupOps(plan);
  const { workspace } = plan;
  const problem =
    (await ops.traverse(await ops.blocked(ancestorsOf(workspace)))) ?? (await ops.openWorkspace());
  if (problem) return problem;
  for (const dir of privateDirs) {
    if (isInside(dir, workspace)) continue;
    if (!isInside(workspace, dir)) {
      const p = await ops.close([dir]);
      if (p) return p;
      continue;
    }
    // A private folder above the workspace (a transcript next to the checkout): each folder on
    // the way down stays passable, and everything beside the way is closed.
    const parts = relative(dir, workspace).split(sep);
    let at = dir;
    for (const part of parts) {
      const p = (await ops.passOnly(at)) ?? (await ops.close(siblings(at, part)));
      if (p) return p;
      at = join(at, part);
    }
  }
  return undefined;
}

function siblings(dir: string, keep: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name !== keep)
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** Runs one command through the sandbox and checks that it is really someone else. */
async function selfCheck(plan: Plan, sandbox: CommandSandbox): Promise<string | undefined> {
  const probe = [
    'id -u',
    `cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo parent-environ-readable`,
    // the probe runs in the workspace
    'test -w . || echo workspace-not-writable',
  ].join('; ');
  const launch = sandbox.wrap({ command: probe, cwd: plan.workspace, env: { PATH: process.env.PATH } });
  const r = await run(launch.file, launch.args, { cwd: plan.workspace, env: launch.env });
  const out = r.stdout.trim().split('\n');
  if (r.code !== 0) return `the sandbox self-check failed: ${firstLine(r.stderr) || `exit ${r.code}`}`;
  if (out[0] !== String(plan.uid)) return `the sandbox self-check ran as uid ${out[0]}, not ${plan.uid}`;
  if (out.includes('parent-environ-readable'))
    return 'the sandbox self-check could read the parent environment';
  if (out.includes('workspace-not-writable')) return `the workspace is not writable by ${plan.user}`;
  return undefined;
}

/**
 * Prepares the command sandbox for a run. Never throws: when isolation is impossible the result
 * says why (`isolated: false`), and the caller reports it and refuses `bash` unless told otherwise.
 */
export async function createSandbox(opts: SandboxOptions): Promise<SandboxSetup> {
  if (opts.mode === 'off') return notIsolated('command isolation is turned off');
  if (process.platform !== 'linux') {
    return notIsolated(
      `commands cannot be run as another user on ${process.platform}; only Linux is supported`,
    );
  }
  const env = opts.env ?? process.env;
  const user = opts.user ?? SANDBOX_USER;
  const workspace = resolve(opts.workspace);
  if (!existsSync(workspace)) return notIsolated(`the workspace ${workspace} does not exist`);

  let sudo: string[] = [];
  if (process.getuid?.() !== 0) {
    const sudoBin = which('sudo');
    const ok = sudoBin ? await run(sudoBin, ['-n', 'true']) : undefined;
    if (!sudoBin || !ok || ok.code !== 0) {
      return notIsolated('commands cannot be run as another user: not root and no passwordless sudo');
    }
    sudo = [sudoBin, '-n', '--'];
  }
  const setpriv = which('setpriv');
  const envBin = which('env');
  const bash = which('bash');
  const sh = which('sh');
  const kill = which('kill');
  if (!setpriv || !envBin || !bash || !sh || !kill) {
    return notIsolated('commands cannot be run as another user: setpriv (util-linux) is not installed');
  }
  const setfacl = which('setfacl');
  const access = opts.access ?? (setfacl ? 'acl' : 'group');
  if (access === 'acl' && !setfacl) return notIsolated('setfacl (package acl) is not installed');
  if (access === 'group' && sudo.length > 0) {
    return notIsolated('setfacl (package acl) is needed to share the workspace when not running as root');
  }

  const account = await ensureUser(sudo, user);
  if (typeof account === 'string') return notIsolated(account);

  const unshare = which('unshare');
  let pidNamespace = false;
  if (opts.pidNamespace !== false && unshare) {
    const r = await asRoot(sudo, 'unshare', [
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child',
      '--',
      'true',
    ]);
    pidNamespace = r.code === 0;
  }
  const plan: Plan = {
    user,
    ...account,
    workspace,
    sudo,
    bins: { setpriv, unshare, env: envBin, bash, sh, kill },
    pidNamespace,
    access,
  };

  const privateDirs = (opts.privateDirs ?? (env.RUNNER_TEMP ? [env.RUNNER_TEMP] : []))
    .map((d) => resolve(d))
    .filter((d) => existsSync(d));
  const denied = await grantAccess(plan, privateDirs);
  if (denied) return notIsolated(denied);

  const sandbox = makeSandbox(plan);
  const failed = await selfCheck(plan, sandbox);
  if (failed) return notIsolated(failed);

  const how = [
    `commands run as user ${user} (uid ${plan.uid})`,
    pidNamespace ? 'in their own PID namespace' : 'without a PID namespace (other processes stay visible)',
    access === 'acl' ? 'with ACL access to the workspace' : `with group access to the workspace`,
    privateDirs.length ? `and no access to ${privateDirs.join(', ')}` : '',
  ];
  return { sandbox, isolated: true, reason: how.filter(Boolean).join(' ') };
}
