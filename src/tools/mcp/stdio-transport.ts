// An MCP stdio transport whose server is a command: launched exactly as run_tests launches its
// command (through the sandbox when there is one: the sandbox user, its namespaces, limits and
// network policy), with the SDK's own framing (ReadBuffer, serializeMessage) over the pipes.
// The SDK's StdioClientTransport spawns its command itself, not in a process group of its own, so
// it could neither be started through the sandbox's launch nor stopped with all it started; its
// guard is kept: the SDK's bounded ReadBuffer, whose overflow stops this server, never the run.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killGroup, signalGroup } from '../process-group.js';
import type { CommandSandbox, CommandSpec } from '../process.js';

/** What the server wrote on stderr, kept for the transcript when it fails (the tail only). */
const STDERR_TAIL_BYTES = 4096;
const KILL_GRACE_MS = 1000;
/** The SDK's own bound on what may wait for a newline (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** The server as a shell command (for the sandbox's launch) and as the argv it stands for. */
export interface ServerSpec extends CommandSpec {
  /** The program's absolute path, then its arguments: run as they are where there is no sandbox. */
  argv: string[];
}

/** How long close() reads a stopped server's stderr to its end (a process outside its group may hold the pipe). */
const STDERR_DRAIN_MS = 1000;

export class CommandStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called once the server's process has been spawned: its handshake deadline starts there. */
  onlaunch?: () => void;
  private child?: ChildProcessWithoutNullStreams;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_LINE_BYTES });
  private stderrTail = '';
  private closed = false;
  private why?: string;
  /** Settles when the process has exited and its pipes are closed (all its stderr read). */
  private gone?: Promise<void>;

  constructor(
    private readonly spec: ServerSpec,
    private readonly sandbox?: CommandSandbox,
  ) {}

  /** The last lines the server wrote on stderr: for the transcript only (the caller redacts). */
  get stderr(): string {
    return this.stderrTail;
  }

  /** Why the server stopped, in patchloop's own words (no text of the server's), once it has. */
  get stopped(): string | undefined {
    return this.why;
  }

  start(): Promise<void> {
    try {
      return this.launch();
    } catch (err) {
      this.why ??= 'it could not be launched';
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private launch(): Promise<void> {
    const spec = this.spec;
    const launch = this.sandbox
      ? this.sandbox.wrap(spec)
      : {
          // no shell in between: one started on a socket would read the user's ~/.bashrc first
          file: spec.argv[0]!,
          args: spec.argv.slice(1),
          env: { ...spec.env, ...spec.ownEnv },
          uid: undefined,
          gid: undefined,
        };
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(launch.file, launch.args, {
          // through the sandbox the folder is entered inside the command's own mounts
          cwd: this.sandbox ? '/' : spec.cwd,
          env: launch.env,
          detached: true,
          stdio: ['pipe', 'pipe', 'pipe'],
          uid: launch.uid,
          gid: launch.gid,
          windowsHide: true,
        });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      this.child = child;
      this.gone = new Promise((done) => child.once('close', () => done()));
      child.once('spawn', () => {
        resolve();
        this.onlaunch?.();
      });
      child.once('error', (err) => {
        this.why ??= 'it could not be launched';
        reject(err);
        this.onerror?.(err);
      });
      child.once('exit', (code, signal) => {
        this.why ??= `it exited (${signal ? `signal ${signal}` : `exit code ${String(code)}`})`;
        this.ended();
      });
      child.stdin.on('error', (err) => this.onerror?.(err));
      child.stdout.on('error', (err) => this.onerror?.(err));
      child.stderr.on('error', () => undefined);
      child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
    });
  }

  private read(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.buffer.append(chunk);
    } catch (err) {
      // more than the bound without a newline: this server is stopped, as the SDK's transport does
      this.why ??= `it wrote more than ${MAX_LINE_BYTES / 1024 / 1024} MiB to stdout without a newline`;
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      void this.close().catch(() => undefined);
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        // a line that is not JSON-RPC (a server that logs to stdout): reported, not fatal
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return Promise.reject(new Error('the MCP server is not running'));
    return new Promise((resolve, reject) => {
      const ok = child.stdin.write(serializeMessage(message), (err) => (err ? reject(err) : undefined));
      if (ok) resolve();
      else child.stdin.once('drain', () => resolve());
    });
  }

  /** Waits, up to `ms`, for the process to end and its stderr to be read to the end. */
  async settled(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.gone, new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  /** Stops the server and everything it started (its process group; the namespace goes with it). */
  async close(): Promise<void> {
    const child = this.child;
    if (child?.pid !== undefined && !this.closed) {
      child.stdin.end();
      this.ended();
      await killGroup(child.pid, KILL_GRACE_MS, this.sandbox?.signal ?? signalGroup);
    }
    this.ended();
    // What the group wrote on stderr before it died is still in the pipe: read it to its end (the
    // group is gone, so the end comes at once) before the stream is destroyed, or a server that
    // failed its handshake loses its last words to a close that came first (seen on a loaded machine).
    const stderr = child?.stderr;
    if (stderr && !stderr.readableEnded && !stderr.destroyed) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((done) => stderr.once('end', done).once('close', done)),
        new Promise((done) => (timer = setTimeout(done, STDERR_DRAIN_MS))),
      ]);
      clearTimeout(timer);
    }
    stderr?.destroy();
  }

  // stderr is left to drain (what a failed server said last is what its reader needs); close()
  // destroys it once the process group is gone
  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.child?.stdout.destroy();
    this.onclose?.();
  }
}
