import type { EventLine } from '../protocol/transcript.js';
import type { Usage } from '../protocol/types.js';
import {
  cut,
  errorGist,
  errorLines,
  formatCost,
  formatDuration,
  formatTokens,
  headLines,
  oneLine,
  plural,
  safeJson,
  shortArgs,
} from './format.js';
import type { CallView, RunView, TurnView } from './model.js';
import { planSentence } from './run-facts.js';

// `patchloop inspect`: the run as a terminal timeline, or as one JSON object for scripts.

export interface InspectTextOptions {
  /** ANSI colours; the caller decides (a TTY and no NO_COLOR). */
  color?: boolean;
  /** Lines of each tool output to show. */
  outputLines?: number;
  /** Line width used to cut long lines. */
  width?: number;
}

type Paint = (text: string) => string;

function palette(color: boolean) {
  const wrap =
    (open: number, close: number): Paint =>
    (t) =>
      color ? `\x1b[${open}m${t}\x1b[${close}m` : t;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

// Transcript text is untrusted: escape sequences in it must not drive the reader's terminal, and
// bidi overrides must not reorder what is shown.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_FOR_TERMINAL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE_FOR_TERMINAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function usageLine(u: Usage): string {
  return `in ${formatTokens(u.inputTokens)} out ${formatTokens(u.outputTokens)} cache r ${formatTokens(
    u.cacheReadTokens,
  )} w ${formatTokens(u.cacheWriteTokens)}`;
}

function eventFields(e: EventLine): string {
  // the plan is a large value: its sentence, not its first characters
  if (e.event === 'delivery-plan') return planSentence(e.plan);
  const parts: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || k === 'event' || k === 'timestamp') continue;
    parts.push(`${k}=${typeof v === 'string' ? cut(oneLine(v), 120) : cut(safeJson(v), 120)}`);
  }
  return parts.join(' ');
}

/** The request inside the action's task prompt (`<request from="@login">…</request>`), if there is one. */
export function requestOf(task: string): { from: string; text: string } | undefined {
  const m = /<request from="([^"\n]{0,100})">\n([\s\S]*?)\n<\/request>/.exec(task);
  return m ? { from: m[1]!, text: m[2]! } : undefined;
}

export function renderInspectText(view: RunView, options: InspectTextOptions = {}): string {
  const p = palette(options.color === true);
  const width = Math.max(40, options.width ?? 120);
  const outputLines = options.outputLines ?? 3;
  const out: string[] = [];
  const line = (text: string) => out.push(text);
  // Every string from the transcript goes through t() or fit() before it is painted.
  const t = terminalSafe;
  const fit = (text: string, indent: number) => t(cut(text, width - indent));

  line(
    p.bold(`patchloop run ${t(view.id ?? '(no id)')}`) +
      p.dim(view.version !== undefined ? `  format v${view.version}` : ''),
  );
  const meta: string[] = [];
  if (view.repository) meta.push(`repository ${view.repository}`);
  if (view.trigger) meta.push(`trigger ${view.trigger}`);
  if (view.startedAt !== undefined) meta.push(`started ${new Date(view.startedAt).toISOString()}`);
  if (meta.length) line(p.dim(t(meta.join(' · '))));
  line(`models ${t(view.models.join(', ')) || '(none)'}`);
  if (view.task !== undefined) {
    line('');
    line(p.bold(view.earlierTurns !== undefined ? 'Follow-up' : 'Task'));
    // The action's prompt opens with framing; the request itself is what a reader looks for.
    const request = requestOf(view.task);
    if (request) {
      line(p.dim(`  request from ${t(request.from)}:`));
      const { lines, more } = headLines(request.text, 8);
      for (const l of lines) line(`  ${fit(l, 2)}`);
      if (more > 0) line(p.dim(`  … ${plural(more, 'more line')}`));
      line(p.dim(`  (the whole prompt has ${plural(view.task.split('\n').length, 'line')}; --json has it)`));
    } else {
      const { lines, more } = headLines(view.task, 5);
      for (const l of lines) line(`  ${fit(l, 2)}`);
      if (more > 0) line(p.dim(`  … ${plural(more, 'more line')}`));
    }
  }
  if (view.earlierTurns !== undefined) {
    const began = view.earlierTask
      ? headLines(requestOf(view.earlierTask)?.text ?? view.earlierTask, 1).lines[0]
      : undefined;
    line(
      p.dim(
        `  continues an earlier session of ${plural(view.earlierTurns, 'turn')}${began ? `: ${fit(began, 50)}` : ''}`,
      ),
    );
    line(p.dim('  (turns are numbered within each session, as the live timeline numbered them)'));
  }

  for (const item of view.timeline) {
    if (item.kind === 'turn') renderTurn(item.turn);
    else if (item.kind === 'event')
      line(
        p.yellow(
          `  ! ${t(typeof item.event.event === 'string' ? item.event.event : safeJson(item.event.event))}`,
        ) + ` ${fit(eventFields(item.event), 6)}`,
      );
    else if (item.kind === 'task' && item.earlier) {
      line('');
      line(p.bold('Earlier session'));
      for (const l of headLines(requestOf(item.text)?.text ?? item.text, 2).lines) line(`  ${fit(l, 2)}`);
    } else if (item.kind === 'user') {
      line('');
      line(p.bold('User'));
      for (const l of headLines(item.text, 3).lines) line(`  ${fit(l, 2)}`);
    }
  }

  line('');
  line(p.bold('Totals'));
  const own = view.turns.filter((t) => !t.earlier).length;
  const earlierNote =
    view.earlierTurns !== undefined ? ` (and ${view.earlierTurns} of the earlier session)` : '';
  const calls = Object.values(view.tools).reduce((n, t) => n + t.calls, 0);
  const errors = Object.values(view.tools).reduce((n, t) => n + t.errors, 0);
  line(
    `  ${plural(own, 'turn')}${earlierNote} · ${plural(calls, 'tool call')} (${plural(errors, 'error')}) · duration ${formatDuration(view.durationMs)}`,
  );
  line(
    `  tokens: input ${formatTokens(view.totals.inputTokens)} · output ${formatTokens(view.totals.outputTokens)} · cache read ${formatTokens(
      view.totals.cacheReadTokens,
    )} · cache write ${formatTokens(view.totals.cacheWriteTokens)}`,
  );
  line(`  cost: ${formatCost(view.totals.costUsd) ?? 'unknown (no price for this model)'}`);
  const conclusion = view.conclusion ?? 'incomplete (no summary line)';
  const good = view.conclusion === 'success' || view.conclusion === 'no-changes';
  line(`  outcome: ${good ? p.green(t(conclusion)) : p.red(t(conclusion))}`);

  const names = Object.keys(view.tools).sort();
  if (names.length) {
    line('');
    line(p.bold('Tools'));
    const w = Math.max(...names.map((n) => n.length));
    for (const n of names) {
      const count = view.tools[n]!;
      const errs = count.errors ? p.red(plural(count.errors, 'error')) : '0 errors';
      line(`  ${p.cyan(t(n.padEnd(w)))}  ${plural(count.calls, 'call')}  ${errs}`);
    }
  }
  if (view.errors.length) {
    line('');
    line(p.bold(p.red(`Errors (${view.errors.length})`)));
    for (const e of view.errors) {
      const where = t(
        [
          e.turn !== undefined ? `${e.earlier ? 'earlier turn' : 'turn'} ${e.turn}` : e.source,
          e.tool,
          e.toolCallId,
        ]
          .filter(Boolean)
          .join(' · '),
      );
      line(`  ${where}: ${fit(oneLine(e.message), where.length + 4)}`);
    }
  }
  if (view.warnings.length) {
    line('');
    line(p.bold(p.yellow('Warnings')));
    for (const w of view.warnings) line(`  ${t(w)}`);
  }
  return `${out.join('\n')}\n`;

  function renderTurn(turn: TurnView): void {
    line('');
    const cost = formatCost(turn.usage.costUsd);
    const head = [
      `${turn.earlier ? 'Earlier turn' : 'Turn'} ${turn.index}`,
      t(turn.model),
      turn.stopReason === 'error' || turn.stopReason === 'aborted' ? p.red(turn.stopReason) : turn.stopReason,
      turn.durationMs !== undefined ? formatDuration(turn.durationMs) : undefined,
      usageLine(turn.usage),
      cost,
    ].filter((x): x is string => Boolean(x));
    line(p.bold(`── ${head[0]}`) + p.dim(` · ${head.slice(1).join(' · ')}`));
    if (turn.errorMessage) line(p.red(`  error: ${fit(oneLine(turn.errorMessage), 9)}`));
    if (turn.text) {
      const { lines, more } = headLines(turn.text, 3);
      for (const l of lines) line(`  ${fit(l, 2)}`);
      if (more > 0) line(p.dim(`  … ${plural(more, 'more line')}`));
    }
    for (const call of turn.calls) renderCall(call);
  }

  function renderCall(call: CallView): void {
    const mark = !call.result ? p.yellow('?') : call.isError ? p.red('✗') : p.green('✓');
    const timing = call.durationMs !== undefined ? p.dim(` · ${formatDuration(call.durationMs)}`) : '';
    const args = shortArgs(call.input, 100);
    line(`  ${mark} ${p.cyan(t(call.name))}${args ? ` ${fit(args, call.name.length + 6)}` : ''}${timing}`);
    if (!call.result) {
      line(p.yellow('    │ (no result recorded)'));
      return;
    }
    if (call.isError) {
      // A failure's reason: a command's status and the end of its output, where the failure is.
      const shown = errorLines(call.output, Math.max(outputLines, 5));
      for (const l of shown.length ? shown : ['(no output)']) line(p.red(`    │ ${fit(l, 6)}`));
      return;
    }
    const { lines, more } = headLines(call.output, outputLines);
    for (const l of lines) line(p.dim(`    │ ${fit(l, 6)}`));
    if (more > 0) line(p.dim(`    │ … ${plural(more, 'more line')}`));
  }
}

const JSON_OUTPUT_CHARS = 2000;

/** The run as structured data: per-turn and total usage, tool counts, errors, events, warnings. */
export function inspectJson(view: RunView): Record<string, unknown> {
  return {
    id: view.id ?? null,
    version: view.version ?? null,
    repository: view.repository ?? null,
    trigger: view.trigger ?? null,
    task: view.task ?? null,
    ...(view.earlierTurns !== undefined
      ? { earlierTask: view.earlierTask ?? null, earlierTurns: view.earlierTurns }
      : {}),
    conclusion: view.conclusion ?? null,
    complete: view.complete,
    models: view.models,
    startedAt: view.startedAt !== undefined ? new Date(view.startedAt).toISOString() : null,
    durationMs: view.durationMs ?? null,
    turns: view.turns.map((t) => ({
      index: t.index,
      ...(t.earlier ? { earlier: true } : {}),
      model: t.model,
      provider: t.provider,
      stopReason: t.stopReason,
      errorMessage: t.errorMessage ?? null,
      durationMs: t.durationMs ?? null,
      usage: t.usage,
      text: t.text,
      toolCalls: t.calls.map((c) => ({
        id: c.id,
        name: c.name,
        input: c.input,
        isError: c.isError,
        recorded: c.result !== undefined,
        durationMs: c.durationMs ?? null,
        output: c.output.length > JSON_OUTPUT_CHARS ? c.output.slice(0, JSON_OUTPUT_CHARS) : c.output,
        outputChars: c.output.length,
        // A failure's reason, and the end of a long output (where a test runner reports what failed).
        ...(c.isError ? { error: errorGist(c.output, 1000) } : {}),
        ...(c.output.length > JSON_OUTPUT_CHARS
          ? { outputTail: c.output.slice(c.output.length - JSON_OUTPUT_CHARS) }
          : {}),
      })),
    })),
    totals: view.totals,
    tools: view.tools,
    errors: view.errors,
    events: view.timeline.flatMap((i) =>
      i.kind === 'event' ? [{ ...i.event, afterTurn: i.afterTurn }] : [],
    ),
    warnings: view.warnings,
  };
}
