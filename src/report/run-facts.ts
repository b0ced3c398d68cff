import type { EventLine } from '../protocol/transcript.js';
import { cut, formatDuration, oneLine, plural, safeJson } from './format.js';
import type { CallView, RunView } from './model.js';

// What a reader of a long run wants before its timeline: what changed, where it lives on GitHub,
// what the model was told, and each event said in words. Derived from the transcript alone.

export interface FileChange {
  path: string;
  added: number;
  removed: number;
  /** The diffs of this file's edits, in order (from the tool results' details). */
  diffs: string[];
}

export interface RunChanges {
  files: FileChange[];
  /**
   * Where the list comes from: the run's summary line (what was committed), or the edits the
   * file tools made (commands such as `bash` may have changed more).
   */
  source: 'summary' | 'tools';
  /** The whole change as one diff, when the summary line has it. */
  diff?: string;
}

function countLines(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Files changed by the run: the summary line's list when it has one, else the file tools' edits. */
export function runChanges(view: RunView): RunChanges {
  const s: Record<string, unknown> = view.summary ?? {};
  const diff = typeof s.diff === 'string' && s.diff.trim() ? s.diff : undefined;
  const byPath = new Map<string, FileChange>();
  for (const turn of view.turns) {
    for (const call of turn.calls) {
      if (call.isError || (call.name !== 'edit_file' && call.name !== 'write_file')) continue;
      const d = call.result?.details;
      if (!isObj(d) || typeof d.path !== 'string') continue;
      const entry = byPath.get(d.path) ?? { path: d.path, added: 0, removed: 0, diffs: [] };
      if (typeof d.diff === 'string' && d.diff) {
        const n = countLines(d.diff);
        entry.added += n.added;
        entry.removed += n.removed;
        entry.diffs.push(d.diff);
      }
      byPath.set(d.path, entry);
    }
  }
  if (Array.isArray(s.changedFiles)) {
    const files: FileChange[] = [];
    for (const f of s.changedFiles) {
      if (!isObj(f) || typeof f.path !== 'string') continue;
      files.push({
        path: f.path,
        added: typeof f.added === 'number' ? f.added : 0,
        removed: typeof f.removed === 'number' ? f.removed : 0,
        diffs: byPath.get(f.path)?.diffs ?? [],
      });
    }
    return { files, source: 'summary', ...(diff ? { diff } : {}) };
  }
  return { files: [...byPath.values()], source: 'tools', ...(diff ? { diff } : {}) };
}

export interface RunLinks {
  run?: string;
  issue?: string;
  pullRequest?: string;
  comment?: string;
  earlierRun?: string;
}

const HTTP = /^https?:\/\/[^\s"'<>]+$/;

function url(v: unknown): string | undefined {
  return typeof v === 'string' && HTTP.test(v) ? v : undefined;
}

/** Links to the run, its issue or PR and its comment, from the session line and the events. */
export function runLinks(view: RunView): RunLinks {
  const session: Record<string, unknown> = view.session ?? {};
  const summary: Record<string, unknown> = view.summary ?? {};
  const links: RunLinks = {};
  links.run = url(session.runUrl);
  // The run's URL is <server>/<owner>/<repo>/actions/runs/<id>: the issue is beside it.
  const number =
    typeof session.number === 'number' && Number.isInteger(session.number) ? session.number : undefined;
  const repoUrl = links.run?.replace(/\/actions\/runs\/\d+(\/.*)?$/, '');
  if (repoUrl && repoUrl !== links.run && number !== undefined) {
    // GitHub sends /issues/<n> of a pull request on to /pull/<n>.
    links.issue = `${repoUrl}/issues/${number}`;
  }
  links.pullRequest = url(summary.prUrl);
  for (const e of view.events) {
    if (e.event === 'pull-request' && !links.pullRequest) links.pullRequest = url(e.url);
    if (e.event === 'comment' && !links.comment) links.comment = url(e.url);
  }
  const continues = session.continues;
  if (isObj(continues) && repoUrl && typeof continues.runId === 'string' && /^\d+$/.test(continues.runId)) {
    links.earlierRun = `${repoUrl}/actions/runs/${continues.runId}`;
  }
  for (const k of Object.keys(links) as (keyof RunLinks)[]) if (links[k] === undefined) delete links[k];
  return links;
}

/** The system prompt and tool definitions, when the session line recorded them. */
export function runSetup(view: RunView): {
  systemPrompt?: string;
  tools: { name: string; description: string; parameters?: unknown }[];
} {
  const session: Record<string, unknown> = view.session ?? {};
  const tools = Array.isArray(session.tools)
    ? session.tools.flatMap((t) =>
        isObj(t) && typeof t.name === 'string'
          ? [
              {
                name: t.name,
                description: typeof t.description === 'string' ? t.description : '',
                parameters: t.parameters,
              },
            ]
          : [],
      )
    : [];
  return {
    ...(typeof session.systemPrompt === 'string' ? { systemPrompt: session.systemPrompt } : {}),
    tools,
  };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? oneLine(v) : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** An event as a sentence; kinds this version does not know are shown as their fields. */
export function describeEvent(e: EventLine): string {
  const f = e as Record<string, unknown>;
  const why = str(f.message) ?? str(f.reason) ?? str(f.error);
  switch (e.event) {
    case 'retry': {
      const delay = num(f.delayMs);
      const status = num(f.status);
      return `Retried the model request${num(f.attempt) !== undefined ? ` (attempt ${num(f.attempt)})` : ''}${
        delay !== undefined ? ` after ${formatDuration(delay)}` : ''
      }${why || status !== undefined ? `: ${[str(f.errorKind), status !== undefined ? `HTTP ${status}` : undefined, why].filter(Boolean).join(', ')}` : ''}`;
    }
    case 'fallback':
      return `Moved the session from ${str(f.from) ?? '?'} to ${str(f.to) ?? '?'}${why ? `: ${why}` : ''}`;
    case 'compaction':
      return `Folded ${plural(num(f.removedMessages) ?? 0, 'earlier message')} into a summary${
        num(f.tokensBefore) !== undefined
          ? ` (${num(f.tokensBefore)} → ${num(f.tokensAfter) ?? '?'} tokens)`
          : ''
      }${str(f.reason) ? `, ${str(f.reason)}` : ''}`;
    case 'budget':
      return `The ${str(f.budget) ?? ''} budget is used up${
        num(f.used) !== undefined ? ` (${num(f.used)} of ${num(f.limit) ?? '?'})` : ''
      }`.replace('The  budget', 'A budget');
    case 'cancel':
      return `Cancelled${why ? `: ${why}` : ''}`;
    case 'error':
      return `Error: ${why ?? 'no message'}`;
    case 'commit':
      return `Committed ${str(f.sha)?.slice(0, 12) ?? ''}${num(f.files) !== undefined ? ` (${plural(num(f.files)!, 'file')})` : ''}`;
    case 'push':
      return `Pushed ${str(f.branch) ?? 'the branch'}${str(f.sha) ? ` at ${str(f.sha)!.slice(0, 12)}` : ''}${f.rebased === true ? ' (rebased on the remote first)' : ''}`;
    case 'pull-request':
      return `Pull request${num(f.number) !== undefined ? ` #${num(f.number)}` : ''}: ${str(f.kind) ?? ''}${str(f.url) ? ` ${str(f.url)}` : ''}${why ? ` (${why})` : ''}`;
    case 'comment':
      return `Tracking comment${str(f.url) ? ` ${str(f.url)}` : ''}`;
    case 'delivery-plan':
      return planSentence(f.plan);
    case 'continue':
      return f.reason === 'length'
        ? 'The reply was cut at the output limit; the model was asked to go on'
        : f.reason === 'empty'
          ? 'The model stopped without a word; it was asked to finish or say why not'
          : f.reason === 'malformed_call'
            ? 'The model sent a tool call that could not be read; it was told so'
            : `Continued an earlier session${str(f.sessionId) ? ` (${str(f.sessionId)})` : ''}`;
    case 'approval': {
      const plan = (f.plan ?? {}) as Record<string, unknown>;
      return `Plan approved by @${str(f.by) ?? '?'}${str(f.at) ? ` at ${str(f.at)}` : ''}${
        str(plan.runUrl)
          ? ` (the plan of ${str(plan.runUrl)}${str(plan.sessionId) ? `, session ${str(plan.sessionId)}` : ''})`
          : ''
      }`;
    }
    case 'joined':
      return `A request from @${str(f.author) ?? '?'} joined the session while the run worked${
        str(f.createdAt) ? ` (written at ${str(f.createdAt)})` : ''
      }${str(f.url) ? `: ${str(f.url)}` : num(f.commentId) !== undefined ? `: comment ${num(f.commentId)}` : ''}`;
    case 'notice':
      return `Notice${str(f.source) ? ` from ${str(f.source)}` : ''}: ${str(f.message) ?? ''}`;
    default:
      return Object.entries(f)
        .filter(([k]) => k !== 'type' && k !== 'event' && k !== 'timestamp')
        .map(([k, v]) => `${k}=${cut(typeof v === 'string' ? oneLine(v) : safeJson(v), 200)}`)
        .join(' ');
  }
}

/** The delivery plan a run ended in (issue 37), as one sentence: its conclusion and its commit. */
export function planSentence(value: unknown): string {
  const plan = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const outputs = (plan.outputs && typeof plan.outputs === 'object' ? plan.outputs : {}) as Record<
    string,
    unknown
  >;
  const head = str(plan.headCommit);
  const commit = head
    ? `commit ${head.slice(0, 12)} on ${str(plan.branch) ?? '?'}${str(plan.prBase) ? ` (from ${str(plan.prBase)})` : ''}`
    : 'no commit';
  const pr = plan.openPr === true ? ', a pull request to open' : '';
  return `Delivery plan: ${str(outputs.conclusion) ?? '?'}, ${commit}${pr}`;
}

/** The most telling argument of a call, short: the path, pattern, command or test arguments. */
export function tellingArgument(call: Pick<CallView, 'input'>, max = 40): string {
  if (typeof call.input === 'string') return cut(oneLine(call.input), max);
  for (const key of ['path', 'pattern', 'command', 'args']) {
    const v = call.input[key];
    if (typeof v === 'string' && v) return cut(oneLine(v), max);
  }
  return '';
}
