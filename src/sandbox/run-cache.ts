import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxSetupError } from './error.js';
import { asRoot, firstLine, systemBin, type Account, type RootAccess } from './user.js';

// The run's cache folder: the sandbox user's own, bound writable at every command's HOME/.cache,
// so what a build caches there (Go's build cache, pip's wheels) is there for the next command of
// the same run, and gone with the run. Its parent is patchloop's own (0700): nobody else on the
// machine enters it, and commands see only the folder itself.

export interface RunCache {
  /** The folder commands see as HOME/.cache. */
  dir: string;
  remove(): Promise<void>;
}

/** Where the runs' cache folders are made: a system scratch folder apart from patchloop's own state in TMPDIR. */
export const RUN_CACHE_BASE = '/var/tmp';

export async function makeRunCache(root: RootAccess, account: Account, chown: string): Promise<RunCache> {
  const parent = mkdtempSync(join(RUN_CACHE_BASE, 'patchloop-cache-'));
  const dir = join(parent, 'cache');
  const remove = async () => {
    const rm = systemBin('rm');
    // the command's files are the sandbox user's: only root removes them all
    if (rm) await asRoot(root, rm, ['-rf', '--', parent]);
    rmSync(parent, { recursive: true, force: true });
  };
  mkdirSync(dir, { mode: 0o700 });
  const r = await asRoot(root, chown, [`${account.uid}:${account.gid}`, dir]);
  if (r.code !== 0) {
    await remove();
    throw new SandboxSetupError(
      `the run's cache folder could not be given to ${account.user}: ${firstLine(r.stderr) || `exit ${r.code}`}`,
    );
  }
  return { dir, remove };
}
