import {
  chmodSync,
  lchownSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxSetupError } from './error.js';
import { asRoot, firstLine, systemBin, type Account, type RootAccess, type RunResult } from './user.js';

// How the sandbox user gets write access to the workspace where the overlay (overlay.ts, the
// default) cannot be made: every change is made inside the workspace. Folders above it need no
// opening at all, because each command sees them through its own mount namespace, where they are
// fresh root-owned directories (launch.ts).
//
// What it costs: both methods walk every path of the checkout at set-up and again at the end
// (ignored dependency trees included: ~10-20 µs a path), and change the ctime of every file they
// share, so a git index made before (patchloop's private copy included) re-reads every tracked
// file at its next status unless core.trustctime is off. That is why the overlay, whose cost grows
// only with what commands change, is tried first.

/** overlay: overlay.ts (nothing of the checkout is changed); acl and group: the walks below. */
export type AccessMethod = 'overlay' | 'acl' | 'group';

export interface WorkspaceAccess {
  method: AccessMethod;
  /**
   * Puts every path of the workspace back as it was before the run: ACL entries, default entries,
   * masks, modes and groups. What commands created keeps what it got, less any entry or group of
   * the sandbox user. Throws SandboxSetupError when some of it could not be put back.
   */
  revoke(): Promise<void>;
}

function check(what: string, r: RunResult): void {
  if (r.code !== 0) throw new SandboxSetupError(`${what}: ${firstLine(r.stderr) || `exit ${r.code}`}`);
}

// A tree walk over a checkout that patchloop's own git is also working in can meet a lock file
// that vanishes mid-walk (setfacl then fails with ENOENT); the walk is idempotent, so it is run
// a second time before the set-up is given up.
async function twice(what: string, step: () => Promise<RunResult>): Promise<void> {
  const first = await step();
  if (first.code === 0) return;
  check(what, await step());
}

// Which regular files the sandbox user is given: one name only, and readable by all. A file with
// more names is shared with a place outside the workspace (pnpm and uv link their store's files
// into node_modules and virtualenvs): an entry on it would open that store to commands, for
// later jobs and the caches they save. A file only its owner (and group) may read is not the
// checkout's (git writes 0644 and 0755) but something an earlier step left, such as
// google-github-actions/auth's gha-creds-*.json. Others may still read what others may read.
const SHAREABLE_FILE = ['-type', 'f', '-links', '1', '-perm', '-004'];
const NOT_SHAREABLE_FILE = ['-type', 'f', '(', '-links', '+1', '-o', '!', '-perm', '-004', ')'];
// A folder others may not enter is private with everything under it, whatever the modes of what
// it holds: an entry on it would open its 0644 files to commands. The walk does not go in. The
// top of the walk is shared whatever its mode (the workspace is what commands work in). Staging
// (src/git/stage.ts) and the file tools (src/tools/safe-fs.ts) apply the same rule.
const privateFolder = (top: string) => ['-type', 'd', '!', '-perm', '-001', '!', '-samefile', top];

function need(name: string): string {
  const bin = systemBin(name);
  if (!bin) throw new SandboxSetupError(`${name} is not installed`);
  return bin;
}

// What commands' access must not outlast: every path of the workspace is put back as it was.
//
// ACL: before the first entry is granted, the extended ACLs the workspace already has are saved
// (`getfacl -s`: only paths that have any, so usually nothing). At the end every path loses every
// extended entry (`setfacl -b`: a path without one is not written to, so its ctime stays; with one,
// the owning group's entry becomes the group bits again, so the mode is the one before the grant),
// and the saved ACLs are put back (`setfacl --restore`). A file with more than one name is cleared
// only when it names the sandbox user: it may be a store file outside the workspace that a command
// linked in. --restore follows symbolic links on the way to a path, so a saved path is put back only
// when it still leads to itself, no link on the way (no command is alive by then to change that).
//
// Group: the walk that opens the workspace prints each path's inode, mode and group as it meets
// it, before changing anything (the `-exec … +` batches run later), and the walk at the end
// compares: a path that is still the same inode gets its group and the bits the walks change
// (setuid, setgid, group, others' write) back; one made during the run (or renamed: a new name is
// a new path) keeps its mode, but not the sandbox user's group, which is replaced by its folder's.
//
// Both walks leave out what the opening walk left out (a private folder) unless the sandbox user
// owns it: a folder a command made and then closed may hold what the default entries gave.

/** setuid, setgid, the group's bits and others' write: what the group walks change. */
const GROUP_WALK_BITS = 0o6072;

/** Runs a program as root with its output in `file` (a walk's output can be tens of MB). */
function toFile(root: RootAccess, sh: string, file: string, bin: string, args: string[]) {
  return asRoot(root, sh, ['-c', 'f=$1; shift; exec "$@" > "$f"', 'patchloop-walk', file, bin, ...args]);
}

/** A private folder the walks do not go into (one the sandbox user owns is its own, and walked). */
const closedFolder = (top: string, uid: number) => [
  '-type',
  'd',
  '!',
  '-perm',
  '-001',
  '!',
  '-user',
  String(uid),
  '!',
  '-samefile',
  top,
  '-prune',
];

// What commands made is the sandbox user's; at the end it becomes the checkout owner's (its user
// only: the group is the walks' to put back), so the runner may change and remove it, and a later
// run (the overlay shows the sandbox user's files as nobody's) may write it. A find expression that
// is never true: what follows it in an -o chain still sees every path. chown runs before find ends.
const toOwner = (top: string, uid: number) => [
  '-user',
  String(uid),
  '-exec',
  need('chown'),
  '-h',
  String(lstatSync(top).uid),
  '{}',
  '+',
  '-false',
];

const unescapeAcl = (s: string) =>
  s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/** getfacl's output as blocks, each with its path (bytes, as latin1 text) and its text. */
function aclBlocks(text: string): { path: string; text: string }[] {
  const blocks: { path: string; text: string }[] = [];
  for (const block of text.split('\n\n')) {
    const m = /^# file: (.*)$/m.exec(block);
    if (m) blocks.push({ path: unescapeAcl(m[1]!), text: block.trim() });
  }
  return blocks;
}

/** True when `path` (latin1 bytes) is itself, not a link, and reached through no link. */
function leadsToItself(path: string): boolean {
  const bytes = Buffer.from(path, 'latin1');
  try {
    if (lstatSync(bytes).isSymbolicLink()) return false;
    return realpathSync(bytes, { encoding: 'buffer' }).equals(bytes);
  } catch {
    return false;
  }
}

interface Mark {
  ino: bigint;
  mode: number;
  gid: number;
}

/** `find -printf '%i %m %G %y %p\0'` output, by path (latin1). */
function marks(text: string): Map<string, Mark & { type: string }> {
  const map = new Map<string, Mark & { type: string }>();
  for (const rec of text.split('\0')) {
    const m = /^(\d+) ([0-7]+) (\d+) (\w) ([^]*)$/.exec(rec);
    if (m) map.set(m[5]!, { ino: BigInt(m[1]!), mode: parseInt(m[2]!, 8), gid: Number(m[3]), type: m[4]! });
  }
  return map;
}

function cleanup(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Opens the workspace to the sandbox user: read and write everywhere, `.git` read only (it is also
 * mounted read-only for each command). With setfacl: ACL entries, default entries on folders so
 * that what the tools create later is shared too. Without (as root only): the user's group owns
 * the files, folders are group-writable and setgid. What was there before is recorded first, and
 * `revoke()` puts it back; a set-up that fails half-way puts it back before it throws.
 */
export async function openWorkspace(
  root: RootAccess,
  account: Account,
  workspace: string,
  method: 'acl' | 'group',
): Promise<WorkspaceAccess> {
  const git = join(workspace, '.git');
  // only a .git folder gets its own read-only entries; a worktree's .git file is made read-only by
  // the mount alone
  const hasGit = (() => {
    try {
      return lstatSync(git).isDirectory();
    } catch {
      return false;
    }
  })();
  if (method === 'group' && root.viaSudo)
    throw new SandboxSetupError(
      'setfacl (package acl) is needed to share the workspace when not running as root',
    );
  const find = need('find');
  const sh = need('sh');
  const dir = mkdtempSync(join(tmpdir(), 'patchloop-access-'));
  try {
    return method === 'acl'
      ? await openAcl(root, account, workspace, git, hasGit, { find, sh, dir })
      : await openGroup(root, account, workspace, git, hasGit, { find, sh, dir });
  } catch (err) {
    cleanup(dir);
    throw err;
  }
}

interface Tools {
  find: string;
  sh: string;
  /** A 0700 folder of patchloop's own for the walks' records. */
  dir: string;
}

async function openAcl(
  root: RootAccess,
  account: Account,
  workspace: string,
  git: string,
  hasGit: boolean,
  { find, sh, dir }: Tools,
): Promise<WorkspaceAccess> {
  const setfacl = need('setfacl');
  const getfacl = need('getfacl');
  const u = account.user;
  const saved = join(dir, 'before.acl');
  // The ACLs there are now (read only, nothing written).
  await twice(`could not read the workspace's ACLs`, () =>
    toFile(root, sh, saved, find, [
      workspace,
      ...closedFolder(workspace, account.uid),
      '-o',
      '!',
      '-type',
      'l',
      '-exec',
      getfacl,
      '-s',
      '-P',
      '-p',
      '--',
      '{}',
      '+',
    ]),
  );
  const revoke = async () => {
    try {
      const linked = join(dir, 'linked.acl');
      // one walk: every path with one name loses its extended entries; one with more names is
      // only looked at
      const cleared = await toFile(root, sh, linked, find, [
        workspace,
        ...closedFolder(workspace, account.uid),
        '-o',
        ...toOwner(workspace, account.uid),
        '-o',
        '-type',
        'f',
        '-links',
        '+1',
        '-exec',
        getfacl,
        '-s',
        '-P',
        '-p',
        '--',
        '{}',
        '+',
        '-o',
        '!',
        '-type',
        'l',
        '-exec',
        setfacl,
        '-P',
        '-b',
        '--',
        '{}',
        '+',
      ]);
      const problems: string[] = [];
      if (cleared.code !== 0) problems.push(firstLine(cleared.stderr) || `exit ${cleared.code}`);
      const named = new RegExp(`^(default:)?user:${u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`, 'm');
      const withEntry = aclBlocks(readFileSync(linked, 'latin1'))
        .filter((b) => named.test(b.text) && leadsToItself(b.path))
        .map((b) => b.path);
      for (let i = 0; i < withEntry.length; i += 500) {
        const r = await asRoot(root, setfacl, ['-P', '-b', '--', ...withEntry.slice(i, i + 500)]);
        if (r.code !== 0) problems.push(firstLine(r.stderr) || `exit ${r.code}`);
      }
      const back = aclBlocks(readFileSync(saved, 'latin1')).filter((b) => leadsToItself(b.path));
      if (back.length) {
        const restore = join(dir, 'restore.acl');
        // getfacl's own escapes are kept: --restore reads them back
        writeFileSync(restore, back.map((b) => b.text).join('\n\n') + '\n\n', {
          encoding: 'latin1',
          mode: 0o600,
        });
        const r = await asRoot(root, setfacl, [`--restore=${restore}`]);
        if (r.code !== 0) problems.push(firstLine(r.stderr) || `exit ${r.code}`);
      }
      if (problems.length)
        throw new SandboxSetupError(`the workspace's ACLs were not all put back: ${problems[0]}`);
    } finally {
      cleanup(dir);
    }
  };
  const main = process.getuid?.() ?? 0;
  // patchloop's own user keeps full access to what the sandbox creates (root has it anyway)
  const forMain = main === 0 ? '' : `,d:u:${main}:rwX`;
  // Folders get the entry and a default one (so what is made in them later is shared too, and
  // readable by others as the checkout's files are: under a 0700 folder a default entry would
  // otherwise make new files 0660, which the file tools take for someone's private file; the
  // folder's own mode still keeps others out);
  // files only when shareable (SHAREABLE_FILE). -P: never follow a symbolic link of the checkout
  // to somewhere outside it; links, pipes and devices get nothing. setfacl writes nothing to a
  // path that has the entries already (a second walk, a workspace opened before).
  const grant = (top: string, perms: string, prune: string[]) =>
    asRoot(root, find, [
      top,
      ...prune,
      ...privateFolder(top),
      '-prune',
      '-o',
      '-type',
      'd',
      '-exec',
      setfacl,
      '-P',
      '-m',
      `u:${u}:${perms},d:u:${u}:${perms}${forMain},d:o::rX`,
      '{}',
      '+',
      '-o',
      ...SHAREABLE_FILE,
      '-exec',
      setfacl,
      '-P',
      '-m',
      `u:${u}:${perms}`,
      '{}',
      '+',
    ]);
  try {
    await twice(`could not open the workspace to ${u}`, () =>
      grant(workspace, 'rwX', ['-path', git, '-prune', '-o']),
    );
    if (hasGit) await twice(`could not make .git read-only to ${u}`, () => grant(git, 'rX', []));
  } catch (err) {
    await revoke().catch(() => undefined);
    throw err;
  }
  return { method: 'acl', revoke };
}

async function openGroup(
  root: RootAccess,
  account: Account,
  workspace: string,
  git: string,
  hasGit: boolean,
  { find, sh, dir }: Tools,
): Promise<WorkspaceAccess> {
  const chmod = need('chmod');
  const chown = need('chown');
  const gid = String(account.gid);
  const mark = ['-printf', '%i %m %G %y %p\\0'];
  // One walk records each path as it meets it and changes it (only where needed). A file that is
  // not shareable and a private folder are passed over (pruned), their group and mode left as
  // they are. -h and `! -type l`: a symbolic link planted in the checkout must not redirect a
  // chgrp or chmod.
  const open = (out: string) =>
    toFile(root, sh, out, find, [
      workspace,
      ...mark,
      '(',
      '-path',
      git,
      '-prune',
      '-o',
      ...NOT_SHAREABLE_FILE,
      '-prune',
      '-o',
      ...privateFolder(workspace),
      '-prune',
      '-o',
      '!',
      '-group',
      gid,
      '-exec',
      chown,
      '-h',
      `:${gid}`,
      '{}',
      '+',
      '-false',
      '-o',
      '-type',
      'd',
      '!',
      '-perm',
      '-2070',
      '-exec',
      chmod,
      'g+rwxs',
      '{}',
      '+',
      '-o',
      '!',
      '-type',
      'd',
      '!',
      '-type',
      'l',
      '!',
      '-perm',
      '-060',
      '-exec',
      chmod,
      'g+rw',
      '{}',
      '+',
      ')',
    ]);
  // .git is not the group's; nor may anyone else write there (a hook or config written into it
  // would run later as patchloop's user)
  const closeGit = (out: string) =>
    toFile(root, sh, out, find, [
      git,
      '!',
      '-type',
      'l',
      '-perm',
      '-002',
      ...mark,
      '-exec',
      chmod,
      'o-w',
      '{}',
      '+',
    ]);
  const records: string[] = [];
  const revoke = async () => {
    try {
      await restoreGroup(root, account, workspace, find, sh, dir, records);
    } finally {
      cleanup(dir);
    }
  };
  try {
    // a second attempt records what the first changed: the first record of a path wins
    await twice(`could not give the workspace to group ${account.user}`, () => {
      const out = join(dir, `open-${records.length}`);
      records.push(out);
      return open(out);
    });
    if (hasGit) {
      const out = join(dir, 'git');
      records.push(out);
      check('could not make .git read-only to others', await closeGit(out));
    }
  } catch (err) {
    await revoke().catch(() => undefined);
    throw err;
  }
  return { method: 'group', revoke };
}

async function restoreGroup(
  root: RootAccess,
  account: Account,
  workspace: string,
  find: string,
  sh: string,
  dir: string,
  records: string[],
): Promise<void> {
  const before = new Map<string, Mark>();
  for (const file of records) {
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    for (const [path, m] of marks(text)) if (!before.has(path)) before.set(path, m);
  }
  const after = join(dir, 'after');
  const walked = await toFile(root, sh, after, find, [
    workspace,
    ...closedFolder(workspace, account.uid),
    '-printf',
    '%i %m %G %y %p\\0',
    '-o',
    ...toOwner(workspace, account.uid),
    '-o',
    '-printf',
    '%i %m %G %y %p\\0',
  ]);
  const problems: string[] = [];
  if (walked.code !== 0) problems.push(firstLine(walked.stderr) || `exit ${walked.code}`);
  const top = lstatSync(workspace);
  // what each folder's group ended as (a walk meets a folder before what is in it)
  const folderGid = new Map<string, number>();
  const parentOf = (p: string) => p.slice(0, p.lastIndexOf('/')) || '/';
  for (const [path, now] of marks(readFileSync(after, 'latin1'))) {
    const was = before.get(path);
    const bytes = Buffer.from(path, 'latin1');
    let gid = now.gid;
    let mode = now.mode;
    if (was && was.ino === now.ino) {
      gid = was.gid;
      mode = (now.mode & ~GROUP_WALK_BITS) | (was.mode & GROUP_WALK_BITS);
    } else if (now.gid === account.gid) {
      // made during the run in a setgid folder of the group: its folder's group instead
      gid = folderGid.get(parentOf(path)) ?? (was ? was.gid : top.gid);
      if (now.type === 'd' && !(was && was.mode & 0o2000)) mode = now.mode & ~0o2000;
    }
    try {
      // chown first: it may clear setuid and setgid, which the chmod then puts back
      if (gid !== now.gid) lchownSync(bytes, -1, gid);
      if (now.type !== 'l' && (mode !== now.mode || gid !== now.gid)) chmodSync(bytes, mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        problems.push(`${path}: ${(err as Error).message}`);
    }
    if (now.type === 'd') folderGid.set(path, gid);
  }
  if (problems.length)
    throw new SandboxSetupError(
      `the workspace's groups and modes were not all put back (${problems.length}): ${problems[0]}`,
    );
}
