// Cutting text to what a model can take: the head (files) or the tail (command output), by lines
// and by UTF-8 bytes, whichever limit is reached first. Callers add the notice that says how to get
// the rest, since only they know how (an offset, a narrower command, a saved file).

export interface TruncationLimits {
  maxLines: number;
  maxBytes: number;
}

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const DEFAULT_LIMITS: TruncationLimits = { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES };
/** No tool result is larger than this (CONTRACT §6), whatever `limit` asks. */
export const MAX_RESULT_BYTES = 50 * 1024;
/** What the body of a file tool's result may take, leaving room for the notices after it. */
export const MAX_BODY_BYTES = MAX_RESULT_BYTES - 1024;

export interface Truncation {
  text: string;
  truncated: boolean;
  /** Which limit cut the text; undefined when nothing was cut. */
  cutBy?: 'lines' | 'bytes';
  totalLines: number;
  totalBytes: number;
  keptLines: number;
  keptBytes: number;
  /** The one kept line was itself cut, because alone it exceeded maxBytes. */
  partialLine: boolean;
}

/** Splits into lines; a trailing newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The longest prefix of `text` that fits in maxBytes of UTF-8, never splitting a character. */
export function utf8Head(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

/** The longest suffix of `text` that fits in maxBytes of UTF-8, never splitting a character. */
export function utf8Tail(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let start = buf.length - maxBytes;
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString('utf8');
}

function finish(
  kept: string[],
  lines: string[],
  totalBytes: number,
  cutBy: Truncation['cutBy'],
  partialLine: boolean,
): Truncation {
  const text = kept.join('\n');
  return {
    text,
    truncated: cutBy !== undefined,
    cutBy,
    totalLines: lines.length,
    totalBytes,
    keptLines: kept.length,
    keptBytes: Buffer.byteLength(text, 'utf8'),
    partialLine,
  };
}

/** Keeps whole lines from the start. */
export function truncateHead(text: string, limits: TruncationLimits = DEFAULT_LIMITS): Truncation {
  const lines = splitLines(text);
  const totalBytes = Buffer.byteLength(text, 'utf8');
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (kept.length >= limits.maxLines) return finish(kept, lines, totalBytes, 'lines', false);
    const size = Buffer.byteLength(line, 'utf8') + (kept.length > 0 ? 1 : 0);
    if (bytes + size > limits.maxBytes) {
      if (kept.length === 0)
        return finish([utf8Head(line, limits.maxBytes)], lines, totalBytes, 'bytes', true);
      return finish(kept, lines, totalBytes, 'bytes', false);
    }
    kept.push(line);
    bytes += size;
  }
  return finish(kept, lines, totalBytes, undefined, false);
}

/** Keeps whole lines from the end. */
export function truncateTail(text: string, limits: TruncationLimits = DEFAULT_LIMITS): Truncation {
  const lines = splitLines(text);
  const totalBytes = Buffer.byteLength(text, 'utf8');
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (kept.length >= limits.maxLines) return finish(kept.reverse(), lines, totalBytes, 'lines', false);
    const size = Buffer.byteLength(line, 'utf8') + (kept.length > 0 ? 1 : 0);
    if (bytes + size > limits.maxBytes) {
      if (kept.length === 0)
        return finish([utf8Tail(line, limits.maxBytes)], lines, totalBytes, 'bytes', true);
      return finish(kept.reverse(), lines, totalBytes, 'bytes', false);
    }
    kept.push(line);
    bytes += size;
  }
  return finish(kept.reverse(), lines, totalBytes, undefined, false);
}

/** Cuts one line to maxChars characters (not splitting a surrogate pair). */
export function cutLine(line: string, maxChars: number): { text: string; cut: boolean } {
  if (line.length <= maxChars) return { text: line, cut: false };
  let end = maxChars;
  const c = line.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return { text: `${line.slice(0, end)}… [${line.length - end} more characters]`, cut: true };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return `${(n / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}
