// What may differ between a recorded tool result and the same call run again, without the run
// having behaved differently: timings, durations, temp paths, the workspace location, process ids,
// where a command's full output was saved, and npm's notice that a newer npm exists (it depends on
// the day and the machine, not on the run). Both sides are normalised the same way and then
// compared as text.

import { withoutNpmUpdateNotice } from '../protocol/npm-notice.js';

export interface NormalizeContext {
  /** Workspace roots to replace with `<workspace>` (the recorded run's and the replay's). */
  workspaces: string[];
  /** Temp folders whose paths (and everything below them) become `<tmp>`. */
  tmpdirs: string[];
  /**
   * The result is a command's output (run_tests, bash): what the test runner itself printed
   * around the command's own output is left out (see withoutRunnerLines).
   */
  commandOutput?: boolean;
}

// npm prints, around the script it runs, lines of its own that depend on how it was started, not
// on what the tests did: the banner `> name@version script` and the command lines after it
// (`> vitest run`), its notices and warnings, and blank lines. A run whose npm printed them (or
// printed them differently) replays clean where the tests' own output is the same, and the cut
// notice then counts a few lines more or fewer (3005 vs 3000): its counts are not compared.
const NPM_BANNER = /^> \S+@\S* \S+/;
const NPM_OWN = /^npm (notice|warn|WARN|info|verb|http|timing)\b/;
const CUT_COUNTS =
  /^\[Output cut: showing the last (?:\d+ lines|\S+ \S+ of the last line) of \d+ lines \([^)]*\)\./gm;

/** A command's output without npm's own lines and blank lines, and with the cut notice's counts out. */
export function withoutRunnerLines(text: string): string {
  const kept: string[] = [];
  let banner = false;
  for (const line of text.split('\n')) {
    if (NPM_BANNER.test(line)) {
      banner = true;
      continue;
    }
    if (banner && line.startsWith('> ')) continue;
    banner = false;
    if (NPM_OWN.test(line) || line.trim() === '') continue;
    kept.push(line);
  }
  return kept.join('\n').replace(CUT_COUNTS, '[Output cut: showing the last <n> of <n> lines (<size>).');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function unique(paths: string[]): string[] {
  const cleaned = paths.map((p) => p.replace(/\/+$/, '')).filter((p) => p.length > 1);
  // Longest first, so a workspace inside a temp folder is named as the workspace.
  return [...new Set(cleaned)].sort((a, b) => b.length - a.length);
}

const ISO_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const CLOCK = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
const DURATION_PART = String.raw`\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|mins|minutes?|h)\b`;
// A duration of several parts ("2 min 5 s", the style of formatDuration) is one duration: a
// command that took 59 s one time and 61 s the next reads "59.0 s" and "1 min 1 s".
const DURATION = new RegExp(String.raw`\b${DURATION_PART}(?:[ \t]+${DURATION_PART})*`, 'g');
const NAMED_TIMING = /\b(duration_ms|duration|elapsed|time|took|real|user|sys)(\s*[:=]?\s*)\d+(?:[.,]\d+)?/gi;
const PID = /\b(pid|process|ppid|pgid)(\s*[:=#]?\s*)\d+/gi;
// Runtimes that tag their warnings with their process id: `(node:4242) Warning: …`.
const RUNTIME_PID = /\((node|deno|bun):\d+\)/g;
// A command's saved full output (output-buffer.ts names it `<tool>-<epoch ms>-<8 hex>.log`), in
// whatever folder the run kept it: the action's is under RUNNER_TEMP, which a transcript does not
// record and which differs from the replay's own.
const SAVED_OUTPUT = /(?:[^\s'"`:,;()[\]{}<>]*\/)?[\w.-]+-\d{10,}-[0-9a-f]{8}\.log\b/g;
export function normalizeForComparison(text: string, ctx: NormalizeContext): string {
  let out = withoutNpmUpdateNotice(text.replace(/\r\n/g, '\n')).replace(SAVED_OUTPUT, '<saved-output>');
  if (ctx.commandOutput) out = withoutRunnerLines(out);
  for (const ws of unique(ctx.workspaces)) out = out.split(ws).join('<workspace>');
  for (const tmp of unique(ctx.tmpdirs)) {
    out = out.replace(new RegExp(`${escapeRegExp(tmp)}(?:/[^\\s'"\`:,;)\\]}>]*)?`, 'g'), '<tmp>');
  }
  return out
    .replace(ISO_TIME, '<time>')
    .replace(CLOCK, '<time>')
    .replace(NAMED_TIMING, '$1$2<n>')
    .replace(DURATION, '<duration>')
    .replace(PID, '$1$2<pid>')
    .replace(RUNTIME_PID, '($1:<pid>)')
    .replace(/[ \t]+$/gm, '');
}

export type Comparison = 'exact' | 'normalized' | 'differ';

export interface ComparedResult {
  isError: boolean;
  text: string;
}

export function compareResults(
  recorded: ComparedResult,
  replayed: ComparedResult,
  ctx: NormalizeContext,
): Comparison {
  if (recorded.isError !== replayed.isError) return 'differ';
  if (recorded.text === replayed.text) return 'exact';
  return normalizeForComparison(recorded.text, ctx) === normalizeForComparison(replayed.text, ctx)
    ? 'normalized'
    : 'differ';
}
