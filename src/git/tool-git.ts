// The tools' read-only git calls (grep, file listing, ignore checks), through the same runner as
// the rest of patchloop: once the repository is isolated they read the private git dir, so a
// `.git/config` a command wrote (an fsmonitor hook, a filter) is never seen by them either.
import { createGitRunner, resolveGit, type GitCall, type GitRunner } from './exec.js';

export interface ToolGitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface GitStreamResult {
  code: number | null;
  stderr: string;
  /** True when the consumer stopped reading and git was ended early. */
  stopped: boolean;
}

export interface Git {
  readonly root: string;
  /** Whether the root is inside a git work tree; asked once. */
  isWorkTree(): Promise<boolean>;
  /** Whether git ignores a workspace-relative path (false outside a work tree). */
  isIgnored(rel: string, signal?: AbortSignal): Promise<boolean>;
  run(args: string[], options?: { signal?: AbortSignal; input?: string | Buffer }): Promise<ToolGitResult>;
  /** Streams stdout to `onData`; returning false stops git. */
  stream(
    args: string[],
    onData: (chunk: Buffer) => boolean,
    options?: { signal?: AbortSignal },
  ): Promise<GitStreamResult>;
}

export interface ToolGitSource {
  runner: GitRunner;
  /** the call's cwd and environment (GIT_DIR once isolated), asked afresh for every call */
  call(extra: Partial<GitCall>): Promise<GitCall>;
}

/** Tool calls are bounded by the tool's own signal; this is the backstop. */
const TOOL_TIMEOUT_MS = 300_000;

/** The tools' git for `root`: through `source` (a GitRepo's), or on its own for a plain folder. */
export function createToolGit(root: string, source?: ToolGitSource): Git {
  let runner = source?.runner;
  const base = async (extra: Partial<GitCall>): Promise<GitCall> =>
    source ? source.call(extra) : { cwd: root, ...extra };
  let workTree: Promise<boolean> | undefined;

  async function stream(
    args: string[],
    onData: (chunk: Buffer) => boolean,
    options: { signal?: AbortSignal; input?: string | Buffer } = {},
  ): Promise<GitStreamResult> {
    try {
      runner ??= createGitRunner(resolveGit({ workspace: root }));
    } catch (err) {
      return { code: null, stderr: err instanceof Error ? err.message : String(err), stopped: false };
    }
    let stoppedByConsumer = false;
    const call = await base({
      readOnly: true,
      // git grep -i folds case by the locale: UTF-8, as the other grep backends do
      env: { LC_ALL: 'C.UTF-8' },
      timeoutMs: TOOL_TIMEOUT_MS,
      onData: (chunk) => {
        if (onData(chunk) === false) {
          stoppedByConsumer = true;
          return false;
        }
        return true;
      },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.input !== undefined ? { input: options.input } : {}),
    });
    const r = await runner.run(args, call);
    return { code: r.code, stderr: r.stderr, stopped: stoppedByConsumer || (r.stopped && !r.timedOut) };
  }

  async function run(
    args: string[],
    options: { signal?: AbortSignal; input?: string | Buffer } = {},
  ): Promise<ToolGitResult> {
    const chunks: Buffer[] = [];
    const r = await stream(
      args,
      (c) => {
        chunks.push(c);
        return true;
      },
      options,
    );
    return { code: r.code, stdout: Buffer.concat(chunks), stderr: r.stderr };
  }

  function isWorkTree(): Promise<boolean> {
    workTree ??= run(['rev-parse', '--is-inside-work-tree']).then(
      (r) => r.code === 0 && r.stdout.toString().trim() === 'true',
    );
    return workTree;
  }

  return {
    root,
    isWorkTree,
    async isIgnored(rel, signal) {
      if (rel === '' || !(await isWorkTree())) return false;
      return (await run(['check-ignore', '-q', '--', rel], signal ? { signal } : {})).code === 0;
    },
    run,
    stream: (args, onData, options) => stream(args, onData, options),
  };
}
