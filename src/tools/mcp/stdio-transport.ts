// An MCP stdio transport whose server is a command: launched exactly as run_tests launches its
// command (through the sandbox when there is one: the sandbox user, its namespaces, limits and
// network policy), with the SDK's own framing (ReadBuffer, serializeMessage) over the pipes.
// The SDK's StdioClientTransport spawns its command itself, so it cannot be started as another
// user in other namespaces.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killGroup, signalGroup } from '../process-group.js';
import type { CommandSandbox, CommandSpec } from '../process.js';

/** What the server wrote on stderr, kept for the error message when it fails (the tail only). */
const STDERR_TAIL_BYTES = 4096;
const KILL_GRACE_MS = 1000;
const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

export class CommandStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcessWithoutNullStreams;
  private readonly buffer = new ReadBuffer();
  private stderrTail = '';
  private closed = false;

  constructor(
    private readonly spec: CommandSpec,
    private readonly sandbox?: CommandSandbox,
  ) {}

  /** The last lines the server wrote on stderr (for a failure's message; the caller redacts). */
  get stderr(): string {
    return this.stderrTail;
  }

  start(): Promise<void> {
    const spec = this.spec;
    const launch = this.sandbox
      ? this.sandbox.wrap(spec)
      : {
          file: shell,
          args: ['-c', spec.command],
          env: { ...spec.env, ...spec.ownEnv },
          uid: undefined,
          gid: undefined,
        };
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(launch.file, launch.args, {
          cwd: spec.cwd,
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
      child.once('spawn', () => resolve());
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once('exit', () => this.ended());
      child.stdin.on('error', (err) => this.onerror?.(err));
      child.stdout.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
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
      });
      child.stderr.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
    });
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

  /** Stops the server and everything it started (its process group; the namespace goes with it). */
  async close(): Promise<void> {
    const child = this.child;
    if (child?.pid !== undefined && !this.closed) {
      child.stdin.end();
      await killGroup(child.pid, KILL_GRACE_MS, this.sandbox?.signal ?? signalGroup);
    }
    this.ended();
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.child?.stdout.destroy();
    this.child?.stderr.destroy();
    this.onclose?.();
  }
}
