import { lstat, readlink, realpath } from 'node:fs/promises';
import { existsSync, realpathSync, type Dirent } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { ToolError } from '../protocol/tool.js';
import {
  createArea,
  isInside,
  makeDirs,
  openFile,
  readDir,
  UnsafeFileError,
  type Area,
  type OpenedFile,
  type OpenMode,
} from './safe-fs.js';

export const DEFAULT_PROTECTED_PATHS = ['.github/workflows/**'];

/** A path the tools may use, after every confinement check has passed. */
export interface ResolvedPath {
  /** Relative to the workspace root with `/` separators; '' for the root itself. */
  rel: string;
  /** Absolute path as written (symlinks not followed). */
  abs: string;
  /** Absolute path with every symlink followed; for a missing file, its nearest existing parent's. */
  real: string;
  /** `real` relative to `base`; '' for the base itself. Use it for commands that do not follow symlinks. */
  realRel: string;
  exists: boolean;
  /** Real root of the folder the path lies in: the workspace, or a read-only outputs folder. */
  base: string;
  /** In a read-only outputs folder (a command's saved full output): `rel` is then the absolute path. */
  readOnly: boolean;
}

export type PathPurpose = 'read' | 'write';

export interface Workspace {
  /** Real absolute path of the workspace root. */
  readonly root: string;
  /**
   * Checks a model-supplied path and resolves it. Throws ToolError for NUL bytes, paths outside
   * the workspace (`..`, absolute, or through a symlink), anything under `.git/`, and, for
   * writes, protected paths. An empty or missing path means the root (allowed for reads only).
   */
  resolve(path: string | undefined, purpose: PathPurpose): Promise<ResolvedPath>;
  /** The protected-paths glob a workspace-relative path matches, if any. */
  protectedBy(rel: string): string | undefined;
  /**
   * Opens a resolved file with the checks made on the descriptor (regular file, real path inside
   * the workspace or, for reads, a read-only folder, not in the git directory). Throws ToolError.
   */
  open(target: ResolvedPath, mode: OpenMode): Promise<OpenedFile>;
  /** Entries of a folder (absolute path), read through a checked descriptor. Throws ToolError. */
  readDir(abs: string, shown: string): Promise<Dirent[]>;
  /** Creates the parent folders of a resolved path for a write, each level checked. Throws ToolError. */
  makeParents(target: ResolvedPath): Promise<void>;
  /** The workspace as a confinement area, for walkers that open files themselves. */
  readonly area: Area;
}

export interface WorkspaceOptions {
  protectedPaths?: string[];
  /**
   * The repository's git directory as found at the start of the run, refused by real path and by
   * identity so that renaming it does not open it up. Default: `<root>/.git` when it exists.
   */
  gitDir?: string;
  /** Folders outside the workspace whose files (directly inside them) may be read, never written. */
  readOnlyDirs?: string[];
  /** The command sandbox's group access: the group what the tools make must be the sandbox user's. */
  group?: () => number | undefined;
}

const MAX_LINK_DEPTH = 40;

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

function touchesGitDir(rel: string): boolean {
  return rel.split('/').some((part) => part.toLowerCase() === '.git');
}

function quote(path: string): string {
  return JSON.stringify(path);
}

function errorCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

/**
 * Real path of `abs` even when it does not exist yet: the nearest existing parent is resolved and
 * the missing part appended. A dangling symlink is followed to where it points, so a write through
 * it cannot land outside the workspace.
 */
async function resolveReal(abs: string, links = 0): Promise<{ real: string; exists: boolean }> {
  try {
    return { real: await realpath(abs), exists: true };
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ELOOP') throw new ToolError('The path goes through a loop of symbolic links.');
    if (code === 'ENAMETOOLONG') throw new ToolError('The path is too long for the file system.');
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  const missing: string[] = [];
  for (let current = abs; ;) {
    const stat = await lstat(current).catch(() => undefined);
    if (stat?.isSymbolicLink()) {
      if (links >= MAX_LINK_DEPTH) throw new ToolError('Too many levels of symbolic links.');
      const target = await readlink(current);
      const parentReal = (await resolveReal(dirname(current), links + 1)).real;
      const followed = await resolveReal(resolve(parentReal, target), links + 1);
      return { real: join(followed.real, ...missing), exists: false };
    }
    if (stat) return { real: join(await realpath(current), ...missing), exists: false };
    const parent = dirname(current);
    if (parent === current) return { real: join(current, ...missing), exists: false };
    missing.unshift(basename(current));
    current = parent;
  }
}

export function createWorkspace(root: string, options: WorkspaceOptions = {}): Workspace {
  if (!isAbsolute(root)) throw new Error(`The workspace root must be an absolute path, got ${quote(root)}.`);
  const givenRoot = resolve(root);
  const realRoot = realpathSync(givenRoot);
  const defaultGitDir = join(realRoot, '.git');
  const area = createArea(realRoot, {
    writable: true,
    gitDir: options.gitDir ?? (existsSync(defaultGitDir) ? defaultGitDir : undefined),
    ...(options.group ? { group: options.group } : {}),
  });
  const outputs = (options.readOnlyDirs ?? []).map((dir) => ({
    given: resolve(dir),
    area: createArea(dir, { writable: false, flat: true }),
  }));
  const readAreas = [area, ...outputs.map((o) => o.area)];
  const globs = options.protectedPaths ?? DEFAULT_PROTECTED_PATHS;
  const matchers = globs
    .filter((g) => g.trim() !== '')
    .map((glob) => ({ glob, test: picomatch(glob.trim().replace(/^\.\//, ''), { dot: true }) }));

  function protectedBy(rel: string): string | undefined {
    return matchers.find((m) => m.test(rel))?.glob;
  }

  function relativeTo(base: string, abs: string): string | undefined {
    return isInside(abs, base) ? toPosix(relative(base, abs)) : undefined;
  }

  /** A read of a file in a read-only outputs folder, named by its absolute path. */
  async function resolveOutput(path: string, purpose: PathPurpose): Promise<ResolvedPath | undefined> {
    const abs = resolve(path);
    const found = outputs.find((o) => isInside(abs, o.given) || isInside(abs, o.area.root));
    if (!found) return undefined;
    if (purpose === 'write') {
      throw new ToolError(
        `Path ${quote(path)} is a saved command output outside the workspace: it can be read with read_file and searched with grep, not changed.`,
      );
    }
    const { real, exists } = await resolveReal(abs);
    const dir = realpathSync(found.area.root);
    const realRel = relativeTo(dir, real);
    if (realRel === undefined || realRel.includes('/') || realRel === '') {
      throw new ToolError(
        `Path ${quote(path)} is not a saved command output; only the files the notices name can be read there.`,
      );
    }
    return { rel: real, abs, real, realRel, exists, base: dir, readOnly: true };
  }

  async function resolvePath(input: string | undefined, purpose: PathPurpose): Promise<ResolvedPath> {
    const path = input ?? '';
    if (path.includes('\0'))
      throw new ToolError(`Path ${quote(path)} contains a NUL byte; no file name can hold one.`);
    const outside = `Path ${quote(path)} is outside the workspace. Use a path relative to the workspace root, such as "src/index.ts".`;
    let abs: string;
    let rel: string | undefined;
    if (isAbsolute(path)) {
      abs = resolve(path);
      rel = relativeTo(givenRoot, abs) ?? relativeTo(realRoot, abs);
      if (rel !== undefined) abs = join(givenRoot, rel);
    } else {
      abs = resolve(givenRoot, path);
      rel = relativeTo(givenRoot, abs);
    }
    if (rel === undefined) {
      const output = isAbsolute(path) ? await resolveOutput(path, purpose) : undefined;
      if (output) return output;
      throw new ToolError(outside);
    }
    if (touchesGitDir(rel)) {
      throw new ToolError(`Path ${quote(path)} is inside .git/, which these tools neither read nor change.`);
    }
    if (rel === '' && purpose === 'write') {
      throw new ToolError('The workspace root itself cannot be written; give a file path inside it.');
    }
    const { real, exists } = await resolveReal(abs);
    const realRel = relativeTo(realRoot, real);
    if (realRel === undefined) {
      throw new ToolError(
        `Path ${quote(path)} is, or goes through, a symbolic link that leads outside the workspace; it is refused.`,
      );
    }
    if (touchesGitDir(realRel)) {
      throw new ToolError(
        `Path ${quote(path)} leads (through a symbolic link) into .git/, which these tools do not touch.`,
      );
    }
    if (purpose === 'write') {
      const glob = protectedBy(rel) ?? protectedBy(realRel);
      if (glob !== undefined) {
        const workflows =
          /^\.github\/workflows(\/|$)/.test(rel) || /^\.github\/workflows(\/|$)/.test(realRel);
        const why = workflows
          ? ' GitHub rejects pushes that change workflow files unless the token has the `workflows` permission.'
          : '';
        throw new ToolError(
          `Path ${quote(path)} is protected (it matches the protected-paths pattern ${quote(glob)}), so it cannot be written.${why}`,
        );
      }
    }
    return { rel, abs, real, realRel, exists, base: realRoot, readOnly: false };
  }

  async function openChecked(target: ResolvedPath, mode: OpenMode): Promise<OpenedFile> {
    try {
      return await openFile(target.real, mode === 'read' ? readAreas : [area], mode);
    } catch (err) {
      throw refusal(err, target.rel || '.');
    }
  }

  async function readDirChecked(abs: string, shown: string): Promise<Dirent[]> {
    try {
      return (await readDir(abs, readAreas)).entries;
    } catch (err) {
      throw refusal(err, shown);
    }
  }

  async function makeParents(target: ResolvedPath): Promise<void> {
    try {
      await makeDirs(dirname(target.real), area);
    } catch (err) {
      throw refusal(err, target.rel);
    }
  }

  return {
    root: realRoot,
    resolve: resolvePath,
    protectedBy,
    open: openChecked,
    readDir: readDirChecked,
    makeParents,
    area,
  };
}

/** The ToolError for a refusal by the descriptor checks; other errors pass through. */
export function refusal(err: unknown, shown: string): unknown {
  if (!(err instanceof UnsafeFileError)) return err;
  const name = quote(shown);
  switch (err.reason) {
    case 'missing':
      return new ToolError(`Path ${name} does not exist (it may have just been removed).`);
    case 'directory':
      return new ToolError(
        `Path ${name} is a directory; use list_dir to see its entries, and give a file path.`,
      );
    case 'not-directory':
      return new ToolError(`Cannot use ${name}: a part of its folder path is a file, not a folder.`);
    case 'not-regular':
      return new ToolError(
        `Path ${name} is not a regular file (a pipe, device or socket); it is neither read nor written.`,
      );
    case 'symlink':
      return new ToolError(
        `Path ${name} changed into a symbolic link while it was being opened; it is refused.`,
      );
    case 'git-dir':
      return new ToolError(
        `Path ${name} lies in the repository's git directory (checked on the opened file, whatever the folder is called now); these tools neither read nor change it.`,
      );
    case 'read-only':
      return new ToolError(`Path ${name} can only be read.`);
    case 'private':
      return new ToolError(
        `Path ${name} is readable by its owner only (${err.message}), as a credentials file is; these tools do not read it. If it is part of the work, it must be made readable by all first.`,
      );
    case 'private-folder':
      return new ToolError(
        `Path ${name} lies in a folder that others may not enter (${err.message}): everything under such a folder is private, as a credentials file is, and these tools do not use it. If it is part of the work, the folder must be opened to all first.`,
      );
    case 'hard-link':
      return new ToolError(
        `Path ${name} is not changed: ${err.message}, so writing it would change a file outside the workspace too (a package manager's store, say).`,
      );
    default:
      return new ToolError(
        `Path ${name} leads outside the workspace (checked on the opened file: ${err.message}); it is refused.`,
      );
  }
}
