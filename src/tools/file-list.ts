import { splitNul, type Git } from '../git/index.js';
import { workspaceChanges } from '../protocol/execute.js';
import type { Area } from './safe-fs.js';
import { compareNames, walkFiles } from './walk.js';

export interface FileList {
  /** Workspace-relative paths, sorted. */
  files: string[];
  source: 'git' | 'walk';
}

/**
 * What git says about the checkout's tree, from one pair of `git ls-files` (run side by side):
 * the files it would show (tracked, or untracked and not ignored, less those deleted from the
 * working tree) and every folder holding one. Kept per tools' git handle until a tool that may
 * change the tree runs (workspaceChanges()); a listing session then starts no git process per call.
 */
interface TreeSnapshot {
  /** sorted */
  files: string[];
  listed: Set<string>;
  /** Folders with a listed file somewhere under them: not ignored. */
  folders: Set<string>;
  /** check-ignore's answers for paths the listing cannot decide (an empty or all-ignored folder). */
  checked: Map<string, boolean>;
}

const snapshots = new WeakMap<Git, { generation: number; snapshot: Promise<TreeSnapshot | undefined> }>();

async function takeSnapshot(git: Git, signal?: AbortSignal): Promise<TreeSnapshot | undefined> {
  if (!(await git.isWorkTree())) return undefined;
  const [listed, deleted] = await Promise.all([
    git.run(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { signal }),
    git.run(['ls-files', '-z', '--deleted'], { signal }),
  ]);
  if (listed.code !== 0 || deleted.code !== 0) return undefined;
  const gone = new Set(splitNul(deleted.stdout));
  const files = [...new Set(splitNul(listed.stdout))].filter((f) => !gone.has(f)).sort(compareNames);
  const folders = new Set<string>();
  for (const f of files) {
    for (let i = f.lastIndexOf('/'); i > 0; i = f.lastIndexOf('/', i - 1)) {
      const folder = f.slice(0, i);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return { files, listed: new Set(files), folders, checked: new Map() };
}

/** The checkout's snapshot (taken afresh after a change); undefined outside a work tree or when git fails. */
function snapshotOf(git: Git, signal?: AbortSignal): Promise<TreeSnapshot | undefined> {
  const generation = workspaceChanges();
  const cached = snapshots.get(git);
  if (cached && cached.generation === generation) return cached.snapshot;
  const snapshot = takeSnapshot(git, signal).catch(() => undefined);
  const entry = { generation, snapshot };
  snapshots.set(git, entry);
  // A failed or aborted listing is not kept: the next call asks again.
  void snapshot.then((s) => {
    if (!s && snapshots.get(git) === entry) snapshots.delete(git);
  });
  return snapshot;
}

/**
 * Which of `paths` (workspace-relative; `folder` says which are folders) .gitignore excludes, as
 * `git check-ignore` answers: a file is ignored when git does not list it, a folder is not when it
 * holds a listed file, and the folders left (empty ones, or ones whose files are all ignored) are
 * asked of check-ignore once per snapshot. Undefined outside a work tree or when git fails.
 */
export async function ignoredByGit(
  git: Git,
  paths: readonly { rel: string; isDir: boolean }[],
  signal?: AbortSignal,
): Promise<Set<string> | undefined> {
  const snap = await snapshotOf(git, signal);
  if (!snap) return undefined;
  const ignored = new Set<string>();
  const ask: string[] = [];
  for (const { rel, isDir } of paths) {
    if (!isDir) {
      if (!snap.listed.has(rel)) ignored.add(rel);
    } else if (!snap.folders.has(rel)) {
      const known = snap.checked.get(rel);
      if (known === undefined) ask.push(rel);
      else if (known) ignored.add(rel);
    }
  }
  if (ask.length > 0) {
    const r = await git.run(['check-ignore', '-z', '--stdin'], {
      signal,
      input: ask.map((p) => `${p}\0`).join(''),
    });
    if (r.code !== 0 && r.code !== 1) return undefined;
    const yes = new Set(splitNul(r.stdout));
    for (const rel of ask) {
      snap.checked.set(rel, yes.has(rel));
      if (yes.has(rel)) ignored.add(rel);
    }
  }
  return ignored;
}

/**
 * Every file under `base` (workspace-relative, '' for the root) that .gitignore does not exclude:
 * from git's index plus untracked files in a checkout (less files deleted from the working tree),
 * from a walk of the folder elsewhere, or when the folder asked for is itself ignored (the walk then
 * applies only the .gitignore rules below it).
 */
export async function listFiles(area: Area, git: Git, base: string, signal?: AbortSignal): Promise<FileList> {
  const snap = await snapshotOf(git, signal);
  if (snap) {
    const baseIgnored =
      base !== '' && (await ignoredByGit(git, [{ rel: base, isDir: true }], signal))?.has(base) !== false;
    if (!baseIgnored) {
      const prefix = `${base}/`;
      const files = base === '' ? snap.files : snap.files.filter((f) => f.startsWith(prefix));
      return { files: [...files], source: 'git' };
    }
  }
  const files: string[] = [];
  for await (const entry of walkFiles(area, base, signal)) files.push(entry.rel);
  return { files: files.sort(compareNames), source: 'walk' };
}
