import { spawn } from 'node:child_process';
import { scrubEnv } from './env.js';

// The tools' own read-only git calls (grep, file listing, ignore checks). They get the same
// scrubbed environment as model commands, and the repository's fsmonitor hook is switched off,
// since a model that can write .git/config could otherwise make these calls run its program.
const CONFIG = ['-c', 'core.quotePath=false', '-c', 'core.fsmonitor=false', '-c', 'color.ui=false'];

export interface GitResult {
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
  run(args: string[], options?: { signal?: AbortSignal; input?: string | Buffer }): Promise<GitResult>;
  /** Streams stdout to `onData`; returning false stops git. */
  stream(
    args: string[],
    onData: (chunk: Buffer) => boolean,
    options?: { signal?: AbortSignal },
  ): Promise<GitStreamResult>;
}

export function createGit(root: string, baseEnv: NodeJS.ProcessEnv = process.env): Git {
  const env = { ...scrubEnv(baseEnv), GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C.UTF-8' };
  let workTree: Promise<boolean> | undefined;

  function stream(
    args: string[],
    onData: (chunk: Buffer) => boolean,
    options: { signal?: AbortSignal; input?: string | Buffer } = {},
  ): Promise<GitStreamResult> {
    return new Promise((resolve) => {
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn('git', [...CONFIG, ...args], {
          cwd: root,
          env,
          stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        });
      } catch (err) {
        resolve({ code: null, stderr: err instanceof Error ? err.message : String(err), stopped: false });
        return;
      }
      let stopped = false;
      const stderr: Buffer[] = [];
      let stderrBytes = 0;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        child.kill('SIGTERM');
      };
      options.signal?.addEventListener('abort', stop, { once: true });
      child.stdout!.on('data', (chunk: Buffer) => {
        if (!stopped && onData(chunk) === false) stop();
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (stderrBytes < 16384) stderr.push(chunk);
        stderrBytes += chunk.length;
      });
      if (options.input !== undefined && child.stdin) {
        child.stdin.on('error', () => undefined);
        child.stdin.end(options.input);
      }
      const done = (code: number | null, error?: string) => {
        options.signal?.removeEventListener('abort', stop);
        resolve({ code, stderr: error ?? Buffer.concat(stderr).toString('utf8').trim(), stopped });
      };
      child.once('error', (err) => done(null, err.message));
      child.once('close', (code) => done(code));
    });
  }

  async function run(
    args: string[],
    options: { signal?: AbortSignal; input?: string | Buffer } = {},
  ): Promise<GitResult> {
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
      return (await run(['check-ignore', '-q', '--', rel], { signal })).code === 0;
    },
    run,
    stream: (args, onData, options) => stream(args, onData, options),
  };
}

/** Splits NUL-terminated output (`-z`) into strings. */
export function splitNul(buf: Buffer): string[] {
  const out = buf.toString('utf8').split('\0');
  if (out[out.length - 1] === '') out.pop();
  return out;
}
