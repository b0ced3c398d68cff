import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { IgnoreRules } from './ignore.js';

export interface WalkEntry {
  /** Workspace-relative path. */
  rel: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
}

export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Files under `start` (workspace-relative), depth first in sorted order, without following
 * symlinks, skipping `.git` and what .gitignore files exclude. For folders git cannot list.
 */
export function walkFiles(root: string, start: string, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
  return walkDir(root, start, IgnoreRules.forFolder(root, start), signal);
}

async function* walkDir(
  root: string,
  dir: string,
  rules: IgnoreRules,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry> {
  if (signal?.aborted) return;
  let entries;
  try {
    entries = await readdir(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => compareNames(a.name, b.name));
  for (const e of entries) {
    if (e.name.toLowerCase() === '.git') continue;
    const rel = dir === '' ? e.name : `${dir}/${e.name}`;
    const isDir = e.isDirectory();
    if (rules.ignores(rel, isDir)) continue;
    if (isDir) yield* walkDir(root, rel, rules.child(root, rel), signal);
    else yield { rel, type: e.isFile() ? 'file' : e.isSymbolicLink() ? 'symlink' : 'other' };
  }
}
