// What patchloop commits: every change git reports, less what no run may commit. The list comes
// from `git status` (no recursion into submodules or embedded repositories) and is staged as an
// explicit list of paths, so nothing is staged that was not looked at here first.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { StatusEntry } from './status.js';

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export type LeftOutReason =
  | 'inside .git'
  | 'embedded repository'
  | 'submodule'
  | 'protected path'
  | 'too large'
  | 'not a regular file'
  | 'a hard link'
  | 'untracked before the run';

export interface LeftOut {
  path: string;
  reason: LeftOutReason;
  /** the protected-paths glob, or the size in bytes */
  detail?: string;
}

export interface StagePolicy {
  /** the checkout's git dirs (device, inode): a path below one of them is under `.git`, whatever its name */
  gitDirs?: readonly { dev: bigint; ino: bigint }[];
  /** globs (picomatch, dot files included) that commands may write but no commit may carry */
  protectedPaths?: readonly string[];
  maxFileBytes?: number;
  /** untracked files present before the run (setup leftovers) */
  baselineUntracked?: readonly string[];
}

/** The protected-paths matcher, with the semantics of the file tools' workspace (tools/workspace.ts). */
export function protectedMatcher(globs: readonly string[]): (rel: string) => string | undefined {
  const matchers = globs
    .filter((g) => g.trim() !== '')
    .map((glob) => ({ glob, test: picomatch(glob.trim().replace(/^\.\//, ''), { dot: true }) }));
  return (rel) => matchers.find((m) => m.test(rel))?.glob;
}

function hasGitComponent(path: string): boolean {
  return path.split('/').some((part) => part.toLowerCase() === '.git');
}

/**
 * Splits git's status entries into paths to stage and paths left out (with the reason). Files are
 * looked at with lstat only: a FIFO or device is never opened, and its size never trusted.
 */
export async function choosePaths(
  root: string,
  entries: readonly StatusEntry[],
  policy: StagePolicy,
): Promise<{ stage: string[]; leftOut: LeftOut[] }> {
  const isProtected = protectedMatcher(policy.protectedPaths ?? []);
  const maxBytes = policy.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const baseline = new Set(policy.baselineUntracked ?? []);
  const stage: string[] = [];
  const leftOut: LeftOut[] = [];
  // A `.git` renamed by a command (`mv .git old`) keeps its inode: its files show up as
  // untracked under the new name, and are still the git dir's.
  const gitDirs = policy.gitDirs ?? [];
  const dirVerdict = new Map<string, Promise<boolean>>();
  const inGitDir = (dir: string): Promise<boolean> => {
    if (dir === '' || gitDirs.length === 0) return Promise.resolve(false);
    let v = dirVerdict.get(dir);
    if (!v) {
      const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
      v = lstat(join(root, dir), { bigint: true }).then(
        (st) => gitDirs.some((g) => g.dev === st.dev && g.ino === st.ino) || inGitDir(parent),
        () => inGitDir(parent),
      );
      dirVerdict.set(dir, v);
    }
    return v;
  };
  for (const e of entries) {
    if (e.kind === '!') continue;
    const paths = e.from !== undefined ? [e.path, e.from] : [e.path];
    for (const path of paths) {
      const out = (reason: LeftOutReason, detail?: string) =>
        leftOut.push({ path, reason, ...(detail !== undefined ? { detail } : {}) });
      const bare = path.replace(/\/$/, '');
      if (
        hasGitComponent(bare) ||
        (await inGitDir(bare.includes('/') ? bare.slice(0, bare.lastIndexOf('/')) : ''))
      ) {
        out('inside .git');
        continue;
      }
      // With --untracked-files=all git lists every untracked file; a folder it shows with a
      // trailing slash is one it would not enter: a repository of its own.
      if (path.endsWith('/')) {
        out('embedded repository');
        continue;
      }
      if (e.gitlink) {
        out('submodule');
        continue;
      }
      const glob = isProtected(path);
      if (glob !== undefined) {
        out('protected path', glob);
        continue;
      }
      if (e.kind === '?' && baseline.has(path)) {
        out('untracked before the run');
        continue;
      }
      let stat;
      try {
        stat = await lstat(join(root, path));
      } catch {
        stage.push(path); // deleted: staging records the removal
        continue;
      }
      if (stat.isSymbolicLink()) stage.push(path);
      else if (!stat.isFile()) out('not a regular file');
      else if (stat.size > maxBytes) out('too large', String(stat.size));
      // A file with other names is not the checkout's (git makes none): where the kernel lets a
      // user link files it cannot read (fs.protected_hardlinks=0), a command's link to a
      // root-only file would otherwise be read and committed by patchloop's own git.
      else if (stat.nlink > 1) out('a hard link', String(stat.nlink));
      else stage.push(path);
    }
  }
  return { stage: [...new Set(stage)], leftOut };
}

/** One line per left-out path, for the summary. */
export function describeLeftOut(leftOut: readonly LeftOut[], max = 20): string | undefined {
  const shown = leftOut.filter((l) => l.reason !== 'untracked before the run');
  if (shown.length === 0) return undefined;
  const why = (l: LeftOut) =>
    l.reason === 'too large'
      ? `larger than the limit: ${(Number(l.detail) / 1024 / 1024).toFixed(1)} MiB`
      : l.reason === 'protected path'
        ? `protected by ${l.detail}`
        : l.reason === 'a hard link'
          ? `a hard link: ${l.detail} names`
          : l.reason;
  const list = shown.slice(0, max).map((l) => `\`${l.path}\` (${why(l)})`);
  const more = shown.length > max ? `, and ${shown.length - max} more` : '';
  return `Not committed: ${list.join(', ')}${more}.`;
}
