import { isUtf8 } from 'node:buffer';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Message, Usage } from './types.js';

// The transcript: JSON Lines, one line per message or event, appended as the run goes so a
// killed process leaves a valid file up to its last complete line (CONTRACT §7).

export const TRANSCRIPT_VERSION = 1;

export interface SessionFields {
  id: string;
  startedAt: string;
  repository: string;
  trigger: string;
  provider: string;
  model: string;
  /** The session this one continues (following up; CLI `run --continue`); `runId` only in the action. */
  continues?: { runId?: string; sessionId: string };
  [key: string]: unknown;
}

export interface SessionLine extends SessionFields {
  type: 'session';
  version: number;
}

export interface MessageLine {
  type: 'message';
  message: Message;
}

export const EVENT_KINDS = [
  'retry',
  'fallback',
  'compaction',
  'budget',
  'cancel',
  'error',
  'commit',
  'push',
  'pull-request',
  'comment',
  // the earlier session's messages end here (with `earlierMessages`), or the model was asked to
  // go on after a cut-off or empty reply (with `turn` and `reason`)
  'continue',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number] | (string & {});

export interface EventLine {
  type: 'event';
  event: EventKind;
  timestamp: number;
  [key: string]: unknown;
}

export interface SummaryFields {
  conclusion: string;
  usage: Usage;
  [key: string]: unknown;
}

export interface SummaryLine extends SummaryFields {
  type: 'summary';
}

export type TranscriptLine = SessionLine | MessageLine | EventLine | SummaryLine;

export type Redactor = (text: string) => string;

/** A message's line as a transcript holds it: its text and, when read from bytes, those bytes. */
export interface RecordedLine {
  text: string;
  bytes?: Uint8Array;
}

export interface TranscriptWriterOptions {
  /** Applied to each serialised line before it is written (removes secrets). */
  redact?: Redactor;
  /** Called when a write fails (disk full ...); the run goes on, the failure is reported once. */
  onError?: (err: Error) => void;
}

// The escapes JSON.stringify writes: \" \\ \b \f \n \r \t, \u00XX for the other control characters
// and \udXXX for a lone surrogate. A line read back with any other escape (\/, \u0041, …) was not
// written by this writer.
const FOREIGN_ESCAPE = /\\(?:\/|u(?!00(?:0[0-7bef]|1[0-9a-f])|d[89a-f][0-9a-f]{2}))/;

/** Appends lines to a JSONL file, whole lines in each write; never rewrites what it wrote. */
export class TranscriptWriter {
  private fd: number | undefined;
  private failed = false;
  readonly path: string;

  constructor(
    path: string,
    private readonly options: TranscriptWriterOptions = {},
  ) {
    this.path = path;
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a');
  }

  /** False once a write has failed (the file then ends at the last complete line). */
  get healthy(): boolean {
    return !this.failed;
  }

  write(line: TranscriptLine): void {
    if (this.fd === undefined || this.failed) return;
    this.append(this.encode(line));
  }

  private encode(line: TranscriptLine): string {
    const text = JSON.stringify(line);
    return `${this.options.redact ? this.options.redact(text) : text}\n`;
  }

  private append(text: string): void {
    this.appendBytes(Buffer.from(text, 'utf8'));
  }

  private appendBytes(buf: Uint8Array): void {
    if (this.fd === undefined) return;
    try {
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    } catch (err) {
      this.failed = true;
      this.options.onError?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  session(line: SessionFields): void {
    this.write({ ...line, type: 'session', version: TRANSCRIPT_VERSION });
  }

  message(message: Message): void {
    this.write({ type: 'message', message });
  }

  /**
   * Many messages (an earlier session's), a line each, in one write. `recorded[i]`, when given, is
   * the line that holds messages[i] in the transcript it was read from (ParsedTranscript's
   * `messageRows`): it is written as it is (its bytes, when it has them) rather than encoded
   * again, unless it holds an escape this writer never writes (which could hide a secret's text
   * from the redactor).
   */
  messages(messages: readonly Message[], recorded: readonly (RecordedLine | undefined)[] = []): void {
    if (this.fd === undefined || this.failed || messages.length === 0) return;
    const lines = messages.map((message, i): RecordedLine => {
      const row = recorded[i];
      return row && !FOREIGN_ESCAPE.test(row.text)
        ? row
        : { text: JSON.stringify({ type: 'message', message }) };
    });
    const block = `${lines.map((l) => l.text).join('\n')}\n`;
    const redact = this.options.redact;
    // The redactor looks for values and shapes that never span a line: when it finds something in
    // a line, it finds it in the block. Nothing found: the lines go out as they are; else each is
    // redacted on its own, as write() does.
    if (redact && redact(block) !== block) {
      this.append(lines.map((l) => `${redact(l.text)}\n`).join(''));
      return;
    }
    if (!lines.some((l) => l.bytes)) {
      this.append(block);
      return;
    }
    const newline = Buffer.from('\n');
    this.appendBytes(Buffer.concat(lines.flatMap((l) => [l.bytes ?? Buffer.from(l.text, 'utf8'), newline])));
  }

  event(event: EventKind, data: Record<string, unknown> = {}): void {
    this.write({ type: 'event', event, timestamp: Date.now(), ...data });
  }

  summary(line: SummaryFields): void {
    this.write({ ...line, type: 'summary' });
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed or the disk went away; nothing more to write anyway
    }
    this.fd = undefined;
  }
}

/** The `continue` event that ends an earlier session's messages in a continued transcript. */
export function isSessionBoundary(line: TranscriptLine): boolean {
  return line.type === 'event' && line.event === 'continue' && typeof line.earlierMessages === 'number';
}

export interface ParsedTranscript {
  session?: SessionLine;
  messages: Message[];
  /** The line of each of `messages` as the file holds it (for TranscriptWriter.messages). */
  messageRows: RecordedLine[];
  events: EventLine[];
  summary?: SummaryLine;
  /** Every recognised line in file order. */
  lines: TranscriptLine[];
  /** Lines with an unknown `type` (kept, shown by readers, never fatal). */
  unknown: { lineNumber: number; value: unknown }[];
  /** Lines that were not JSON; a torn last line of a killed run is the usual case. */
  invalid: { lineNumber: number; text: string }[];
  /** True when the final line was cut off mid-way. */
  torn: boolean;
}

/**
 * Reads a transcript; tolerates a torn last line, unknown line types and blank lines. Given the
 * file's bytes (valid UTF-8), each message's line keeps its bytes as well as its text.
 */
export function parseTranscript(input: string | Uint8Array): ParsedTranscript {
  const bytes =
    typeof input === 'string' ? undefined : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const text = bytes ? bytes.toString('utf8') : (input as string);
  // Byte offsets follow the text's lines only when decoding replaced nothing.
  const byLine = bytes && isUtf8(bytes) ? bytes : undefined;
  let at = 0;
  const out: ParsedTranscript = {
    messages: [],
    messageRows: [],
    events: [],
    lines: [],
    unknown: [],
    invalid: [],
    torn: false,
  };
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const start = at;
    const end = byLine ? (i < rows.length - 1 ? byLine.indexOf(0x0a, at) : byLine.length) : 0;
    at = end + 1;
    const row = rows[i]!.trim();
    if (row === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      if (i === rows.length - 1) out.torn = true;
      out.invalid.push({ lineNumber: i + 1, text: row.slice(0, 200) });
      continue;
    }
    const type = value && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
    switch (type) {
      case 'session':
        out.session ??= value as SessionLine;
        out.lines.push(value as SessionLine);
        break;
      case 'message': {
        const line = value as MessageLine;
        if (line.message && typeof line.message === 'object' && 'role' in line.message) {
          out.messages.push(line.message);
          out.messageRows.push(
            byLine && row.length === rows[i]!.length
              ? { text: row, bytes: byLine.subarray(start, end) }
              : { text: row },
          );
          out.lines.push(line);
        } else out.unknown.push({ lineNumber: i + 1, value });
        break;
      }
      case 'event':
        out.events.push(value as EventLine);
        out.lines.push(value as EventLine);
        break;
      case 'summary':
        out.summary = value as SummaryLine;
        out.lines.push(value as SummaryLine);
        break;
      default:
        out.unknown.push({ lineNumber: i + 1, value });
    }
  }
  return out;
}
