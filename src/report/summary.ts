import type { Message, ToolResultMessage, Usage } from '../protocol/types.js';
import { cut, formatCost, formatDuration, formatTokens, oneLine, plural, shortArgs } from './format.js';
import { contentText } from './normalize.js';

// The run summary of CONTRACT §5: markdown for the PR/issue comment and the step summary, plain
// text for the CLI. One input shape, filled by whoever ran the agent.

export interface ChangedFile {
  path: string;
  added: number;
  removed: number;
  binary?: boolean;
}

export interface ToolLogEntry {
  name: string;
  /** Short form of the arguments. */
  args: string;
  ok: boolean;
  output: string;
}

export interface RunSummaryInput {
  /** success, no-changes, failure, cancelled, skipped, unauthorized, budget-exceeded */
  conclusion: string;
  models: string[];
  turns: number;
  durationMs?: number;
  usage: Usage;
  branch?: string;
  commitSha?: string;
  prUrl?: string;
  prNumber?: number;
  compareUrl?: string;
  changedFiles: ChangedFile[];
  finalMessage?: string;
  error?: string;
  toolLog: ToolLogEntry[];
  /** Where the full transcript is (artifact name, path or URL). */
  transcriptLocation?: string;
  runUrl?: string;
  notices?: string[];
}

export interface SummaryMarkdownOptions {
  /** Hard bound on the output length. 65,536 is GitHub's comment limit. */
  maxChars?: number;
  /** At most this many tool-log lines. */
  logLines?: number;
  /** Applied to every piece before cutting and to the whole output. */
  redact?: (text: string) => string;
}

export const COMMENT_MAX_CHARS = 65_536;
/** The step summary's limit is 1 MiB; stay a little under it. */
export const STEP_SUMMARY_MAX_CHARS = 1_000_000;

const HEADLINES: Record<string, string> = {
  success: '✅ patchloop: success',
  'no-changes': '➖ patchloop: no changes',
  failure: '❌ patchloop: failure',
  cancelled: '⏹️ patchloop: cancelled',
  skipped: '⏭️ patchloop: skipped',
  unauthorized: '🚫 patchloop: unauthorized',
  'budget-exceeded': '⚠️ patchloop: budget exceeded',
};

const OUTPUT_CHARS = 120;
const ARGS_CHARS = 80;

/** One log entry per tool call, in call order, paired with its result by id. */
export function toolLogFromMessages(messages: readonly Message[]): ToolLogEntry[] {
  const results = new Map<string, ToolResultMessage>();
  for (const m of messages)
    if (m.role === 'toolResult' && !results.has(m.toolCallId)) results.set(m.toolCallId, m);
  const log: ToolLogEntry[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const block of m.content) {
      if (block.type !== 'toolCall') continue;
      const r = results.get(block.id);
      log.push({
        name: block.name,
        args: shortArgs(block.input, ARGS_CHARS),
        ok: r ? !r.isError : false,
        output: r ? contentText(r.content) : '(no result recorded)',
      });
    }
  }
  return log;
}

/** A code span that survives backticks in the text. */
function code(text: string): string {
  const t = oneLine(text);
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** Text for a table cell: one line, pipes escaped. */
function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

function tokensLine(u: Usage): string {
  return `input ${formatTokens(u.inputTokens)} · output ${formatTokens(u.outputTokens)} · cache read ${formatTokens(
    u.cacheReadTokens,
  )} · cache write ${formatTokens(u.cacheWriteTokens)}`;
}

function logLine(e: ToolLogEntry): string {
  // Only the start of a long output can show; collapsing all of it would be wasted work.
  const output = cut(oneLine(e.output.slice(0, OUTPUT_CHARS * 3)), OUTPUT_CHARS);
  return `${e.ok ? '✓' : '✗'} ${e.name} ${cut(oneLine(e.args.slice(0, ARGS_CHARS * 3)), ARGS_CHARS)} → ${e.ok ? '' : 'error: '}${output}`;
}

function redacted(input: RunSummaryInput, redact: (s: string) => string): RunSummaryInput {
  const r = (s: string | undefined) => (s === undefined ? undefined : redact(s));
  return {
    ...input,
    models: input.models.map(redact),
    branch: r(input.branch),
    commitSha: r(input.commitSha),
    prUrl: r(input.prUrl),
    compareUrl: r(input.compareUrl),
    changedFiles: input.changedFiles.map((f) => ({ ...f, path: redact(f.path) })),
    finalMessage: r(input.finalMessage),
    error: r(input.error),
    toolLog: input.toolLog.map((e) => ({
      ...e,
      name: redact(e.name),
      args: redact(e.args),
      output: redact(e.output),
    })),
    transcriptLocation: r(input.transcriptLocation),
    runUrl: r(input.runUrl),
    notices: input.notices?.map(redact),
  };
}

function headMarkdown(s: RunSummaryInput): string {
  const headline = Object.hasOwn(HEADLINES, s.conclusion)
    ? HEADLINES[s.conclusion]
    : `patchloop: ${cell(s.conclusion)}`;
  const lines: string[] = [`### ${headline}`, ''];
  if (s.error) lines.push(`> **Error:** ${cut(oneLine(s.error), 2000)}`, '');
  for (const n of s.notices ?? []) lines.push(`> **Note:** ${cut(oneLine(n), 2000)}`, '');
  lines.push('| | |', '|---|---|');
  lines.push(`| Model | ${s.models.length ? s.models.map((m) => cell(code(m))).join(', ') : '(none)'} |`);
  lines.push(`| Turns | ${s.turns} |`);
  if (s.durationMs !== undefined) lines.push(`| Duration | ${formatDuration(s.durationMs)} |`);
  lines.push(`| Tokens | ${tokensLine(s.usage)} |`);
  const cost = formatCost(s.usage.costUsd);
  lines.push(`| Cost | ${cost ? `${cost} (estimated)` : 'unknown (no price for this model)'} |`);
  if (s.branch) lines.push(`| Branch | ${cell(code(s.branch))} |`);
  if (s.commitSha) lines.push(`| Commit | ${cell(code(s.commitSha.slice(0, 12)))} |`);
  if (s.prUrl)
    lines.push(`| Pull request | [${s.prNumber !== undefined ? `#${s.prNumber}` : 'open'}](${s.prUrl}) |`);
  else if (s.compareUrl) lines.push(`| Compare | [create a pull request](${s.compareUrl}) |`);
  return lines.join('\n');
}

function filesMarkdown(files: ChangedFile[], keep: number): string {
  if (files.length === 0) return '';
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const lines = [`**Changed files** (${plural(files.length, 'file')}, +${added} −${removed})`, ''];
  for (const f of files.slice(0, keep)) {
    lines.push(`- ${code(f.path)} ${f.binary ? '(binary)' : `+${f.added} −${f.removed}`}`);
  }
  if (files.length > keep) lines.push(`- … and ${files.length - keep} more`);
  return lines.join('\n');
}

/**
 * Wraps `@login` and `@org/team` in code spans: the model's words must not notify people on
 * GitHub (a mention inside a code span does not notify).
 */
export function neutralizeMentions(text: string): string {
  return text.replace(
    /(^|[^\w`/@])@([A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\/[A-Za-z0-9_.-]+)?)(?![\w`])/g,
    '$1`@$2`',
  );
}

function finalMarkdown(text: string | undefined, keep: number): string {
  if (!text || !text.trim()) return '';
  let body = neutralizeMentions(text.trim());
  if (body.length > keep)
    body = `${body.slice(0, Math.max(0, keep))}\n\n… (cut; the full message is in the transcript)`;
  // Quoted, so an unclosed code fence in the message cannot swallow the rest of the summary.
  const quoted = body
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
  return `**Final message**\n\n${quoted}`;
}

function logMarkdown(log: ToolLogEntry[], fitted: FittedLog): string {
  if (log.length === 0) return '';
  const errors = log.filter((e) => !e.ok).length;
  const body =
    fitted.omitted > 0
      ? [
          ...fitted.head,
          `… ${plural(fitted.omitted, 'call')} not shown (the transcript has them all)`,
          ...fitted.tail,
        ]
      : fitted.head;
  const text = body.join('\n');
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return [
    `<details><summary>Tool log (${plural(log.length, 'call')}, ${plural(errors, 'error')})</summary>`,
    '',
    fence,
    text,
    fence,
    '',
    '</details>',
  ].join('\n');
}

function footerMarkdown(s: RunSummaryInput): string {
  const parts: string[] = [];
  if (s.transcriptLocation) parts.push(`Full transcript: ${s.transcriptLocation}`);
  if (s.runUrl) parts.push(`[Workflow run](${s.runUrl})`);
  return parts.join(' · ');
}

interface FittedLog {
  head: string[];
  tail: string[];
  omitted: number;
}

/** Picks log lines to fit `budget` characters: about a third from the start, the rest from the end. */
function fitLog(all: string[], maxLines: number, budget: number): FittedLog {
  const total = all.reduce((n, l) => n + l.length + 1, 0);
  if (all.length <= maxLines && total <= budget) return { head: all, tail: [], omitted: 0 };
  const reserve = 80;
  let room = Math.max(0, budget - reserve);
  let slots = Math.min(maxLines, all.length);
  const headRoom = Math.floor(room / 3);
  const head: string[] = [];
  let used = 0;
  for (const l of all) {
    if (head.length >= Math.ceil(slots / 3) || used + l.length + 1 > headRoom) break;
    head.push(l);
    used += l.length + 1;
  }
  room -= used;
  slots -= head.length;
  const tail: string[] = [];
  for (let i = all.length - 1; i >= head.length; i--) {
    const l = all[i]!;
    if (tail.length >= slots || l.length + 1 > room) break;
    tail.unshift(l);
    room -= l.length + 1;
  }
  return { head, tail, omitted: all.length - head.length - tail.length };
}

function join(sections: string[]): string {
  return `${sections.filter((s) => s !== '').join('\n\n')}\n`;
}

/**
 * The markdown summary. Never longer than `maxChars`: the tool log is cut first, then the final
 * message, then the file list; the head (outcome, model, tokens, cost, branch) is always kept.
 */
export function renderSummaryMarkdown(input: RunSummaryInput, options: SummaryMarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? COMMENT_MAX_CHARS;
  const maxLines = options.logLines ?? (maxChars > COMMENT_MAX_CHARS ? 5000 : 300);
  const redact = options.redact ?? ((s: string) => s);
  const s = options.redact ? redacted(input, redact) : input;

  const head = headMarkdown(s);
  const footer = footerMarkdown(s);
  const allLog = s.toolLog.map(logLine);
  const fixed = head.length + footer.length + 16;
  let filesKeep = Math.min(s.changedFiles.length, 500);
  let files = filesMarkdown(s.changedFiles, filesKeep);
  let finalKeep = s.finalMessage?.length ?? 0;
  let final = finalMarkdown(s.finalMessage, finalKeep);

  const logBudget = maxChars - fixed - files.length - final.length - 200;
  let log = '';
  if (allLog.length > 0 && logBudget > 0) {
    log = logMarkdown(s.toolLog, fitLog(allLog, maxLines, logBudget));
  }
  if (allLog.length > 0 && (log === '' || join([head, files, final, log, footer]).length > maxChars)) {
    log = `Tool log: ${plural(allLog.length, 'call')}, too long to show here (the transcript has them all).`;
  }
  let out = join([head, files, final, log, footer]);
  if (out.length > maxChars && final) {
    finalKeep = Math.max(0, finalKeep - (out.length - maxChars) - 120);
    final = finalMarkdown(s.finalMessage, finalKeep);
    out = join([head, files, final, log, footer]);
  }
  while (out.length > maxChars && filesKeep > 0) {
    filesKeep = Math.floor(filesKeep / 2);
    files = filesMarkdown(s.changedFiles, filesKeep);
    out = join([head, files, final, log, footer]);
  }
  out = redact(out);
  if (out.length > maxChars) out = `${out.slice(0, maxChars - 2)}…\n`;
  return out;
}

/** The plain-text summary the CLI prints on stdout. */
export function renderSummaryText(
  input: RunSummaryInput,
  options: { redact?: (text: string) => string } = {},
): string {
  const s = options.redact ? redacted(input, options.redact) : input;
  const lines: string[] = [`Outcome: ${s.conclusion}`];
  if (s.error) lines.push(`Error: ${oneLine(s.error)}`);
  for (const n of s.notices ?? []) lines.push(`Note: ${oneLine(n)}`);
  lines.push(`Model: ${s.models.join(', ') || '(none)'}`);
  lines.push(
    `Turns: ${s.turns}${s.durationMs !== undefined ? `   Duration: ${formatDuration(s.durationMs)}` : ''}`,
  );
  lines.push(`Tokens: ${tokensLine(s.usage).replace(/ · /g, ', ')}`);
  lines.push(`Cost: ${formatCost(s.usage.costUsd) ?? 'unknown (no price for this model)'}`);
  if (s.branch) lines.push(`Branch: ${s.branch}`);
  if (s.commitSha) lines.push(`Commit: ${s.commitSha}`);
  if (s.prUrl) lines.push(`Pull request: ${s.prUrl}`);
  else if (s.compareUrl) lines.push(`Compare: ${s.compareUrl}`);
  if (s.changedFiles.length > 0) {
    lines.push(`Changed files (${s.changedFiles.length}):`);
    const width = Math.min(60, Math.max(...s.changedFiles.map((f) => f.path.length)));
    for (const f of s.changedFiles) {
      lines.push(`  ${f.path.padEnd(width)}  ${f.binary ? '(binary)' : `+${f.added} -${f.removed}`}`);
    }
  } else lines.push('Changed files: none');
  if (s.finalMessage?.trim()) {
    lines.push('Final message:');
    for (const l of s.finalMessage.trim().split('\n')) lines.push(`  ${l}`);
  }
  if (s.transcriptLocation) lines.push(`Transcript: ${s.transcriptLocation}`);
  const out = `${lines.join('\n')}\n`;
  return options.redact ? options.redact(out) : out;
}
