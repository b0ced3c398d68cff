import type { EventLine, ParsedTranscript, SessionLine, SummaryLine } from '../protocol/transcript.js';
import { isSessionBoundary, TRANSCRIPT_VERSION } from '../protocol/transcript.js';
import type { AssistantMessage, ToolCall, ToolResultMessage, Usage } from '../protocol/types.js';
import { addUsage, emptyUsage } from '../protocol/types.js';
import { errorGist } from './format.js';
import { contentText, normalizeMessage, normalizeUsage, toMillis } from './normalize.js';

// One pass over a parsed transcript into the view every reader renders from: turns with their
// calls paired to results, events in place, totals, per-tool counts and errors.

export interface CallView {
  id: string;
  name: string;
  /** Parsed arguments, or the raw text when the model's argument text was not JSON. */
  input: Record<string, unknown> | string;
  /** Undefined when the transcript ends before the result was written (a killed run). */
  result?: ToolResultMessage;
  /** The result's text as the model saw it (images named). */
  output: string;
  isError: boolean;
  /** Time from the previous step of the turn to this result; an upper bound for parallel calls. */
  durationMs?: number;
}

export interface TurnView {
  /**
   * 1-based, counted within its session as the live timeline counted it: a follow-up's own turns
   * from 1, and the earlier session's (`earlier`) from 1 as well.
   */
  index: number;
  /** A turn of the earlier session that a continued transcript carries (before its boundary). */
  earlier?: boolean;
  message: AssistantMessage;
  model: string;
  provider: string;
  stopReason: string;
  errorMessage?: string;
  text: string;
  thinking: string;
  usage: Usage;
  /** When the request was sent (the previous message's time), if known. */
  startedAt?: number;
  /** How long the model took to answer, when derivable from timestamps. */
  durationMs?: number;
  calls: CallView[];
}

export type TimelineItem =
  | { kind: 'task'; text: string; timestamp?: number; earlier?: boolean }
  | { kind: 'user'; text: string; timestamp?: number; earlier?: boolean }
  | { kind: 'turn'; turn: TurnView }
  | { kind: 'event'; event: EventLine; afterTurn: number };

export interface RunError {
  source: 'tool' | 'model' | 'event' | 'run';
  turn?: number;
  /** The error is the earlier session's (a continued transcript): history, not this run's. */
  earlier?: boolean;
  tool?: string;
  toolCallId?: string;
  message: string;
  /**
   * The run got past it: a later call of the same tool on the same target succeeded (any later
   * passing run_tests, for a failing one), or a later turn of the model answered.
   */
  recovered?: boolean;
}

export interface ToolCount {
  calls: number;
  errors: number;
}

export interface RunView {
  session?: SessionLine;
  summary?: SummaryLine;
  id?: string;
  repository?: string;
  trigger?: string;
  version?: number;
  /** The request of this session: in a continued transcript, the follow-up's, not the original task. */
  task?: string;
  /** In a continued transcript: the earlier session's task, and how many turns it had. */
  earlierTask?: string;
  earlierTurns?: number;
  /** The summary line's conclusion; undefined for a run that ended without one. */
  conclusion?: string;
  /** False when there is no summary line: the run was killed or is still going. */
  complete: boolean;
  models: string[];
  startedAt?: number;
  endedAt?: number;
  durationMs?: number;
  turns: TurnView[];
  timeline: TimelineItem[];
  events: EventLine[];
  totals: Usage;
  tools: Record<string, ToolCount>;
  errors: RunError[];
  /** Things a reader should know about the file itself (torn line, unknown lines, newer version). */
  warnings: string[];
}

export function buildRunView(parsed: ParsedTranscript): RunView {
  const session = parsed.session;
  const view: RunView = {
    session,
    summary: parsed.summary,
    complete: parsed.summary !== undefined,
    models: [],
    turns: [],
    timeline: [],
    events: parsed.events,
    totals: emptyUsage(),
    // No prototype: tool names come from the file, and "__proto__" is a possible one.
    tools: Object.create(null) as Record<string, ToolCount>,
    errors: [],
    warnings: [],
  };
  if (session) {
    view.id = typeof session.id === 'string' ? session.id : undefined;
    view.repository = typeof session.repository === 'string' ? session.repository : undefined;
    view.trigger = typeof session.trigger === 'string' ? session.trigger : undefined;
    view.version = typeof session.version === 'number' ? session.version : undefined;
    view.startedAt = toMillis(session.startedAt);
    if (view.version !== undefined && view.version > TRANSCRIPT_VERSION) {
      view.warnings.push(
        `Written by a newer patchloop (format version ${view.version}); shown as far as this version understands it.`,
      );
    }
  } else {
    view.warnings.push('No session line: the transcript does not start with a session header.');
  }

  const open = new Map<string, { call: CallView; turn: TurnView }>();
  let lastStepAt: number | undefined = view.startedAt;
  let lastTimestamp: number | undefined;
  let orphans = 0;
  // A continued transcript carries the earlier session up to its boundary (an event `continue`).
  let earlier = parsed.lines.some(isSessionBoundary);
  let ownTurns = 0;
  let ownTask: string | undefined;

  for (const line of parsed.lines) {
    if (line.type === 'event') {
      if (earlier && isSessionBoundary(line)) {
        earlier = false;
        view.earlierTurns = ownTurns;
        view.earlierTask = ownTask;
        ownTurns = 0;
        ownTask = undefined;
      }
      view.timeline.push({ kind: 'event', event: line, afterTurn: ownTurns });
      const at = toMillis(line.timestamp);
      if (at !== undefined) lastTimestamp = Math.max(lastTimestamp ?? at, at);
      if (line.event === 'error') {
        const message =
          typeof line.message === 'string'
            ? line.message
            : typeof line.error === 'string'
              ? line.error
              : 'error event';
        view.errors.push({
          source: 'event',
          turn: ownTurns || undefined,
          message,
          ...(earlier ? { earlier: true } : {}),
        });
      }
      continue;
    }
    if (line.type !== 'message') continue;
    const message = normalizeMessage(line.message);
    if (!message) continue;
    if (message.timestamp) lastTimestamp = Math.max(lastTimestamp ?? message.timestamp, message.timestamp);

    if (message.role === 'user') {
      const text = contentText(
        typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content,
      );
      const at = message.timestamp || undefined;
      if (ownTask === undefined) {
        ownTask = text;
        view.timeline.push({ kind: 'task', text, timestamp: at, ...(earlier ? { earlier: true } : {}) });
      } else view.timeline.push({ kind: 'user', text, timestamp: at, ...(earlier ? { earlier: true } : {}) });
      lastStepAt = message.timestamp || lastStepAt;
      continue;
    }

    if (message.role === 'assistant') {
      const turn = turnOf(message, ++ownTurns, lastStepAt);
      if (earlier) turn.earlier = true;
      view.turns.push(turn);
      view.timeline.push({ kind: 'turn', turn });
      if (!view.models.includes(turn.model)) view.models.push(turn.model);
      view.totals = addUsage(view.totals, turn.usage);
      if (turn.stopReason === 'error' || turn.errorMessage) {
        view.errors.push({
          source: 'model',
          turn: turn.index,
          message: turn.errorMessage ?? `the model's turn ended with ${turn.stopReason}`,
          ...(earlier ? { earlier: true } : {}),
        });
      }
      for (const call of turn.calls) {
        const count = (view.tools[call.name] ??= { calls: 0, errors: 0 });
        count.calls++;
        open.set(call.id, { call, turn });
      }
      lastStepAt = message.timestamp || lastStepAt;
      continue;
    }

    // A tool result: attach it to its call.
    const entry = open.get(message.toolCallId);
    if (!entry) {
      orphans++;
      continue;
    }
    open.delete(message.toolCallId);
    const call = entry.call;
    call.result = message;
    call.output = contentText(message.content);
    call.isError = message.isError;
    if (message.timestamp && lastStepAt !== undefined && message.timestamp >= lastStepAt) {
      call.durationMs = message.timestamp - lastStepAt;
    }
    lastStepAt = message.timestamp || lastStepAt;
    if (call.isError) {
      view.tools[call.name]!.errors++;
      view.errors.push({
        source: 'tool',
        turn: entry.turn.index,
        tool: call.name,
        toolCallId: call.id,
        // The reason, not just the first line ("Invalid arguments for read_file:" says nothing).
        message: errorGist(call.output, 500),
        ...(entry.turn.earlier ? { earlier: true } : {}),
      });
    }
  }

  view.task = ownTask;
  if (parsed.summary) {
    const s = parsed.summary;
    view.conclusion = typeof s.conclusion === 'string' ? s.conclusion : undefined;
    if (s.usage && typeof s.usage === 'object') view.totals = normalizeUsage(s.usage);
    if (typeof s.error === 'string' && s.error) view.errors.push({ source: 'run', message: s.error });
    const ended = toMillis(s.endedAt) ?? toMillis(s.timestamp);
    if (ended !== undefined) lastTimestamp = ended;
    if (typeof s.durationMs === 'number' && Number.isFinite(s.durationMs)) view.durationMs = s.durationMs;
    if (Array.isArray(s.models)) {
      for (const m of s.models) if (typeof m === 'string' && !view.models.includes(m)) view.models.push(m);
    }
  }
  if (view.models.length === 0 && session && typeof session.model === 'string' && session.model) {
    view.models.push(session.model);
  }
  markRecovered(view);
  view.endedAt = lastTimestamp;
  if (view.durationMs === undefined && view.startedAt !== undefined && lastTimestamp !== undefined) {
    view.durationMs = Math.max(0, lastTimestamp - view.startedAt);
  }

  const unanswered = [...open.values()].map((e) => e.call);
  if (unanswered.length > 0) {
    view.warnings.push(
      `${unanswered.length} tool call(s) have no recorded result (${unanswered.map((c) => c.id).join(', ')}).`,
    );
  }
  if (orphans > 0) view.warnings.push(`${orphans} tool result(s) match no earlier call and are not shown.`);
  if (!parsed.summary)
    view.warnings.push('No summary line: the run was killed, crashed, or is still running.');
  if (parsed.torn)
    view.warnings.push('The last line is cut off (the run was killed while writing it); it is ignored.');
  const badLines = parsed.invalid.filter(
    (l) => !(parsed.torn && l === parsed.invalid[parsed.invalid.length - 1]),
  );
  if (badLines.length > 0) {
    view.warnings.push(
      `Lines that are not JSON were skipped: ${badLines.map((l) => l.lineNumber).join(', ')}.`,
    );
  }
  for (const u of parsed.unknown) {
    const type = u.value && typeof u.value === 'object' ? (u.value as { type?: unknown }).type : undefined;
    view.warnings.push(
      `Line ${u.lineNumber}: unknown line type ${typeof type === 'string' ? JSON.stringify(type) : '(none)'}, skipped.`,
    );
  }
  return view;
}

function turnOf(message: AssistantMessage, index: number, previousAt: number | undefined): TurnView {
  const calls: CallView[] = message.content
    .filter((c): c is ToolCall => c.type === 'toolCall')
    .map((c) => ({ id: c.id, name: c.name, input: c.input, output: '', isError: false }));
  const turn: TurnView = {
    index,
    message,
    model: message.model,
    provider: message.provider,
    stopReason: message.stopReason,
    text: message.content
      .map((c) => (c.type === 'text' ? c.text : ''))
      .join('')
      .trim(),
    thinking: message.content
      .map((c) => (c.type === 'thinking' && !c.redacted ? c.thinking : ''))
      .join('\n')
      .trim(),
    usage: message.usage,
    calls,
  };
  if (message.errorMessage) turn.errorMessage = message.errorMessage;
  if (previousAt !== undefined) turn.startedAt = previousAt;
  if (message.timestamp && previousAt !== undefined && message.timestamp >= previousAt) {
    turn.durationMs = message.timestamp - previousAt;
  }
  return turn;
}

/** What a call acted on, to tell a retry of the same thing from a different call of the tool. */
function targetOf(call: CallView): string {
  if (call.name === 'run_tests') return '';
  if (typeof call.input === 'string') return call.input;
  const { path, command } = call.input;
  if (typeof path === 'string') return `path:${path}`;
  if (typeof command === 'string') return `command:${command}`;
  return JSON.stringify(call.input);
}

function markRecovered(view: RunView): void {
  // The last successful call's position for each tool and target, and the last turn that answered.
  const order = new Map<CallView, number>();
  const lastOk = new Map<string, number>();
  let position = 0;
  let lastGoodTurn = 0;
  // Turns in file order: a continued transcript numbers each session's turns from 1.
  const turnAt = new Map(view.turns.map((t, i) => [`${t.earlier ? 'e' : ''}${t.index}`, i + 1]));
  for (const [i, turn] of view.turns.entries()) {
    if (turn.stopReason !== 'error' && !turn.errorMessage) lastGoodTurn = i + 1;
    for (const call of turn.calls) {
      order.set(call, ++position);
      if (call.result && !call.isError) lastOk.set(`${call.name}\u0000${targetOf(call)}`, position);
    }
  }
  const calls = new Map(view.turns.flatMap((t) => t.calls.map((c) => [c.id, c] as const)));
  for (const e of view.errors) {
    if (e.source === 'model' && e.turn !== undefined)
      e.recovered = lastGoodTurn > (turnAt.get(`${e.earlier ? 'e' : ''}${e.turn}`) ?? 0);
    if (e.source !== 'tool' || e.toolCallId === undefined) continue;
    const call = calls.get(e.toolCallId);
    if (!call) continue;
    const ok = lastOk.get(`${call.name}\u0000${targetOf(call)}`);
    e.recovered = ok !== undefined && ok > order.get(call)!;
  }
}

/** Context size of a turn's request: everything the model read. */
export function contextTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}
