import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxSetupError } from './error.js';
import { makeState, removeStaleState } from './overlay.js';
import { asRoot, firstLine, systemBin, type Account, type RootAccess } from './user.js';

// The run's cache folder: the sandbox user's own, bound writable at every command's HOME/.cache,
// so what a build caches there (Go's build cache, pip's wheels) is there for the next command of
// the same run, and gone with the run. Its parent is patchloop's own (0700): nobody else on the
// machine enters it, and commands see only the folder itself.
//
// Beside it, `home/`: the upper layers of the home's cache folders (view.ts's WRITABLE_HOME_DIRS:
// `~/.cargo`, `~/.m2`, `~/.gradle`, `go/pkg/mod`), one per folder, made by each command's view
// (perl/view.pl) as an overlay over the runner's own folder: what a build writes there (cargo's
// git checkouts, `mvn install`'s artifact) is seen by the later commands of the run, and the
// runner's folder is never written. Commands never see `home/` itself.
//
// The parent records its owner (pid and start, as the overlay's state folders do): a set-up
// removes the folders of runs whose process is gone (killed, crashed), before making its own.

export interface RunCache {
  /** The folder commands see as HOME/.cache. */
  dir: string;
  /** The folder of the home's writable layers (`<i>/up` and the commands' work folders). */
  layers: string;
  remove(): Promise<void>;
}

/** Where the runs' cache folders are made: a system scratch folder apart from patchloop's own state in TMPDIR. */
export const RUN_CACHE_BASE = '/var/tmp';

export const RUN_CACHE_PREFIX = 'patchloop-cache-';

export async function makeRunCache(root: RootAccess, account: Account, chown: string): Promise<RunCache> {
  const rm = systemBin('rm');
  // what killed or crashed runs left (their layers can be large): gone before a new one is made
  if (rm) await removeStaleState(root, rm, RUN_CACHE_BASE, RUN_CACHE_PREFIX).catch(() => []);
  const parent = makeState(RUN_CACHE_PREFIX, RUN_CACHE_BASE);
  const dir = join(parent, 'cache');
  const layers = join(parent, 'home');
  const remove = async () => {
    // the command's files are the sandbox user's, the layers' work folders root's: only root removes them all
    if (rm) await asRoot(root, rm, ['-rf', '--', parent]);
    rmSync(parent, { recursive: true, force: true });
  };
  mkdirSync(dir, { mode: 0o700 });
  mkdirSync(layers, { mode: 0o700 });
  const r = await asRoot(root, chown, [`${account.uid}:${account.gid}`, dir]);
  if (r.code !== 0) {
    await remove();
    throw new SandboxSetupError(
      `the run's cache folder could not be given to ${account.user}: ${firstLine(r.stderr) || `exit ${r.code}`}`,
    );
  }
  return { dir, layers, remove };
}
