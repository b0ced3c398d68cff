import { join } from 'node:path';
import { IgnoreRules } from './ignore.js';
import { openDir, type Area, type CheckedDir, type OpenedFile } from './safe-fs.js';

export interface WalkEntry {
  /** Workspace-relative path. */
  rel: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  /**
   * Opens the file for reading through its checked folder's descriptor. Valid only until the walk
   * moves on from this entry.
   */
  open(): Promise<OpenedFile>;
}

export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Files under `start` (relative to the area's root), depth first in sorted order, without following
 * symlinks, skipping `.git` and what .gitignore files exclude. For folders git cannot list. Each
 * folder is read through a descriptor checked to lie in the area, so a folder swapped for a symlink
 * mid-walk is not followed out of it.
 */
export function walkFiles(area: Area, start: string, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
  return walkDir(area, start, IgnoreRules.forFolder(area.root, start), signal);
}

async function* walkDir(
  area: Area,
  at: string,
  rules: IgnoreRules,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry> {
  if (signal?.aborted) return;
  let folder: CheckedDir;
  try {
    folder = await openDir(join(area.root, at), [area]);
  } catch {
    return;
  }
  try {
    const entries = [...folder.entries].sort((a, b) => compareNames(a.name, b.name));
    for (const e of entries) {
      if (e.name.toLowerCase() === '.git') continue;
      const rel = at === '' ? e.name : `${at}/${e.name}`;
      const isDir = e.isDirectory();
      if (rules.ignores(rel, isDir)) continue;
      if (isDir) yield* walkDir(area, rel, rules.child(area.root, rel), signal);
      else
        yield {
          rel,
          type: e.isFile() ? 'file' : e.isSymbolicLink() ? 'symlink' : 'other',
          open: () => folder.openFile(e.name),
        };
    }
  } finally {
    await folder.close();
  }
}
