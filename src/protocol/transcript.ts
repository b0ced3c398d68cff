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

export interface TranscriptWriterOptions {
  /** Applied to each serialised line before it is written (removes secrets). */
  redact?: Redactor;
  /** Called when a write fails (disk full ...); the run goes on, the failure is reported once. */
  onError?: (err: Error) => void;
}

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
    if (this.fd === undefined) return;
    const buf = Buffer.from(text, 'utf8');
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

  /** Many messages (an earlier session's), a line each, in one write. */
  messages(messages: readonly Message[]): void {
    if (this.fd === undefined || this.failed) return;
    this.append(messages.map((message) => this.encode({ type: 'message', message })).join(''));
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

/** Reads a transcript; tolerates a torn last line, unknown line types and blank lines. */
export function parseTranscript(text: string): ParsedTranscript {
  const out: ParsedTranscript = {
    messages: [],
    events: [],
    lines: [],
    unknown: [],
    invalid: [],
    torn: false,
  };
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
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
