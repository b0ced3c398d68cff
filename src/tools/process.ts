import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { commandEnv, type CommandEnvOptions } from './env.js';
import {
  DEFAULT_OUTPUT_BOUNDS,
  OutputBuffer,
  type CapturedOutput,
  type OutputBounds,
} from './output-buffer.js';
import { killGroup, liveMembers, signalGroup, type SignalGroup } from './process-group.js';
import { DEFAULT_LIMITS, type TruncationLimits } from './truncate.js';

export interface CommandSpec {
  command: string;
  cwd: string;
  /** The command's environment, already reduced to the allow-list. */
  env: Record<string, string>;
  /** The command's time limit, when it has one (the sandbox bounds its CPU time by it). */
  timeoutMs?: number;
  /**
   * Variables for this command alone, past the allow-list (an MCP server's configured `env`): the
   * caller vouches for them, and no other command ever gets them.
   */
  ownEnv?: Record<string, string>;
  /**
   * The command lives beside others (an MCP stdio server): it sees the workspace read-only where
   * the sandbox moves commands' writes in after they end (the overlay method).
   */
  readOnlyWorkspace?: boolean;
}

export interface CommandSandbox {
  /** Rewrites how a shell command is launched (e.g. under another uid). */
  wrap(spec: CommandSpec): {
    file: string;
    args: string[];
    env: Record<string, string>;
    uid?: number;
    gid?: number;
    /**
     * Awaited once the command and everything it started have ended, before its result is read:
     * the sandbox puts what it wrote into the workspace. A note for the model when some of it
     * could not be.
     */
    settle?: () => Promise<string | undefined>;
  };
  /** Signals a process group the sandbox started, when the caller itself may not (another uid). */
  signal?: SignalGroup;
  /** Mode of saved output files: the sandbox user must be able to read them back (0644). */
  outputFileMode?: number;
  /**
   * Group access (the walks' fallback without setfacl): the sandbox user's group, which what the
   * file tools make must join, writable by it; undefined under any other access.
   */
  toolGroup?: () => number | undefined;
  /** The sandbox's own `command-env` names and private folders, added to the caller's. */
  envOptions?: CommandEnvOptions;
  /** What the command's network policy refused: `mark()` before a command, `note(mark, output)` after it. */
  network?: CommandNetworkNotes;
  /** Which of the sandbox's resource limits ended a command, in a sentence; undefined when none did. */
  limitNote?: (ended: EndedCommand, timeoutMs: number | undefined) => string | undefined;
}

/** How a command ended, for CommandSandbox.limitNote. */
export interface EndedCommand {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** The end of the command's output (a refused write's error text is there). */
  outputTail?: string;
}

export interface CommandNetworkNotes {
  mark(): number;
  /** A short note for the model about what was refused since `mark` (or a missing network); undefined when none. */
  note(mark: number, output: string): string | undefined;
}

export interface RunCommandOptions {
  command: string;
  cwd: string;
  /** The job's environment, from which only the allow-list is taken (env.ts). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Names passed on besides the neutral variables (`command-env`), and PATH entries to drop. */
  envOptions?: CommandEnvOptions;
  timeoutMs?: number;
  signal?: AbortSignal;
  sandbox?: CommandSandbox;
  /** Past these the full output is saved to a file in `artifactsDir`. */
  limits?: TruncationLimits;
  /** Where full output is saved when it is cut. Default: the system temp folder. */
  artifactsDir?: string;
  /** Prefix of the saved output file's name. */
  name?: string;
  /** Bytes of output tail kept in memory. */
  memoryBytes?: number;
  /** How much of the output is saved, and past how much the command is stopped. Default: DEFAULT_OUTPUT_BOUNDS. */
  outputBounds?: Partial<OutputBounds>;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Called as output arrives (at most every `progressMs`) with the latest tail, for progress UIs. */
  onProgress?: (tail: string) => void;
  progressMs?: number;
}

export interface CommandResult extends CapturedOutput {
  /** null when the command was ended by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** Set when the command was stopped for printing more than this many bytes. */
  outputLimit?: number;
  /** Set when the command could not be started at all. */
  spawnError?: string;
  /** Set when some of what the command wrote could not be put into the workspace (the sandbox's overlay). */
  workspaceNote?: string;
  /** Set when a resource limit (CPU time, file size) or the out-of-memory killer ended the command: which. */
  limitNote?: string;
  durationMs: number;
  /** Pid of the launched process, which is also its process group id. */
  pid?: number;
}

export const DEFAULT_KILL_GRACE_MS = 1000;
const DEFAULT_MEMORY_BYTES = 256 * 1024;
/** After the command exits, how long its output pipes may stay open (held by an escaped daemon). */
const PIPE_CLOSE_WAIT_MS = 500;

const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

/**
 * Runs a shell command in its own process group, with an allow-listed environment, stdin from
 * /dev/null and output captured in bounded memory. Timeout and abort kill the whole group; so
 * does the command's own exit (no background process outlives it). Never throws.
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandResult> {
  const started = Date.now();
  const limits = options.limits ?? DEFAULT_LIMITS;
  const bounds = { ...DEFAULT_OUTPUT_BOUNDS, ...options.outputBounds };
  const output = new OutputBuffer({
    memoryBytes: Math.max(options.memoryBytes ?? DEFAULT_MEMORY_BYTES, limits.maxBytes),
    limits,
    spillDir: options.artifactsDir ?? tmpdir(),
    name: options.name ?? 'command',
    fileMode: options.sandbox?.outputFileMode,
    bounds,
  });
  const base = { exitCode: null, signal: null, timedOut: false, aborted: false };
  if (options.signal?.aborted) {
    return { ...base, ...output.finish(), aborted: true, durationMs: 0 };
  }

  const own = options.sandbox?.envOptions;
  const env = commandEnv(options.env ?? process.env, {
    ...options.envOptions,
    pass: [...(options.envOptions?.pass ?? []), ...(own?.pass ?? [])],
    privateDirs: [...(options.envOptions?.privateDirs ?? []), ...(own?.privateDirs ?? [])],
  });
  const spec: CommandSpec = { command: options.command, cwd: options.cwd, env, timeoutMs: options.timeoutMs };
  const send: SignalGroup = options.sandbox?.signal ?? signalGroup;
  const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;

  let child;
  let settle: (() => Promise<string | undefined>) | undefined;
  try {
    // a sandbox refuses to launch before its self-check has passed: that is a spawn error too
    const launch = options.sandbox
      ? options.sandbox.wrap(spec)
      : { file: shell, args: ['-c', options.command], env, uid: undefined, gid: undefined };
    settle = launch.settle;
    child = spawn(launch.file, launch.args, {
      cwd: options.cwd,
      env: launch.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      uid: launch.uid,
      gid: launch.gid,
      windowsHide: true,
    });
  } catch (err) {
    const note = await settle?.().catch((e: unknown) => String(e));
    return {
      ...base,
      ...output.finish(),
      spawnError: err instanceof Error ? err.message : String(err),
      ...(note ? { workspaceNote: note } : {}),
      durationMs: Date.now() - started,
    };
  }
  const pid = child.pid;
  let timedOut = false;
  let aborted = false;
  let outputLimited = false;
  let killing: Promise<void> | undefined;
  const stop = () => {
    if (pid !== undefined && !killing) killing = killGroup(pid, grace, send);
  };

  let lastProgress = 0;
  let progressTimer: NodeJS.Timeout | undefined;
  const progress = () => {
    progressTimer = undefined;
    lastProgress = Date.now();
    options.onProgress?.(output.peek(4096));
  };
  const onData = (chunk: Buffer) => {
    output.write(chunk);
    if (!outputLimited && output.totalBytes > bounds.stopBytes) {
      outputLimited = true;
      stop();
    }
    if (options.onProgress && !progressTimer) {
      const wait = Math.max(0, lastProgress + (options.progressMs ?? 500) - Date.now());
      progressTimer = setTimeout(progress, wait);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);

  const pipesClosed = Promise.all([
    new Promise<void>((r) => child.stdout.once('close', () => r())),
    new Promise<void>((r) => child.stderr.once('close', () => r())),
  ]);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: string }>(
    (resolve) => {
      child.once('error', (err) => resolve({ code: null, signal: null, error: err.message }));
      child.once('exit', (code, signal) => resolve({ code, signal }));
    },
  );

  const timer =
    options.timeoutMs !== undefined && options.timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          stop();
        }, options.timeoutMs)
      : undefined;
  const onAbort = () => {
    aborted = true;
    stop();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const exit = await exited;
  if (timer) clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  // Whatever the command left running in its group goes with it.
  if (pid !== undefined && liveMembers(pid).length > 0) stop();
  if (killing) await killing;

  let closeTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    pipesClosed,
    new Promise<void>((r) => (closeTimer = setTimeout(r, PIPE_CLOSE_WAIT_MS))),
  ]);
  if (closeTimer) clearTimeout(closeTimer);
  child.stdout.destroy();
  child.stderr.destroy();
  if (progressTimer) clearTimeout(progressTimer);
  // the command's namespace, and every process in it, are gone: what it wrote can be put in place
  const note = await settle?.().catch(
    (e: unknown) => `what the command wrote could not be put into the workspace: ${String(e)}`,
  );

  const finished = output.finish();
  const ended = {
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    aborted,
    outputTail: finished.text.slice(-4096),
  };
  // a command patchloop itself stopped (time, cancel, output) was not ended by a limit
  const limitNote = outputLimited
    ? undefined
    : (options.sandbox?.limitNote?.(ended, options.timeoutMs) ?? signalNote(exit.signal));
  return {
    ...(note ? { workspaceNote: note } : {}),
    ...(limitNote ? { limitNote } : {}),
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    aborted,
    ...(outputLimited ? { outputLimit: bounds.stopBytes } : {}),
    spawnError: exit.error,
    durationMs: Date.now() - started,
    pid,
    ...finished,
  };
}

/** A limit's signal where no sandbox set the limit (a ulimit of the user's own). */
function signalNote(signal: NodeJS.Signals | null): string | undefined {
  if (signal === 'SIGXCPU')
    return 'The command was ended by SIGXCPU: a process of it used up its CPU-time limit (ulimit -t).';
  if (signal === 'SIGXFSZ')
    return 'The command was ended by SIGXFSZ: it wrote past its file-size limit (ulimit -f).';
  return undefined;
}
