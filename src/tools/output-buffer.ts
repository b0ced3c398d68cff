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
}

export interface CapturedOutput {
  /** The last bytes of the output, decoded as UTF-8 (invalid bytes become U+FFFD). */
  text: string;
  /** True when `text` is the whole output. */
  complete: boolean;
  totalBytes: number;
  totalLines: number;
  /** Where the full output was saved, when it exceeded the limits. */
  fullOutputPath?: string;
  /** Why the full output could not be saved, if it could not. */
  spillError?: string;
}

function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) n++;
  return n;
}

/**
 * Collects a command's output with bounded memory: the whole output while it is small, and once
 * it passes the limits, a tail of `memoryBytes` in memory plus the full output in a file (written
 * synchronously, so memory never holds a backlog, whatever the producer's speed).
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

  constructor(private readonly options: OutputBufferOptions) {}

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
    return decodeTail(Buffer.concat(this.chunks), bytes);
  }

  finish(): CapturedOutput {
    if (this.fd === undefined && this.path === undefined && this.exceedsLimits()) this.spill();
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    const all = Buffer.concat(this.chunks);
    const totalLines = this.newlines + (this.total > 0 && this.lastByte !== 10 ? 1 : 0);
    return {
      text: decodeTail(all, this.options.memoryBytes),
      complete: !this.dropped && all.length <= this.options.memoryBytes,
      totalBytes: this.total,
      totalLines,
      fullOutputPath: this.path,
      spillError: this.spillError,
    };
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
      for (const chunk of this.chunks) this.append(chunk);
    } catch (err) {
      this.failSpill(err);
    }
  }

  private append(chunk: Buffer): void {
    if (this.fd === undefined) return;
    try {
      let off = 0;
      while (off < chunk.length) off += writeSync(this.fd, chunk, off, chunk.length - off);
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

  /** Drops chunks older than the in-memory tail, once they are safe on disk (or cannot be). */
  private trim(): void {
    if (this.fd === undefined && this.spillError === undefined) return;
    const cap = this.options.memoryBytes;
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
