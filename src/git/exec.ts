// The one way patchloop runs git: an absolute binary found once, a minimal environment, our own
// configuration overrides on every call, a time bound, an abort signal, capped output, and the
// whole process group stopped (SIGTERM, then SIGKILL) when any of those say stop. Never a shell.
//
// Not simple-git (checked with 4.1.0, `strict` and `allowConfig`): it starts git in patchloop's own
// process group (its spawn options are cut down to uid and gid, so no `detached`) and stops a call
// by sending SIGINT to git alone, from its abort signal or its inactivity timeout. A helper git has
// started (git-remote-https, pack-objects, ssh, a filter) would outlive the stop, and any git call
// can start one, so no call could keep the "no helper outliving the run" guarantee that
// test/git/exec.test.ts checks ("kills the whole process group when the time bound passes"). Its
// output also arrives as text, where `cat-file`/`show` need bytes, and it has no output cap.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { formatDuration } from '../protocol/format.js';

/**
 * `-c` overrides given to every git process. They come after every configuration file, so they
 * win over what a repository's config says; the private git dir (private-dir.ts) holds none of
 * these keys in the first place, and this list covers the calls made before it exists.
 */
export const SAFE_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  // The sandbox's access walk changes every path's ctime (an ACL or group is a change of the
  // inode): trusting ctime, git would re-read every tracked file of the checkout on the run's
  // first status (4.1 s instead of 0.8 s at 100k files). Size, mtime and inode still count, and
  // staging checks each path it takes on its own (src/git/stage.ts).
  'core.trustctime=false',
  'core.attributesFile=/dev/null',
  'core.quotePath=false',
  'core.pager=cat',
  'submodule.recurse=false',
  'status.submoduleSummary=false',
  'diff.ignoreSubmodules=all',
  // An empty value resets the list of helpers, whatever a config file added before it.
  'credential.helper=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'protocol.ext.allow=never',
  // A commit must not start a repack or `git maintenance` in the background.
  'gc.auto=0',
  'maintenance.auto=false',
  'color.ui=false',
  'advice.detachedHead=false',
];
// Deliberately absent: `diff.external=` (an empty external diff makes git try to run "" and die;
// every diff runs with --no-ext-diff instead) and `core.sshCommand=` (an empty command is run as
// "", and it would override the checkout's own SSH command that a push is handed).

export class GitError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface GitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** true when the call was stopped: its consumer, the signal, the time bound or the output cap */
  stopped: boolean;
  timedOut: boolean;
}

export interface GitCall {
  cwd: string;
  /** variables on top of the minimal environment (GIT_DIR, identity, the push's credential) */
  env?: Record<string, string>;
  input?: string | Buffer;
  signal?: AbortSignal;
  /** default 120 s */
  timeoutMs?: number;
  /** stdout kept beyond this is dropped and git is stopped; default 64 MiB */
  maxOutputBytes?: number;
  /** read-only calls take no optional locks (a status beside a tool's ls-files) */
  readOnly?: boolean;
  /** streams stdout; returning false stops git (the result's stdout is then empty) */
  onData?: (chunk: Buffer) => boolean;
  /** let git see the user's own config files (identity lookup of the CLI, before any command ran) */
  userConfig?: boolean;
}

export interface GitRunner {
  /** the absolute, real path of the git binary */
  readonly binary: string;
  run(args: string[], call: GitCall): Promise<GitResult>;
  /** run(), throwing a GitError unless git exits 0; stdout as text */
  text(args: string[], call: GitCall): Promise<string>;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
const MAX_STDERR = 64 * 1024;
const EXIT_GRACE_MS = 2000;
const SYSTEM_DIRS = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin'];

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const resolved = new Map<string, string>();

/**
 * The git binary, resolved once: the first `git` on PATH that is an executable regular file,
 * skipping relative PATH entries and entries whose real path lies in `workspace` (a workflow that
 * puts `node_modules/.bin` on PATH would otherwise let a command plant the git patchloop runs),
 * and refusing a binary whose own real path lies there. Throws when there is none.
 */
export function resolveGit(options: { workspace?: string; path?: string } = {}): string {
  const pathEnv = options.path ?? process.env.PATH ?? '';
  const key = `${options.workspace ?? ''}\0${pathEnv}`;
  const cached = resolved.get(key);
  if (cached) return cached;
  const ws = options.workspace ? (realOrUndefined(options.workspace) ?? options.workspace) : undefined;
  const name = process.platform === 'win32' ? 'git.exe' : 'git';
  for (const entry of pathEnv.split(delimiter)) {
    if (!entry || !isAbsolute(entry)) continue;
    const dir = realOrUndefined(entry);
    if (!dir || (ws && inside(ws, dir))) continue;
    const real = realOrUndefined(join(dir, name));
    if (!real || (ws && inside(ws, real))) continue;
    try {
      if (!statSync(real).isFile()) continue;
      accessSync(real, constants.X_OK);
    } catch {
      continue;
    }
    resolved.set(key, real);
    return real;
  }
  throw new Error(
    `git was not found on PATH outside the workspace${ws ? ` (${ws})` : ''}; install git or put it in a system folder`,
  );
}

let privateHome: string | undefined;

/** An empty folder of our own (mode 0700) for git's HOME: no ~/.gitconfig, no XDG files. */
function emptyHome(): string {
  if (!privateHome) {
    const home = mkdtempSync(join(tmpdir(), 'patchloop-home-'));
    process.once('exit', () => rmSync(home, { recursive: true, force: true }));
    privateHome = home;
  }
  return privateHome;
}

// Only what git itself needs from the job's environment; never a secret. The proxy and SSH agent
// variables matter for network commands only, and carry no credential of the run.
const PASSED = /^(https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY|all_proxy|ALL_PROXY|SSH_AUTH_SOCK|TZ)$/;

/** The environment of one git process. */
export function gitEnvironment(binary: string, call: Pick<GitCall, 'env' | 'readOnly' | 'userConfig'>) {
  const path = [dirname(binary), ...SYSTEM_DIRS.filter((d) => d !== dirname(binary))].join(delimiter);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && PASSED.test(k)) env[k] = v;
  Object.assign(env, {
    PATH: path,
    HOME: emptyHome(),
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    // refs/replace/* would let a copied ref change what an object id means
    GIT_NO_REPLACE_OBJECTS: '1',
    // no lazy fetch from a promisor remote behind our back (git 2.45+)
    GIT_NO_LAZY_FETCH: '1',
  });
  if (call.readOnly) env.GIT_OPTIONAL_LOCKS = '0';
  if (call.userConfig) {
    // The user's own identity for the CLI: read before any command ran, from their files only.
    delete env.GIT_CONFIG_GLOBAL;
    if (process.env.HOME) env.HOME = process.env.HOME;
    if (process.env.XDG_CONFIG_HOME) env.XDG_CONFIG_HOME = process.env.XDG_CONFIG_HOME;
    if (process.env.GIT_CONFIG_GLOBAL) env.GIT_CONFIG_GLOBAL = process.env.GIT_CONFIG_GLOBAL;
  }
  return { ...env, ...call.env };
}

/** How long a stopped git has, after SIGTERM, to remove its lock files and exit before SIGKILL. */
const TERM_GRACE_MS = 1000;

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already
  }
}

/**
 * Stops git's process group: SIGTERM first, on which git removes the lock files it holds
 * (index.lock, a ref's .lock) as it exits; SIGKILL for whatever is still there after the grace.
 * A SIGKILL alone would leave `index.lock` behind, and every later commit or merge abort in that
 * git dir would fail on it. Returns a cancel for the SIGKILL (git exited in time).
 */
function stopGroup(pid: number | undefined): () => void {
  signalGroup(pid, 'SIGTERM');
  const kill = setTimeout(() => signalGroup(pid, 'SIGKILL'), TERM_GRACE_MS);
  kill.unref();
  return () => clearTimeout(kill);
}

/** A runner bound to one git binary. */
export function createGitRunner(binary: string): GitRunner {
  if (!isAbsolute(binary)) throw new Error(`git must be an absolute path, got ${binary}`);

  function run(args: string[], call: GitCall): Promise<GitResult> {
    return new Promise((resolve) => {
      const overrides = SAFE_CONFIG.flatMap((c) => ['-c', c]);
      const stdout: Buffer[] = [];
      let stdoutBytes = 0;
      const stderr: Buffer[] = [];
      let stderrBytes = 0;
      let stopped = false;
      let timedOut = false;
      let settled = false;
      const finish = (code: number | null, error?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        call.signal?.removeEventListener('abort', stop);
        resolve({
          code,
          stdout: Buffer.concat(stdout),
          stderr: error ?? Buffer.concat(stderr).toString('utf8').trim(),
          stopped,
          timedOut,
        });
      };
      if (call.signal?.aborted) {
        stopped = true;
        finish(null, 'git was not started: the call was cancelled');
        return;
      }
      let child: ReturnType<typeof spawn>;
      try {
        // Own process group, so a stop takes git's helpers (remote-https, pack-objects, ssh) too.
        child = spawn(binary, ['--no-pager', ...overrides, ...args], {
          cwd: call.cwd,
          env: gitEnvironment(binary, call),
          stdio: [call.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
          detached: true,
          shell: false,
        });
      } catch (err) {
        finish(null, err instanceof Error ? err.message : String(err));
        return;
      }
      let cancelKill: (() => void) | undefined;
      function stop() {
        if (stopped) return;
        stopped = true;
        cancelKill = stopGroup(child.pid);
      }
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, call.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      call.signal?.addEventListener('abort', stop, { once: true });
      const cap = call.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
      child.stdout!.on('data', (chunk: Buffer) => {
        if (stopped) return;
        if (call.onData) {
          if (call.onData(chunk) === false) stop();
          return;
        }
        stdoutBytes += chunk.length;
        if (stdoutBytes > cap) return stop();
        stdout.push(chunk);
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (stderrBytes < MAX_STDERR) stderr.push(chunk);
        stderrBytes += chunk.length;
      });
      if (call.input !== undefined && child.stdin) {
        child.stdin.on('error', () => undefined);
        child.stdin.end(call.input);
      }
      child.once('error', (err) => finish(null, err.message));
      child.once('close', (code) => {
        // A helper git started may still hold the group; it goes with its parent.
        if (stopped) {
          cancelKill?.();
          signalGroup(child.pid, 'SIGKILL');
        }
        finish(code);
      });
      // A helper that left the group (setsid) can keep our pipes open after git itself exited;
      // 'close' would then never come. Git's exit is what counts, a moment later at most.
      child.once('exit', (code) => {
        setTimeout(() => {
          if (settled) return;
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish(code);
        }, EXIT_GRACE_MS).unref();
      });
    });
  }

  async function text(args: string[], call: GitCall): Promise<string> {
    const r = await run(args, call);
    if (r.code === 0 && !r.stopped) return r.stdout.toString('utf8');
    const what = `git ${args.find((a) => !a.startsWith('-')) ?? ''}`;
    const why = r.timedOut
      ? `timed out after ${formatDuration(call.timeoutMs ?? DEFAULT_TIMEOUT_MS)}`
      : call.signal?.aborted
        ? (call.signal.reason as { name?: string } | undefined)?.name === 'TimeoutError'
          ? 'was stopped at its deadline'
          : 'was cancelled'
        : r.stopped
          ? 'was stopped (output too large)'
          : `failed (exit ${r.code}): ${r.stderr.split('\n').slice(-3).join(' ')}`;
    throw new GitError(`${what} ${why}`, r.code, r.stderr);
  }

  return { binary, run, text };
}

/** Splits NUL-terminated output (`-z`) into strings. */
export function splitNul(buf: Buffer | string): string[] {
  const out = (typeof buf === 'string' ? buf : buf.toString('utf8')).split('\0');
  if (out[out.length - 1] === '') out.pop();
  return out;
}
