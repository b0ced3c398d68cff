import { isUtf8 } from 'node:buffer';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactValue } from './redact.js';
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
  /** the line's bytes, with the newline that ends it (the file's last line may have none) */
  bytes?: Uint8Array;
}

export interface TranscriptWriterOptions {
  /** Applied to every string of each line (its values and keys) before it is serialised (removes secrets). */
  redact?: Redactor;
  /** Called when a write fails (disk full ...); the run goes on, the failure is reported once. */
  onError?: (err: Error) => void;
}

// The escapes JSON.stringify writes: \" \\ \b \f \n \r \t, \u00XX for the other control characters
// and \udXXX for a lone surrogate. A line read back with any other escape (\/, \u0041, …) was not
// written by this writer.
const FOREIGN_ESCAPE = /\\(?:\/|u(?!00(?:0[0-7bef]|1[0-9a-f])|d[89a-f][0-9a-f]{2}))/;

const NEWLINE = Buffer.from('\n');

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

  // The strings are redacted, never the serialised line: a pattern that matched from one field
  // into the next (a private key's first line here, an end line in a later field) would cut the
  // line, and the message would vanish from every reader.
  private encode(line: TranscriptLine): string {
    const redact = this.options.redact;
    return `${JSON.stringify(redact ? redactValue(line, redact) : line)}\n`;
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
   * Many messages (an earlier session's), a line each, in few writes, each redacted as by write().
   * `recorded[i]`, when given, is the line that holds messages[i] in the transcript it was read
   * from (ParsedTranscript's `messageRows`): it is written as it stands (its very bytes) when the
   * redactor changes nothing in the message, and encoded again from the redacted message when it
   * does, or when it holds an escape this writer never writes.
   */
  messages(messages: readonly Message[], recorded: readonly (RecordedLine | undefined)[] = []): void {
    if (this.fd === undefined || this.failed || messages.length === 0) return;
    const redact = this.options.redact;
    const pieces: Uint8Array[] = [];
    let read = false; // whether the last piece is a span of what was read
    let text = ''; // lines to encode, in order, before the next span
    const flush = () => {
      if (!text) return;
      pieces.push(Buffer.from(text, 'utf8'));
      text = '';
      read = false;
    };
    messages.forEach((message, i) => {
      const clean = redact ? redactValue(message, redact) : message;
      // the recorded line stands when redaction changes nothing in its message
      const row =
        clean === message && !FOREIGN_ESCAPE.test(recorded[i]?.text ?? '') ? recorded[i] : undefined;
      if (!row?.bytes) {
        text += `${row ? row.text : JSON.stringify({ type: 'message', message: clean })}\n`;
        return;
      }
      flush();
      const bytes =
        row.bytes[row.bytes.length - 1] === 0x0a ? row.bytes : Buffer.concat([row.bytes, NEWLINE]);
      const last = pieces[pieces.length - 1];
      // lines that lie one after another in what was read go out as one span of it
      if (
        read &&
        last &&
        last.buffer === bytes.buffer &&
        last.byteOffset + last.byteLength === bytes.byteOffset
      )
        pieces[pieces.length - 1] = new Uint8Array(
          bytes.buffer,
          last.byteOffset,
          last.byteLength + bytes.byteLength,
        );
      else pieces.push(bytes);
      read = bytes === row.bytes;
    });
    flush();
    for (const piece of pieces) if (!this.failed) this.appendBytes(piece);
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

interface RawLine {
  text: string;
  /** the line's bytes with its newline, when read from valid UTF-8 */
  bytes?: Uint8Array;
  last: boolean;
}

/**
 * The lines of a transcript. Valid UTF-8 is decoded line by line, each line beside its bytes: a
 * line of ASCII then stays a one-byte string, which JSON.parse reads several times faster than a
 * slice of the whole file decoded at once (as wide as its widest character).
 */
function* rawLines(input: string | Uint8Array): Generator<RawLine> {
  if (typeof input !== 'string') {
    const buf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    if (isUtf8(buf)) {
      for (let at = 0; ;) {
        const nl = buf.indexOf(0x0a, at);
        const end = nl < 0 ? buf.length : nl;
        yield {
          text: buf.toString('utf8', at, end),
          bytes: buf.subarray(at, nl < 0 ? end : end + 1),
          last: nl < 0,
        };
        if (nl < 0) return;
        at = end + 1;
      }
    }
    input = buf.toString('utf8');
  }
  const rows = input.split('\n');
  for (let i = 0; i < rows.length; i++) yield { text: rows[i]!, last: i === rows.length - 1 };
}

/**
 * Reads a transcript; tolerates a torn last line, unknown line types and blank lines. Given the
 * file's bytes, each message's line keeps its bytes as well as its text.
 */
export function parseTranscript(input: string | Uint8Array): ParsedTranscript {
  const out: ParsedTranscript = {
    messages: [],
    messageRows: [],
    events: [],
    lines: [],
    unknown: [],
    invalid: [],
    torn: false,
  };
  let lineNumber = 0;
  for (const raw of rawLines(input)) {
    lineNumber++;
    const row = raw.text.trim();
    if (row === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      if (raw.last) out.torn = true;
      out.invalid.push({ lineNumber, text: row.slice(0, 200) });
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
          // a line with spaces or a CR around it is kept as its text only
          out.messageRows.push(
            raw.bytes && row.length === raw.text.length ? { text: row, bytes: raw.bytes } : { text: row },
          );
          out.lines.push(line);
        } else out.unknown.push({ lineNumber, value });
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
        out.unknown.push({ lineNumber, value });
    }
  }
  return out;
}
