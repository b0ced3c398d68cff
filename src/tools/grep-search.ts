import type { GlobFilter } from './glob.js';

// What every grep backend (git grep, ripgrep, the JavaScript walk) takes and gives back.

export interface GrepQuery {
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  context: number;
  /** Folder or file to search, relative to the real workspace root ('' for the root). */
  base: string;
  filter?: GlobFilter;
  signal?: AbortSignal;
}

export type GrepRecord =
  | { kind: 'match' | 'context'; file: string; line: number; text: string }
  /** Lines before and after are not adjacent (another group, or another file). */
  | { kind: 'break' };

/** Receives records in output order; returning false stops the search. */
export type GrepSink = (record: GrepRecord) => boolean;

export interface GrepBackend {
  readonly name: string;
  search(query: GrepQuery, sink: GrepSink): Promise<void>;
}

/** An expected failure of a search (a bad pattern), with the message to show. */
export class GrepError extends Error {}

/** Cuts a byte stream into lines (without the `\n`, with a trailing `\r` removed). */
export class LineSplitter {
  private rest: Buffer | undefined;

  constructor(private readonly onLine: (line: Buffer) => boolean) {}

  /** Returns false once onLine asked to stop. */
  push(chunk: Buffer): boolean {
    const data = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = undefined;
    let pos = 0;
    for (let nl = data.indexOf(10, pos); nl !== -1; nl = data.indexOf(10, pos)) {
      const end = nl > pos && data[nl - 1] === 13 ? nl - 1 : nl;
      if (!this.onLine(data.subarray(pos, end))) return false;
      pos = nl + 1;
    }
    if (pos < data.length) this.rest = Buffer.from(data.subarray(pos));
    return true;
  }

  end(): void {
    if (this.rest && this.rest.length > 0) this.onLine(this.rest);
    this.rest = undefined;
  }
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Undoes git's C-style quoting of unusual file names (`"we\"ird\nname"`). */
export function unquoteGitPath(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  const bytes: number[] = [];
  const body = Buffer.from(text.slice(1, -1), 'utf8');
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (b !== 92) {
      bytes.push(b);
      continue;
    }
    const next = String.fromCharCode(body[i + 1] ?? 0);
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.subarray(i + 1, i + 4).toString('latin1'), 8));
      i += 3;
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next]!);
      i++;
    } else bytes.push(b);
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Whether a workspace-relative file passes the glob filter (applied relative to the search base). */
export function passesFilter(query: GrepQuery, file: string): boolean {
  if (!query.filter) return true;
  const rel =
    query.base === '' ? file : file.startsWith(`${query.base}/`) ? file.slice(query.base.length + 1) : file;
  return query.filter.matches(rel);
}
