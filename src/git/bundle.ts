// Git bundles for the two-stage run (CONTRACT §11): the agent stage writes the new commits as a
// bundle on the recorded base commit; the deliver stage verifies it and fetches it into its own
// private git dir, then reads the commits' trees to check them before anything is pushed.
import { posix } from 'node:path';
import type { GitCall, GitRunner } from './exec.js';

/** How to call git on one repository: the runner and the call (cwd, GIT_DIR) every command shares. */
export interface GitAt {
  runner: GitRunner;
  call: GitCall;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** Writes `base..head` to `path`, its tip under the ref `refs/patchloop-bundle/<branch>`. */
export async function createBundle(
  g: GitAt,
  o: { path: string; base: string; head: string; branch: string },
): Promise<void> {
  if (!SHA.test(o.base) || !SHA.test(o.head))
    throw new Error('createBundle: base and head must be commit ids');
  // The bundle names its tip by a ref; a scratch ref in patchloop's own git dir, removed after.
  const scratch = `refs/patchloop-bundle/${o.branch}`;
  await g.runner.text(['update-ref', scratch, o.head], g.call);
  try {
    await g.runner.text(['bundle', 'create', '--quiet', o.path, `^${o.base}`, scratch], g.call);
  } finally {
    await g.runner.text(['update-ref', '-d', scratch], g.call).catch(() => undefined);
  }
}

export interface BundleHeads {
  /** the commits the bundle needs the repository to have */
  prerequisites: string[];
  /** ref name → commit */
  refs: Map<string, string>;
}

/** The bundle's header: its prerequisites and its refs, read without touching the repository. */
export async function listBundle(g: GitAt, path: string): Promise<BundleHeads> {
  const text = await g.runner.text(['bundle', 'list-heads', path], g.call);
  const refs = new Map<string, string>();
  for (const line of text.split('\n').filter(Boolean)) {
    const [sha, ref] = line.split(' ');
    if (sha && ref && SHA.test(sha)) refs.set(ref, sha);
  }
  // `git bundle verify` names the prerequisites ("The bundle requires this ref:" then `<sha>`
  // lines); its header is read here directly, as the bundle file starts with it in plain text.
  const { readFile } = await import('node:fs/promises');
  const head = (await readFile(path)).subarray(0, 1 << 20).toString('latin1');
  const end = head.indexOf('\n\n');
  if (!head.startsWith('# v2 git bundle\n') && !head.startsWith('# v3 git bundle\n'))
    throw new Error('not a git bundle (v2 or v3)');
  if (end === -1) throw new Error('the bundle header does not end');
  const prerequisites = head
    .slice(0, end)
    .split('\n')
    .filter((l) => l.startsWith('-'))
    .map((l) => l.slice(1).split(' ')[0]!);
  return { prerequisites, refs };
}

/** `git bundle verify`: the bundle is whole and the repository has every prerequisite. Throws with git's words. */
export async function verifyBundle(g: GitAt, path: string): Promise<void> {
  const r = await g.runner.run(['bundle', 'verify', '--quiet', path], g.call);
  if (r.code !== 0)
    throw new Error(r.stderr.trim().split('\n').slice(-3).join(' ') || 'git bundle verify failed');
}

/** Fetches the bundle's `ref` into `into` (a ref of the repository). */
export async function fetchBundle(g: GitAt, path: string, ref: string, into: string): Promise<void> {
  await g.runner.text(
    ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', path, `+${ref}:${into}`],
    g.call,
  );
}

export async function hasCommit(g: GitAt, sha: string): Promise<boolean> {
  if (!SHA.test(sha)) return false;
  const r = await g.runner.run(['cat-file', '-e', `${sha}^{commit}`], g.call);
  return r.code === 0;
}

/** The commits of `base..head`, newest first; merges included. */
export async function commitsBetween(g: GitAt, base: string, head: string): Promise<string[]> {
  const text = await g.runner.text(['rev-list', `${base}..${head}`], g.call);
  return text.split('\n').filter(Boolean);
}

export interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  /** the blob's size; undefined for gitlinks */
  size?: number;
  path: string;
}

/** Every entry of a commit's tree, recursively (`ls-tree -r -l -z --full-tree`). */
export async function treeEntries(g: GitAt, commit: string): Promise<TreeEntry[]> {
  const r = await g.runner.run(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], g.call);
  if (r.code !== 0) throw new Error(`ls-tree ${commit} failed: ${r.stderr.trim()}`);
  const out: TreeEntry[] = [];
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, sha, size] = rec.slice(0, tab).split(/ +/);
    out.push({
      mode: mode!,
      type: type!,
      sha: sha!,
      ...(size && size !== '-' ? { size: Number(size) } : {}),
      path: rec.slice(tab + 1),
    });
  }
  return out;
}

/** A blob's bytes. */
export async function readBlob(g: GitAt, sha: string): Promise<Buffer> {
  const r = await g.runner.run(['cat-file', 'blob', sha], { ...g.call, maxOutputBytes: 1 << 16 });
  if (r.code !== 0) throw new Error(`cat-file ${sha} failed`);
  return r.stdout;
}

/** Whether a symbolic link at `path` with `target` stays inside the tree (relative, never above its root). */
export function linkStaysInside(path: string, target: string): boolean {
  if (target === '' || target.startsWith('/') || target.includes('\0')) return false;
  // Backslashes are separators on Windows checkouts.
  const t = target.replace(/\\/g, '/');
  if (/^[A-Za-z]:/.test(t)) return false;
  const resolved = posix.normalize(posix.join(posix.dirname(path), t));
  return resolved !== '..' && !resolved.startsWith('../') && !posix.isAbsolute(resolved);
}
