import type { TestsAtEnd } from '../agent/index.js';
import { redactValue } from '../protocol/redact.js';
import type { Message, ToolResultMessage, Usage } from '../protocol/types.js';
import {
  cut,
  errorGist,
  formatCost,
  formatCount,
  formatDuration,
  formatTokens,
  headWithin,
  oneLine,
  plural,
  shortArgs,
  sizeOf,
  type SizeUnit,
} from './format.js';
import { neutralizeHiddenMarkup } from './hidden-markup.js';
import { neutralizeMentions } from './mentions.js';
import { contentText } from './normalize.js';
import { nextStep, outageOf, type NextStepContext } from './summary-next.js';

export { neutralizeMentions };

// The run summary of CONTRACT §5: markdown for the PR/issue comment and the step summary, plain
// text for the CLI. One input shape, filled by whoever ran the agent.

export interface ChangedFile {
  path: string;
  added: number;
  removed: number;
  binary?: boolean;
}

/** What a review run did (CONTRACT §9): its headline says so, in place of a fix's outcome. */
export interface ReviewOutcome {
  /** the inline comments the model wrote (those outside the diff went into the review's body) */
  comments: number;
  /** the first line of the model's final message: its verdict */
  verdict?: string;
  /** the review is on the pull request */
  posted: boolean;
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
  /** Where the full transcript is (artifact name, path or URL); `artifactUrl` wins when set. */
  transcriptLocation?: string;
  runUrl?: string;
  notices?: string[];
  /** `GITHUB_SERVER_URL`, e.g. https://github.com; with `repository`, the branch, commit and files become links. */
  serverUrl?: string;
  /** `owner/name`. */
  repository?: string;
  /** True when the branch and commit are on GitHub (pushed); only then are they linked. */
  pushed?: boolean;
  /** Login of whoever asked for the run. */
  requester?: string;
  /** The transcript artifact: its download page and name. */
  artifactUrl?: string;
  artifactName?: string;
  /** The change as a unified diff, shown collapsed: for dry runs, where nothing was pushed to link to. */
  diff?: string;
  /** More links for the footer: the failed run a CI fix is for, the earlier run a session continues. */
  related?: { label: string; url: string }[];
  /** What commands could reach on the network (`command-network`) and what was refused. */
  commandNetwork?: string;
  /** The valid answer to the run's output schema, as JSON text (CONTRACT §9). */
  structuredOutput?: string;
  /** The pull-request review a review run posted. */
  reviewUrl?: string;
  /** What was asked (the comment, the issue body, the prompt), quoted under the headline. */
  request?: string;
  /**
   * What started a run nobody asked for (a `pull_request` event, a failed workflow run, a
   * schedule), said in place of "@user asked"; `request` is then the workflow's prompt, if any.
   */
  startedBy?: string;
  /** Set for a review run: the headline says the review was posted, with its comments and verdict. */
  review?: ReviewOutcome;
  /** How the last test run ended, when the run ran the tests. */
  tests?: TestsAtEnd;
  /** For a non-success run: what the next step is, said for the surface the summary shows on. */
  next?: NextStepContext;
}

export interface SummaryMarkdownOptions {
  /** Bound on the output in characters. 65,536 is GitHub's limit for comments and PR bodies. */
  maxChars?: number;
  /**
   * Bound on the output in UTF-8 bytes. The runner drops a step summary over 1 MiB whole, and
   * counts bytes: default, any `maxChars` above the comment limit is also taken as a byte bound.
   */
  maxBytes?: number;
  /** At most this many tool-log lines. */
  logLines?: number;
  /** Applied to every piece before cutting and to the whole output. */
  redact?: (text: string) => string;
}

export type { NextStepContext } from './summary-next.js';

export const COMMENT_MAX_CHARS = 65_536;
/** The step summary's limit is 1 MiB (1,048,576 bytes); stay a little under it. */
export const STEP_SUMMARY_MAX_BYTES = 1_000_000;
/** @deprecated the step summary is bounded in bytes: STEP_SUMMARY_MAX_BYTES. */
export const STEP_SUMMARY_MAX_CHARS = STEP_SUMMARY_MAX_BYTES;

const HEADLINES: Record<string, string> = {
  success: '✅ **patchloop: success**',
  'no-changes': '➖ **patchloop: no changes**',
  failure: '❌ **patchloop: failure**',
  cancelled: '⏹️ **patchloop: cancelled**',
  skipped: '⏭️ **patchloop: skipped**',
  unauthorized: '🚫 **patchloop: unauthorized**',
  'budget-exceeded': '⚠️ **patchloop: budget exceeded**',
  planned: '📋 **patchloop: plan ready**',
};

/** Outcomes whose final text is the model's answer; after any other the text is unfinished. */
const FINISHED: ReadonlySet<string> = new Set(['success', 'no-changes', 'planned']);

/** The request quoted under the headline is cut here: the issue body of a label trigger can be long. */
const REQUEST_CHARS = 1500;

const OUTPUT_CHARS = 120;
const ERROR_CHARS = 200;
const ARGS_CHARS = 80;

/**
 * One log entry per tool call, in call order, paired with its result by id. `redact` is applied
 * to the arguments before they are shortened: a secret cut in two would no longer be recognised.
 */
export function toolLogFromMessages(
  messages: readonly Message[],
  redact?: (text: string) => string,
): ToolLogEntry[] {
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
        args: shortArgs(redact ? redactValue(block.input, redact) : block.input, ARGS_CHARS),
        ok: r ? !r.isError : false,
        output: r ? contentText(r.content) : '(no result recorded)',
      });
    }
  }
  return log;
}

/**
 * The file tools' edits as one diff, in the order they were made (from the results' `details`,
 * which the model never saw). For a dry run's summary when the commit's own diff is not at hand;
 * changes made by commands are not in it.
 */
export function editsDiff(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role !== 'toolResult' || m.isError) continue;
    if (m.toolName !== 'edit_file' && m.toolName !== 'write_file') continue;
    const d = m.details as { diff?: unknown } | undefined;
    if (d && typeof d.diff === 'string' && d.diff.trim()) parts.push(d.diff.replace(/\n*$/, ''));
  }
  return parts.length ? `${parts.join('\n')}\n` : '';
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
  const args = cut(oneLine(e.args.slice(0, ARGS_CHARS * 3)), ARGS_CHARS);
  // A failure shows its reason (for a command, the end of its output); a success only the start.
  const output = e.ok
    ? cut(oneLine(e.output.slice(0, OUTPUT_CHARS * 3)), OUTPUT_CHARS)
    : `error: ${errorGist(e.output, ERROR_CHARS)}`;
  return `${e.ok ? '✓' : '✗'} ${e.name} ${args} → ${output}`;
}

/**
 * What every piece of echoed text (model, tool, request, error, file name) goes through before it
 * is measured, and the whole summary once more at the end: redacted, its mentions broken, and no
 * `<!--` left that could pass for one of patchloop's hidden markers.
 */
function cleanText(redact: (s: string) => string): (s: string) => string {
  return (s) => neutralizeHiddenMarkup(neutralizeMentions(redact(s)));
}

function cleaned(input: RunSummaryInput, redact: (s: string) => string): RunSummaryInput {
  return mapText(input, cleanText(redact));
}

function mapText(input: RunSummaryInput, c: (s: string) => string): RunSummaryInput {
  const r = (s: string | undefined) => (s === undefined ? undefined : c(s));
  return {
    ...input,
    models: input.models.map(c),
    branch: r(input.branch),
    commitSha: r(input.commitSha),
    prUrl: r(input.prUrl),
    compareUrl: r(input.compareUrl),
    changedFiles: input.changedFiles.map((f) => ({ ...f, path: c(f.path) })),
    finalMessage: r(input.finalMessage),
    error: r(input.error),
    toolLog: input.toolLog.map((e) => ({ ...e, name: c(e.name), args: c(e.args), output: c(e.output) })),
    transcriptLocation: r(input.transcriptLocation),
    runUrl: r(input.runUrl),
    notices: input.notices?.map(c),
    artifactUrl: r(input.artifactUrl),
    artifactName: r(input.artifactName),
    diff: r(input.diff),
    related: input.related?.map((l) => ({ label: c(l.label), url: c(l.url) })),
    commandNetwork: r(input.commandNetwork),
    structuredOutput: r(input.structuredOutput),
    reviewUrl: r(input.reviewUrl),
    request: r(input.request),
    startedBy: r(input.startedBy),
    ...(input.review ? { review: { ...input.review, verdict: r(input.review.verdict) } } : {}),
    ...(input.tests ? { tests: { ...input.tests, command: c(input.tests.command) } } : {}),
  };
}

// ── Links ────────────────────────────────────────────────────────────────────────────────────

/** A URL for a markdown link target: parentheses and spaces would end it early. */
function href(url: string): string {
  return url.replace(/[()\s<>]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function pathPart(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

interface Links {
  branch?: string;
  commit?: string;
  file?: (path: string) => string;
}

function linksOf(s: RunSummaryInput): Links {
  if (!s.serverUrl || !s.repository || !/^[\w.-]+\/[\w.-]+$/.test(s.repository)) return {};
  if (!/^https?:\/\//.test(s.serverUrl)) return {};
  const repo = `${s.serverUrl.replace(/\/+$/, '')}/${s.repository}`;
  const links: Links = {};
  if (!s.pushed) return links;
  if (s.branch) links.branch = `${repo}/tree/${pathPart(s.branch)}`;
  if (s.commitSha && /^[0-9a-f]{7,64}$/i.test(s.commitSha)) {
    const sha = s.commitSha;
    links.commit = `${repo}/commit/${sha}`;
    links.file = (path) => `${repo}/blob/${sha}/${pathPart(path)}`;
  }
  return links;
}

function link(text: string, url: string | undefined): string {
  return url ? `[${text}](${href(url)})` : text;
}

function requesterMarkdown(login: string, serverUrl: string | undefined): string {
  // Named, not mentioned: the requester asked and follows the thread already.
  const name = `@\u200B${oneLine(login)}`;
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(login) || !serverUrl || !/^https?:\/\//.test(serverUrl))
    return cell(name.replace(/[[\]]/g, '\\$&'));
  return `[${name}](${href(`${serverUrl.replace(/\/+$/, '')}/${login}`)})`;
}

// ── Sections ─────────────────────────────────────────────────────────────────────────────────

/**
 * The first line: outcome, where the work is (PR, branch or compare link), duration, cost and the
 * workflow run. Always a single line, so on a phone the answer follows right under it.
 */
function headlineMarkdown(s: RunSummaryInput, links: Links): string {
  const parts: string[] = [outcomeMarkdown(s)];
  if (s.prUrl)
    parts.push(
      `[PR ${s.prNumber !== undefined ? `#${s.prNumber}` : ''}](${href(s.prUrl)})`.replace(' ]', ']'),
    );
  else if (s.reviewUrl && /^https?:\/\//.test(s.reviewUrl)) parts.push(`[review](${href(s.reviewUrl)})`);
  if (!s.prUrl && s.branch)
    parts.push(`branch ${link(code(s.branch), links.branch)}${s.pushed ? '' : ' (not pushed)'}`);
  if (!s.prUrl && s.compareUrl) parts.push(`[create a pull request](${href(s.compareUrl)})`);
  if (s.durationMs !== undefined) parts.push(formatDuration(s.durationMs));
  const cost = formatCost(s.usage.costUsd);
  parts.push(cost ? `${cost} (estimated)` : 'cost unknown');
  if (s.runUrl && /^https?:\/\//.test(s.runUrl)) parts.push(`[workflow run](${href(s.runUrl)})`);
  return parts.join(' · ');
}

/** What kind of work the run was: a review, an answer to the output schema (nothing committed), a fix. */
function modeOf(s: RunSummaryInput): 'review' | 'answer' | 'fix' {
  if (s.review) return 'review';
  if (s.structuredOutput !== undefined && !s.commitSha) return 'answer';
  return 'fix';
}

/** The most a verdict takes of the headline. */
const VERDICT_CHARS = 80;

/**
 * The outcome as the run's mode says it: a review posted (its comments and verdict), an answer
 * given, or a fix's conclusion with why it stopped short (a budget, the tests, an outage).
 */
function outcomeMarkdown(s: RunSummaryInput): string {
  const mode = modeOf(s);
  if (mode === 'review' && s.conclusion === 'success') {
    const r = s.review!;
    const comments = r.comments === 0 ? 'no inline comments' : plural(r.comments, 'comment');
    const verdict = r.verdict ? ` (${cell(cut(oneLine(r.verdict), VERDICT_CHARS))})` : '';
    return `💬 **patchloop: review ${r.posted ? 'posted' : 'not posted'}** — ${comments}${verdict}`;
  }
  if (mode === 'answer' && FINISHED.has(s.conclusion)) return '✅ **patchloop: answer given**';
  const head = Object.hasOwn(HEADLINES, s.conclusion)
    ? HEADLINES[s.conclusion]!
    : `**patchloop: ${cell(s.conclusion)}**`;
  const why = shortOfSuccess(s);
  return why ? `${head} (${why})` : head;
}

/** Why a run stopped short, in a word or three, for its headline. */
function shortOfSuccess(s: RunSummaryInput): string | undefined {
  if (s.conclusion === 'budget-exceeded') return s.next?.budget;
  if (s.conclusion !== 'failure') return undefined;
  if (outageOf(s.next?.failedRequest)) return 'provider outage';
  if (s.tests?.passed === false && !s.tests.stale) return 'tests still failing';
  return undefined;
}

/** How the tests ended, for the figures: `failed at the end (last run_tests exit 1)`. */
function testsText(t: TestsAtEnd): string {
  const which = t.tool === 'run_tests' ? 'run_tests' : `test run (${t.tool})`;
  if (t.stale)
    return `${t.passed ? 'passed' : 'failed'} before the last edits, not run since (${which} ${t.ending})`;
  return `${t.passed ? 'passed' : 'failed'} at the end (last ${which} ${t.ending})`;
}

/** The error, the one next step, and the notes: right under the headline, before the request. */
function statusMarkdown(s: RunSummaryInput): string {
  const lines: string[] = [];
  if (s.error) lines.push(`> **Error:** ${cut(oneLine(s.error), 2000)}`, '');
  const next = nextOf(s);
  if (next) lines.push(`**What next:** ${next}`, '');
  for (const n of s.notices ?? []) lines.push(`> **Note:** ${cut(oneLine(n), 2000)}`, '');
  return lines.join('\n').trimEnd();
}

/** The next step of a run that did not succeed; "before work" when the model produced nothing. */
function nextOf(s: RunSummaryInput): string | undefined {
  if (s.conclusion === 'success' || !s.next) return undefined;
  return nextStep(s.conclusion, {
    beforeWork: s.usage.outputTokens === 0,
    ...(s.tests?.passed === false && !s.tests.stale ? { testsFailing: true } : {}),
    ...(modeOf(s) === 'answer' ? { answered: true } : {}),
    ...s.next,
  });
}

/**
 * The request, quoted, with who asked; for a run nobody asked for, what started it, and the
 * workflow's prompt when it has one.
 */
function requestMarkdown(s: RunSummaryInput, text: string, kept: string): string {
  const body = kept.length < text.length ? `${kept.trimEnd()} …` : text;
  if (s.startedBy) {
    const started = `**Started by** ${oneLine(s.startedBy)}${text ? ', with the workflow’s prompt:' : '.'}`;
    return text ? `${started}\n\n${quote(body)}` : started;
  }
  if (!text) return '';
  const who = s.requester ? `${requesterMarkdown(s.requester, s.serverUrl)} asked` : 'The request';
  return `**${who}:**\n\n${quote(body)}`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

/** The run's figures, inside the collapsed details: a list, never a table (no bold header row). */
function factsMarkdown(s: RunSummaryInput, links: Links): string {
  const rows: [string, string][] = [];
  rows.push(['Model', s.models.length ? s.models.map((m) => code(m)).join(', ') : '(none)']);
  rows.push(['Turns', formatCount(s.turns)]);
  if (s.durationMs !== undefined) rows.push(['Duration', formatDuration(s.durationMs)]);
  rows.push(['Tokens', tokensLine(s.usage)]);
  const cost = formatCost(s.usage.costUsd);
  rows.push(['Cost', cost ? `${cost} (estimated)` : 'unknown (no price for this model)']);
  if (s.startedBy) rows.push(['Started by', cell(s.startedBy)]);
  else if (s.requester) rows.push(['Requested by', requesterMarkdown(s.requester, s.serverUrl)]);
  if (s.tests) rows.push(['Tests', testsText(s.tests)]);
  if (s.branch) rows.push(['Branch', link(code(s.branch), links.branch)]);
  if (s.commitSha) rows.push(['Commit', link(code(s.commitSha.slice(0, 12)), links.commit)]);
  if (s.prUrl)
    rows.push([
      'Pull request',
      `[${s.prNumber !== undefined ? `#${s.prNumber}` : 'open'}](${href(s.prUrl)})`,
    ]);
  else if (s.compareUrl) rows.push(['Compare', `[create a pull request](${href(s.compareUrl)})`]);
  if (s.commandNetwork) rows.push(['Command network', cell(s.commandNetwork.replace(/\*/g, '\\*'))]);
  if (s.reviewUrl && /^https?:\/\//.test(s.reviewUrl))
    rows.push(['Review', `[posted](${href(s.reviewUrl)})`]);
  return rows.map(([k, v]) => `- ${k}: ${v}`).join('\n');
}

/** The collapsed details: the figures, then the tool log. */
function detailsMarkdown(s: RunSummaryInput, facts: string, log: string): string {
  const calls = s.toolLog.length;
  const errors = s.toolLog.filter((e) => !e.ok).length;
  const what = calls
    ? `Details: model, tokens, tool log (${plural(calls, 'call')}, ${plural(errors, 'error')})`
    : 'Details: model, tokens';
  return [`<details><summary>${what}</summary>`, '', facts, ...(log ? ['', log] : []), '', '</details>'].join(
    '\n',
  );
}

function filesMarkdown(files: ChangedFile[], keep: number, links: Links): string {
  if (files.length === 0) return '';
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const lines = [`**Changed files** (${plural(files.length, 'file')}, +${added} −${removed})`, ''];
  for (const f of files.slice(0, keep)) {
    const name = link(code(f.path), links.file?.(f.path));
    lines.push(`- ${name} ${f.binary ? '(binary)' : `+${f.added} −${f.removed}`}`);
  }
  if (files.length > keep) lines.push(`- … and ${files.length - keep} more`);
  return lines.join('\n');
}

function finalMarkdown(text: string, kept: string, s: RunSummaryInput): string {
  if (!text) return '';
  const body =
    kept.length < text.length ? `${kept.trimEnd()}\n\n… (cut; the full message is in the transcript)` : text;
  // Quoted, so an unclosed code fence in the message cannot swallow the rest of the summary.
  const label =
    s.review && s.conclusion === 'success'
      ? '**Review**'
      : FINISHED.has(s.conclusion)
        ? '**Answer**'
        : '**Last message before the run stopped** (unfinished: the model had not ended its work)';
  return `${label}\n\n${quote(body)}`;
}

function answerMarkdown(text: string, kept: string): string {
  if (!text) return '';
  const body =
    kept.length < text.length
      ? `${kept.trimEnd()}\n… (cut; the output structured-output has it whole)`
      : text;
  const fence = fenceFor(body);
  return ['**Structured answer** (output `structured-output`)', '', `${fence}json`, body, fence].join('\n');
}

function fenceFor(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(longest + 1);
}

function diffMarkdown(diff: string, kept: string, files: ChangedFile[]): string {
  if (!diff.trim()) return '';
  const cutNote =
    kept.length < diff.length
      ? `\n… (cut: ${plural(diff.split('\n').length - kept.split('\n').length, 'more line')} of the diff are not shown)`
      : '';
  const body = kept.replace(/\n+$/, '');
  const fence = fenceFor(body);
  const stat = files.length ? ` (${plural(files.length, 'file')})` : '';
  return [
    `<details><summary>Diff${stat}</summary>`,
    '',
    `${fence}diff`,
    body,
    fence,
    cutNote,
    '</details>',
  ].join('\n');
}

/** The tool log as a code block (inside the details). */
function logMarkdown(log: ToolLogEntry[], fitted: FittedLog): string {
  if (log.length === 0) return '';
  const body =
    fitted.omitted > 0
      ? [
          ...fitted.head,
          `… ${plural(fitted.omitted, 'call')} not shown (the transcript has them all)`,
          ...fitted.tail,
        ]
      : fitted.head;
  const text = body.join('\n');
  const fence = fenceFor(text);
  return [`Tool log (${plural(log.length, 'call')}):`, '', fence, text, fence].join('\n');
}

function footerMarkdown(s: RunSummaryInput): string {
  const parts: string[] = [];
  if (s.artifactUrl && /^https?:\/\//.test(s.artifactUrl)) {
    const name = s.artifactName ? code(s.artifactName) : 'artifact';
    parts.push(`Full transcript: [${name}](${href(s.artifactUrl)}) (JSONL and HTML page)`);
  } else if (s.transcriptLocation) parts.push(`Full transcript: ${s.transcriptLocation}`);
  // The workflow run is linked in the headline already.
  if (s.runUrl && !/^https?:\/\//.test(s.runUrl)) parts.push(`Workflow run: ${s.runUrl}`);
  for (const r of s.related ?? []) {
    if (/^https?:\/\//.test(r.url))
      parts.push(`[${cell(r.label).replace(/[[\]]/g, '\\$&')}](${href(r.url)})`);
  }
  return parts.join(' · ');
}

interface FittedLog {
  head: string[];
  tail: string[];
  omitted: number;
}

/** Picks log lines to fit `budget`: about a third from the start, the rest from the end. */
function fitLog(all: string[], maxLines: number, budget: number, unit: SizeUnit): FittedLog {
  const sizes = all.map((l) => sizeOf(l, unit) + 1);
  const total = sizes.reduce((n, l) => n + l, 0);
  if (all.length <= maxLines && total <= budget) return { head: all, tail: [], omitted: 0 };
  const reserve = 80;
  let room = Math.max(0, budget - reserve);
  let slots = Math.min(maxLines, all.length);
  const headRoom = Math.floor(room / 3);
  const head: string[] = [];
  let used = 0;
  for (let i = 0; i < all.length; i++) {
    if (head.length >= Math.ceil(slots / 3) || used + sizes[i]! > headRoom) break;
    head.push(all[i]!);
    used += sizes[i]!;
  }
  room -= used;
  slots -= head.length;
  const tail: string[] = [];
  for (let i = all.length - 1; i >= head.length; i--) {
    if (tail.length >= slots || sizes[i]! > room) break;
    tail.unshift(all[i]!);
    room -= sizes[i]!;
  }
  return { head, tail, omitted: all.length - head.length - tail.length };
}

function join(sections: string[]): string {
  return `${sections.filter((s) => s !== '').join('\n\n')}\n`;
}

/**
 * Shares `room` between sections that want `demand` each, in proportion to `weight`: a section
 * that wants less than its share gets what it wants, and the rest is shared among the others. So a
 * huge final message cannot take the tool log's place, nor the log the message's.
 */
export function shareBudget(room: number, demand: number[], weight: number[]): number[] {
  const give = demand.map(() => 0);
  let open = demand.map((d, i) => i).filter((i) => demand[i]! > 0);
  let left = Math.max(0, room);
  while (open.length > 0 && left > 0) {
    const total = open.reduce((n, i) => n + weight[i]!, 0);
    const satisfied = open.filter((i) => demand[i]! - give[i]! <= (left * weight[i]!) / total);
    if (satisfied.length === 0) {
      for (const i of open) give[i]! += Math.floor((left * weight[i]!) / total);
      break;
    }
    for (const i of satisfied) {
      left -= demand[i]! - give[i]!;
      give[i] = demand[i]!;
    }
    open = open.filter((i) => !satisfied.includes(i));
  }
  return give;
}

/** Renders a section with as much of its text as keeps it within `budget`. */
function fitText(text: string, budget: number, unit: SizeUnit, render: (kept: string) => string): string {
  let out = render(text);
  let size = sizeOf(out, unit);
  if (size <= budget) return out;
  let keep = sizeOf(text, unit);
  for (let i = 0; i < 30 && size > budget && keep > 0; i++) {
    keep = Math.max(0, keep - (size - budget) - 8);
    out = render(headWithin(text, keep, unit));
    size = sizeOf(out, unit);
  }
  return size <= budget ? out : '';
}

/**
 * The markdown summary, within `maxChars` characters (and `maxBytes` bytes). It leads with the
 * answer: one headline line (outcome, PR or branch, duration, cost, the run), the error and the
 * next step, the request quoted, the model's answer; then the changed files; then the details
 * (model, tokens, tool log) collapsed. The headline, status and figures are always kept; the
 * request, the answer, the files, the diff and the tool log each get a share of the rest, so each
 * survives the others.
 */
export function renderSummaryMarkdown(input: RunSummaryInput, options: SummaryMarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? COMMENT_MAX_CHARS;
  const maxBytes = options.maxBytes ?? (maxChars > COMMENT_MAX_CHARS ? maxChars : undefined);
  const unit: SizeUnit = maxBytes !== undefined ? 'bytes' : 'chars';
  const limit = maxBytes !== undefined ? Math.min(maxBytes, maxChars * 3) : maxChars;
  const maxLines = options.logLines ?? (limit > COMMENT_MAX_CHARS ? 5000 : 300);
  const redact = options.redact ?? ((s: string) => s);
  const s = cleaned(input, redact);
  const links = linksOf(s);
  const size = (t: string) => sizeOf(t, unit);
  // Always kept: the headline, the error, the next step and the notes, the figures, the footer.
  const headline = headlineMarkdown(s, links);
  const status = statusMarkdown(s);
  const facts = factsMarkdown(s, links);
  const footer = footerMarkdown(s);
  const finalText = s.finalMessage?.trim() ?? '';
  const diffText = s.diff ?? '';
  const answerText = s.structuredOutput ?? '';
  const requestText = cut(s.request?.trim() ?? '', REQUEST_CHARS);
  const allLog = s.toolLog.map(logLine);
  const details = (log: string) => detailsMarkdown(s, facts, log);

  // Full sizes first; the joins between sections cost a few characters each.
  const full = {
    files: filesMarkdown(s.changedFiles, Math.min(s.changedFiles.length, 1000), links),
    final: finalMarkdown(finalText, finalText, s),
    diff: diffMarkdown(diffText, diffText, s.changedFiles),
    log: logMarkdown(s.toolLog, fitLog(allLog, maxLines, Number.MAX_SAFE_INTEGER, unit)),
    answer: answerMarkdown(answerText, answerText),
    request: requestMarkdown(s, requestText, requestText),
  };
  const room = limit - size(headline) - size(status) - size(details('')) - size(footer) - 40;
  const [filesBudget, finalBudget, diffBudget, logBudget, answerBudget, requestBudget] = shareBudget(
    room,
    [
      size(full.files),
      size(full.final),
      size(full.diff),
      size(full.log),
      size(full.answer),
      size(full.request),
    ],
    [1, 3, 2, 3, 2, 1],
  ) as [number, number, number, number, number, number];

  let files = full.files;
  if (size(files) > filesBudget) {
    let keep = Math.min(s.changedFiles.length, 1000);
    while (keep > 0 && size(files) > filesBudget) {
      keep = Math.floor(keep / 2);
      files = filesMarkdown(s.changedFiles, keep, links);
    }
    if (size(files) > filesBudget) files = '';
  }
  const final = fitText(finalText, finalBudget, unit, (kept) => finalMarkdown(finalText, kept, s));
  const diff = fitText(diffText, diffBudget, unit, (kept) => diffMarkdown(diffText, kept, s.changedFiles));
  const answer = fitText(answerText, answerBudget, unit, (kept) => answerMarkdown(answerText, kept));
  const request = fitText(requestText, requestBudget, unit, (kept) => requestMarkdown(s, requestText, kept));
  let log = full.log;
  if (size(log) > logBudget) {
    log = logMarkdown(s.toolLog, fitLog(allLog, maxLines, Math.max(0, logBudget - 300), unit));
    if (size(log) > logBudget) {
      log = `Tool log: ${plural(allLog.length, 'call')}, too long to show here (the transcript has them all).`;
    }
  }

  let out = cleanText(redact)(
    join([headline, status, request, final, answer, files, diff, details(log), footer]),
  );
  if (size(out) > limit || out.length > maxChars) {
    const bound = Math.min(limit, unit === 'chars' ? maxChars : limit) - 4;
    out = `${headWithin(out, bound, unit)}…\n`;
    if (out.length > maxChars) out = `${out.slice(0, maxChars - 2)}…\n`;
  }
  return out;
}

/** The plain-text summary the CLI prints on stdout. */
export function renderSummaryText(
  input: RunSummaryInput,
  options: { redact?: (text: string) => string } = {},
): string {
  const s = options.redact ? mapText(input, options.redact) : input;
  const why = shortOfSuccess(s);
  const lines: string[] = [`Outcome: ${s.conclusion}${why ? ` (${why})` : ''}`];
  if (s.error) lines.push(`Error: ${oneLine(s.error)}`);
  const next = nextOf(s);
  if (next) lines.push(`Next: ${next}`);
  for (const n of s.notices ?? []) lines.push(`Note: ${oneLine(n)}`);
  lines.push(`Model: ${s.models.join(', ') || '(none)'}`);
  lines.push(
    `Turns: ${formatCount(s.turns)}${s.durationMs !== undefined ? `   Duration: ${formatDuration(s.durationMs)}` : ''}`,
  );
  lines.push(`Tokens: ${tokensLine(s.usage).replace(/ · /g, ', ')}`);
  lines.push(`Cost: ${formatCost(s.usage.costUsd) ?? 'unknown (no price for this model)'}`);
  if (s.commandNetwork) lines.push(`Command network: ${oneLine(s.commandNetwork)}`);
  if (s.tests) lines.push(`Tests: ${testsText(s.tests)}`);
  if (s.branch) lines.push(`Branch: ${s.branch}`);
  if (s.commitSha) lines.push(`Commit: ${s.commitSha}`);
  if (s.prUrl) lines.push(`Pull request: ${s.prUrl}`);
  else if (s.compareUrl) lines.push(`Compare: ${s.compareUrl}`);
  if (s.changedFiles.length > 0) {
    lines.push(`Changed files (${formatCount(s.changedFiles.length)}):`);
    const width = Math.min(60, Math.max(...s.changedFiles.map((f) => f.path.length)));
    for (const f of s.changedFiles) {
      lines.push(`  ${f.path.padEnd(width)}  ${f.binary ? '(binary)' : `+${f.added} -${f.removed}`}`);
    }
  } else lines.push('Changed files: none');
  if (s.finalMessage?.trim()) {
    lines.push(FINISHED.has(s.conclusion) ? 'Final message:' : 'Last message (unfinished):');
    for (const l of s.finalMessage.trim().split('\n')) lines.push(`  ${l}`);
  }
  if (s.transcriptLocation) lines.push(`Transcript: ${s.transcriptLocation}`);
  const out = `${lines.join('\n')}\n`;
  return options.redact ? options.redact(out) : out;
}
