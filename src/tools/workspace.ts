import { lstat, readlink, realpath } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { ToolError } from '../protocol/tool.js';

export const DEFAULT_PROTECTED_PATHS = ['.github/workflows/**'];

/** A path the tools may use, after every confinement check has passed. */
export interface ResolvedPath {
  /** Relative to the workspace root with `/` separators; '' for the root itself. */
  rel: string;
  /** Absolute path as written (symlinks not followed). */
  abs: string;
  /** Absolute path with every symlink followed; for a missing file, its nearest existing parent's. */
  real: string;
  /** `real` relative to the real root; '' for the root. Use it for commands that do not follow symlinks. */
  realRel: string;
  exists: boolean;
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
}

export interface WorkspaceOptions {
  protectedPaths?: string[];
}

const MAX_LINK_DEPTH = 40;

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

function isInside(rel: string): boolean {
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
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
  const globs = options.protectedPaths ?? DEFAULT_PROTECTED_PATHS;
  const matchers = globs
    .filter((g) => g.trim() !== '')
    .map((glob) => ({ glob, test: picomatch(glob.trim().replace(/^\.\//, ''), { dot: true }) }));

  function protectedBy(rel: string): string | undefined {
    return matchers.find((m) => m.test(rel))?.glob;
  }

  function relativeTo(base: string, abs: string): string | undefined {
    const rel = relative(base, abs);
    return isInside(rel) ? toPosix(rel) : undefined;
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
    if (rel === undefined) throw new ToolError(outside);
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
    return { rel, abs, real, realRel, exists };
  }

  return { root: realRoot, resolve: resolvePath, protectedBy };
}
