// A git directory of patchloop's own, outside the workspace, taken from the checkout's before the
// first command runs. Every later git call uses it (GIT_DIR) with the workspace as its work tree
// (GIT_WORK_TREE), so nothing a command leaves under the workspace's `.git` — config, hooks,
// `commondir`, info/attributes, a whole replacement `.git` — is ever read by patchloop's git.
//
// What it holds: a config written here (format, object format, origin's URL, the identity and
// nothing else), HEAD, the refs, a copy of the index, `shallow` and info/exclude, and the objects
// as hard links to the checkout's files. Hard links pin the files themselves: a `.git` renamed
// away and replaced later changes nothing about what our git reads. Where the private dir is on
// another file system the objects are reached through `objects/info/alternates` instead, and the
// recorded identity (device, inode) of the checkout's git dir is checked before every use.
import { constants, type BigIntStats } from 'node:fs';
import {
  copyFile,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface FileId {
  dev: bigint;
  ino: bigint;
}

/** The checkout's own git directory, as found before the first command. */
export interface RealGitDir {
  workspace: string;
  /** HEAD, index: `<workspace>/.git`, or a linked worktree's dir */
  gitDir: string;
  /** config, refs, objects: the same as gitDir unless a `commondir` file says otherwise */
  commonDir: string;
  objectsDir: string;
  ids: { gitDir: FileId; commonDir: FileId; objectsDir: FileId };
}

export interface PrivateConfig {
  objectFormat?: string;
  /**
   * What `git init` / `clone` found out about the file system (core.filemode, core.symlinks,
   * core.ignorecase, core.precomposeunicode): plain booleans that run nothing, kept so that
   * status sees the work tree as the checkout's own git did. Other values are dropped.
   */
  fileSystem?: Record<string, string>;
  originUrl?: string;
  identity: { name: string; email: string };
}

export interface PrivateGitDir {
  /** the folder (mode 0700) holding `git/` */
  root: string;
  gitDir: string;
  real: RealGitDir;
  /** object files linked from the checkout (relative to objects/): nothing to write back */
  linked: Set<string>;
  objects: 'linked' | 'alternates';
  /** the checkout's config as it was, to put back what a command changed in it */
  configSnapshot: string;
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function idOf(path: string): Promise<{ id: FileId; stat: BigIntStats }> {
  const stat = await lstat(path, { bigint: true });
  return { id: { dev: stat.dev, ino: stat.ino }, stat };
}

async function realDir(path: string, what: string): Promise<FileId> {
  const { id, stat } = await idOf(path);
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new Error(
      `${what} ${path} is not a plain directory (a symbolic link or a file); refusing to use it`,
    );
  }
  return id;
}

/** Reads a regular file, refusing symbolic links, FIFOs and devices; undefined when absent. */
async function readRegular(path: string): Promise<Buffer | undefined> {
  let stat;
  try {
    stat = await lstat(path);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) throw new Error(`${path} is not a regular file; refusing to read it`);
  return readFile(path);
}

/**
 * Checks the git dir git reported for `workspace`: a plain directory (no symbolic link), either
 * `<workspace>/.git` or outside the workspace, with a `commondir` that does not point into the
 * workspace. A gitfile (`.git` as a file saying `gitdir: …`) is accepted only when it leads out
 * of the workspace, as a linked worktree's does.
 */
export async function inspectGitDir(workspace: string, reported: string): Promise<RealGitDir> {
  const ws = resolve(workspace);
  const gitDir = resolve(ws, reported);
  const dotGit = join(ws, '.git');
  // Only `<workspace>/.git` itself may lie in the workspace: any other git dir or common dir there
  // is one a command could have written.
  const refused = (p: string) => within(ws, p) && p !== dotGit;
  if (refused(gitDir)) {
    throw new Error(`The git directory ${gitDir} lies in the workspace outside .git; refusing to use it`);
  }
  const gitDirId = await realDir(gitDir, 'The git directory');
  let commonDir = gitDir;
  const commondirFile = await readRegular(join(gitDir, 'commondir'));
  if (commondirFile !== undefined) {
    commonDir = resolve(gitDir, commondirFile.toString('utf8').trim());
    if (refused(commonDir)) {
      throw new Error(`${gitDir}/commondir points to ${commonDir}, inside the workspace; refusing to use it`);
    }
  }
  const commonDirId = commonDir === gitDir ? gitDirId : await realDir(commonDir, 'The common git directory');
  const objectsDir = join(commonDir, 'objects');
  const objectsId = await realDir(objectsDir, 'The object directory');
  return {
    workspace: ws,
    gitDir,
    commonDir,
    objectsDir,
    ids: { gitDir: gitDirId, commonDir: commonDirId, objectsDir: objectsId },
  };
}

function sameId(a: FileId, b: FileId): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Throws unless the checkout's git dir is still the directory recorded before the first command. */
export async function verifyRealGitDir(real: RealGitDir): Promise<void> {
  const checks: [string, FileId][] = [
    [real.gitDir, real.ids.gitDir],
    [real.commonDir, real.ids.commonDir],
    [real.objectsDir, real.ids.objectsDir],
  ];
  for (const [path, id] of checks) {
    const now = await idOf(path).catch(() => undefined);
    if (!now || now.stat.isSymbolicLink() || !sameId(now.id, id)) {
      throw new Error(
        `${path} was replaced during the run (it is not the directory patchloop recorded); refusing to touch it`,
      );
    }
  }
}

/** A git config value, quoted: `"`, `\` and control characters escaped. */
function quoteValue(value: string): string {
  if (/[\0]/.test(value)) throw new Error('A git config value cannot hold a NUL character');
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
  return `"${escaped}"`;
}

const FILE_SYSTEM_KEYS = new Set(['filemode', 'symlinks', 'ignorecase', 'precomposeunicode']);

function configText(c: PrivateConfig): string {
  const lines = ['[core]'];
  const objectFormat = c.objectFormat && c.objectFormat !== 'sha1' ? c.objectFormat : undefined;
  lines.push(
    `\trepositoryformatversion = ${objectFormat ? 1 : 0}`,
    '\tbare = false',
    '\tlogallrefupdates = false',
  );
  for (const [key, value] of Object.entries(c.fileSystem ?? {})) {
    if (FILE_SYSTEM_KEYS.has(key) && /^(true|false)$/i.test(value))
      lines.push(`\t${key} = ${value.toLowerCase()}`);
  }
  if (objectFormat) {
    if (!/^[a-z0-9]+$/.test(objectFormat)) throw new Error(`Unknown object format ${objectFormat}`);
    lines.push('[extensions]', `\tobjectformat = ${objectFormat}`);
  }
  if (c.originUrl) {
    lines.push('[remote "origin"]', `\turl = ${quoteValue(c.originUrl)}`);
    lines.push('\tfetch = +refs/heads/*:refs/remotes/origin/*');
  }
  lines.push(
    '[user]',
    `\tname = ${quoteValue(c.identity.name)}`,
    `\temail = ${quoteValue(c.identity.email)}`,
  );
  return `${lines.join('\n')}\n`;
}

const HEX_DIR = /^[0-9a-f]{2}$/;

async function* objectFiles(objectsDir: string): AsyncGenerator<string> {
  let top;
  try {
    top = await readdir(objectsDir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const d of top) {
    if (!d.isDirectory() || !(HEX_DIR.test(d.name) || d.name === 'pack')) continue;
    for (const f of await readdir(join(objectsDir, d.name), { withFileTypes: true })) {
      // Temporary files of a git still writing are skipped; only finished objects and packs.
      if (!f.isFile() || f.name.startsWith('tmp_') || f.name.endsWith('.lock')) continue;
      yield `${d.name}/${f.name}`;
    }
  }
}

async function inBatches<T>(items: AsyncIterable<T>, size: number, f: (item: T) => Promise<void>) {
  let batch: Promise<void>[] = [];
  for await (const item of items) {
    batch.push(f(item));
    if (batch.length >= size) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

function errCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

/** Alternates of the checkout's object store, made absolute; refused when they lead into the workspace. */
async function realAlternates(real: RealGitDir): Promise<string[]> {
  const text = await readRegular(join(real.objectsDir, 'info', 'alternates'));
  if (!text) return [];
  const out: string[] = [];
  for (const line of text.toString('utf8').split('\n')) {
    const entry = line.trim();
    if (!entry || entry.startsWith('#')) continue;
    const abs = resolve(real.objectsDir, entry);
    if (within(real.workspace, abs)) {
      throw new Error(`The checkout borrows objects from ${abs}, inside the workspace; refusing to use it`);
    }
    out.push(abs);
  }
  return out;
}

async function copyRefs(from: string, to: string, rel = ''): Promise<void> {
  let entries;
  try {
    entries = await readdir(join(from, rel), { withFileTypes: true });
  } catch {
    return;
  }
  await mkdir(join(to, rel), { recursive: true });
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) await copyRefs(from, to, r);
    else if (e.isFile() && !e.name.endsWith('.lock')) await copyFile(join(from, r), join(to, r));
  }
}

/**
 * Makes the private git dir in a new folder under `parent` (mode 0700). Call it before the first
 * command runs: what it copies is trusted because no command could have written it yet.
 */
export async function createPrivateGitDir(
  real: RealGitDir,
  parent: string,
  config: PrivateConfig,
): Promise<PrivateGitDir> {
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const root = await mkdtemp(join(parent, 'patchloop-git-'));
  const gitDir = join(root, 'git');
  const objects = join(gitDir, 'objects');
  await mkdir(join(objects, 'info'), { recursive: true, mode: 0o700 });
  await mkdir(join(objects, 'pack'), { recursive: true });
  await mkdir(join(gitDir, 'info'), { recursive: true });
  const [head, index, shallow, exclude, packedRefs, configSnapshot] = await Promise.all([
    readRegular(join(real.gitDir, 'HEAD')),
    readRegular(join(real.gitDir, 'index')),
    readRegular(join(real.commonDir, 'shallow')),
    readRegular(join(real.commonDir, 'info', 'exclude')),
    readRegular(join(real.commonDir, 'packed-refs')),
    readRegular(join(real.commonDir, 'config')),
  ]);
  const headText = head?.toString('utf8') ?? '';
  if (!/^(ref: refs\/[^\0\n]+|[0-9a-f]{40,64})\n?$/.test(headText)) {
    throw new Error(`${real.gitDir}/HEAD does not name a branch or a commit`);
  }
  await Promise.all([
    writeFile(join(gitDir, 'config'), configText(config)),
    writeFile(join(gitDir, 'HEAD'), headText.endsWith('\n') ? headText : `${headText}\n`),
    index && copyIndex(join(real.gitDir, 'index'), join(gitDir, 'index'), index, writeFile),
    shallow && writeFile(join(gitDir, 'shallow'), shallow),
    exclude && writeFile(join(gitDir, 'info', 'exclude'), exclude),
    packedRefs && writeFile(join(gitDir, 'packed-refs'), packedRefs),
    copyRefs(join(real.commonDir, 'refs'), join(gitDir, 'refs')),
  ]);
  // git wants these to exist even when empty
  await mkdir(join(gitDir, 'refs', 'heads'), { recursive: true });
  await mkdir(join(gitDir, 'refs', 'tags'), { recursive: true });

  const linked = new Set<string>();
  let mode = 'linked' as 'linked' | 'alternates';
  // One mkdir per fan-out folder, awaited by every object in it: a link before it is done would
  // fail with ENOENT, which reads as a file gone and would leave the object out.
  const made = new Map<string, Promise<unknown>>();
  await inBatches(objectFiles(real.objectsDir), 64, async (rel) => {
    if (mode !== 'linked') return;
    const dir = rel.slice(0, rel.indexOf('/'));
    let ready = made.get(dir);
    if (!ready) {
      ready = mkdir(join(objects, dir), { recursive: true });
      made.set(dir, ready);
    }
    await ready;
    try {
      await link(join(real.objectsDir, rel), join(objects, rel));
      linked.add(rel);
    } catch (err) {
      const code = errCode(err);
      if (code === 'EXDEV' || code === 'EPERM' || code === 'EMLINK' || code === 'EACCES') mode = 'alternates';
      else if (code !== 'EEXIST' && code !== 'ENOENT') throw err;
    }
  });
  const alternates = await realAlternates(real);
  if (mode === 'alternates') alternates.unshift(real.objectsDir);
  if (alternates.length > 0)
    await writeFile(join(objects, 'info', 'alternates'), `${alternates.join('\n')}\n`);
  return {
    root,
    gitDir,
    real,
    linked,
    objects: mode,
    configSnapshot: configSnapshot?.toString('utf8') ?? '',
  };
}

/** Writes `content` to `path` through `<path>.lock` and a rename, as git itself updates refs. */
async function replaceFile(path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const lock = `${path}.lock`;
  await writeFile(lock, content, { flag: 'wx' });
  try {
    await rename(lock, path);
  } catch (err) {
    await rm(lock, { force: true });
    throw err;
  }
}

function checkRefName(ref: string): void {
  // Names come from our own branch logic (checked with check-ref-format); this guards the file path.
  if (
    !/^refs\/[A-Za-z0-9._\-/]+$/.test(ref) ||
    ref.split('/').some((p) => p === '' || p === '..' || p === '.')
  ) {
    throw new Error(`Refusing to write the ref ${JSON.stringify(ref)}`);
  }
}

export interface WriteBack {
  /** refs to set in the checkout, e.g. refs/heads/<branch> → sha */
  refs: Record<string, string>;
  /** the branch HEAD points to afterwards (refs/heads/<name>), or a sha for a detached HEAD */
  head: string;
}

/**
 * Puts the private dir's work into the checkout with plain file operations (no git reads the
 * checkout's config): new objects, the refs, HEAD and the index. The checkout is then on the new
 * commit, as if git had made it there.
 */
export async function writeBack(priv: PrivateGitDir, w: WriteBack): Promise<void> {
  const real = priv.real;
  await verifyRealGitDir(real);
  const objects = join(priv.gitDir, 'objects');
  const fresh: string[] = [];
  for await (const rel of objectFiles(objects)) if (!priv.linked.has(rel)) fresh.push(rel);
  // Packs before their index: git finds a pack by its .idx, which must not appear first.
  fresh.sort((a, b) => Number(a.endsWith('.idx')) - Number(b.endsWith('.idx')));
  for (const rel of fresh) {
    const target = join(real.objectsDir, rel);
    const exists = await lstat(target).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await mkdir(dirname(target), { recursive: true });
    const tmp = join(dirname(target), `tmp_patchloop_${process.pid}_${Math.random().toString(36).slice(2)}`);
    try {
      await link(join(objects, rel), tmp);
    } catch {
      await copyFile(join(objects, rel), tmp, constants.COPYFILE_EXCL);
    }
    await rename(tmp, target);
  }
  for (const [ref, sha] of Object.entries(w.refs)) {
    checkRefName(ref);
    if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(`Refusing to write ${sha} into ${ref}`);
    await replaceFile(join(real.commonDir, ref), `${sha}\n`);
  }
  if (/^[0-9a-f]{40,64}$/.test(w.head)) await replaceFile(join(real.gitDir, 'HEAD'), `${w.head}\n`);
  else {
    checkRefName(w.head);
    await replaceFile(join(real.gitDir, 'HEAD'), `ref: ${w.head}\n`);
  }
  const index = await readRegular(join(priv.gitDir, 'index'));
  if (index) await copyIndex(join(priv.gitDir, 'index'), join(real.gitDir, 'index'), index, replaceFile);
}

/**
 * Writes a copy of the index `from` holds (`content`, read from it) to `to`, with `from`'s mtime.
 * git trusts an entry whose file still shows its recorded size and times unless the entry is no
 * older than the index file ("racily clean": then it reads the file). A copy made later, with a
 * later mtime, would make such an entry look settled, and an edit of the same size in the same
 * second as the index was written would go unseen. (Floored to the millisecond: never later.)
 */
async function copyIndex(
  from: string,
  to: string,
  content: Buffer,
  write: (path: string, content: Buffer) => Promise<void>,
): Promise<void> {
  const { mtimeMs } = await lstat(from);
  await write(to, content);
  const at = Math.floor(mtimeMs) / 1000;
  await utimes(to, at, at);
}

/** Puts the checkout's config back as it was before the first command; true when it had changed. */
export async function restoreRealConfig(priv: PrivateGitDir): Promise<boolean> {
  await verifyRealGitDir(priv.real);
  const path = join(priv.real.commonDir, 'config');
  const now = await readRegular(path).catch(() => undefined);
  if (now?.toString('utf8') === priv.configSnapshot) return false;
  await rm(path, { force: true });
  await writeFile(path, priv.configSnapshot, { flag: 'wx' });
  return true;
}

/** Removes the private dir. */
export async function removePrivateGitDir(priv: PrivateGitDir): Promise<void> {
  await rm(priv.root, { recursive: true, force: true });
}
