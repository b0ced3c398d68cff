// The tracking comment while the run goes: a link to the run and a live checklist of tool steps.
import type { AgentEvent } from '../agent/index.js';
import { shortArgs } from '../report/format.js';
import { neutralizeMentions } from '../report/mentions.js';

interface Step {
  id: string;
  label: string;
  state: 'running' | 'ok' | 'error';
}

const SHOWN_STEPS = 25;

export class ProgressBoard {
  private readonly steps: Step[] = [];
  private turn = 0;
  private model = '';
  private tokens = 0;
  private note = '';

  constructor(private readonly runUrl: string) {}

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
          label: `\`${e.call.name}\` ${shortArgs(e.call.input, 60)}`,
          state: 'running',
        });
        return true;
      case 'tool_end': {
        const step = this.steps.find((s) => s.id === e.call.id && s.state === 'running');
        if (step) step.state = e.result.isError ? 'error' : 'ok';
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
    const lines = [`👀 **patchloop is working on this** — [follow the run](${this.runUrl})`, ''];
    const hidden = Math.max(0, this.steps.length - SHOWN_STEPS);
    if (hidden > 0) lines.push(`- … ${hidden} earlier step(s)`);
    for (const s of this.steps.slice(hidden)) {
      const box = s.state === 'running' ? '[ ]' : '[x]';
      const mark = s.state === 'error' ? ' ⚠️' : s.state === 'running' ? ' ⏳' : '';
      lines.push(`- ${box} ${escapeInline(s.label)}${mark}`);
    }
    if (this.steps.length === 0) lines.push('_Reading the task…_');
    lines.push('');
    const status = [
      this.turn > 0 ? `turn ${this.turn}` : '',
      this.model,
      this.tokens > 0 ? `${this.tokens} tokens` : '',
      this.note,
    ]
      .filter(Boolean)
      .join(' · ');
    if (status) lines.push(`<sub>${escapeInline(status)}</sub>`);
    return lines.join('\n');
  }
}

/** Keeps text from a tool call from turning into markup or mentions in the comment. */
function escapeInline(text: string): string {
  return neutralizeMentions(text.replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))).replace(/\n/g, ' ');
}
