import type { AnyAgentTool } from '../protocol/tool.js';
import { createBashTool } from './bash.js';
import { createEditFileTool } from './edit-file.js';
import { createFindFilesTool } from './find-files.js';
import { createToolGit, type Git } from '../git/index.js';
import { createGrepTool } from './grep.js';
import { createListDirTool } from './list-dir.js';
import type { CommandEnvOptions } from './env.js';
import type { CommandSandbox } from './process.js';
import { createReadFileTool } from './read-file.js';
import { createRunTestsTool } from './run-tests.js';
import { createWorkspace } from './workspace.js';
import { createWriteFileTool } from './write-file.js';

export interface WorkspaceToolOptions {
  /** Absolute workspace path. */
  root: string;
  /** Globs refused for writes; default ['.github/workflows/**']. */
  protectedPaths?: string[];
  /** Empty or undefined: detect it. */
  testCommand?: string;
  allowBash?: boolean;
  /**
   * Whether commands (run_tests, and bash with allowBash) are offered at all. False where they
   * cannot be isolated and the user did not accept that (CONTRACT §6). Default true.
   */
  commands?: boolean;
  /** The job's environment; commands get only its allow-listed part (env.ts). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** `command-env` names passed on to commands, and PATH entries to drop. */
  commandEnv?: CommandEnvOptions;
  sandbox?: CommandSandbox;
  /** Where run_tests and bash save full output when they cut it. Default: the system temp folder. */
  artifactsDir?: string;
  /** run_tests' time limit. Default: 10 minutes. */
  testTimeoutMs?: number;
  /** The tools' git (GitRepo.toolGit(), private once the repository is isolated). */
  git?: Git;
}

/** The tools of CONTRACT §6 for one workspace; commands unless `commands: false`, `bash` only when allowBash. */
export function createWorkspaceTools(options: WorkspaceToolOptions): AnyAgentTool[] {
  // A command's saved full output lies in artifactsDir; read_file and grep may read it there (only).
  const ws = createWorkspace(options.root, {
    protectedPaths: options.protectedPaths,
    readOnlyDirs: options.artifactsDir ? [options.artifactsDir] : [],
    ...(options.sandbox?.toolGroup ? { group: options.sandbox.toolGroup } : {}),
  });
  const git = options.git ?? createToolGit(ws.root);
  const command = {
    env: options.env,
    envOptions: options.commandEnv,
    sandbox: options.sandbox,
    artifactsDir: options.artifactsDir,
  };
  const tools: AnyAgentTool[] = [
    createReadFileTool(ws),
    createEditFileTool(ws),
    createWriteFileTool(ws),
    createGrepTool(ws, { git, env: options.env }),
    createFindFilesTool(ws, { git }),
    createListDirTool(ws, { git }),
  ];
  if (options.commands === false) return tools;
  tools.push(
    createRunTestsTool(ws, {
      ...command,
      testCommand: options.testCommand,
      timeoutMs: options.testTimeoutMs,
    }),
  );
  if (options.allowBash) tools.push(createBashTool(ws, command));
  return tools;
}

export { createBashTool, type BashArgs, type BashOptions } from './bash.js';
export type { CommandDetails } from './command-output.js';
export { detectTestCommand, type TestCommand } from './detect-test-command.js';
export { createEditFileTool, type EditFileArgs, type EditFileDetails } from './edit-file.js';
export { commandEnv, scrubEnv, type CommandEnvOptions } from './env.js';
export { createFindFilesTool, type FindFilesArgs, type FindFilesOptions } from './find-files.js';
export { createToolGit as createGit, type Git } from '../git/index.js';
export {
  createGrepTool,
  type GrepArgs,
  type GrepBackendChoice,
  type GrepDetails,
  type GrepToolOptions,
} from './grep.js';
export { createListDirTool, type ListDirArgs, type ListDirOptions } from './list-dir.js';
export {
  runCommand,
  type CommandResult,
  type CommandSandbox,
  type CommandSpec,
  type RunCommandOptions,
} from './process.js';
export { createReadFileTool, type ReadFileArgs, type ReadFileDetails } from './read-file.js';
export { createRunTestsTool, type RunTestsArgs, type RunTestsOptions } from './run-tests.js';
export { createWorkspace, DEFAULT_PROTECTED_PATHS, type ResolvedPath, type Workspace } from './workspace.js';
export { createWriteFileTool, type WriteFileArgs, type WriteFileDetails } from './write-file.js';
