import { spawn } from 'node:child_process';
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxSetupError } from './error.js';
import { APPLY_STEP, PREP_STEP } from './perl/scripts.js';
import { asRoot, firstLine, rootArgv, run, type RootAccess, type RunResult } from './user.js';

// The overlay access method: what commands write lands in a layer of patchloop's own, and
// patchloop moves it into the checkout when the command has ended. Nothing of the checkout is
// changed to let commands in, so nothing has to be put back, and the cost does not grow with the
// number of files:
//
// - Each command's mount namespace gets the workspace as an overlay. Its lower layer is an
//   idmapped clone of the workspace (open_tree + mount_setattr(MOUNT_ATTR_IDMAP), through Perl's
//   syscall as the keyring step does): files owned by the checkout's owner are shown as the
//   sandbox user's, so the kernel's ordinary owner checks let commands read and write what the
//   owner may. Its upper layer is an empty folder of patchloop's own (per command), so every write
//   (a new file, a changed one, a removal as a whiteout) lands there and the checkout's own inodes
//   are never written by a command. A file with more names (a package store's file linked into
//   node_modules, claim 10) is copied up before it is written, and put back under its name as a
//   new file: the store keeps its content by construction, whatever its mode.
// - When the command has ended (its namespace, and with it every process and the mount, are
//   gone), patchloop moves the upper layer's entries into the checkout as root, owned by the
//   checkout's owner (APPLY below): renames within one file system, so the cost is that of what
//   changed. Only then does the result reach the model, so the file tools and git see exactly what
//   the command wrote.
// - What the idmap would open that the owner's bits do not say is private: a file others may not
//   read and a folder others may not list or enter (an earlier step's credentials, claims 11 and
//   16). The idmapped clone is not the command's lower layer itself: a read-only overlay of it is,
//   made (fsconfig CMD_CREATE) while this step's file-system uid and gid are nobody's and it holds
//   no groups. Changing the file-system uid away from root drops root's file capabilities (DAC
//   override, DAC read-search, fowner, chown...), and overlayfs keeps the credentials it was made
//   with and checks every access to a layer with them as well as with the caller's. So the command
//   passes the owner's check on the overlay's inode, and the kernel then asks whether nobody, one
//   of the others, may read the checkout's inode: a 0600 file does not open, a 0700 folder neither
//   lists nor opens, and a write to a file not yet copied up needs that read too (copy-up reads
//   it), so nothing private is renamed, linked, chmodded or overwritten either. No walk: the
//   rule is the kernel's, at each access, whatever was made private when. The command's own
//   overlay (made by root, full rights) stacks on that one, so its writes reach its upper layer.
//   The set-up's trial proves this once on the machine with a probe file of the checkout's owner.
// - A removal needs no read (a whiteout), so the move keeps what no command could read: it neither
//   removes nor replaces a private path of the checkout (a swapped credentials file would be used
//   by a later step), and says so to the model.
// - Where the reader's overlay cannot be had (its probe file opened: a kernel or a process whose
//   file-system uid change keeps the capabilities) or the workspace's top folder is closed to
//   others (who could then open nothing of it), the private paths are
//   found by one read-only walk at set-up (find prints, changes nothing, no ctime moves) and
//   covered in each command's namespace by an empty root-owned 0000 folder or file, mounted
//   read-only: reading it is refused, and a mount point can be neither renamed nor removed
//   (EBUSY), nor linked elsewhere (EXDEV). Before each command their paths are checked to be the
//   same inodes, reached through no link. That walk grows with the checkout.
// - `.git` is bound read-only over the overlay as before (never idmapped: others' bits only).
// - Limits: a folder of the checkout that existed before the command cannot be renamed
//   (redirect_dir=off makes rename(2) say EXDEV; `mv` then copies and removes, as across file
//   systems); files owned by another user than the checkout's owner are shown as nobody's and
//   are only as writable as others' bits say (among them files an earlier run of the walk methods
//   left the sandbox user's when it ended before its revoke); what a command makes private (a
//   `mktemp -d`, a 0600 file) is private to the next command too, as it is to the file tools, and
//   a program only its owner may run (0744) is not run (others' bits say so). MCP
//   stdio servers, which live for the whole run, see the workspace read-only: their writes could
//   not be moved in while they run.
//
// Why this and not another way: the ACL or group walks (access.ts) write every path at set-up and
// at the end, and move every ctime; granting write access only where commands write cannot know
// where that is (a build's `target/`, `node_modules/.cache`); an idmapped bind of the workspace
// without the overlay would let commands write a store's inode (claim 10), which the upper layer
// prevents by construction; a bind-mounted copy costs a copy of every file. One overlay made with
// nobody's rights could not serve: its upper layer's copies keep the lower files' owner and mode,
// so the writes would be refused too; hence the two.
//
// It needs idmapped mounts of the workspace's file system, overlayfs over them (Linux 5.19+; the
// new mount API for the reader's overlay), and a 64-bit Perl of a known architecture. The set-up's
// trial tries exactly this on the workspace; a machine that fails it gets the ACL (or group) walks
// of access.ts.

/**
 * What the root-run Perl (perl/prep.pl, perl/view.pl, perl/apply.pl) needs of the architecture, in one table:
 * syscall numbers, and the open(2) flags that differ (x86_64 has its own; aarch64 the generic
 * ones). Each is handed to the scripts by name (`--sys-NAME=N`, `--o-NAME=N`).
 */
export interface OverlaySyscalls {
  unshare: number;
  mount: number;
  umount2: number;
  pivot_root: number;
  prlimit64: number;
  setresuid: number;
  setresgid: number;
  capset: number;
  prctl: number;
  keyctl: number;
  setfsuid: number;
  setfsgid: number;
  setgroups: number;
  open_tree: number;
  move_mount: number;
  mount_setattr: number;
  fsopen: number;
  fsconfig: number;
  fsmount: number;
  openat: number;
  mkdirat: number;
  fchownat: number;
  unlinkat: number;
  renameat2: number;
  fchmodat: number;
  statx: number;
  getdents64: number;
  fgetxattr: number;
  fremovexattr: number;
  lremovexattr: number;
  mknodat: number;
  readlinkat: number;
  symlinkat: number;
  utimensat: number;
  /** open(2) flags, not syscalls: O_DIRECTORY and O_NOFOLLOW */
  o_directory: number;
  o_nofollow: number;
}

// the new mount API's calls have one number everywhere
const MOUNT_API = {
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  mount_setattr: 442,
};

const SYSCALLS: Readonly<Record<string, OverlaySyscalls>> = {
  x64: {
    ...MOUNT_API,
    unshare: 272,
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    prlimit64: 302,
    setresuid: 117,
    setresgid: 119,
    capset: 126,
    prctl: 157,
    keyctl: 250,
    setfsuid: 122,
    setfsgid: 123,
    setgroups: 116,
    openat: 257,
    mkdirat: 258,
    fchownat: 260,
    unlinkat: 263,
    renameat2: 316,
    fchmodat: 268,
    statx: 332,
    getdents64: 217,
    fgetxattr: 193,
    fremovexattr: 199,
    lremovexattr: 198,
    mknodat: 259,
    readlinkat: 267,
    symlinkat: 266,
    utimensat: 280,
    o_directory: 0o200000,
    o_nofollow: 0o400000,
  },
  arm64: {
    ...MOUNT_API,
    unshare: 97,
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    prlimit64: 261,
    setresuid: 147,
    setresgid: 149,
    capset: 91,
    prctl: 167,
    keyctl: 219,
    setfsuid: 151,
    setfsgid: 152,
    setgroups: 159,
    openat: 56,
    mkdirat: 34,
    fchownat: 54,
    unlinkat: 35,
    renameat2: 276,
    fchmodat: 53,
    statx: 291,
    getdents64: 61,
    fgetxattr: 10,
    fremovexattr: 16,
    lremovexattr: 15,
    mknodat: 33,
    readlinkat: 78,
    symlinkat: 36,
    utimensat: 88,
    o_directory: 0o40000,
    o_nofollow: 0o100000,
  },
};

export function overlaySyscalls(): OverlaySyscalls | undefined {
  return SYSCALLS[process.arch];
}

/** The name Perl's archname starts with on each architecture of the table. */
const PERL_ARCH: Readonly<Record<string, string>> = { x64: 'x86_64', arm64: 'aarch64' };

// The table's numbers are those of a 64-bit program of this architecture: a perl of another (a
// 32-bit one on a 64-bit kernel) would make other calls with them.
const ARCH_PROBE = String.raw`require Config;
exit($Config::Config{archname} =~ /^\Q$ARGV[0]\E-linux/ && $Config::Config{ptrsize} == 8 ? 0 : 3);`;

const fitting = new Map<string, Promise<boolean>>();

/** Whether this perl is a 64-bit perl of this architecture (asked once per perl). */
export function perlFits(perl: string): Promise<boolean> {
  let fits = fitting.get(perl);
  if (!fits) {
    const arch = PERL_ARCH[process.arch];
    fits = arch
      ? run(perl, [...PERL_FLAGS, '-e', ARCH_PROBE, '--', arch]).then((r) => r.code === 0)
      : Promise.resolve(false);
    fitting.set(perl, fits);
  }
  return fits;
}

/** The named arguments `--sys-NAME=N` and `--o-NAME=N` of the given entries of the table. */
export function archArgs(numbers: OverlaySyscalls, names: (keyof OverlaySyscalls)[]): string[] {
  return names.map((k) =>
    k.startsWith('o_') ? `--o-${k.slice(2)}=${numbers[k]}` : `--sys-${k}=${numbers[k]}`,
  );
}

/** What prep.pl takes of the table (unshare and mount come from the prelude, launch.ts). */
const PREP_CALLS: (keyof OverlaySyscalls)[] = [
  'setfsuid',
  'setfsgid',
  'setgroups',
  'open_tree',
  'move_mount',
  'mount_setattr',
  'fsopen',
  'fsconfig',
  'fsmount',
  'o_directory',
];

/** What view.pl takes of the table (besides prep.pl's, for the overlay; the idmap's calls for the home's writable layers). */
export const VIEW_CALLS: (keyof OverlaySyscalls)[] = [
  'mount',
  'unshare',
  'setfsuid',
  'setfsgid',
  'open_tree',
  'move_mount',
  'mount_setattr',
  'fsopen',
  'fsconfig',
  'fsmount',
  'o_directory',
  'umount2',
  'pivot_root',
  'prlimit64',
  'setgroups',
  'setresuid',
  'setresgid',
  'capset',
  'prctl',
  'keyctl',
];

/** What apply.pl takes of the table. */
const APPLY_CALLS: (keyof OverlaySyscalls)[] = [
  'openat',
  'mkdirat',
  'fchownat',
  'unlinkat',
  'renameat2',
  'fchmodat',
  'statx',
  'getdents64',
  'fgetxattr',
  'fremovexattr',
  'lremovexattr',
  'mknodat',
  'readlinkat',
  'symlinkat',
  'utimensat',
  'o_directory',
  'o_nofollow',
];

// The steps themselves, with what each does, are perl/prep.pl (as root in each command's
// namespace, before the workspace's top folder is hidden: the layer, the idmapped clone, the
// reader's overlay, the command's overlay, the covers) and perl/apply.pl (as root once the command
// has ended: the move, by descriptors, within a byte and time budget, all or nothing).
export { APPLY_STEP, PREP_STEP };

export const PERL_FLAGS = ['-t', '-X'] as const;

/** Past this many private paths the overlay is not used: each is covered in every command's namespace. */
export const MAX_PRIVATE_PATHS = 5000;

/**
 * What one move may cost. Past `bytes` written by copying (the layer on another file system than
 * the checkout: a file counts by its apparent size, so a sparse one counts as what would be
 * written out), or `seconds` before everything is in place, nothing of the command's writes is
 * moved and the model is told. `waitSeconds`: how long the command's processes may take to be gone
 * after it ended (the kernel's kill of its PID namespace) before the move gives up the same way.
 * Renames within one file system write no data and count nothing.
 */
export interface MoveBudget {
  bytes: number;
  seconds: number;
  waitSeconds: number;
}

export const MOVE_BUDGET: Readonly<MoveBudget> = { bytes: 1024 ** 3, seconds: 120, waitSeconds: 30 };

/** apply.pl's named arguments. */
export function applyArgs(
  numbers: OverlaySyscalls,
  o: {
    layer: string;
    workspace: string;
    owner: { uid: number; gid: number };
    own: string;
    budget: MoveBudget;
    follow: boolean;
    spare: boolean;
    hidden: string[];
  },
): string[] {
  return [
    `--layer=${o.layer}`,
    `--workspace=${o.workspace}`,
    `--uid=${o.owner.uid}`,
    `--gid=${o.owner.gid}`,
    `--own=${o.own}`,
    `--max-bytes=${Math.floor(o.budget.bytes)}`,
    `--max-seconds=${Math.floor(o.budget.seconds)}`,
    `--wait-seconds=${Math.floor(o.budget.waitSeconds)}`,
    `--follow=${o.follow ? 1 : 0}`,
    `--spare=${o.spare ? 1 : 0}`,
    ...archArgs(numbers, APPLY_CALLS),
    ...o.hidden.map((h) => `--hidden=${h}`),
  ];
}

/** What the model is told of a move: nothing when all of it went in. */
export function moveNote(r: RunResult, dir: string): string | undefined {
  if (r.code !== 0)
    return `what the command wrote could not be moved into the workspace (${firstLine(r.stderr) || `exit ${r.code}`}); it is kept in ${dir}`;
  const lines = r.stdout.split('\n');
  const refused = lines.find((l) => l.startsWith('refused '));
  if (refused)
    return `NOTHING the command wrote was put into the workspace: ${refused.slice(8)}; the workspace is as it was before the command, and its changes are discarded (write less, or to fewer, smaller files)`;
  const errors = lines.filter((l) => l.startsWith('error ')).map((l) => l.slice(6));
  if (!errors.length) return undefined;
  return `${errors.length} of the command's changes could not be moved into the workspace (kept in ${dir}): ${errors.slice(0, 5).join('; ')}`;
}

/** Programs the overlay's steps run, by absolute path. */
export interface OverlayBins {
  find: string;
  perl: string;
  unshare: string;
  mount: string;
  mkdir: string;
  rm: string;
}

interface Identity {
  dev: number;
  ino: number;
}

export interface OverlayAccess {
  /** The checkout's owner, shown to commands as the sandbox user and owner of what they write. */
  owner: { uid: number; gid: number };
  /**
   * The id whose rights (others') the lower layer is opened with, by the reader's overlay: the
   * kernel then refuses what others may not read. Undefined: the private paths are covered instead.
   */
  reader?: number;
  /** Absolute paths of the private folders and files, covered in each command's namespace. */
  hidden: { folders: string[]; files: string[] };
  /** patchloop's folder of upper layers (0700); each command gets `<state>/<n>/{up,work}`. */
  state: string;
  /** The next command's number. */
  next: number;
  /** Tests only: the move takes a link to a folder for the folder (what its lstat checks stop). */
  followLinks?: boolean;
  /** Tests only: the move removes and replaces private paths of the checkout as any other. */
  replacesPrivate?: boolean;
  /** What one move may cost before nothing of it is moved (MOVE_BUDGET; tests make it smaller). */
  budget: MoveBudget;
  /**
   * Throws SandboxSetupError when a covered path is no longer the inode the walk found, or is
   * reached through a link: covering it then could miss it, so no command runs.
   */
  verify(): void;
  /** Moves command `n`'s upper layer into the workspace; a note for the model when some of it could not be. */
  apply(n: number): Promise<string | undefined>;
  /** Removes the state folder and every upper layer left in it. */
  dispose(): Promise<void>;
}

/** The overlay options take paths as comma- and colon-separated text: other characters only. */
export function isPlainPath(path: string): boolean {
  return /^[^,:\\\s]+$/.test(path);
}

/** The user (and group) whose rights the reader's overlay opens the checkout with: nobody's. */
export function readerId(...taken: number[]): number {
  return [65534, 65533, 65532].find((id) => !taken.includes(id))!;
}

/**
 * PREP_STEP's named arguments but the view, the workspace, the stash, the layer and the unshare and
 * mount syscalls (which the prelude adds, launch.ts): the ids, the reader, the architecture's
 * numbers, the covered paths.
 */
export function prepArgs(
  numbers: OverlaySyscalls,
  owner: { uid: number; gid: number },
  sandbox: { uid: number; gid: number },
  reader: number | undefined,
  hidden: { folders: string[]; files: string[] },
): string[] {
  return [
    `--owner-uid=${owner.uid}`,
    `--owner-gid=${owner.gid}`,
    `--sandbox-uid=${sandbox.uid}`,
    `--sandbox-gid=${sandbox.gid}`,
    `--reader=${reader ?? ''}`,
    ...archArgs(numbers, PREP_CALLS),
    ...hidden.folders.map((p) => `--folder=${p}`),
    ...hidden.files.map((p) => `--file=${p}`),
    '--end',
  ];
}

/** Where the overlay keeps its state: `<tmpdir>/patchloop-overlay-*` (and `-probe-*` for the trial). */
const STATE_PREFIX = 'patchloop-overlay-';
/** A state folder from before owners were recorded is taken for stale past a job's longest run. */
const UNRECORDED_STALE_MS = 6 * 3600_000;

/** This process's start, in clock ticks since boot (field 22 of /proc/PID/stat); undefined if gone. */
function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // the command name, in parentheses, may hold spaces and parentheses of its own
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * A new state folder, with its owner recorded (this process's id and start, so a later set-up can
 * tell a running run's folder from one a killed run left; a reused id has another start).
 */
export function makeState(prefix: string, dir = tmpdir()): string {
  const state = mkdtempSync(join(dir, prefix));
  writeFileSync(join(state, 'owner'), `${process.pid} ${startOf(process.pid) ?? ''}\n`, { mode: 0o600 });
  return state;
}

/**
 * Removes (as root: layers hold root's and the sandbox user's files) the overlay state folders of
 * this user that a run killed or crashed left in the temp folder: those whose recorded owner is no
 * longer running, or, with no owner recorded (an older patchloop), unchanged for six hours. A
 * folder of a run still going is never touched. Returns the names removed. (`dir` and `prefix`: the
 * same for the runs' cache folders, run-cache.ts.)
 */
export async function removeStaleState(
  root: RootAccess,
  rm: string,
  dir = tmpdir(),
  prefix = STATE_PREFIX,
): Promise<string[]> {
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  const stale: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isDirectory() || st.uid !== uid) continue;
      let owner: string | undefined;
      try {
        owner = readFileSync(join(path, 'owner'), 'utf8');
      } catch {
        owner = undefined;
      }
      if (owner === undefined) {
        if (Date.now() - st.mtimeMs > UNRECORDED_STALE_MS) stale.push(path);
        continue;
      }
      const [pid, start] = owner.trim().split(' ');
      const alive = /^[0-9]+$/.test(pid ?? '') && start !== undefined && startOf(Number(pid)) === start;
      if (!alive) stale.push(path);
    } catch {
      // removed meanwhile
    }
  }
  if (stale.length) await asRoot(root, rm, ['-rf', '--', ...stale]);
  return stale.map((p) => p.slice(dir.length + 1));
}

/**
 * Whether a command's mounts can be made here: the very steps, once, in a throwaway namespace, on
 * the workspace itself. First with the reader's overlay, which must also keep an owner-only probe
 * file shut (`filter`); where that fails or the workspace's top folder is not open to others,
 * without it (the private paths are then found by a walk and covered). A string: why neither (a
 * workspace on an overlay, say, which cannot be idmapped). Constant cost.
 */
export async function tryOverlay(
  root: RootAccess,
  workspace: string,
  bins: OverlayBins,
  numbers: OverlaySyscalls,
): Promise<{ filter: boolean } | string> {
  // what runs that were killed or crashed left (their layers can be large): gone before a new one
  await removeStaleState(root, bins.rm);
  const top = lstatSync(workspace);
  const owner = { uid: top.uid, gid: top.gid };
  // the sandbox user is not known yet: any other id stands for it
  const stand = readerId(owner.uid, owner.gid);
  const sandbox = { uid: stand, gid: stand };
  const attempt = async (filter: boolean) => {
    const state = makeState(`${STATE_PREFIX}probe-`);
    try {
      if (!isPlainPath(state)) return `${state} cannot be named in the overlay's options`;
      const r = await asRoot(root, bins.unshare, [
        '--mount',
        '--propagation',
        'private',
        '--',
        bins.perl,
        ...PERL_FLAGS,
        '-e',
        PREP_STEP,
        '--',
        `--view=${filter ? 'probe' : 'overlay'}`,
        `--sys-unshare=${numbers.unshare}`,
        `--sys-mount=${numbers.mount}`,
        `--workspace=${workspace}`,
        `--stash=${state}`,
        `--layer=${join(state, 'layer')}`,
        ...prepArgs(numbers, owner, sandbox, filter ? readerId(owner.uid, owner.gid, stand) : undefined, {
          folders: [],
          files: [],
        }),
      ]);
      if (r.code === 0) return undefined;
      return `no idmapped overlay of the workspace here (${firstLine(r.stderr) || `exit ${r.code}`})`;
    } finally {
      await asRoot(root, bins.rm, ['-rf', '--', state]);
    }
  };
  // the reader must be let into the top folder and list it, or commands could open nothing
  if ((top.mode & 0o005) === 0o005 && (await attempt(true)) === undefined) return { filter: true };
  const why = await attempt(false);
  return why ?? { filter: false };
}

/**
 * The private folders and files of the workspace, by one read-only walk (find stats each path and
 * prints; nothing is written, no ctime moves), with their inodes; files the sandbox user owns are
 * given to the checkout's owner on the way.
 */
async function findPrivate(
  root: RootAccess,
  workspace: string,
  bins: OverlayBins & { chown: string },
  owner: { uid: number; gid: number },
  sandboxUid: number,
): Promise<Map<string, Identity & { folder: boolean }>> {
  const git = join(workspace, '.git');
  // read only: find stats each path and prints; nothing is written, no ctime moves. What it looks
  // for, in this order: a private folder (printed, not entered), a private file, a path the sandbox
  // user owns.
  const tests = [
    '-type',
    'd',
    '!',
    '-perm',
    '-001',
    '-prune',
    '-printf',
    'd%p\\0',
    '-o',
    '-type',
    'f',
    '!',
    '-perm',
    '-004',
    '-printf',
    'f%p\\0',
    '-o',
    '-user',
    String(sandboxUid),
    '-printf',
    'u%p\\0',
  ];
  const walk = async (args: string[]) => {
    // what it prints can be long (the second-level folders of a large node_modules, an earlier
    // run's files): a bound far past any checkout, and time for a slow disk
    const r = await asRoot(root, bins.find, args, { maxBuffer: 1 << 30, timeoutMs: 30 * 60_000 });
    if (r.code !== 0)
      throw new SandboxSetupError(
        `could not list the workspace's private paths: ${firstLine(r.stderr) || `exit ${r.code}`}`,
      );
    return r.stdout;
  };
  // The walk is the set-up's one cost that grows with the checkout, and it is the kernel's work
  // (directory reads and stats), so it is shared among the processors: a first find goes two
  // levels down and prints each folder at the second level ('r') instead of entering it, and
  // those folders are split among as many finds as there are processors.
  // (each starting point of the deeper finds is looked at by them: printed 'u' there if it is the
  // sandbox user's; only a folder others may enter is one)
  const glob = workspace.replace(/[[\]*?\\]/g, '\\$&');
  const shallow = await walk([
    workspace,
    '-maxdepth',
    '2',
    '(',
    '-path',
    git,
    '-prune',
    '-o',
    '-samefile',
    workspace,
    '-o',
    '-path',
    `${glob}/*/*`,
    '-type',
    'd',
    '-perm',
    '-001',
    '-printf',
    'r%p\\0',
    '-o',
    ...tests,
    ')',
  ]);
  const roots = shallow
    .split('\0')
    .filter((r) => r[0] === 'r')
    .map((r) => r.slice(1));
  const lanes = Math.max(1, Math.min(availableParallelism(), 8, roots.length));
  const deep = await Promise.all(
    Array.from({ length: roots.length ? lanes : 0 }, (_, i) =>
      walk([...roots.filter((_, j) => j % lanes === i), ...tests]),
    ),
  );
  const identity = new Map<string, Identity & { folder: boolean }>();
  const records = [shallow, ...deep].join('\0').split('\0').filter(Boolean);
  // What the sandbox user owns in the checkout was made by commands of an earlier run that shared
  // the workspace by the walks (access.ts): through the idmap it would be nobody's, and no command
  // could change it. It becomes the checkout owner's, as what the overlay moves in is.
  const theirs = records.filter((r) => r[0] === 'u').map((r) => r.slice(1));
  for (let i = 0; i < theirs.length; i += 500) {
    const r = await asRoot(root, bins.chown, [
      '-h',
      '--',
      `${owner.uid}:${owner.gid}`,
      ...theirs.slice(i, i + 500),
    ]);
    if (r.code !== 0)
      throw new SandboxSetupError(
        `could not give an earlier run's files back to the checkout's owner: ${firstLine(r.stderr) || `exit ${r.code}`}`,
      );
  }
  for (const rec of records) {
    if (rec[0] !== 'd' && rec[0] !== 'f') continue;
    const p = rec.slice(1);
    try {
      const st = lstatSync(p);
      identity.set(p, { dev: st.dev, ino: st.ino, folder: rec[0] === 'd' });
    } catch {
      // gone since the walk: nothing to cover
    }
  }
  return identity;
}

/**
 * The set-up of the overlay method: the state folder and, where the reader's overlay cannot be had
 * (`filter` false), one read-only walk for the private paths to cover. Returns why not when the
 * workspace holds too many of them; throws SandboxSetupError when the walk failed.
 */
export async function openOverlay(
  root: RootAccess,
  workspace: string,
  bins: OverlayBins & { chown: string },
  numbers: OverlaySyscalls,
  sandbox: { uid: number; gid: number },
  filter: boolean,
): Promise<OverlayAccess | string> {
  const top = lstatSync(workspace);
  const owner = { uid: top.uid, gid: top.gid };
  // With the reader's overlay, nothing is walked: the kernel refuses what others may not open.
  const identity = filter
    ? new Map<string, Identity & { folder: boolean }>()
    : await findPrivate(root, workspace, bins, owner, sandbox.uid);
  if (identity.size > MAX_PRIVATE_PATHS)
    return `the workspace holds ${identity.size} paths others may not read (more than ${MAX_PRIVATE_PATHS})`;
  const state = makeState(STATE_PREFIX);
  if (!isPlainPath(state)) {
    rmSync(state, { recursive: true, force: true });
    return `${state} cannot be named in the overlay's options`;
  }
  const relative = (p: string) => p.slice(workspace.length + 1);
  const access: OverlayAccess = {
    owner,
    ...(filter ? { reader: readerId(owner.uid, owner.gid, sandbox.uid, sandbox.gid) } : {}),
    hidden: {
      folders: [...identity].filter(([, i]) => i.folder).map(([p]) => p),
      files: [...identity].filter(([, i]) => !i.folder).map(([p]) => p),
    },
    state,
    next: 0,
    budget: { ...MOVE_BUDGET },
    verify() {
      for (const [p, id] of identity) {
        let same: boolean;
        try {
          const st = lstatSync(p);
          same = st.dev === id.dev && st.ino === id.ino && realpathSync(p) === p;
        } catch {
          // removed (by patchloop's own git, or the file tools' delete): nothing left to cover
          same = !existsQuiet(p);
        }
        if (!same)
          throw new SandboxSetupError(`${relative(p)} is no longer the private path the set-up covered`);
      }
    },
    async apply(n) {
      const dir = join(state, String(n));
      // a command that wrote nothing (the layer is the sandbox user's 0755 folder): no step to run;
      // its empty layer goes with the state folder
      try {
        if (readdirSync(join(dir, 'up')).length === 0) return undefined;
      } catch {
        // unreadable or missing: the step says what it finds
      }
      const r = await detachedAsRoot(root, bins.perl, [
        ...PERL_FLAGS,
        '-e',
        APPLY_STEP,
        '--',
        ...applyArgs(numbers, {
          layer: dir,
          workspace,
          owner,
          own: join(state, 'own'),
          budget: access.budget,
          follow: access.followLinks === true,
          spare: access.replacesPrivate === true,
          hidden: [...identity.keys()].map(relative),
        }),
      ]);
      return moveNote(r, dir);
    },
    async dispose() {
      // upper layers hold the sandbox user's files: root removes them
      await asRoot(root, bins.rm, ['-rf', '--', state]);
    },
  };
  return access;
}

function existsQuiet(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a program as root in a process group of its own, with no time limit: the move of a layer
 * into the checkout must not be cut short by a Ctrl-C meant for patchloop (the terminal signals
 * the whole foreground group) or by a timer, or the rest of the command's work would be lost.
 */
function detachedAsRoot(root: RootAccess, bin: string, args: string[]): Promise<RunResult> {
  const [file, rest] = rootArgv(root, bin, args);
  return new Promise((done) => {
    const child = spawn(file, rest, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e) => done({ code: 127, stdout: '', stderr: e.message }));
    child.once('close', (code) =>
      done({
        code: code ?? 1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}
