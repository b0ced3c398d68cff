import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxSetupError } from './error.js';
import { asRoot, firstLine, systemBin, type Account, type RootAccess, type RunResult } from './user.js';

// How the sandbox user gets write access to the workspace, and nothing else: every change is made
// inside the workspace. Folders above it need no opening at all, because each command sees them
// through its own mount namespace, where they are fresh root-owned directories (launch.ts).

export type AccessMethod = 'acl' | 'group';

export interface WorkspaceAccess {
  method: AccessMethod;
  /** Takes back what was granted and restores the workspace root's owner group and mode. */
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

/**
 * Opens the workspace to the sandbox user: read and write everywhere, `.git` read only (it is also
 * mounted read-only for each command). With setfacl: ACL entries, default entries on folders so
 * that what the tools create later is shared too. Without (as root only): the user's group owns
 * the files, folders are group-writable and setgid.
 */
export async function openWorkspace(
  root: RootAccess,
  account: Account,
  workspace: string,
  method: AccessMethod,
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
  if (method === 'acl') {
    const setfacl = need('setfacl');
    const u = account.user;
    const main = process.getuid?.() ?? 0;
    // patchloop's own user keeps full access to what the sandbox creates (root has it anyway)
    const forMain = main === 0 ? '' : `,d:u:${main}:rwX`;
    // Folders get the entry and a default one (so what is made in them later is shared too, and
    // readable by others as the checkout's files are: under a 0700 folder a default entry would
    // otherwise make new files 0660, which the file tools take for someone's private file; the
    // folder's own mode still keeps others out);
    // files only when shareable (SHAREABLE_FILE). -P: never follow a symbolic link of the checkout
    // to somewhere outside it; links, pipes and devices get nothing.
    const find = need('find');
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
    await twice(`could not open the workspace to ${u}`, () =>
      grant(workspace, 'rwX', ['-path', git, '-prune', '-o']),
    );
    if (hasGit) await twice(`could not make .git read-only to ${u}`, () => grant(git, 'rX', []));
    return {
      method,
      async revoke() {
        await asRoot(root, setfacl, ['-R', '-P', '-x', `u:${u},d:u:${u}`, '--', workspace]);
      },
    };
  }

  if (root.viaSudo)
    throw new SandboxSetupError(
      'setfacl (package acl) is needed to share the workspace when not running as root',
    );
  const find = need('find');
  const chmod = need('chmod');
  const chown = need('chown');
  const before = lstatSync(workspace);
  const gid = String(account.gid);
  // a file that is not shareable and a private folder are passed over (pruned), their group and
  // mode left as they are
  const walk = (args: string[]) =>
    asRoot(root, find, [
      workspace,
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
      ...args,
    ]);
  // -h and `! -type l`: a symbolic link planted in the checkout must not redirect a chgrp or chmod
  await twice(`could not give the workspace to group ${account.user}`, () =>
    walk(['-exec', chown, '-h', `:${gid}`, '{}', '+']),
  );
  await twice('could not make the workspace group-writable', () =>
    walk([
      '-type',
      'd',
      '-exec',
      chmod,
      'g+rwxs',
      '{}',
      '+',
      '-o',
      '!',
      '-type',
      'l',
      '-exec',
      chmod,
      'g+rw',
      '{}',
      '+',
    ]),
  );
  // .git is not the group's; nor may anyone else write there (a hook or config written into it
  // would run later as patchloop's user)
  if (hasGit) check('could not make .git read-only to others', await asRoot(root, chmod, ['-R', 'o-w', git]));
  return {
    method,
    async revoke() {
      await asRoot(root, chown, ['-h', `:${before.gid}`, '--', workspace]);
      // five digits: GNU chmod keeps a folder's setgid bit on a shorter numeric mode
      await asRoot(root, chmod, [(before.mode & 0o7777).toString(8).padStart(5, '0'), '--', workspace]);
    },
  };
}
