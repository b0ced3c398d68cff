// Where a stdio server's code comes from: never the workspace, whose files a pull request or the
// run's own commands may have written. The program is looked up on PATH as patchloop's own git is
// (git/exec.ts resolveGit): relative entries and entries whose real path lies in the workspace are
// skipped, and a program whose real path lies there is refused. The server's own PATH is cut the
// same way, so nothing it starts by name (npx's node, a shebang's interpreter) comes from there.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { isInside } from '../safe-fs.js';

/** Why a server's program cannot be run; said in the summary as it stands (no server text in it). */
export class ProgramError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProgramError';
  }
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function outside(path: string, workspace: string): boolean {
  const r = real(path);
  return r !== undefined && !isInside(r, workspace) && !isInside(path, workspace);
}

function executableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `path` without the entries a server must not take programs from: relative ones, ones that do
 * not exist (a command could make them later, in the workspace), and ones whose real path lies in
 * the workspace.
 */
export function pathOutside(path: string, workspace: string): string {
  const ws = real(workspace) ?? workspace;
  return path
    .split(delimiter)
    .filter((entry) => entry && isAbsolute(entry) && outside(entry, ws))
    .join(delimiter);
}

/**
 * The absolute path to run for a server's `command`: an absolute path as it stands, a name looked
 * up on `path` (entries inside the workspace skipped). Throws a ProgramError when the program is
 * in the workspace, is not an executable file, or is not found.
 */
export function resolveProgram(command: string, o: { workspace: string; path: string }): string {
  const ws = real(o.workspace) ?? o.workspace;
  if (isAbsolute(command)) {
    if (!outside(command, ws)) {
      throw new ProgramError(
        real(command) === undefined
          ? `its program ${command} does not exist`
          : `its program ${command} lies in the workspace, whose files a pull request or the run's commands may have written`,
      );
    }
    if (!executableFile(command)) throw new ProgramError(`its program ${command} is not an executable file`);
    return command;
  }
  if (command.includes('/'))
    throw new ProgramError(
      `its program ${command} is a relative path; give a name on PATH or an absolute path`,
    );
  for (const entry of pathOutside(o.path, ws).split(delimiter)) {
    if (!entry) continue;
    // the entry's real folder: a link inside it that leads into the workspace is caught below
    const candidate = join(real(entry) ?? entry, command);
    if (outside(candidate, ws) && executableFile(candidate)) return candidate;
  }
  throw new ProgramError(`its program "${command}" was not found on PATH outside the workspace`);
}
