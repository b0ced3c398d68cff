// Small formatting rules shared by the summary, the terminal timeline and the HTML page, so the
// same figure reads the same everywhere.

/** Tokens as a plain integer: no separators, no "1.2k". */
export function formatTokens(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '0';
  return String(Math.round(n));
}

/** Estimated cost in USD; `undefined` when the price is unknown. */
export function formatCost(usd: number | undefined): string | undefined {
  if (usd === undefined || !Number.isFinite(usd)) return undefined;
  if (usd === 0) return '$0.00';
  if (usd < 0.0001) return '<$0.0001';
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const totalSeconds = ms / 1000;
  if (totalSeconds < 60) return `${totalSeconds.toFixed(1)}s`;
  const s = Math.round(totalSeconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return h > 0 ? `${h}h ${m}m ${rest}s` : `${m}m ${rest}s`;
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
  return `${n} ${n === 1 ? word : many}`;
}
