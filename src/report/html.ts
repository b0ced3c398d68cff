import { createHash } from 'node:crypto';
import { isSessionBoundary, type EventLine } from '../protocol/transcript.js';
import type { ToolResultContent } from '../protocol/types.js';
import { tokensChartSvg } from './chart.js';
import { looksLikeDiff, renderDiffHtml } from './diff-html.js';
import { escapeHtml as esc } from './escape.js';
import { errorLines, formatCost, formatDuration, formatTokens, oneLine, plural, safeJson } from './format.js';
import { PAGE_CSS, PAGE_SCRIPT } from './html-assets.js';
import { renderMarkdown } from './markdown.js';
import { requestOf } from './inspect.js';
import { contextTokens, type CallView, type RunView, type TurnView } from './model.js';
import { describeEvent, runChanges, runLinks, runSetup, tellingArgument } from './run-facts.js';

// `patchloop export`: the run as one self-contained HTML page, rendered here so the page needs no
// code of its own to show the run. Every string from the transcript is escaped on the way in; the
// page loads nothing (its Content-Security-Policy forbids it) and its one script only filters.

export interface HtmlOptions {
  /** Shown in the footer (usually the transcript's file name). */
  source?: string;
  /** When the page was made; shown in the footer. */
  generatedAt?: Date;
  /** Applied to the finished page (the transcript should already be redacted; this is a second net). */
  redact?: (text: string) => string;
}

// Above any tool's own output cap (50 KB), so what the model saw is shown whole; this only
// bounds hand-made or foreign transcripts.
const BLOCK_MAX = 64_000;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const GOOD = new Set(['success', 'no-changes']);
const BAD = new Set(['failure', 'budget-exceeded', 'cancelled', 'unauthorized']);

function pre(text: string, cls = ''): string {
  const shown = text.length > BLOCK_MAX ? text.slice(0, BLOCK_MAX) : text;
  const more =
    text.length > BLOCK_MAX
      ? `\n… ${text.length - BLOCK_MAX} more characters not shown here (the transcript has them)`
      : '';
  return `<pre${cls ? ` class="${cls}"` : ''}>${esc(shown)}${esc(more)}</pre>`;
}

function image(block: Extract<ToolResultContent, { type: 'image' }>): string {
  if (!IMAGE_TYPES.has(block.mimeType) || !/^[A-Za-z0-9+/]*={0,2}$/.test(block.data)) {
    return `<div class="dim">[image of type ${esc(block.mimeType)} not shown]</div>`;
  }
  return `<img class="shot" alt="image returned by the tool" src="data:${block.mimeType};base64,${block.data}">`;
}

function argsHtml(input: CallView['input']): string {
  if (typeof input === 'string') {
    return `<div class="lbl">Arguments (not valid JSON, as the model sent them)</div>${pre(input)}`;
  }
  const rows = Object.entries(input).map(([key, value]) => {
    if (typeof value === 'string' && !value.includes('\n') && value.length <= 120) {
      return `<div class="kv"><span class="k">${esc(key)}</span><code>${esc(value)}</code></div>`;
    }
    const text = typeof value === 'string' ? value : safeJson(value, 2);
    return `<div class="kv"><span class="k">${esc(key)}</span>${pre(text)}</div>`;
  });
  return rows.length ? rows.join('') : '<div class="kv dim">(no arguments)</div>';
}

function detailsHtml(details: unknown): string {
  if (details === undefined || details === null) return '';
  let body = '';
  if (typeof details === 'string') body = looksLikeDiff(details) ? renderDiffHtml(details) : pre(details);
  else if (typeof details === 'object' && !Array.isArray(details)) {
    const { diff, patch, ...rest } = details as Record<string, unknown>;
    const diffText = typeof diff === 'string' ? diff : typeof patch === 'string' ? patch : undefined;
    if (diffText !== undefined) body += renderDiffHtml(diffText);
    const others = diffText === undefined ? (details as Record<string, unknown>) : rest;
    if (Object.keys(others).length > 0) body += pre(safeJson(others, 2));
  } else body = pre(safeJson(details, 2));
  const isDiff = body.includes('class="diff"');
  return `<details class="det"${isDiff ? ' open' : ''}><summary class="lbl">Details (not sent to the model)</summary>${body}</details>`;
}

function callHtml(call: CallView): string {
  const state = !call.result ? ' u' : call.isError ? ' e' : '';
  const mark = !call.result ? '?' : call.isError ? '✗' : '✓';
  const timing = call.durationMs !== undefined ? ` · ${formatDuration(call.durationMs)}` : '';
  const parts = [
    `<div class="call${state}" data-tool="${esc(call.name)}" data-error="${call.isError ? 1 : 0}">`,
    `<div class="ch"><span class="mk">${mark}</span> <b>${esc(call.name)}</b> <span class="dim">${esc(call.id)}${timing}</span></div>`,
    argsHtml(call.input),
  ];
  if (!call.result) parts.push('<div class="lbl">No result recorded (the run ended before it).</div>');
  else {
    if (call.isError) {
      // The reason up front: for a command its status and the end of its output, where the failure is.
      const why = errorLines(call.output, 6);
      // Only when it says something the whole result below does not say at a glance (a long output).
      if (why.length && why.join('\n') !== call.output.trim())
        parts.push(`<div class="why">${why.map((l) => esc(l)).join('<br>')}</div>`);
    }
    parts.push(`<div class="lbl">Result${call.isError ? ' (error)' : ''}, as the model saw it</div>`);
    for (const block of call.result.content) {
      parts.push(block.type === 'text' ? pre(block.text, 'out') : image(block));
    }
    parts.push(detailsHtml(call.result.details));
  }
  parts.push('</div>');
  return parts.join('');
}

const NARRATION_MAX = 140;

/** One line that says what the turn did: the model's first line of text, or the tools it called. */
export function narration(turn: TurnView): string {
  const firstLine = turn.text
    .split('\n')
    .map((l) => l.replace(/^[#>*\-\s]+/, '').trim())
    .find((l) => l !== '');
  if (firstLine)
    return firstLine.length > NARRATION_MAX ? `${firstLine.slice(0, NARRATION_MAX - 1)}…` : firstLine;
  if (turn.errorMessage) return `Model error: ${oneLine(turn.errorMessage).slice(0, NARRATION_MAX)}`;
  if (turn.calls.length === 0) return '';
  const names = [...new Set(turn.calls.map((c) => c.name))];
  return `Called ${names.join(', ')}`;
}

function turnHtml(turn: TurnView): string {
  const failed =
    turn.stopReason === 'error' || turn.stopReason === 'aborted' || turn.calls.some((c) => c.isError);
  const tools = [...new Set(turn.calls.map((c) => c.name))];
  const cost = formatCost(turn.usage.costUsd);
  const meta = [
    esc(turn.model),
    esc(turn.stopReason),
    turn.durationMs !== undefined ? formatDuration(turn.durationMs) : '',
    `in ${formatTokens(turn.usage.inputTokens)} · out ${formatTokens(turn.usage.outputTokens)}` +
      (turn.usage.cacheReadTokens || turn.usage.cacheWriteTokens
        ? ` · cache r ${formatTokens(turn.usage.cacheReadTokens)} w ${formatTokens(turn.usage.cacheWriteTokens)}`
        : ''),
    cost ?? '',
  ].filter(Boolean);
  const chips = turn.calls
    .map((c) => {
      const arg = tellingArgument(c);
      return `<span class="chip${c.isError ? ' e' : ''}">${c.isError ? '✗ ' : ''}${esc(c.name)}${arg ? ` <span class="ca">${esc(arg)}</span>` : ''}</span>`;
    })
    .join('');
  const said = narration(turn);
  const preview = said ? `<span class="narr">${esc(said)}</span>` : '';
  const body: string[] = [];
  if (turn.errorMessage) body.push(`<div class="merr">Model error: ${esc(turn.errorMessage)}</div>`);
  if (turn.thinking)
    body.push(`<details><summary class="lbl">Reasoning</summary>${pre(turn.thinking)}</details>`);
  if (turn.text) body.push(`<div class="md">${renderMarkdown(turn.text)}</div>`);
  for (const call of turn.calls) body.push(callHtml(call));
  const id = turn.earlier ? `earlier-turn-${turn.index}` : `turn-${turn.index}`;
  const label = turn.earlier ? `Earlier turn ${turn.index}` : `Turn ${turn.index}`;
  return (
    `<details class="turn${failed ? ' failed' : ''}${turn.earlier ? ' earlier' : ''}" id="${id}" data-tools="${esc(tools.join(' '))}"` +
    ` data-ctx="${contextTokens(turn.usage)}" data-out="${turn.usage.outputTokens}">` +
    `<summary><span class="n">${label}</span><span class="meta">${meta.join(' · ')}</span>` +
    `<span class="chips">${chips}</span>${preview}</summary><div class="tb">${body.join('')}</div></details>`
  );
}

function eventHtml(event: EventLine): string {
  if (isSessionBoundary(event)) return boundaryHtml(event);
  const isError = event.event === 'error' || event.event === 'cancel';
  // a line's own text: String() of an object whose toString is not a function throws
  const kind = typeof event.event === 'string' ? event.event : safeJson(event.event);
  return `<div class="event${isError ? ' e' : ''}" data-kind="${esc(kind)}"><span class="ek">${esc(kind)}</span>${esc(describeEvent(event))}</div>`;
}

const BOUNDARY_CSS =
  '.event.boundary{margin:14px 0;padding:6px 10px;border-left:0;border-top:2px dashed var(--warn);border-bottom:2px dashed var(--warn);color:inherit}';

/** Where the earlier session's messages end in a continued transcript. */
function boundaryHtml(event: EventLine): string {
  const runUrl =
    typeof event.runUrl === 'string' && /^https?:\/\//.test(event.runUrl) ? event.runUrl : undefined;
  const from = typeof event.sessionId === 'string' ? ` (session ${esc(event.sessionId)})` : '';
  const earlier = runUrl ? link(runUrl, 'the earlier run') : 'the earlier session';
  return (
    `<div class="event boundary" data-kind="continue" id="earlier-session-end"><span class="ek">continue</span>` +
    `Above: ${earlier}${from}, ${typeof event.earlierMessages === 'number' ? event.earlierMessages : safeJson(event.earlierMessages)} recorded messages. Below: this session, continuing it.</div>`
  );
}

function link(href: string, text: string): string {
  return `<a href="${esc(href)}" rel="noopener noreferrer">${esc(text)}</a>`;
}

const ERRORS_SHOWN = 5;
const DIFF_MAX = 400_000;
/** A diff up to this many lines is shown open: reading it is quicker than opening it. */
const DIFF_OPEN_LINES = 60;

interface ErrorGroup {
  tool?: string;
  source: string;
  message: string;
  turns: number[];
  count: number;
}

function errorItem(g: ErrorGroup): string {
  const turns = g.turns.slice(0, 8).map((t) => `<a href="#turn-${t}">${t}</a>`);
  if (g.turns.length > 8) turns.push('…');
  const where = g.turns.length
    ? `${g.turns.length > 1 ? 'turns' : 'turn'} ${turns.join(', ')}`
    : esc(g.source);
  const times = g.count > 1 ? ` (${g.count} times)` : '';
  return `<li>${where}${g.tool ? ` · <code>${esc(g.tool)}</code>` : ''}${times}: ${esc(g.message)}</li>`;
}

/**
 * The errors the run did not get past, at a glance: a count per tool, each distinct error once (the
 * same message from the model, an event and the summary is one error) with the turns it happened
 * in, the first few shown and the rest on demand. Errors the run recovered from stay marked on
 * their turns only.
 */
function errorsHtml(view: RunView): string {
  // The earlier session's errors are history (that run ended before this one began): its turns show them.
  const own = view.errors.filter((e) => !e.earlier);
  const earlier = view.errors.length - own.length;
  const errors = own.filter((e) => !e.recovered);
  const recovered = own.length - errors.length;
  const notes: string[] = [];
  if (recovered)
    notes.push(
      `${plural(recovered, errors.length ? 'other error' : 'error')} the run recovered from ${recovered > 1 ? 'are' : 'is'} marked on ${recovered > 1 ? 'their turns' : 'its turn'}.`,
    );
  if (earlier)
    notes.push(
      `${plural(earlier, 'error')} of the earlier session ${earlier > 1 ? 'are' : 'is'} marked on its turns.`,
    );
  const recoveredNote = notes.map((n) => `<div class="dim">${n}</div>`).join('');
  if (errors.length === 0) return notes.length ? `<div class="box recovered">${recoveredNote}</div>` : '';
  const byTool = new Map<string, number>();
  const groups = new Map<string, ErrorGroup>();
  for (const e of errors) {
    const key = e.message.trim();
    const known = groups.get(key);
    // A repeat of a message already listed counts only when it is another failed call.
    if (known && e.source !== 'tool') continue;
    const k = e.tool ?? e.source;
    byTool.set(k, (byTool.get(k) ?? 0) + 1);
    const g = known ?? { tool: e.tool, source: e.source, message: e.message, turns: [], count: 0 };
    g.count++;
    if (e.turn !== undefined && !g.turns.includes(e.turn)) g.turns.push(e.turn);
    groups.set(key, g);
  }
  const total = [...groups.values()].reduce((n, g) => n + g.count, 0);
  const counts = [...byTool.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `<code>${esc(k)}</code> ${n}`)
    .join(' · ');
  const list = [...groups.values()];
  const first = list.slice(0, ERRORS_SHOWN).map(errorItem).join('');
  const rest = list.slice(ERRORS_SHOWN);
  const more = rest.length
    ? `<details class="more"><summary>${rest.length} more</summary><ul>${rest.map(errorItem).join('')}</ul></details>`
    : '';
  return `<div class="box errors" id="errors"><b>Errors (${total})</b> <span class="dim">${counts}</span><ul>${first}</ul>${more}${recoveredNote}</div>`;
}

/** Changed files with their +/− counts, and the whole diff on demand. */
function changesHtml(view: RunView): string {
  const changes = runChanges(view);
  if (changes.files.length === 0 && !changes.diff) return '';
  const added = changes.files.reduce((n, f) => n + f.added, 0);
  const removed = changes.files.reduce((n, f) => n + f.removed, 0);
  const items = changes.files
    .map(
      (f) =>
        `<li><code>${esc(f.path)}</code> <span class="d-a">+${f.added}</span> <span class="d-r">−${f.removed}</span></li>`,
    )
    .join('');
  const note =
    changes.source === 'tools'
      ? '<div class="dim">As edited by the file tools during the run; commands may have changed more, and the commit is what counts.</div>'
      : '';
  let diff = changes.diff ?? changes.files.flatMap((f) => f.diffs).join('\n');
  let cutNote = '';
  if (diff.length > DIFF_MAX) {
    cutNote = `<div class="dim">… ${diff.length - DIFF_MAX} more characters of the diff are in the transcript.</div>`;
    diff = diff.slice(0, DIFF_MAX);
  }
  const open = diff.split('\n').length <= DIFF_OPEN_LINES ? ' open' : '';
  const diffBlock = diff.trim()
    ? `<details class="whole-diff"${open}><summary>${changes.diff ? 'The whole diff' : 'The edits, file by file'}</summary>${renderDiffHtml(diff)}${cutNote}</details>`
    : '';
  return `<div class="box changes" id="changes"><b>Changed files (${plural(changes.files.length, 'file')}, +${added} −${removed})</b><ul>${items}</ul>${note}${diffBlock}</div>`;
}

/** What the model was told before the task: on demand, when the session line recorded it. */
function setupHtml(view: RunView): string {
  const setup = runSetup(view);
  if (setup.systemPrompt === undefined && setup.tools.length === 0) return '';
  const parts: string[] = [];
  if (setup.systemPrompt !== undefined)
    parts.push(`<div class="lbl">System prompt</div>${pre(setup.systemPrompt)}`);
  if (setup.tools.length) {
    parts.push(`<div class="lbl">Tool definitions (${setup.tools.length})</div>`);
    for (const t of setup.tools) {
      parts.push(
        `<details class="tooldef"><summary><code>${esc(t.name)}</code> <span class="dim">${esc(oneLine(t.description).slice(0, 140))}</span></summary>` +
          `${pre(t.description)}${t.parameters !== undefined ? pre(safeJson(t.parameters, 2)) : ''}</details>`,
      );
    }
  }
  return `<details class="box setup" id="setup"><summary><b>System prompt and tools</b> <span class="dim">what the model was given before the task</span></summary>${parts.join('')}</details>`;
}

const TASK_MAX = 300;

function headerHtml(view: RunView): string {
  const conclusion = view.conclusion ?? 'incomplete';
  const cls = GOOD.has(conclusion) ? 'o-ok' : BAD.has(conclusion) || !view.complete ? 'o-bad' : 'o-other';
  const calls = Object.values(view.tools).reduce((n, t) => n + t.calls, 0);
  const errors = Object.values(view.tools).reduce((n, t) => n + t.errors, 0);
  const t = view.totals;
  const facts: [string, string][] = [
    [
      view.models.length > 1 ? 'Models' : 'Model',
      view.models.map((m) => `<code>${esc(m)}</code>`).join(', ') || '(none)',
    ],
  ];
  if (view.repository) facts.push(['Repository', esc(view.repository)]);
  if (view.trigger) facts.push(['Trigger', esc(view.trigger)]);
  if (view.startedAt !== undefined) facts.push(['Started', esc(new Date(view.startedAt).toISOString())]);
  facts.push(['Duration', formatDuration(view.durationMs)]);
  const ownTurns = view.turns.filter((x) => !x.earlier).length;
  facts.push([
    'Turns',
    view.earlierTurns !== undefined
      ? `${ownTurns} (and ${view.earlierTurns} of the earlier session)`
      : String(ownTurns),
  ]);
  facts.push(['Tool calls', `${calls} (${plural(errors, 'error')})`]);
  facts.push([
    'Tokens',
    `input ${formatTokens(t.inputTokens)} · output ${formatTokens(t.outputTokens)} · cache read ${formatTokens(
      t.cacheReadTokens,
    )} · cache write ${formatTokens(t.cacheWriteTokens)}`,
  ]);
  const cost = formatCost(t.costUsd);
  facts.push(['Cost', cost ? `${cost} (estimated)` : 'unknown (no price for this model)']);
  const s: Record<string, unknown> = view.summary ?? {};
  if (typeof s.branch === 'string') facts.push(['Branch', `<code>${esc(s.branch)}</code>`]);
  if (typeof s.commitSha === 'string') facts.push(['Commit', `<code>${esc(s.commitSha)}</code>`]);
  const links = runLinks(view);
  const number = view.session && typeof view.session.number === 'number' ? view.session.number : undefined;
  if (links.issue) facts.push(['Issue or PR', link(links.issue, `#${number ?? ''}`)]);
  if (links.pullRequest) facts.push(['Pull request', link(links.pullRequest, links.pullRequest)]);
  if (links.run) facts.push(['Workflow run', link(links.run, links.run)]);
  if (links.comment) facts.push(['Summary comment', link(links.comment, links.comment)]);
  if (links.earlierRun) facts.push(['Continues', link(links.earlierRun, 'the earlier run')]);
  const parts = [
    `<h1>patchloop run <span class="badge ${cls}">${esc(conclusion)}</span></h1>`,
    requestHtml(view),
    finalHtml(view),
    changesHtml(view),
    errorsHtml(view),
  ];
  if (view.warnings.length) {
    parts.push(
      `<div class="box warnings"><b>About this transcript</b><ul>${view.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>`,
    );
  }
  parts.push(`<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`);
  return parts.join('');
}

const cutTo = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What was asked, on one line: the request of an action prompt, else the task's text. */
function asked(task: string): string {
  const request = requestOf(task);
  return request ? `${request.from}: ${oneLine(request.text)}` : oneLine(task);
}

/** The request at the top: a follow-up's own, with the earlier session's task under it. */
function requestHtml(view: RunView): string {
  const followUp = view.earlierTurns !== undefined;
  const lines: string[] = [];
  if (view.task)
    lines.push(
      `<p class="task" id="task"><span class="lbl">${followUp ? 'Follow-up' : 'Task'}</span> ${esc(cutTo(asked(view.task), TASK_MAX))}</p>`,
    );
  if (followUp) {
    const earlier = view.earlierTask ? ` that began with “${esc(cutTo(asked(view.earlierTask), 160))}”` : '';
    lines.push(
      `<p class="dim" id="continues">Continues an earlier session of ${plural(view.earlierTurns ?? 0, 'turn')}${earlier} (<a href="#earlier-session">shown below</a>). Turns are numbered within each session, as the live timeline numbered them.</p>`,
    );
  }
  return lines.join('');
}

/** The model's last words: its answer when the last turn of this session ended without a call. */
function finalHtml(view: RunView): string {
  const last = view.turns[view.turns.length - 1];
  if (!last || last.earlier || last.calls.length > 0 || !last.text) return '';
  return `<div class="box final" id="final"><b>Final message</b><div class="md">${renderMarkdown(last.text)}</div></div>`;
}

function controlsHtml(view: RunView): string {
  const options = Object.keys(view.tools)
    .sort()
    .map((name) => `<option value="${esc(name)}">${esc(name)} (${view.tools[name]!.calls})</option>`)
    .join('');
  return (
    `<div class="controls"><label>Show <select id="f-kind"><option value="all">all turns</option>` +
    `<option value="errors">only errors</option></select></label>` +
    `<label>Tool <select id="f-tool"><option value="">any tool</option>${options}</select></label>` +
    `<label>Find <input type="search" id="f-text" placeholder="text in the run" size="22"></label>` +
    `<span class="hits"><button type="button" id="f-prev" title="Previous match" aria-label="Previous match">↑</button>` +
    `<button type="button" id="f-next" title="Next match" aria-label="Next match">↓</button><span id="f-hit" class="dim"></span></span>` +
    `<button type="button" id="expand">Expand all</button><button type="button" id="collapse">Collapse all</button>` +
    `<span id="f-count" class="dim"></span></div>`
  );
}

export function renderHtml(view: RunView, options: HtmlOptions = {}): string {
  const title = `patchloop run ${view.id ?? ''} — ${view.conclusion ?? 'incomplete'}${
    view.task ? ` — ${oneLine(view.task).slice(0, 80)}` : ''
  }`;
  const scriptHash = createHash('sha256').update(PAGE_SCRIPT).digest('base64');
  const csp = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; base-uri 'none'; form-action 'none'`;
  const body: string[] = [headerHtml(view)];
  // The chart is this session's: a follow-up's earlier turns are history, shown in the timeline.
  const own = view.turns.filter((t) => !t.earlier);
  if (own.some((t) => contextTokens(t.usage) + t.usage.outputTokens > 0)) {
    body.push(
      `<h2>Tokens per turn</h2>${tokensChartSvg(own.map((t) => t.usage))}` +
        `<div class="legend"><i class="c-ctx" style="background:var(--ctx)"></i>context read (input + cache)` +
        `<i style="background:var(--out)"></i>output <span id="chart-tip"></span></div>`,
    );
  }
  body.push(setupHtml(view));
  body.push('<h2>Timeline</h2>', controlsHtml(view));
  // A continued transcript's earlier session, up to its boundary, is one closed block.
  let inEarlier = view.earlierTurns !== undefined;
  if (inEarlier)
    body.push(
      `<details class="earlier-session" id="earlier-session"><summary><b>Earlier session</b> <span class="dim">${plural(view.earlierTurns ?? 0, 'turn')}, before this follow-up</span></summary>`,
    );
  for (const item of view.timeline) {
    if (inEarlier && item.kind === 'event' && isSessionBoundary(item.event)) {
      body.push('</details>');
      inEarlier = false;
    }
    if (item.kind === 'turn') body.push(turnHtml(item.turn));
    else if (item.kind === 'event') body.push(eventHtml(item.event));
    else if (item.kind === 'task') {
      body.push(
        `<details class="user"${item.earlier ? '' : ' open'}><summary class="lbl">${item.earlier ? 'Earlier task' : view.earlierTurns !== undefined ? 'Follow-up' : 'Task'}</summary><div class="md">${renderMarkdown(item.text)}</div></details>`,
      );
    } else
      body.push(
        `<div class="user"><div class="lbl">User</div><div class="md">${renderMarkdown(item.text)}</div></div>`,
      );
  }
  if (inEarlier) body.push('</details>');
  const made = options.generatedAt ? ` on ${esc(options.generatedAt.toISOString())}` : '';
  body.push(
    `<footer>Exported by patchloop${options.source ? ` from ${esc(options.source)}` : ''}${made}.</footer>`,
  );
  const page = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${PAGE_CSS}${BOUNDARY_CSS}</style></head>`,
    `<body><div class="wrap">${body.join('\n')}</div>`,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
  return options.redact ? options.redact(page) : page;
}
