import { simpleGit, type SimpleGit } from 'simple-git';

// Local git for `patchloop run`: find the checkout, refuse a dirty tree, and commit the agent's
// work on a new branch. Nothing here pushes or knows about GitHub.

export interface Checkout {
  root: string;
  /** The commit the run starts from. */
  head: string;
  /** The branch checked out, or undefined on a detached HEAD. */
  branch: string | undefined;
  /** Paths with uncommitted changes, and untracked files that are not ignored. */
  dirty: string[];
}

export interface ChangedFile {
  path: string;
  added: number;
  removed: number;
  /** git counts no lines for binary files. */
  binary?: boolean;
}

export interface LocalCommit {
  branch: string;
  sha: string;
  files: ChangedFile[];
}

function git(root: string): SimpleGit {
  return simpleGit({ baseDir: root });
}

/**
 * The checkout that holds `dir`, with its HEAD, branch and uncommitted paths; throws an Error
 * that says what is wrong. Two git processes, side by side: this is on the way to the first
 * model request.
 */
export async function openCheckout(dir: string): Promise<Checkout> {
  const g = git(dir);
  const [top, status] = await Promise.all([
    g.revparse(['--show-toplevel']).catch(() => undefined),
    g.raw(['status', '--porcelain=v2', '--branch', '-z']).catch(() => undefined),
  ]);
  if (top === undefined || status === undefined) {
    throw new Error(`${dir} is not inside a git checkout (run \`git init\` and commit first)`);
  }
  const root = top.trim();
  const parsed = parseStatus(status);
  if (!parsed.head)
    throw new Error(`${root} has no commits yet; commit once so the changes can go on a branch`);
  return { root, head: parsed.head, branch: parsed.branch, dirty: parsed.dirty };
}

/** Reads `git status --porcelain=v2 --branch -z`: the HEAD commit, the branch, the changed paths. */
export function parseStatus(out: string): { head?: string; branch?: string; dirty: string[] } {
  const result: { head?: string; branch?: string; dirty: string[] } = { dirty: [] };
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.startsWith('# branch.oid ')) {
      const oid = r.slice('# branch.oid '.length);
      if (oid !== '(initial)') result.head = oid;
    } else if (r.startsWith('# branch.head ')) {
      const name = r.slice('# branch.head '.length);
      if (name !== '(detached)') result.branch = name;
    } else if (r.startsWith('1 ')) result.dirty.push(field(r, 8));
    else if (r.startsWith('2 ')) {
      result.dirty.push(field(r, 9));
      i++; // a rename or copy is followed by its original path
    } else if (r.startsWith('u ')) result.dirty.push(field(r, 10));
    else if (r.startsWith('? ')) result.dirty.push(r.slice(2));
  }
  return result;
}

/** The rest of a space-separated record after its first `n` fields (a path may hold spaces). */
function field(record: string, n: number): string {
  let at = 0;
  for (let k = 0; k < n; k++) at = record.indexOf(' ', at) + 1;
  return record.slice(at);
}

/** Paths with uncommitted changes or untracked, not ignored files. */
export async function dirtyPaths(root: string): Promise<string[]> {
  return parseStatus(await git(root).raw(['status', '--porcelain=v2', '-z'])).dirty;
}

export async function branchExists(root: string, name: string): Promise<boolean> {
  const out = await git(root).raw(['branch', '--list', name]);
  return out.trim() !== '';
}

export async function isValidBranchName(root: string, name: string): Promise<boolean> {
  try {
    await git(root).raw(['check-ref-format', '--branch', name]);
    return true;
  } catch {
    return false;
  }
}

/** `patchloop/<slug of the task>-<MMDD-HHMMSS>` (UTC). */
export function defaultBranchName(task: string, date: Date, prefix = 'patchloop/'): string {
  const words = task
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  // Up to 40 characters, cut at a word boundary when there is one.
  const cut = words.length <= 40 ? words : words.slice(0, 41).replace(/-[^-]*$/, '') || words.slice(0, 40);
  const slug = cut || 'task';
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
  return `${prefix}${slug}-${stamp}`;
}

/** `name`, or `name-2`, `name-3`, ... whichever does not exist yet. */
export async function unusedBranchName(root: string, name: string): Promise<string> {
  let candidate = name;
  for (let n = 2; await branchExists(root, candidate); n++) candidate = `${name}-${n}`;
  return candidate;
}

export interface CommitOptions {
  branch: string;
  message: string;
  /** Used only when git has no user.name / user.email configured. */
  fallbackAuthor?: { name: string; email: string };
}

/**
 * When the work tree has changes: creates `branch` at HEAD (carrying the changes), stages
 * everything not ignored and commits it. Returns undefined when there was nothing to commit.
 */
export async function commitToNewBranch(
  root: string,
  options: CommitOptions,
): Promise<LocalCommit | undefined> {
  const g = git(root);
  if ((await g.status()).isClean()) return undefined;
  await g.checkoutLocalBranch(options.branch);
  await g.add(['-A']);
  const files = parseNumstat(await g.raw(['diff', '--cached', '--numstat', '--no-renames', '-z']));
  const author = options.fallbackAuthor;
  const needsAuthor =
    author && !((await g.getConfig('user.email')).value && (await g.getConfig('user.name')).value);
  const committer = needsAuthor
    ? simpleGit({ baseDir: root, config: [`user.name=${author.name}`, `user.email=${author.email}`] })
    : g;
  await committer.commit(options.message);
  const sha = (await g.revparse(['HEAD'])).trim();
  return { branch: options.branch, sha, files };
}

/** Parses `git diff --numstat -z` (binary files show `-` counts). */
export function parseNumstat(out: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  for (const record of out.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(record.replace(/^\n/, ''));
    if (!m) continue;
    const binary = m[1] === '-' || m[2] === '-';
    const file: ChangedFile = {
      path: m[3]!,
      added: binary ? 0 : Number(m[1]),
      removed: binary ? 0 : Number(m[2]),
    };
    if (binary) file.binary = true;
    files.push(file);
  }
  return files;
}
