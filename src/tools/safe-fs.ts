import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rmdir,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// Opening workspace files so that what is checked is what is used. A name checked and then opened
// later can be swapped in between (a directory flipped to a symlink to /proc/self by a process a
// command left running), so every check here is made on the opened descriptor: its real path (Linux:
// the kernel's own /proc/self/fd/N link) must lie inside an allowed folder, it must be a regular
// file, and no folder above it may be the recorded git directory (compared by device and inode, so a
// renamed `.git` is still recognised). On Linux, files are opened relative to an already-checked
// folder descriptor through /proc/self/fd/D/name, which is openat(2) by another name.

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO opened without O_NONBLOCK blocks until a writer appears; with it, open returns at once and
// fstat then refuses the descriptor.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const { O_RDONLY, O_RDWR, O_CREAT, O_EXCL } = constants;

let procFdDir: string | null | undefined;
/** `/proc/self/fd` where the kernel offers it (Linux with /proc mounted), else null. */
function procFd(): string | null {
  if (procFdDir === undefined)
    procFdDir = process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : null;
  return procFdDir;
}

/**
 * Whether `child` is `parent` or lies below it (both absolute). Compares whole path parts, so a
 * folder named `..cache` is inside and `/repo-other` is not inside `/repo`.
 */
export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export type UnsafeReason =
  | 'outside'
  | 'git-dir'
  | 'not-regular'
  | 'directory'
  | 'not-directory'
  | 'symlink'
  | 'too-large'
  | 'missing'
  | 'read-only'
  | 'private'
  | 'private-folder'
  | 'hard-link';

/** A file refused by the descriptor checks; `reason` says which. */
export class UnsafeFileError extends Error {
  constructor(
    message: string,
    readonly reason: UnsafeReason,
  ) {
    super(message);
    this.name = 'UnsafeFileError';
  }
}

interface Identity {
  dev: bigint;
  ino: bigint;
}

function identityOf(st: { dev: bigint; ino: bigint }): Identity {
  return { dev: st.dev, ino: st.ino };
}

function same(a: Identity | undefined, b: { dev: bigint; ino: bigint }): boolean {
  return a !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** A folder the tools may use files in. */
export interface Area {
  /** Real path of the folder, once it exists. */
  readonly root: string;
  /** Whether files here may be changed (the workspace) or only read (a run's saved outputs). */
  readonly writable: boolean;
  /** Read-only areas give access to files directly inside them only, not to subfolders. */
  readonly flat: boolean;
  /** The recorded git directory: refused by real path and by identity. */
  readonly gitDir?: { path: string; id?: Identity };
  /** Device and inode of `root`; read when first needed for folders that did not exist yet. */
  rootId(): Identity | undefined;
  /** The sandbox group what is made here must join (AreaOptions.group). */
  group?: () => number | undefined;
}

function errorCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export interface AreaOptions {
  writable: boolean;
  flat?: boolean;
  /** The git directory to refuse; its real path and identity are taken now. */
  gitDir?: string;
  /**
   * The command sandbox's group access (asked when something is made, after the sandbox is set
   * up): what the tools make becomes that group's and writable by it, as the set-up made the
   * checkout, so the next command may change it. Undefined: nothing of the kind.
   */
  group?: () => number | undefined;
}

export function createArea(root: string, options: AreaOptions): Area {
  const real = realOrResolved(root);
  let id: Identity | undefined;
  let gitDir: Area['gitDir'];
  if (options.gitDir !== undefined) {
    const path = realOrResolved(options.gitDir);
    let gitId: Identity | undefined;
    try {
      gitId = identityOf(statSync(path, { bigint: true }));
    } catch {
      // Not there (yet): refused by path only.
    }
    gitDir = { path, id: gitId };
  }
  return {
    root: real,
    writable: options.writable,
    flat: options.flat ?? false,
    gitDir,
    ...(options.group ? { group: options.group } : {}),
    rootId() {
      if (id === undefined) {
        try {
          id = identityOf(statSync(real, { bigint: true }));
        } catch {
          return undefined;
        }
      }
      return id;
    },
  };
}

function hasGitPart(rel: string): boolean {
  return rel.split(sep).some((part) => part.toLowerCase() === '.git');
}

/** Why `real` is not an acceptable place in `area`, or undefined when it is. */
function placeProblem(real: string, area: Area, isDir: boolean): UnsafeFileError | undefined {
  if (!isInside(real, area.root)) return new UnsafeFileError('it lies outside the workspace', 'outside');
  const rel = relative(area.root, real);
  if (hasGitPart(rel) || (area.gitDir && isInside(real, area.gitDir.path)))
    return new UnsafeFileError('it lies inside the git directory', 'git-dir');
  if (area.flat && (isDir ? rel !== '' : dirname(rel) !== '.'))
    return new UnsafeFileError('only files directly inside the outputs folder can be read', 'outside');
  return undefined;
}

/** The first area that accepts `real`, or the most telling refusal. */
function pickArea(real: string, areas: readonly Area[], isDir: boolean): Area {
  let problem: UnsafeFileError | undefined;
  for (const area of areas) {
    const p = placeProblem(real, area, isDir);
    if (!p) return area;
    if (!problem || (problem.reason === 'outside' && p.reason !== 'outside')) problem = p;
  }
  throw problem ?? new UnsafeFileError('it lies outside the workspace', 'outside');
}

const MAX_DEPTH = 4096;

/**
 * Walks up from the folder `procDir` names (a /proc/self/fd/D link, so the kernel resolves `..`
 * from where the folder really is now) until it reaches the area's root: meeting the recorded git
 * directory on the way refuses, never meeting the root refuses.
 */
async function checkAncestry(procDir: string, area: Area): Promise<void> {
  const rootId = area.rootId();
  const gitId = area.gitDir?.id;
  let path = procDir;
  let previous: Identity | undefined;
  let closed = false;
  for (let i = 0; i < MAX_DEPTH; i++, path += '/..') {
    const st = await stat(path, { bigint: true });
    const id = identityOf(st);
    if (same(gitId, id)) throw new UnsafeFileError('it lies inside the git directory', 'git-dir');
    if (same(rootId, id)) {
      if (closed) throw privateFolderError();
      return;
    }
    if (same(previous, id)) break; // `..` of `/` is `/`
    previous = id;
    closed ||= closedFolder(st.mode, area);
  }
  throw new UnsafeFileError('it lies outside the workspace', 'outside');
}

/**
 * A folder of the workspace (below its root) that others may not enter is private with everything
 * under it, as an owner-only file is (refusePrivate): the sandbox shares none of it with commands
 * (src/sandbox/access.ts) and staging delivers none of it (src/git/stage.ts).
 */
function closedFolder(mode: bigint | number, area: Area): boolean {
  return area.writable && (BigInt(mode) & 1n) === 0n;
}

function privateFolderError(): UnsafeFileError {
  return new UnsafeFileError('a folder on its way may not be entered by others', 'private-folder');
}

/** The same walk by names, where /proc/self/fd is not available. */
async function checkAncestryByName(realDir: string, area: Area): Promise<void> {
  const gitId = area.gitDir?.id;
  for (let dir = realDir; isInside(dir, area.root); dir = dirname(dir)) {
    if (dir === area.root) return;
    const st = await lstat(dir, { bigint: true });
    if (same(gitId, st)) throw new UnsafeFileError('it lies inside the git directory', 'git-dir');
    if (closedFolder(st.mode, area)) throw privateFolderError();
  }
}

function mapOpenError(err: unknown): unknown {
  switch (errorCode(err)) {
    case 'ELOOP':
    case 'EMLINK': // FreeBSD's answer to O_NOFOLLOW on a symlink
      return new UnsafeFileError('it is a symbolic link (it changed after it was checked)', 'symlink');
    case 'ENXIO': // a FIFO opened for writing with no reader, or a socket
      return new UnsafeFileError('it is not a regular file (a pipe, device or socket)', 'not-regular');
    case 'EISDIR':
      return new UnsafeFileError('it is a directory', 'directory');
    case 'ENOTDIR':
      return new UnsafeFileError('a part of its folder path is not a folder', 'not-directory');
    case 'ENOENT':
      return new UnsafeFileError('it does not exist', 'missing');
    default:
      return err;
  }
}

/**
 * Linux answers O_DIRECTORY | O_NOFOLLOW on a symlink with ENOTDIR; say which it was, since a folder
 * that became a symlink after it was checked is the case these checks exist for.
 */
async function folderOpenError(err: unknown, path: string): Promise<unknown> {
  if (errorCode(err) === 'ENOTDIR' || errorCode(err) === 'ELOOP') {
    const st = await lstat(path).catch(() => undefined);
    if (st?.isSymbolicLink())
      return new UnsafeFileError(
        'a folder on its path is a symbolic link (it changed after it was checked)',
        'symlink',
      );
    return new UnsafeFileError('a part of its folder path is not a folder', 'not-directory');
  }
  return mapOpenError(err);
}

/** 'read': read only. 'update': read and write an existing file. 'write': 'update', creating it if missing. */
export type OpenMode = 'read' | 'update' | 'write';

export interface OpenedFile {
  handle: FileHandle;
  /** fstat of the descriptor. */
  stat: Stats;
  /** Real path of the descriptor. */
  real: string;
  /** The area it lies in. */
  area: Area;
  /** This call created the file. */
  created: boolean;
}

async function openAt(at: string, mode: OpenMode): Promise<{ handle: FileHandle; created: boolean }> {
  const base = O_NOFOLLOW | O_NONBLOCK;
  if (mode === 'read') return { handle: await open(at, O_RDONLY | base), created: false };
  // Without O_CREAT first, then with O_EXCL, so `created` is known and a file that was already there
  // is never removed when a later check fails.
  for (let attempt = 0; ; attempt++) {
    try {
      return { handle: await open(at, O_RDWR | base), created: false };
    } catch (err) {
      if (errorCode(err) !== 'ENOENT' || mode !== 'write') throw err;
    }
    try {
      return { handle: await open(at, O_RDWR | O_CREAT | O_EXCL | base, 0o666), created: true };
    } catch (err) {
      if (errorCode(err) !== 'EEXIST' || attempt >= 3) throw err;
    }
  }
}

/**
 * Opens the regular file at `path` (absolute, symlinks already resolved) and proves the descriptor
 * lies in one of `areas` (writable ones only, unless mode is 'read'). Throws UnsafeFileError.
 * The caller closes `handle`.
 */
export async function openFile(path: string, areas: readonly Area[], mode: OpenMode): Promise<OpenedFile> {
  const allowed = mode === 'read' ? areas : areas.filter((a) => a.writable);
  if (allowed.length === 0) throw new UnsafeFileError('it can only be read', 'read-only');
  const proc = procFd();
  if (!proc) return openFileByName(path, allowed, mode);
  let dir: FileHandle;
  try {
    dir = await open(dirname(path), O_RDONLY | O_DIRECTORY | O_NONBLOCK);
  } catch (err) {
    throw mapOpenError(err);
  }
  try {
    const dirProc = `${proc}/${dir.fd}`;
    const area = pickArea(await readlink(dirProc), allowed, true);
    await checkAncestry(dirProc, area);
    const name = basename(path);
    let opened: { handle: FileHandle; created: boolean };
    try {
      opened = await openAt(`${dirProc}/${name}`, mode);
    } catch (err) {
      throw mapOpenError(err);
    }
    try {
      return await checkOpened(
        opened.handle,
        await readlink(`${proc}/${opened.handle.fd}`),
        area,
        opened.created,
        mode,
      );
    } catch (err) {
      await opened.handle.close();
      if (opened.created) await unlink(`${dirProc}/${name}`).catch(() => undefined);
      throw err;
    }
  } finally {
    await dir.close();
  }
}

/**
 * What the checkout, the tools and commands make is readable by all; a file only its owner (and
 * group) may read was put there by something else, such as an earlier step's credentials file
 * (google-github-actions/auth writes gha-creds-*.json into the workspace). The sandbox's access
 * walks leave such a file out for the same reason (src/sandbox/access.ts).
 */
function refusePrivate(st: { mode: number }, area: Area): void {
  // (a read-only area is patchloop's own, such as the saved outputs it writes 0600 unsandboxed)
  if (area.writable && (st.mode & 0o004) === 0)
    throw new UnsafeFileError(
      `only its owner may read it (mode ${(st.mode & 0o777).toString(8)})`,
      'private',
    );
}

/**
 * What the tools make is readable by all, as the checkout's own files are, whatever the process's
 * umask: staging delivers only what others may read (src/git/stage.ts). Bits are only added, so a
 * folder's ACL mask (its group bits) stays as it was. Under the sandbox's group access it also
 * joins the sandbox group, writable by it (a folder setgid, so what is made in it joins too): the
 * next command may change it, with no walk before each command to find it. By its handle: the name
 * may have been swapped since.
 */
async function shareable(handle: FileHandle, mode: bigint, bits: number, area: Area): Promise<void> {
  const now = Number(mode & 0o7777n);
  const group = area.group?.();
  let want = bits;
  if (group !== undefined) {
    const folder = (mode & 0o170000n) === 0o040000n;
    want |= folder ? 0o2070 : 0o060;
    // chown first: on a file it clears setuid and setgid, which the chmod leaves cleared
    await handle.chown(-1, group);
  }
  if ((now & want) !== want) await handle.chmod(now | want);
}

async function checkOpened(
  handle: FileHandle,
  real: string,
  area: Area,
  created: boolean,
  mode: OpenMode,
): Promise<OpenedFile> {
  const st = await handle.stat();
  if (st.isDirectory()) throw new UnsafeFileError('it is a directory', 'directory');
  if (!st.isFile())
    throw new UnsafeFileError('it is not a regular file (a pipe, device or socket)', 'not-regular');
  const problem = placeProblem(real, area, false);
  if (problem) throw problem;
  // (a file made just now is this run's own, whatever the umask made of its mode)
  if (!created) refusePrivate(st, area);
  else await shareable(handle, BigInt(st.mode), 0o004, area);
  // A file with other names, such as a package store's file that pnpm or uv link into the
  // workspace, would change everywhere at once: it is read, never written.
  if (mode !== 'read' && st.nlink > 1)
    throw new UnsafeFileError(`it has ${st.nlink} names (a hard link)`, 'hard-link');
  return { handle, stat: st, real, area, created };
}

async function openFileByName(path: string, areas: readonly Area[], mode: OpenMode): Promise<OpenedFile> {
  let opened: { handle: FileHandle; created: boolean };
  try {
    opened = await openAt(path, mode);
  } catch (err) {
    throw mapOpenError(err);
  }
  try {
    const real = await realpath(path);
    const [byName, byFd] = await Promise.all([
      stat(real, { bigint: true }),
      opened.handle.stat({ bigint: true }),
    ]);
    if (!same(identityOf(byFd), byName))
      throw new UnsafeFileError('it was replaced while it was being opened', 'symlink');
    const area = pickArea(real, areas, false);
    await checkAncestryByName(dirname(real), area);
    return await checkOpened(opened.handle, real, area, opened.created, mode);
  } catch (err) {
    await opened.handle.close();
    if (opened.created) await unlink(path).catch(() => undefined);
    throw err;
  }
}

/** Reads the whole of an opened file (at most `maxBytes`, from position 0). */
export async function readAll(handle: FileHandle, size: number, maxBytes = size): Promise<Buffer> {
  const want = Math.min(size, maxBytes);
  const buf = Buffer.allocUnsafe(want);
  let got = 0;
  while (got < want) {
    const { bytesRead } = await handle.read(buf, got, want - got, got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === want ? buf : buf.subarray(0, got);
}

/** Replaces an opened file's content through its descriptor. */
export async function replaceContent(handle: FileHandle, data: Buffer | string): Promise<void> {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  await handle.truncate(0);
  let off = 0;
  while (off < buf.length) off += (await handle.write(buf, off, buf.length - off, off)).bytesWritten;
}

/** A folder opened and checked, kept open so that its files can be opened relative to it. */
export interface CheckedDir {
  /** Real path of the folder when it was checked. */
  readonly real: string;
  readonly area: Area;
  readonly entries: Dirent[];
  /**
   * Opens a regular file directly in this folder for reading. On Linux it is opened relative to
   * the checked descriptor (openat), so no further path check is needed: the file cannot be
   * anywhere but in this folder.
   */
  openFile(name: string): Promise<OpenedFile>;
  close(): Promise<void>;
}

/**
 * Opens the folder at `path` and checks the descriptor lies in one of `areas` (and is not, or is
 * not in, the git directory). The caller closes it.
 */
export async function openDir(path: string, areas: readonly Area[]): Promise<CheckedDir> {
  const proc = procFd();
  let dir: FileHandle;
  try {
    dir = await open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    throw await folderOpenError(err, path);
  }
  try {
    if (!proc) {
      const real = await realpath(path);
      const area = pickArea(real, areas, true);
      await checkAncestryByName(real, area);
      const entries = await readdir(real, { withFileTypes: true });
      const [byName, byFd] = await Promise.all([stat(real, { bigint: true }), dir.stat({ bigint: true })]);
      if (!same(identityOf(byFd), byName))
        throw new UnsafeFileError('it was replaced while it was being read', 'symlink');
      return {
        real,
        area,
        entries,
        openFile: (name) => openFile(join(real, name), [area], 'read'),
        close: () => dir.close(),
      };
    }
    const dirProc = `${proc}/${dir.fd}`;
    const real = await readlink(dirProc);
    const area = pickArea(real, areas, true);
    await checkAncestry(dirProc, area);
    // Reading the /proc link reads the folder the descriptor holds, whatever its name is now.
    const entries = await readdir(dirProc, { withFileTypes: true });
    return {
      real,
      area,
      entries,
      async openFile(name) {
        if (name.includes('/') || name === '.' || name === '..')
          throw new UnsafeFileError('it is not a plain file name', 'outside');
        let opened: { handle: FileHandle; created: boolean };
        try {
          opened = await openAt(`${dirProc}/${name}`, 'read');
        } catch (err) {
          throw mapOpenError(err);
        }
        try {
          const st = await opened.handle.stat();
          if (!st.isFile())
            throw new UnsafeFileError('it is not a regular file (a pipe, device or socket)', 'not-regular');
          refusePrivate(st, area);
          return { handle: opened.handle, stat: st, real: join(real, name), area, created: false };
        } catch (err) {
          await opened.handle.close();
          throw err;
        }
      },
      close: () => dir.close(),
    };
  } catch (err) {
    await dir.close();
    throw err;
  }
}

/** The entries of the folder at `path`, read through a checked descriptor (see openDir). */
export async function readDir(
  path: string,
  areas: readonly Area[],
): Promise<{ entries: Dirent[]; real: string }> {
  const dir = await openDir(path, areas);
  await dir.close();
  return { entries: dir.entries, real: dir.real };
}

/**
 * Creates the folders of `dir` (absolute, inside `area`) one level at a time; each level, created or
 * found, is opened without following a symlink and checked before the next is made in it. A level
 * this call created is removed again when its check fails.
 */
export async function makeDirs(dir: string, area: Area): Promise<void> {
  if (!area.writable) throw new UnsafeFileError('it can only be read', 'read-only');
  if (!isInside(dir, area.root)) throw new UnsafeFileError('it lies outside the workspace', 'outside');
  const parts = relative(area.root, dir)
    .split(sep)
    .filter((p) => p !== '');
  const proc = procFd();
  if (!proc) return makeDirsByName(parts, area);
  let current = await open(area.root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  try {
    if (!same(area.rootId(), await current.stat({ bigint: true })))
      throw new UnsafeFileError('the workspace folder was replaced', 'outside');
    for (const part of parts) {
      const at = `${proc}/${current.fd}/${part}`;
      let created = false;
      try {
        await mkdir(at);
        created = true;
      } catch (err) {
        if (errorCode(err) !== 'EEXIST') throw mapOpenError(err);
      }
      let next: FileHandle;
      try {
        next = await open(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
      } catch (err) {
        if (created) await rmdir(at).catch(() => undefined);
        throw await folderOpenError(err, at);
      }
      try {
        const problem = placeProblem(await readlink(`${proc}/${next.fd}`), area, true);
        if (problem) throw problem;
        const st = await next.stat({ bigint: true });
        if (same(area.gitDir?.id, st))
          throw new UnsafeFileError('it lies inside the git directory', 'git-dir');
        if (created) await shareable(next, st.mode, 0o005, area);
        else if (closedFolder(st.mode, area)) throw privateFolderError();
      } catch (err) {
        await next.close();
        if (created) await rmdir(at).catch(() => undefined);
        throw err;
      }
      await current.close();
      current = next;
    }
  } finally {
    await current.close();
  }
}

async function makeDirsByName(parts: string[], area: Area): Promise<void> {
  let current = area.root;
  for (const part of parts) {
    current = join(current, part);
    let created = false;
    try {
      await mkdir(current);
      created = true;
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw mapOpenError(err);
    }
    const st = await lstat(current, { bigint: true });
    let problem: UnsafeFileError | undefined;
    if (st.isSymbolicLink())
      problem = new UnsafeFileError('a part of its folder path is a symbolic link', 'symlink');
    else if (!st.isDirectory())
      problem = new UnsafeFileError('a part of its folder path is not a folder', 'not-directory');
    else if (same(area.gitDir?.id, st))
      problem = new UnsafeFileError('it lies inside the git directory', 'git-dir');
    else if (!created && closedFolder(st.mode, area)) problem = privateFolderError();
    else problem = placeProblem(await realpath(current), area, true);
    if (problem) {
      if (created) await rmdir(current).catch(() => undefined);
      throw problem;
    }
    if (created) {
      const handle = await open(current, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
      try {
        await shareable(handle, st.mode, 0o005, area);
      } finally {
        await handle.close();
      }
    }
  }
}

export interface ReadRegularOptions {
  /** Follow a symlink at the last part of `path` (default: refuse it). Pass `within` too. */
  followSymlinks?: boolean;
  /** A folder the file's real path (checked on the descriptor) must lie in. */
  within?: string;
}

/**
 * Reads a regular file synchronously without ever blocking on it: opened with O_NONBLOCK (a FIFO
 * does not stall the event loop) and O_NOFOLLOW, refused unless fstat says it is a regular file of
 * at most `maxBytes`. Reads at most the size fstat gave, so pseudo-files (size 0 under /proc) read as
 * empty. Throws the fs error (ENOENT; ELOOP for a symlink) or an UnsafeFileError.
 */
export function readRegularFileSync(
  path: string,
  maxBytes: number,
  options: ReadRegularOptions = {},
): Buffer {
  const fd = openSync(path, O_RDONLY | O_NONBLOCK | (options.followSymlinks ? 0 : O_NOFOLLOW));
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new UnsafeFileError(`${path} is a directory`, 'directory');
    if (!st.isFile())
      throw new UnsafeFileError(`${path} is not a regular file (a pipe, device or socket)`, 'not-regular');
    if (options.within !== undefined) {
      const proc = procFd();
      let real: string;
      if (proc) real = readlinkSync(`${proc}/${fd}`);
      else {
        real = realpathSync(path);
        const byName = statSync(real);
        if (byName.dev !== st.dev || byName.ino !== st.ino)
          throw new UnsafeFileError(`${path} was replaced while it was being opened`, 'symlink');
      }
      if (!isInside(real, realOrResolved(options.within)))
        throw new UnsafeFileError(`${path} lies outside ${options.within}`, 'outside');
    }
    if (st.size > maxBytes)
      throw new UnsafeFileError(`${path} is ${st.size} bytes, more than the ${maxBytes} read`, 'too-large');
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === st.size ? buf : buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
