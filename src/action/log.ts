// The Actions log of a run: what "follow the run" shows. One collapsible group per turn (the
// runner's `::group::` convention), in it each tool call with its short arguments and result, and
// retries, fallbacks and other events; after the last turn, one outcome line.
import * as core from './runner-commands.js';
import type { AgentEvent } from '../agent/index.js';
import type { Usage } from '../protocol/types.js';
import { redactValue } from '../protocol/redact.js';
import { textOf } from '../protocol/types.js';
import { cut, errorGist, formatCost, formatTokens, oneLine, plural, shortArgs } from '../report/format.js';

export interface ActionsLogSink {
  /** Writes one line to the log (the runner reads stdout line by line). */
  write(line: string): void;
  /**
   * Opens and closes a collapsible group. A sink without them gets the `::group::` and
   * `::endgroup::` command lines through `write`, in the toolkit's format.
   */
  startGroup?(title: string): void;
  endGroup?(): void;
}

/** The job's log, through the Actions toolkit. */
const RUNNER_LOG: ActionsLogSink = {
  write: (line) => core.info(line),
  startGroup: (title) => core.startGroup(title),
  endGroup: () => core.endGroup(),
};

export interface ActionsLogOptions {
  /** Applied to every line: the runner masks the secrets it was told of, this catches the rest. */
  redact?: (text: string) => string;
  sink?: ActionsLogSink;
  now?: () => number;
}

/** What the outcome line tells: a subset of the summary's input. */
export interface ActionsLogOutcome {
  conclusion: string;
  turns: number;
  usage: Usage;
  models?: string[];
  durationMs?: number;
  branch?: string;
  commitSha?: string;
  prUrl?: string;
  error?: string;
}

export interface ActionsLog {
  onEvent(e: AgentEvent): void;
  /** Closes an open group and writes the one outcome line. */
  outcome(o: ActionsLogOutcome): void;
}

const ARGS_CHARS = 100;

const CONTINUE_REASONS: Record<string, string> = {
  length: 'the reply was cut at the output limit; the model was asked to go on',
  empty: 'the model stopped without a word; it was asked to finish or say why not',
  malformed_call: 'the model sent a tool call that could not be read; it was told so',
};
const OUTPUT_CHARS = 120;
const ERROR_CHARS = 300;

/**
 * Text from the model or a tool must not become a workflow command: the runner acts on a line
 * that starts with `::name` (`::add-mask::`, `::stop-commands::`, `::set-output` …) or `##[`.
 * Every such marker inside a line is broken with a zero-width space, wherever it sits.
 */
export function neutralizeCommands(text: string): string {
  return text.replace(/::/g, ':\u200B:').replace(/##\[/g, '#\u200B#[');
}

/** The data part of a workflow command, escaped as @actions/core does (for sinks without groups). */
function commandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

// eslint-disable-next-line no-control-regex -- colour codes and control characters of tool output
const CONTROL = /\u001b\[[0-9;?]*[ -/]*[@-~]|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function plain(text: string): string {
  return text.replace(CONTROL, ' ');
}

export function createActionsLog(options: ActionsLogOptions = {}): ActionsLog {
  const redact = options.redact ?? ((s: string) => s);
  const sink = options.sink ?? RUNNER_LOG;
  const now = options.now ?? Date.now;
  let open = false;
  let turnStarted = 0;

  // Each text is redacted before it is cut, and each line once more: a secret cut in two by the
  // shortening would no longer match as a whole, and half of it would reach the log.
  const write = (line: string) => sink.write(neutralizeCommands(redact(plain(line))));
  const closeGroup = () => (sink.endGroup ? sink.endGroup() : sink.write('::endgroup::'));
  const startGroup = (title: string) => {
    if (open) closeGroup();
    // The title is redacted and stripped of markers, like any line (and escaped as command data).
    const safe = neutralizeCommands(redact(plain(title)));
    if (sink.startGroup) sink.startGroup(safe);
    else sink.write(`::group::${commandData(safe)}`);
    open = true;
  };
  const endGroup = () => {
    if (open) closeGroup();
    open = false;
  };

  return {
    onEvent(e) {
      switch (e.type) {
        case 'turn_start':
          turnStarted = now();
          startGroup(`patchloop turn ${e.turn} · ${oneLine(e.model)}`);
          break;
        case 'turn_end': {
          const said = oneLine(redact(textOf(e.message.content)));
          if (said) write(`  “${cut(said, 300)}”`);
          const u = e.usage;
          const cost = formatCost(u.costUsd);
          const calls = e.message.content.filter((c) => c.type === 'toolCall').length;
          write(
            `  model: ${e.message.stopReason} after ${formatMs(now() - turnStarted)} · input ${formatTokens(u.inputTokens)} · output ${formatTokens(
              u.outputTokens,
            )} · cache read ${formatTokens(u.cacheReadTokens)} · cache write ${formatTokens(u.cacheWriteTokens)}${
              cost ? ` · ${cost}` : ''
            }${calls ? ` · ${plural(calls, 'tool call')}` : ''}`,
          );
          if (e.message.stopReason === 'error' || e.message.stopReason === 'aborted') {
            write(
              `  ✗ ${e.message.stopReason}: ${cut(oneLine(redact(e.message.errorMessage ?? '')), ERROR_CHARS)}`,
            );
          }
          break;
        }
        case 'tool_start':
          break;
        case 'tool_end': {
          const args = shortArgs(redactValue(e.call.input, redact), ARGS_CHARS);
          const text = redact(textOf(e.result.content));
          const result = e.result.isError
            ? `error: ${errorGist(plain(text), ERROR_CHARS)}`
            : cut(oneLine(plain(text.slice(0, OUTPUT_CHARS * 4))), OUTPUT_CHARS) || '(no output)';
          write(
            `  ${e.result.isError ? '✗' : '✓'} ${e.call.name}${args ? ` ${args}` : ''} (${formatMs(e.durationMs)}) → ${result}`,
          );
          break;
        }
        case 'retry':
          write(
            `  ↻ retry ${e.attempt} in ${formatMs(e.delayMs)} (${e.errorKind}${e.status !== undefined ? `, HTTP ${e.status}` : ''}): ${cut(oneLine(redact(e.message)), 200)}`,
          );
          break;
        case 'fallback':
          write(
            `  ⇢ fallback from ${oneLine(e.from)} to ${oneLine(e.to)}: ${cut(oneLine(redact(e.reason)), 200)}`,
          );
          break;
        case 'compaction':
          write(
            `  ⋯ compacted ${plural(e.removedMessages, 'message')} (${e.tokensBefore} → ${e.tokensAfter} tokens, ${e.reason})`,
          );
          break;
        case 'continue':
          write(`  ⋯ ${CONTINUE_REASONS[e.reason] ?? 'the model was asked to go on'}`);
          break;
        case 'notice':
          write(`  ℹ ${oneLine(e.source)}: ${cut(oneLine(redact(e.message)), 200)}`);
          break;
        case 'budget':
          write(`  ■ the ${e.budget} budget is used up (${e.used} of ${e.limit})`);
          break;
        case 'cancel':
          write(`  ■ cancelled: ${cut(oneLine(redact(e.reason)), 200)}`);
          break;
        case 'error':
          write(`  ✗ ${cut(oneLine(redact(e.message)), ERROR_CHARS)}`);
          break;
        case 'text_delta':
          break;
      }
    },
    outcome(o) {
      endGroup();
      const parts = [
        `patchloop: ${o.conclusion}`,
        plural(o.turns, 'turn'),
        o.models?.length ? o.models.join(', ') : undefined,
        `input ${formatTokens(o.usage.inputTokens)} · output ${formatTokens(o.usage.outputTokens)} tokens`,
        formatCost(o.usage.costUsd) ?? 'cost unknown',
        o.durationMs !== undefined ? formatMs(o.durationMs) : undefined,
        o.prUrl ? `PR ${o.prUrl}` : o.branch ? `branch ${o.branch}` : undefined,
        o.commitSha ? `commit ${o.commitSha.slice(0, 12)}` : undefined,
        o.error ? `error: ${cut(oneLine(redact(o.error)), ERROR_CHARS)}` : undefined,
      ].filter((p): p is string => Boolean(p));
      write(parts.join(' · '));
    },
  };
}
