// Small formatting rules shared by the summary, the terminal timeline and the HTML page, so the
// same figure reads the same everywhere. The count and duration styles live in the protocol layer,
// below the agent and the tools, which use them too.

import { formatCount } from '../protocol/format.js';
import { isRunnerCounter, nodeTestFailures } from './test-failures.js';

export { formatCount, formatDuration } from '../protocol/format.js';

/**
 * Tokens: plain integers ("13900"), the way the external contract gives them in the summary and
 * the outputs, here and on every other surface alike; never "1.2k". Other counts have separators.
 */
export function formatTokens(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '0';
  return String(Math.round(n));
}

/** Estimated cost in USD; `undefined` when the price is unknown. */
export function formatCost(usd: number | undefined): string | undefined {
  if (usd === undefined || !Number.isFinite(usd)) return undefined;
  if (usd === 0) return '$0.00';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  const [whole, cents] = usd.toFixed(2).split('.');
  return `$${formatCount(Number(whole))}.${cents}`;
}

/** Cuts text to at most `max` characters, marking the cut with an ellipsis. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return text.slice(0, Math.max(0, max));
  return `${text.slice(0, max - 1)}…`;
}

/** One line: whitespace runs (newlines included) become single spaces. */
export function oneLine(text: string): string {
  // Single spaces are left alone: replacing each of them costs much more than it seems.
  return text.replace(/\s\s+|[^\S ]/g, ' ').trim();
}

/** The first `n` lines of a text, with a count of the lines left out. */
export function headLines(text: string, n: number): { lines: string[]; more: number } {
  const all = text.split('\n');
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  return { lines: all.slice(0, n), more: Math.max(0, all.length - n) };
}

/** Arguments as a short single line: `path=src/a.ts oldText="…"`, or the raw text when unparsed. */
export function shortArgs(input: unknown, max = 80): string {
  if (typeof input === 'string') return cut(oneLine(input), max);
  if (!input || typeof input !== 'object' || Array.isArray(input)) return cut(oneLine(safeJson(input)), max);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const shown =
      typeof value === 'string'
        ? /^[\w./@:+-]+$/.test(value) && value.length <= 60
          ? value
          : JSON.stringify(cut(oneLine(value), 40))
        : cut(oneLine(safeJson(value)), 40);
    parts.push(`${key}=${shown}`);
  }
  return cut(parts.join(' '), max);
}

/** JSON.stringify that never throws (cycles, BigInt) and never returns undefined. */
export function safeJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    return String(value);
  }
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}

// The first line of a command's result says how it ended (see src/tools/command-output.ts).
const COMMAND_STATUS =
  /^(Exit code -?\d+|Timed out after|Cancelled: the run was stopped|Ended by signal|The command could not be started)/;

const FAILURE_MARK = /\b(not ok|FAIL(ED)?|fail(ed|ing|ure)?:?\s|[A-Za-z]*Error\b|assert)|[✗×✖]/;

/** A result's lines without blank ones, the command's echo (`$ npm test`) and the cut notice. */
function telling(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !l.startsWith('$ ') && !l.startsWith('[Output cut:'));
}

/** The lines of a tool result that say why it failed: a command's status and the tail of its output, or the message itself. */
export function errorLines(text: string, tailLines = 5): string[] {
  const lines = telling(text);
  if (lines.length === 0) return [];
  if (COMMAND_STATUS.test(lines[0]!)) {
    // Node's test runner: each failed test with its error, not the counters it ends with.
    const failures = nodeTestFailures(lines);
    if (failures.length > 0) {
      const shown = [lines[0]!, ...failures.slice(0, 3).flatMap((f) => [f.test, `  ${f.error}`])];
      if (failures.length > 3) shown.push(`… ${plural(failures.length - 3, 'more failed test')}`);
      return shown;
    }
    const rest = lines.slice(1).filter((l) => !isRunnerCounter(l));
    const tail = rest.slice(-tailLines);
    const before = rest.slice(0, rest.length - tail.length);
    // Test runners name the failure above their closing summary: keep the first lines that say so.
    const marked = before.filter((l) => FAILURE_MARK.test(l)).slice(0, 3);
    const shown = [lines[0]!];
    if (marked.length > 0) {
      if (before.indexOf(marked[0]!) > 0) shown.push('…');
      shown.push(...marked);
    }
    if (before.length > (marked.length ? before.lastIndexOf(marked[marked.length - 1]!) + 1 : 0))
      shown.push('…');
    return [...shown, ...tail];
  }
  return lines.slice(0, tailLines + 1);
}

/**
 * A failed result as one line that gives the reason: "Invalid arguments for read_file: - path: …",
 * for a run of Node's test runner the failed tests with their errors, or for another command its
 * exit status and the end of its output (where test runners put the failure).
 */
export function errorGist(text: string, max = 200): string {
  const all = telling(text);
  if (all.length > 0 && COMMAND_STATUS.test(all[0]!)) {
    const failures = nodeTestFailures(all);
    if (failures.length > 0)
      return cut(oneLine(`${all[0]!} ${failures.map((f) => `${f.test}: ${f.error}`).join(' · ')}`), max);
  }
  const lines = errorLines(text, 8);
  if (lines.length === 0) return '(no output)';
  if (COMMAND_STATUS.test(lines[0]!)) {
    const head = oneLine(lines[0]!);
    const tail = oneLine(
      lines
        .slice(1)
        .filter((l) => l !== '…')
        .join(' '),
    );
    if (!tail) return cut(head, max);
    const room = max - head.length - 3;
    if (room < 10) return cut(head, max);
    // The end of the output is the telling part, so the cut is at its start.
    return `${head} … ${tail.length > room ? `…${tail.slice(tail.length - room + 1)}` : tail}`;
  }
  return cut(oneLine(lines.join(' ')), max);
}

/** The size of a text in the unit a limit counts: UTF-16 characters or UTF-8 bytes. */
export type SizeUnit = 'chars' | 'bytes';

export function sizeOf(text: string, unit: SizeUnit): number {
  return unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : text.length;
}

const encoder = new TextEncoder();

/** The longest start of `text` within `size` units, never splitting a character. */
export function headWithin(text: string, size: number, unit: SizeUnit): string {
  if (size <= 0) return '';
  if (unit === 'chars') {
    if (text.length <= size) return text;
    const end = /[\uD800-\uDBFF]/.test(text[size - 1]!) ? size - 1 : size;
    return text.slice(0, end);
  }
  if (text.length * 3 <= size) return text;
  // encodeInto writes whole characters only and says how many UTF-16 units it consumed.
  const { read } = encoder.encodeInto(text, new Uint8Array(size));
  return text.slice(0, read);
}
