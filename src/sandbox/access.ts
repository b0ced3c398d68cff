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
    // -P: never follow a symbolic link of the checkout to somewhere outside it
    await twice(`could not open the workspace to ${u}`, () =>
      asRoot(root, setfacl, ['-R', '-P', '-m', `u:${u}:rwX,d:u:${u}:rwX${forMain}`, '--', workspace]),
    );
    if (hasGit)
      await twice(`could not make .git read-only to ${u}`, () =>
        asRoot(root, setfacl, ['-R', '-P', '-m', `u:${u}:rX,d:u:${u}:rX`, '--', git]),
      );
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
  const walk = (args: string[]) => asRoot(root, find, [workspace, '-path', git, '-prune', '-o', ...args]);
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
