import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { formatBytes, type TruncationLimits } from './truncate.js';

export interface OutputBufferOptions {
  /** Bytes of the tail kept in memory; everything older lives only in the spill file. */
  memoryBytes: number;
  /** Once the output exceeds these, the full output is written to a file in `spillDir`. */
  limits: TruncationLimits;
  spillDir: string;
  /** File name prefix, e.g. the tool's name. */
  name: string;
  /** Mode of the saved file; default 0600. */
  fileMode?: number;
  /** How much of a long output the saved file keeps. Default: DEFAULT_OUTPUT_BOUNDS. */
  bounds?: Pick<OutputBounds, 'headBytes' | 'tailBytes'>;
}

/** What patchloop itself writes to disk for one command, and where it stops the command. */
export interface OutputBounds {
  /** The first bytes of the output, kept in the saved file. */
  headBytes: number;
  /** The last bytes of the output, kept in the saved file (held in memory until the command ends). */
  tailBytes: number;
  /** The total output (stdout and stderr together) past which the command is stopped. */
  stopBytes: number;
}

// The saved output is written by patchloop, not by the command, so the command's file-size limit
// does not bound it: a test that prints 40 GB would fill the runner's disk, and the commit, the
// transcript and the upload after it would fail. The saved file keeps both ends (how a run starts
// and where it failed), 16 MiB in all; and a command that has printed 1 GiB is stopped: no test
// suite's log is that long (a verbose run of a large suite is tens of MB), so past it the command
// is looping, and reading it on costs the run's time budget for nothing (1 GiB takes patchloop a
// few seconds to read).
export const DEFAULT_OUTPUT_BOUNDS: OutputBounds = {
  headBytes: 8 * 1024 ** 2,
  tailBytes: 8 * 1024 ** 2,
  stopBytes: 1024 ** 3,
};

export interface CapturedOutput {
  /** The last bytes of the output, decoded as UTF-8 (invalid bytes become U+FFFD). */
  text: string;
  /** True when `text` is the whole output. */
  complete: boolean;
  totalBytes: number;
  totalLines: number;
  /** Where the output was saved, when it exceeded the limits. */
  fullOutputPath?: string;
  /** Bytes of the output left out of the saved file (between its head and its tail), when any were. */
  droppedBytes?: number;
  /** Why the full output could not be saved, if it could not. */
  spillError?: string;
}

function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) n++;
  return n;
}

/**
 * Collects a command's output with bounded memory and disk: the whole output while it is small, and
 * once it passes the limits, a tail in memory plus a file (written synchronously, so memory never
 * holds a backlog, whatever the producer's speed) that holds the whole output while it is under the
 * bounds, and else its first `headBytes`, a line that says how much was dropped, and its last
 * `tailBytes` (written when the command ends).
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  private held = 0;
  private total = 0;
  private newlines = 0;
  private lastByte = -1;
  private fd: number | undefined;
  private path: string | undefined;
  private spillError: string | undefined;
  private dropped = false;
  /** Bytes of the output's head written to the file. */
  private written = 0;
  private readonly headBytes: number;
  private readonly tailBytes: number;

  constructor(private readonly options: OutputBufferOptions) {
    this.headBytes = options.bounds?.headBytes ?? DEFAULT_OUTPUT_BOUNDS.headBytes;
    this.tailBytes = options.bounds?.tailBytes ?? DEFAULT_OUTPUT_BOUNDS.tailBytes;
  }

  get totalBytes(): number {
    return this.total;
  }

  write(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    this.newlines += countNewlines(chunk);
    this.lastByte = chunk[chunk.length - 1]!;
    this.chunks.push(chunk);
    this.held += chunk.length;
    if (this.fd !== undefined) this.append(chunk);
    else if (this.exceedsLimits()) this.spill();
    this.trim();
  }

  /** The last `bytes` of output so far, for progress updates. */
  peek(bytes: number): string {
    return decodeTail(this.lastBytes(bytes + 4), bytes);
  }

  finish(): CapturedOutput {
    if (this.fd === undefined && this.path === undefined && this.exceedsLimits()) this.spill();
    let droppedBytes: number | undefined;
    if (this.fd !== undefined) {
      // what the head left out: all of it from memory when it is there, else the last tailBytes
      const rest = this.total - this.written;
      const keep = Math.min(rest, this.tailBytes, this.held);
      if (keep < rest) {
        droppedBytes = rest - keep;
        this.writeFile(
          Buffer.from(
            `\n[… ${formatBytes(droppedBytes)} of output dropped here: patchloop keeps the first ${formatBytes(this.headBytes)} and the last ${formatBytes(this.tailBytes)} of a command's output …]\n`,
          ),
        );
      }
      if (keep > 0) this.writeFile(this.lastBytes(keep));
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
    }
    const all = this.lastBytes(this.options.memoryBytes + 4);
    const totalLines = this.newlines + (this.total > 0 && this.lastByte !== 10 ? 1 : 0);
    return {
      text: decodeTail(all, this.options.memoryBytes),
      complete: !this.dropped && this.held <= this.options.memoryBytes,
      totalBytes: this.total,
      totalLines,
      fullOutputPath: this.path,
      ...(droppedBytes !== undefined ? { droppedBytes } : {}),
      spillError: this.spillError,
    };
  }

  /** The last `n` bytes held in memory (fewer when fewer are held). */
  private lastBytes(n: number): Buffer {
    const parts: Buffer[] = [];
    let got = 0;
    for (let i = this.chunks.length - 1; i >= 0 && got < n; i--) {
      parts.unshift(this.chunks[i]!);
      got += this.chunks[i]!.length;
    }
    const all = Buffer.concat(parts);
    return all.length > n ? all.subarray(all.length - n) : all;
  }

  private exceedsLimits(): boolean {
    const lines = this.newlines + (this.total > 0 && this.lastByte !== 10 ? 1 : 0);
    return this.total > this.options.limits.maxBytes || lines > this.options.limits.maxLines;
  }

  private spill(): void {
    if (this.spillError !== undefined) return;
    try {
      mkdirSync(this.options.spillDir, { recursive: true });
      const name = `${this.options.name}-${Date.now()}-${randomBytes(4).toString('hex')}.log`;
      this.path = join(this.options.spillDir, name);
      this.fd = openSync(this.path, 'wx', this.options.fileMode ?? 0o600);
      // before the first spill nothing was trimmed: the chunks are the whole output so far
      for (const chunk of this.chunks) this.append(chunk);
    } catch (err) {
      this.failSpill(err);
    }
  }

  /** Writes what of `chunk` still belongs to the saved head; the rest waits in memory for the tail. */
  private append(chunk: Buffer): void {
    const room = this.headBytes - this.written;
    if (this.fd === undefined || room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.writeFile(part);
    this.written += part.length;
  }

  private writeFile(data: Buffer): void {
    if (this.fd === undefined) return;
    try {
      let off = 0;
      while (off < data.length) off += writeSync(this.fd, data, off, data.length - off);
    } catch (err) {
      this.failSpill(err);
    }
  }

  private failSpill(err: unknown): void {
    this.spillError = `${err instanceof Error ? err.message : String(err)} (after ${formatBytes(this.total)})`;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already reported through spillError
      }
    }
    this.fd = undefined;
  }

  /** Drops chunks older than the in-memory tail (and the saved file's tail), once they are saved or cannot be. */
  private trim(): void {
    if (this.fd === undefined && this.spillError === undefined) return;
    const cap =
      this.fd === undefined ? this.options.memoryBytes : Math.max(this.options.memoryBytes, this.tailBytes);
    while (this.chunks.length > 1 && this.held - this.chunks[0]!.length >= cap) {
      this.held -= this.chunks.shift()!.length;
      this.dropped = true;
    }
    if (this.held > cap * 2 && this.chunks.length === 1) {
      const only = this.chunks[0]!;
      this.chunks[0] = Buffer.from(only.subarray(only.length - cap));
      this.held = cap;
      this.dropped = true;
    }
  }
}

/** Decodes the last `maxBytes` of a buffer, starting on a character boundary. */
export function decodeTail(buf: Buffer, maxBytes: number): string {
  let start = Math.max(0, buf.length - maxBytes);
  if (start > 0) {
    const limit = Math.min(buf.length, start + 4);
    while (start < limit && (buf[start]! & 0xc0) === 0x80) start++;
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(buf.subarray(start));
}
