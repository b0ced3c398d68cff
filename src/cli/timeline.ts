import type { AgentEvent } from '../agent/index.js';
import type { ToolCall } from '../protocol/types.js';
import { textOf } from '../protocol/types.js';
import { errorGist, formatDuration } from '../report/format.js';
import { terminalWidth } from './io.js';

// The live timeline of `patchloop run` on stderr: one line per tool call and notable event; on a
// terminal, a status line with a spinner below them shows what is running right now.

export interface TimelineOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Timeline {
  onEvent(e: AgentEvent): void;
  /** Stops the spinner and clears the status line. */
  close(): void;
}

export interface TimelineOptions {
  /** Spinner and redrawn status line; default: the stream's isTTY. */
  tty?: boolean;
  now?: () => number;
  /** Green ✓ and red ✗; default: off. */
  colour?: boolean;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPIN_MS = 100;

export function createTimeline(out: TimelineOutput, options: TimelineOptions = {}): Timeline {
  const tty = options.tty ?? out.isTTY === true;
  const colour = options.colour === true;
  const now = options.now ?? Date.now;
  let status: { label: string; since: number } | undefined;
  let frame = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const running = new Map<string, ToolCall>();
  let shownError: string | undefined;
  // A turn the run's own cancel (or time budget) aborted: its line waits for the event that says why,
  // which then stands for both (one line for one event); any other event shows it first.
  let abortedTurn: string | undefined;
  const flushAborted = (): void => {
    if (abortedTurn === undefined) return;
    const text = abortedTurn;
    abortedTurn = undefined;
    line(text);
  };

  const clearStatus = (): void => {
    if (tty && status) out.write('\r\x1b[2K');
  };
  const drawStatus = (): void => {
    if (!tty || !status) return;
    // A status line that wraps could not be cleared with \r; keep it within the terminal's width.
    const room = Math.max(20, terminalWidth(out) - 14);
    const label = status.label.length > room ? `${status.label.slice(0, room - 1)}…` : status.label;
    out.write(`\r\x1b[2K${FRAMES[frame % FRAMES.length]} ${label} (${formatDuration(now() - status.since)})`);
  };
  const setStatus = (label: string | undefined): void => {
    if (!tty) return;
    clearStatus();
    status = label === undefined ? undefined : { label, since: now() };
    drawStatus();
    if (status && !timer) {
      timer = setInterval(() => {
        frame++;
        drawStatus();
      }, SPIN_MS);
      timer.unref();
    } else if (!status && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const line = (text: string): void => {
    clearStatus();
    // On a terminal a line that wraps breaks the layout; elsewhere (a log file, CI) keep it whole.
    const width = tty ? terminalWidth(out) : undefined;
    const shown =
      width !== undefined && [...text].length > width - 1
        ? `${[...text].slice(0, Math.max(10, width - 2)).join('')}…`
        : text;
    // Only the mark at the start is coloured, after the cut (escape codes take no columns).
    const painted = colour
      ? shown.replace(
          /^( {2})([✓✗])/,
          (_, pad: string, m: string) => `${pad}${m === '✓' ? '\x1b[32m' : '\x1b[31m'}${m}\x1b[39m`,
        )
      : shown;
    out.write(`${painted}\n`);
    drawStatus();
  };

  return {
    onEvent(e) {
      if (e.type === 'cancel' || e.type === 'budget') abortedTurn = undefined;
      else if (e.type !== 'text_delta' && e.type !== 'error' && e.type !== 'notice') flushAborted();
      switch (e.type) {
        case 'turn_start':
          line(`turn ${e.turn} · ${clean(e.model)}`);
          setStatus(`turn ${e.turn}: waiting for the model`);
          break;
        case 'turn_end': {
          const said = firstLine(textOf(e.message.content), 120);
          setStatus(undefined);
          if (said) line(`  “${said}”`);
          if (e.message.stopReason === 'error' || e.message.stopReason === 'aborted') {
            const text = `  ✗ ${e.message.stopReason}: ${firstLine(e.message.errorMessage ?? '', 200)}`;
            if (e.message.stopReason === 'aborted') abortedTurn = text;
            else line(text);
            shownError = e.message.errorMessage;
          }
          break;
        }
        case 'tool_start':
          running.set(e.call.id, e.call);
          setStatus(label(e.call));
          break;
        case 'tool_end': {
          running.delete(e.call.id);
          const next = [...running.values()][0];
          setStatus(next ? label(next) : undefined);
          const mark = e.result.isError ? '✗' : '✓';
          const why = e.result.isError ? `: ${errorLine(textOf(e.result.content), 200)}` : '';
          line(`  ${mark} ${label(e.call)} (${formatDuration(e.durationMs)})${why}`);
          break;
        }
        case 'retry':
          line(`  ↻ retry ${e.attempt} in ${formatDuration(e.delayMs)}: ${firstLine(e.message, 120)}`);
          break;
        case 'fallback':
          line(`  ⇢ fallback ${clean(e.from)} → ${clean(e.to)}: ${firstLine(e.reason, 120)}`);
          break;
        case 'compaction':
          line(`  ⋯ compacted ${e.removedMessages} messages (${e.tokensBefore} → ${e.tokensAfter} tokens)`);
          break;
        case 'continue':
          line(
            e.reason === 'length'
              ? '  ⋯ reply cut at the output limit; asking the model to continue'
              : e.reason === 'empty'
                ? '  ⋯ the model stopped without a word; asking it to finish or say why not'
                : '  ⋯ the tool call could not be read; telling the model',
          );
          break;
        case 'budget':
          line(`  ■ ${e.budget} budget used up`);
          break;
        case 'cancel':
          line(`  ■ ${firstLine(e.reason, 120)}`);
          break;
        case 'error':
          // The failed turn's line above already said it.
          if (e.message !== shownError) line(`  ✗ ${firstLine(e.message, 200)}`);
          break;
        case 'text_delta':
          break;
      }
    },
    close() {
      flushAborted();
      setStatus(undefined);
    },
  };
}

/** The most telling argument of a call, short (path, pattern, command, ...). */
export function describeArgs(call: ToolCall): string {
  if (typeof call.input === 'string') return firstLine(call.input, 60);
  for (const key of ['path', 'pattern', 'command', 'args']) {
    const v = call.input[key];
    if (typeof v === 'string' && v) return firstLine(v, 60);
  }
  const json = JSON.stringify(call.input);
  return json === '{}' ? '' : firstLine(json, 60);
}

function label(call: ToolCall): string {
  const args = describeArgs(call);
  return args ? `${clean(call.name)} ${args}` : clean(call.name);
}

/** Why a call failed, on one line: the message with its reason, or a command's status and output tail. */
function errorLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- colour codes of a test runner are not part of the reason
  const plain = text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
  return clean(errorGist(plain, max)).replace(/\s+/g, ' ');
}

/** Removes control characters, so text from the model cannot move the cursor or recolour the terminal. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ');
}

function firstLine(text: string, max: number): string {
  const flat = clean(text.replace(/\s+/g, ' ')).trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
