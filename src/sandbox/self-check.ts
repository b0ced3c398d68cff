import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join, relative, sep } from 'node:path';
import { isInside } from '../tools/safe-fs.js';
import { runCommand, type CommandSandbox } from '../tools/process.js';
import { shellQuote } from '../tools/shell-words.js';
import { keyLookup, plantKey, unlinkKey, type KeyringTool } from './keyring.js';
import { SANDBOX_HOME, SCRATCH_DIRS } from './launch.js';
import { systemBin } from './user.js';

export interface SelfCheckPlan {
  uid: number;
  workspace: string;
  hasGit: boolean;
  privateDirs: string[];
  readOnlyDirs: string[];
  /** The process limit the probe must see; undefined when none is set. */
  processes?: number;
  env: NodeJS.ProcessEnv;
  /** The command has a network namespace of its own; `proxy`: with the bridge to the proxy. */
  network?: { proxy: boolean };
  /** Perl or keyctl, when each command must get a session keyring of its own; undefined when not. */
  keyring?: KeyringTool;
  /** Commands have System V IPC and a host name of their own. */
  ipcUts?: boolean;
  /** World-writable folders outside the view: not there for a command (nothing passes through them). */
  shared?: string[];
  /** World-writable folders in the view, bound read-only: no command may write there. */
  sharedReadOnly?: string[];
  /** What the view shows besides the workspace, HOME, scratch and read-only folders (view.ts). */
  view?: string[];
}

// Folders of the machine that are not in a command's view (but for the way down to what is): the
// host's sockets (systemd-resolved, D-Bus, docker.sock) under /run, other users' homes.
const OUTSIDE_VIEW = [
  '/run',
  '/var/run',
  '/home',
  '/root',
  '/srv',
  '/mnt',
  '/media',
  '/var/lib',
  '/var/cache',
];

/** A listener on the host's loopback, which a command in its own network namespace must not reach. */
function hostListener(): Promise<{ port: number; server: Server }> {
  return new Promise((done, fail) => {
    const server = createServer((c) => c.destroy());
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      done({ port: typeof a === 'object' && a ? a.port : 0, server });
    });
  });
}

const SECRET_NAME = 'PATCHLOOP_SELF_CHECK_SECRET';

/**
 * One probe command through the real launcher, trying what an attacker would: everything must come
 * out as the sandbox promises. Returns what went wrong, or undefined.
 */
export async function selfCheck(sandbox: CommandSandbox, plan: SelfCheckPlan): Promise<string | undefined> {
  const tag = randomBytes(6).toString('hex');
  const secret = `s3cret-${tag}`;
  const q = shellQuote;
  // a file of patchloop's own in each private folder, which the probe must not see
  const planted: string[] = [];
  for (const dir of plan.privateDirs) {
    const file = join(dir, `.patchloop-probe-${tag}`);
    try {
      writeFileSync(file, secret, { mode: 0o644, flag: 'wx' });
      planted.push(file);
    } catch {
      // not writable by patchloop either: an empty listing is still checked
    }
  }
  const host = plan.network ? await hostListener() : undefined;
  // a unix socket listening under /run, as the host's services have them: not in the view
  const socket = await runSocket(tag);
  // /run/lock is checked whatever the set-up found: the one every Linux machine has
  const shared = plan.shared ? [...new Set([...plan.shared, ...(isSharedLock(plan) ? [LOCK_DIR] : [])])] : [];
  const outside = plan.view ? OUTSIDE_VIEW : [];
  const sharedReadOnly = plan.sharedReadOnly ?? [];
  const probeName = `.patchloop-probe-${tag}`;
  // patchloop's own traces the probe must not find: a key in its session keyring, a message
  // queue, a file in each world-writable scratch folder
  const keyName = `patchloop-probe-${tag}`;
  const key = plan.keyring ? plantKey(plan.keyring, keyName, secret) : undefined;
  const queue = plan.ipcUts ? plantQueue() : undefined;
  for (const dir of shared) {
    const file = join(dir, probeName);
    try {
      writeFileSync(file, secret, { mode: 0o644, flag: 'wx' });
      planted.push(file);
    } catch {
      // not writable by patchloop: the probe's own write is still checked
    }
  }
  const lines = [
    'echo "uid $(id -u)"',
    // a redirection that fails reports on the shell's stderr, hence the { } around each one
    `if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,
    `f=.patchloop-probe-${tag}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,
    plan.processes === undefined
      ? ':'
      : `[ "$(ulimit -u)" = ${plan.processes} ] || echo "nproc $(ulimit -u)"`,
    `if printenv ${SECRET_NAME} >/dev/null; then echo env-secret-visible; fi`,
    // no capability in any set (the bounding set too), no supplementary group, no new privileges
    `while IFS=$'\t' read -r k v; do case "$k" in Cap*:) case "$v" in *[!0]*) echo "privileges-kept $k$v";; esac;; NoNewPrivs:) [ "$v" = 1 ] || echo new-privileges-allowed;; Groups:) case "$v" in *[0-9]*) echo "groups-kept $v";; esac;; esac; done < /proc/self/status`,
  ];
  if (key && plan.keyring) {
    // through the same program the keyring step uses: the probe needs nothing else installed
    const looks = keyLookup(plan.keyring, key, keyName).map(
      (words) => `${words.map(q).join(' ')} >/dev/null 2>&1`,
    );
    lines.push(`if ${looks.join(' || ')}; then echo keyring-shared; fi`);
  }
  if (plan.ipcUts)
    lines.push(
      'echo "ns-ipc $(readlink /proc/self/ns/ipc)"',
      'echo "ns-uts $(readlink /proc/self/ns/uts)"',
      `if [ -r /proc/sysvipc/msg ] && [ "$(wc -l < /proc/sysvipc/msg)" -gt 1 ]; then echo ipc-visible; fi`,
    );
  for (const dir of shared)
    lines.push(
      `if [ -e ${q(join(dir, probeName))} ]; then echo shared-visible ${q(dir)}; fi`,
      `if { : > ${q(join(dir, `${probeName}-left`))}; } 2>/dev/null; then echo shared-writable ${q(dir)}; fi`,
    );
  for (const dir of sharedReadOnly)
    lines.push(
      `if { : > ${q(join(dir, `${probeName}-left`))}; } 2>/dev/null; then echo shared-writable ${q(dir)}; fi`,
    );
  if (plan.hasGit)
    lines.push(
      `if mv .git .git-probe-${tag} 2>/dev/null; then mv .git-probe-${tag} .git; echo git-renamed; fi`,
      `if [ -d .git ] && { : > .git/probe-${tag}; } 2>/dev/null; then rm -f .git/probe-${tag}; echo git-written; fi`,
      `if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi`,
    );
  // A folder above the workspace, or a private one, may show only the way down to the workspace,
  // the command's HOME, the fresh scratch folders and the read-only folders bound inside it (the
  // run's saved outputs), or nothing at all.
  const onlyWays = (dir: string, what: string) => {
    const ways = [plan.workspace, SANDBOX_HOME, ...SCRATCH_DIRS, ...plan.readOnlyDirs, ...(plan.view ?? [])]
      .filter((d) => d !== dir && isInside(d, dir))
      .map((d) => relative(dir, d).split(sep)[0]!);
    const pattern = ["''", ...ways.map(q)].join('|');
    return `ls -A ${q(dir)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${pattern}) ;; *) echo ${what} ${q(dir)}/"$n";; esac; done`;
  };
  if (host)
    lines.push(
      // only the namespace's own loopback: no other interface, the host's listener out of reach,
      // the namespace's loopback up (a refused connection, not an unreachable network)
      `while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev`,
      `if (exec 3<>/dev/tcp/127.0.0.1/${host.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,
      `case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac`,
      plan.network?.proxy
        ? `case "\${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"\${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac`
        : `[ -z "\${HTTPS_PROXY:-}" ] || echo proxy-set`,
    );
  for (let dir = dirname(plan.workspace); dir !== '/'; dir = dirname(dir))
    lines.push(onlyWays(dir, 'above-visible'));
  for (const dir of plan.privateDirs) lines.push(onlyWays(dir, 'private-visible'));
  for (const dir of outside) lines.push(onlyWays(dir, 'outside-view'));
  if (socket) lines.push(`if [ -e ${q(socket.path)} ]; then echo run-socket-visible; fi`);
  for (const dir of plan.readOnlyDirs)
    lines.push(
      `ls ${q(dir)} >/dev/null 2>&1 || echo read-only-unreadable ${q(dir)}`,
      `if { : > ${q(join(dir, `probe-${tag}`))}; } 2>/dev/null; then echo read-only-writable ${q(dir)}; fi`,
    );
  try {
    // a key that could not be planted would let the probe pass without looking
    if (plan.keyring && !key) return "a key could not be put in patchloop's session keyring to probe with";
    const r = await runCommand({
      command: lines.join('\n'),
      cwd: plan.workspace,
      env: { ...plan.env, [SECRET_NAME]: secret },
      sandbox,
      timeoutMs: 30_000,
    });
    const out = r.text.trim().split('\n');
    if (r.exitCode !== 0 || r.spawnError)
      return `the probe command failed (${r.spawnError ?? `exit ${r.exitCode ?? r.signal}`}): ${out.slice(-3).join(' / ')}`;
    if (out[0] !== `uid ${plan.uid}`) return `the probe ran as ${out[0] ?? 'nobody'}, not uid ${plan.uid}`;
    const own = createHash('sha256').update(readFileSync('/proc/self/environ')).digest('hex');
    if (out.some((l) => l.startsWith('environ ') && l.includes(own)))
      return "the probe could read patchloop's /proc/<pid>/environ";
    if (!out.includes('workspace-writable')) return 'the probe could not write in the workspace';
    if (r.text.includes(secret)) return 'the probe saw a value it must not see';
    for (const ns of plan.ipcUts ? ['ipc', 'uts'] : []) {
      const seen = out.find((l) => l.startsWith(`ns-${ns} `))?.slice(`ns-${ns} `.length);
      if (!seen?.startsWith(`${ns}:[`)) return `the probe could not tell its ${ns} namespace`;
      if (seen === readlinkSync(`/proc/self/ns/${ns}`))
        return `the probe shares patchloop's ${ns === 'ipc' ? 'System V IPC' : 'host name'} namespace`;
    }
    const left = [...shared, ...sharedReadOnly]
      .map((d) => join(d, `${probeName}-left`))
      .filter((f) => existsSync(f));
    if (left.length) return `the probe left ${left.join(', ')} behind, outside its namespace`;
    const problems = out.filter(
      (l) =>
        !l.startsWith('uid ') &&
        !l.startsWith('environ ') &&
        !l.startsWith('ns-') &&
        l !== 'workspace-writable',
    );
    if (problems.length) return `the probe found: ${problems.join('; ')}`;
    return undefined;
  } finally {
    host?.server.close();
    socket?.close();
    for (const file of planted) rmSync(file, { force: true });
    // only a broken namespace could have let the probe leave these on the machine
    for (const d of [...shared, ...sharedReadOnly]) rmSync(join(d, `${probeName}-left`), { force: true });
    if (key && plan.keyring) unlinkKey(plan.keyring, key);
    if (queue) spawnSync(queue.ipcrm, ['-q', queue.id], { stdio: 'ignore' });
    for (const dir of plan.readOnlyDirs) {
      // only a broken read-only mount could have let the probe leave a file there
      for (const name of safeList(dir)) if (name === `probe-${tag}`) rmSync(join(dir, name), { force: true });
    }
  }
}

/** A listening unix socket of patchloop's own in /run, where patchloop may make one (as root). */
function runSocket(tag: string): Promise<{ path: string; close(): void } | undefined> {
  const path = join('/run', `.patchloop-probe-${tag}.sock`);
  return new Promise((done) => {
    const server = createServer((c) => c.destroy());
    server.once('error', () => done(undefined));
    server.listen(path, () =>
      done({
        path,
        close: () => {
          server.close();
          rmSync(path, { force: true });
        },
      }),
    );
  });
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A System V message queue of patchloop's own, which commands must not see. */
function plantQueue(): { id: string; ipcrm: string } | undefined {
  const ipcmk = systemBin('ipcmk');
  const ipcrm = systemBin('ipcrm');
  if (!ipcmk || !ipcrm) return undefined;
  const r = spawnSync(ipcmk, ['-Q', '-p', '0600'], { encoding: 'utf8' });
  const id = /(\d+)\s*$/.exec(r.stdout?.trim() ?? '')?.[1];
  return r.status === 0 && id ? { id, ipcrm } : undefined;
}

const LOCK_DIR = '/run/lock';

function isSharedLock(plan: SelfCheckPlan): boolean {
  try {
    const st = statSync(LOCK_DIR);
    return (
      st.isDirectory() &&
      (st.mode & 0o1002) === 0o1002 &&
      !(plan.sharedReadOnly ?? []).includes(LOCK_DIR) &&
      !isInside(plan.workspace, LOCK_DIR) &&
      !isInside(LOCK_DIR, plan.workspace)
    );
  } catch {
    return false;
  }
}
