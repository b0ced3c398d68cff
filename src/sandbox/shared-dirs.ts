import { execFile } from 'node:child_process';
import { SandboxSetupError } from './error.js';

// Folders every user may write to are where one command leaves something for the next, or for a
// later run on the same (self-hosted) machine: a lock file in /run/lock, a crash report in
// /var/crash, a tool in a tool cache made 0777. They are found once per run, by their mode, in the
// system's own trees: /proc and /sys, the workspace's top folder (hidden whole already) and the
// folders the sandbox covers anyway are left out, and the walk stops SCAN_DEPTH levels below /
// (the deepest usual one, /var/lib/php/sessions, is 4) and at the first world-writable folder on
// each path, since what is below it goes with it.

export const SCAN_DEPTH = 4;
const SCAN_TIMEOUT_MS = 30_000;

export interface SharedDirs {
  /** Sticky (mode 1777 or alike): scratch folders, given a fresh tmpfs in each command. */
  scratch: string[];
  /** Not sticky: folders whose content commands use (a tool cache), bound read-only. */
  other: string[];
}

/** find's -path takes a pattern: a path's own `*`, `?`, `[` and `\` must match only themselves. */
function literal(path: string): string {
  return path.replace(/[*?[\]\\]/g, '\\$&');
}

/** The machine's world-writable folders outside `skip`; rejects (SandboxSetupError) when they cannot be listed. */
export function findSharedDirs(find: string, skip: string[]): Promise<SharedDirs> {
  const pruned = ['/proc', '/sys', ...skip].flatMap((p, i) => [...(i ? ['-o'] : []), '-path', literal(p)]);
  const args = [
    '/',
    '-mindepth',
    '1',
    '-maxdepth',
    String(SCAN_DEPTH),
    '(',
    ...pruned,
    ')',
    '-prune',
    '-o',
    '-type',
    'd',
    '-perm',
    '-0002',
    '-printf',
    '%m %p\\0',
    '-prune',
  ];
  return new Promise((resolve, reject) => {
    execFile(
      find,
      args,
      {
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' },
        encoding: 'buffer',
        timeout: SCAN_TIMEOUT_MS,
        maxBuffer: 4 << 20,
      },
      (err, stdout) => {
        // folders this user may not enter make find exit 1; what it printed still holds
        if (err && (err.killed || err.signal || typeof err.code !== 'number')) {
          reject(
            new SandboxSetupError(`the machine's world-writable folders could not be listed: ${err.message}`),
          );
          return;
        }
        const out: SharedDirs = { scratch: [], other: [] };
        for (const entry of stdout.toString('utf8').split('\0')) {
          const space = entry.indexOf(' ');
          if (space < 0) continue;
          const mode = parseInt(entry.slice(0, space), 8);
          const path = entry.slice(space + 1);
          if (!path.startsWith('/') || path === '/') continue;
          (mode & 0o1000 ? out.scratch : out.other).push(path);
        }
        resolve(out);
      },
    );
  });
}
