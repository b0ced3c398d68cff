import type {
  AssistantMessage,
  Message,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../protocol/types.js';
import { textOf, toolCallsOf } from '../protocol/types.js';

// Compaction folds older turns into a short written account so a long run fits the model's
// context window. The account is built from the messages themselves (no extra model request):
// it costs nothing, is deterministic, and the files on disk still hold the real state.

const CHARS_PER_TOKEN = 4;
const NOTE_LIMIT = 8000;

/** A rough token count of messages, from their serialised size. */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const m of messages) chars += messageChars(m);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function messageChars(m: Message): number {
  if (typeof m.content === 'string') return m.content.length + 20;
  let n = 20;
  for (const c of m.content) {
    if (c.type === 'text') n += c.text.length;
    else if (c.type === 'image')
      n += 1600 * CHARS_PER_TOKEN; // providers bill an image at roughly this many tokens
    else if (c.type === 'thinking') n += c.thinking.length;
    else n += c.name.length + (typeof c.input === 'string' ? c.input.length : JSON.stringify(c.input).length);
  }
  return n;
}

/**
 * The context size in tokens: the last reported usage (which covers the system prompt, tools and
 * everything before it) plus an estimate of what was appended since. `baseTokens` stands in for
 * the system prompt and tools while no usage has been reported. `reportedOf` reads a reply's
 * usage (the loop leaves out what failed attempts of the turn were billed).
 */
export function contextTokens(
  messages: readonly Message[],
  baseTokens = 0,
  reportedOf: (m: AssistantMessage) => number = reportedTokens,
): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const reported = reportedOf(m);
    if (reported > 0) return reported + estimateTokens(messages.slice(i + 1));
  }
  return baseTokens + estimateTokens(messages);
}

/** The tokens a reply's usage counts: its prompt (cached or not) and its output. */
export function reportedTokens(m: AssistantMessage): number {
  const u = m.usage;
  return u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens;
}

export interface Compaction {
  messages: Message[];
  /** How many messages were folded into the notes. */
  removed: number;
  /** Every note so far; pass them (with the original task) to the next compaction. */
  notes: string[];
}

export interface CompactionBase {
  /** The task as first given, without notes. */
  task: UserMessage;
  /** Notes of earlier compactions. */
  notes: readonly string[];
}

/**
 * Keeps the task (first message) and the most recent turns that fit in `keepTokens` (at least the
 * last turn), never separating a tool call from its result; older turns become notes appended to
 * the task message. Returns undefined when there is nothing older than the last turn to remove.
 */
export function compactMessages(
  messages: readonly Message[],
  keepTokens: number,
  base?: CompactionBase,
): Compaction | undefined {
  const first = messages[0];
  if (!first || first.role !== 'user') return undefined;
  const task = base?.task ?? first;
  const turnStarts: number[] = [];
  for (let i = 1; i < messages.length; i++) if (messages[i]!.role === 'assistant') turnStarts.push(i);
  if (turnStarts.length < 2) return undefined;

  // Walk back over whole turns (an assistant message and what follows it) while they fit.
  let cut = turnStarts[turnStarts.length - 1]!;
  let kept = estimateTokens(messages.slice(cut));
  for (let t = turnStarts.length - 2; t >= 1; t--) {
    const start = turnStarts[t]!;
    const size = estimateTokens(messages.slice(start, cut));
    if (kept + size > keepTokens) break;
    kept += size;
    cut = start;
  }
  const removed = messages.slice(1, cut);
  if (removed.length === 0) return undefined;

  const notes = trimNotes([...(base?.notes ?? []), ...describe(removed)]);
  return { messages: [withNotes(task, notes), ...messages.slice(cut)], removed: removed.length, notes };
}

/** The task message with the compaction notes appended. */
export function withNotes(task: UserMessage, notes: readonly string[]): UserMessage {
  const text =
    `\n\n[Context note] Earlier turns of this session were removed to fit the context window. ` +
    `What they did:\n${notes.join('\n')}\n` +
    `The files on disk hold the current state; read them again when you need details.`;
  const base =
    typeof task.content === 'string' ? [{ type: 'text' as const, text: task.content }] : task.content;
  return { ...task, content: [...base, { type: 'text', text }] };
}

function describe(removed: readonly Message[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < removed.length; i++) {
    const m = removed[i]!;
    if (m.role === 'user') {
      const text = oneLine(textOf(m.content), 200);
      if (text) lines.push(`- (user) ${text}`);
    }
    if (m.role !== 'assistant') continue;
    const said = oneLine(textOf(m.content), 300);
    if (said) lines.push(`- (you said) ${said}`);
    // The results after this turn, matched to its calls by position where an id repeats.
    const results = new Map<string, ToolResultMessage[]>();
    for (let j = i + 1; j < removed.length && removed[j]!.role === 'toolResult'; j++) {
      const r = removed[j] as ToolResultMessage;
      results.set(r.toolCallId, [...(results.get(r.toolCallId) ?? []), r]);
    }
    for (const call of toolCallsOf(m)) lines.push(`- ${callLine(call, results.get(call.id)?.shift())}`);
  }
  return lines;
}

function callLine(call: ToolCall, result: ToolResultMessage | undefined): string {
  const args = oneLine(typeof call.input === 'string' ? call.input : JSON.stringify(call.input), 160);
  if (!result) return `${call.name} ${args} → no result`;
  const out = oneLine(textOf(result.content), 160);
  return `${call.name} ${args} → ${result.isError ? 'error' : 'ok'}${out ? `: ${out}` : ''}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Keeps the newest notes within NOTE_LIMIT characters, saying how many older ones were dropped. */
function trimNotes(notes: string[]): string[] {
  let total = 0;
  let first = notes.length;
  while (first > 0 && total + notes[first - 1]!.length + 1 <= NOTE_LIMIT) {
    first--;
    total += notes[first]!.length + 1;
  }
  if (first === 0) return notes;
  return ['- (older notes dropped)', ...notes.slice(first).filter((n) => n !== '- (older notes dropped)')];
}
