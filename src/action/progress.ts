// The tracking comment while the run goes: a link to the run, the time so far, and a plain list of
// what is being done (not task-list checkboxes: anyone with write access could tick those, and a
// tool's name says what was called, not what is being done).
import type { AgentEvent } from '../agent/index.js';
import { cut, formatCount, formatDuration, formatTokens, oneLine } from '../report/format.js';
import { neutralizeMentions } from '../report/mentions.js';

interface Step {
  id: string;
  label: string;
  state: 'running' | 'ok' | 'error';
  /** ms since the run started, when the step began */
  at: number;
  durationMs?: number;
}

const SHOWN_STEPS = 25;

export interface ProgressOptions {
  /** When the run started (ms since the epoch); elapsed times count from here. */
  started?: number;
  now?: () => number;
}

export class ProgressBoard {
  private readonly steps: Step[] = [];
  private turn = 0;
  private model = '';
  private tokens = 0;
  private note = '';
  private readonly now: () => number;
  private readonly started: number;

  constructor(
    private readonly runUrl: string,
    options: ProgressOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.started = options.started ?? this.now();
  }

  /** Folds one agent event in; true when the visible text changed. */
  onEvent(e: AgentEvent): boolean {
    switch (e.type) {
      case 'turn_start':
        this.turn = e.turn;
        this.model = e.model;
        return true;
      case 'turn_end':
        this.tokens +=
          e.usage.inputTokens + e.usage.outputTokens + e.usage.cacheReadTokens + e.usage.cacheWriteTokens;
        return true;
      case 'tool_start':
        this.steps.push({
          id: e.call.id,
          label: describeCall(e.call.name, e.call.input),
          state: 'running',
          at: this.now() - this.started,
        });
        return true;
      case 'tool_end': {
        const step = this.steps.find((s) => s.id === e.call.id && s.state === 'running');
        if (step) {
          step.state = e.result.isError ? 'error' : 'ok';
          step.durationMs = e.durationMs;
        }
        return true;
      }
      case 'retry':
        this.note = `retrying the model request (attempt ${e.attempt})`;
        return true;
      case 'fallback':
        this.note = `continuing on ${e.to}`;
        return true;
      case 'compaction':
        this.note = 'older turns summarised to save context';
        return true;
      default:
        return false;
    }
  }

  render(): string {
    const elapsed = formatDuration(Math.max(0, this.now() - this.started));
    const lines = [
      `👀 **patchloop is working on this** · ${elapsed} so far · [follow the run](${this.runUrl})`,
      '',
    ];
    const hidden = Math.max(0, this.steps.length - SHOWN_STEPS);
    if (hidden > 0) lines.push(`- … ${formatCount(hidden)} earlier ${hidden === 1 ? 'step' : 'steps'}`);
    for (const s of this.steps.slice(hidden)) lines.push(`- ${stepLine(s)}`);
    if (this.steps.length === 0) lines.push('- Reading the task');
    lines.push('');
    const status = [
      this.turn > 0 ? `turn ${formatCount(this.turn)}` : '',
      this.model,
      this.tokens > 0 ? `${formatTokens(this.tokens)} tokens` : '',
      this.note,
    ]
      .filter(Boolean)
      .join(' · ');
    if (status) lines.push(`<sub>${escapeInline(status)}</sub>`);
    return lines.join('\n');
  }
}

function stepLine(s: Step): string {
  // Whatever came from the call is inside a code span (no markup there); mentions still notify.
  const label = neutralizeMentions(s.label);
  const at = `at ${formatDuration(s.at)}`;
  if (s.state === 'running') return `${label} (${at}, running)`;
  const took = s.durationMs !== undefined ? `, took ${formatDuration(s.durationMs)}` : '';
  return s.state === 'error' ? `${label} (${at}${took}) — failed ⚠️` : `${label} (${at}${took})`;
}

/** What a tool call is doing, in words: "Reading `src/math.ts`", "Running the tests". */
export function describeCall(name: string, input: unknown): string {
  const args =
    input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const str = (key: string) => (typeof args[key] === 'string' ? span(args[key] as string) : undefined);
  const path = str('path');
  switch (name) {
    case 'read_file':
      return path ? `Reading ${path}` : 'Reading a file';
    case 'edit_file':
      return path ? `Editing ${path}` : 'Editing a file';
    case 'write_file':
      return path ? `Writing ${path}` : 'Writing a file';
    case 'grep':
      return `Searching for ${str('pattern') ?? 'text'}${path ? ` in ${path}` : ''}`;
    case 'find_files':
      return `Finding files ${str('pattern') ?? ''}`.trimEnd();
    case 'list_dir':
      return `Listing ${path ?? 'the workspace'}`;
    case 'run_tests':
      return typeof args.args === 'string' && args.args.trim()
        ? `Running the tests ${span(args.args)}`
        : 'Running the tests';
    case 'bash':
      return `Running ${str('command') ?? 'a command'}`;
    case 'add_review_comment':
      return `Commenting on ${path ?? 'the diff'}${typeof args.line === 'number' ? ` line ${args.line}` : ''}`;
    case 'submit_answer':
      return 'Giving the answer';
    default: {
      const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
      if (mcp) return `Calling ${span(mcp[2]!)} of the MCP server ${span(mcp[1]!)}`;
      return `Calling ${span(name)}`;
    }
  }
}

/** A short code span that survives backticks in the text. */
function span(text: string): string {
  const t = cut(oneLine(text), 60).replace(/`/g, 'ʼ');
  return `\`${t}\``;
}

/** Keeps text from a tool call from turning into markup or mentions in the comment. */
function escapeInline(text: string): string {
  return neutralizeMentions(text.replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))).replace(/\n/g, ' ');
}
