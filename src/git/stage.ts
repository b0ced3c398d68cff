// What patchloop commits: every change git reports, less what no run may commit. The list comes
// from `git status` (no recursion into submodules or embedded repositories) and is staged as an
// explicit list of paths, so nothing is staged that was not looked at here first. patchloop's git
// runs as the action's user and can read what commands could not: only what a command could have
// read (others may read it, and enter every folder on its way) is delivered, whatever its name now.
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
  | 'not readable by commands'
  | 'untracked before the run';

export interface LeftOut {
  path: string;
  reason: LeftOutReason;
  /** the protected-paths glob, the size in bytes, or the mode of a file commands could not read */
  detail?: string;
  /** 'not readable by commands': the folder on its way that others may not enter */
  privateFolder?: string;
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

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/** A folder on a path's way that stops it: private (others may not enter), or no folder any more. */
export interface FolderBlock {
  dir: string;
  kind: 'private' | 'replaced';
}

/**
 * What a command could read is what the sandbox shares (src/sandbox/access.ts): files others may
 * read, in folders others may enter; a folder others may not enter is private with everything under
 * it. The workspace root itself is given to commands whatever its mode. Returns, for a folder
 * relative to `root`, the first folder on its way (itself included) that is private or is no
 * folder any more (a link or a file in its place), or undefined; a folder that is gone blocks
 * nothing (what was in it is deleted). Each folder is looked at once (lstat, a link is not
 * followed): the cost grows with the paths being staged, never with the checkout.
 */
export function folderBlocker(root: string): (dir: string) => Promise<FolderBlock | undefined> {
  const seen = new Map<string, Promise<FolderBlock | undefined>>();
  const find = (dir: string): Promise<FolderBlock | undefined> => {
    if (dir === '') return Promise.resolve(undefined);
    let v = seen.get(dir);
    if (!v) {
      v = find(dirOf(dir)).then(async (above): Promise<FolderBlock | undefined> => {
        if (above !== undefined) return above;
        const st = await lstat(join(root, dir)).catch(() => undefined);
        if (!st) return undefined;
        if (!st.isDirectory()) return { dir, kind: 'replaced' };
        return (st.mode & 0o001) === 0 ? { dir, kind: 'private' } : undefined;
      });
      seen.set(dir, v);
    }
    return v;
  };
  return find;
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
  const blockOf = folderBlocker(root);
  for (const e of entries) {
    if (e.kind === '!') continue;
    const paths = e.from !== undefined ? [e.path, e.from] : [e.path];
    for (const path of paths) {
      const out = (reason: LeftOutReason, detail?: string, privateFolder?: string) =>
        leftOut.push({
          path,
          reason,
          ...(detail !== undefined ? { detail } : {}),
          ...(privateFolder !== undefined ? { privateFolder } : {}),
        });
      const bare = path.replace(/\/$/, '');
      if (hasGitComponent(bare) || (await inGitDir(dirOf(bare)))) {
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
      const block = await blockOf(dirOf(path));
      // A tracked folder replaced by a link or a file: git lists the entry that replaced it on its
      // own, and staging that entry takes the folder's files out of the index; a path through it
      // would stop `git add` altogether ("beyond a symbolic link").
      if (block?.kind === 'replaced') continue;
      let stat;
      try {
        stat = await lstat(join(root, path));
      } catch {
        stage.push(path); // deleted: staging records the removal
        continue;
      }
      // Delivered only if a command could have read it, whatever it is called now: a rename needs
      // only the folder, so a private file or folder renamed by a command keeps its mode and is
      // known by it. A link is staged as its text, which only the folders guard.
      if (block !== undefined) out('not readable by commands', undefined, block.dir);
      else if (stat.isSymbolicLink()) stage.push(path);
      else if (!stat.isFile()) out('not a regular file');
      else if (stat.size > maxBytes) out('too large', String(stat.size));
      // A file with other names is not the checkout's (git makes none): where the kernel lets a
      // user link files it cannot read (fs.protected_hardlinks=0), a command's link to a
      // root-only file would otherwise be read and committed by patchloop's own git.
      else if (stat.nlink > 1) out('a hard link', String(stat.nlink));
      else if ((stat.mode & 0o004) === 0)
        out('not readable by commands', (stat.mode & 0o777).toString(8).padStart(4, '0'));
      else stage.push(path);
    }
  }
  return { stage: [...new Set(stage)], leftOut };
}

/**
 * A name as inline code that nothing in it can end: a fence longer than any run of backticks in
 * it, and control characters (a newline, say) written as escapes, so a file named like markdown,
 * HTML or a hidden comment is shown as the name it is.
 */
export function codeName(name: string): string {
  const shown = name.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what is escaped here
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
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
          : l.reason === 'not readable by commands'
            ? l.privateFolder !== undefined
              ? `not readable by commands: the folder ${codeName(l.privateFolder)} is private`
              : `not readable by commands: mode ${l.detail}`
            : l.reason;
  const list = shown.slice(0, max).map((l) => `${codeName(l.path)} (${why(l)})`);
  const more = shown.length > max ? `, and ${shown.length - max} more` : '';
  return `Not committed: ${list.join(', ')}${more}.`;
}
