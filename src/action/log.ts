// The Actions log of a run: what "follow the run" shows. One collapsible group per turn (the
// runner's `::group::` convention), in it each tool call with its short arguments and result, and
// retries, fallbacks and other events; after the last turn, one outcome line.
import * as core from './runner-commands.js';
import type { AgentEvent } from '../agent/index.js';
import type { Task } from '../github/context/task.js';
import { DEFAULT_MODELS, PROVIDER_ENV } from '../providers/index.js';
import { describeNetwork } from '../sandbox/network.js';
import type { ActionInputs } from './inputs.js';
import type { Usage } from '../protocol/types.js';
import { redactValue } from '../protocol/redact.js';
import { textOf } from '../protocol/types.js';
import {
  cut,
  errorGist,
  formatCost,
  formatCount,
  formatDuration,
  formatTokens,
  oneLine,
  plural,
  shortArgs,
} from '../report/format.js';

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
  /** Closes the open turn's group: the agent is done, and delivery's lines belong to no turn. */
  close(): void;
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

function budgetFigure(budget: string, n: number): string {
  if (budget === 'cost') return formatCost(n) ?? String(n);
  if (budget === 'time') return formatDuration(n);
  return formatCount(n);
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
  let turn = 0;
  // Each error is written once: a failed turn's message comes again as the run's error event and
  // as the outcome's error; the step's failure annotation (setFailed) is its one other mention.
  const errorsSeen = new Map<string, number>();
  const errorKey = (text: string) => oneLine(redact(text)).slice(0, 500);
  const writeError = (text: string, line: string) => {
    const key = errorKey(text);
    if (key && errorsSeen.has(key)) return;
    if (key) errorsSeen.set(key, turn);
    write(line);
  };

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
          turn = e.turn;
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
            `  model: ${e.message.stopReason} after ${formatDuration(now() - turnStarted)} · input ${formatTokens(u.inputTokens)} · output ${formatTokens(
              u.outputTokens,
            )} · cache read ${formatTokens(u.cacheReadTokens)} · cache write ${formatTokens(u.cacheWriteTokens)}${
              cost ? ` · ${cost}` : ''
            }${calls ? ` · ${plural(calls, 'tool call')}` : ''}`,
          );
          if (e.message.stopReason === 'error' || e.message.stopReason === 'aborted') {
            const why = e.message.errorMessage ?? '';
            writeError(why, `  ✗ ${e.message.stopReason}: ${cut(oneLine(redact(why)), ERROR_CHARS)}`);
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
            `  ${e.result.isError ? '✗' : '✓'} ${e.call.name}${args ? ` ${args}` : ''} (${formatDuration(e.durationMs)}) → ${result}`,
          );
          break;
        }
        case 'retry':
          write(
            `  ↻ retry ${e.attempt} in ${formatDuration(e.delayMs)} (${e.errorKind}${e.status !== undefined ? `, HTTP ${e.status}` : ''}): ${cut(oneLine(redact(e.message)), 200)}`,
          );
          break;
        case 'fallback':
          write(
            `  ⇢ fallback from ${oneLine(e.from)} to ${oneLine(e.to)}: ${cut(oneLine(redact(e.reason)), 200)}`,
          );
          break;
        case 'compaction':
          write(
            `  ⋯ compacted ${plural(e.removedMessages, 'message')} (${formatTokens(e.tokensBefore)} → ${formatTokens(e.tokensAfter)} tokens, ${e.reason})`,
          );
          break;
        case 'continue':
          write(`  ⋯ ${CONTINUE_REASONS[e.reason] ?? 'the model was asked to go on'}`);
          break;
        case 'joined':
          write(
            `  ✉ a request from @${oneLine(String(e.data.author ?? '?'))} joined the session (${oneLine(String(e.data.url ?? e.data.commentId ?? ''))})`,
          );
          break;
        case 'notice':
          write(`  ℹ ${oneLine(e.source)}: ${cut(oneLine(redact(e.message)), 200)}`);
          break;
        case 'budget':
          write(
            `  ■ the ${e.budget} budget is used up (${budgetFigure(e.budget, e.used)} of ${budgetFigure(e.budget, e.limit)})`,
          );
          break;
        case 'cancel':
          write(`  ■ cancelled: ${cut(oneLine(redact(e.reason)), 200)}`);
          break;
        case 'error':
          writeError(e.message, `  ✗ ${cut(oneLine(redact(e.message)), ERROR_CHARS)}`);
          break;
        case 'text_delta':
          break;
      }
    },
    close() {
      endGroup();
    },
    outcome(o) {
      endGroup();
      const seenIn = o.error ? errorsSeen.get(errorKey(o.error)) : undefined;
      const parts = [
        `patchloop: ${o.conclusion}`,
        plural(o.turns, 'turn'),
        o.models?.length ? o.models.join(', ') : undefined,
        `input ${formatTokens(o.usage.inputTokens)} · output ${formatTokens(o.usage.outputTokens)} tokens`,
        formatCost(o.usage.costUsd) ?? 'cost unknown',
        o.durationMs !== undefined ? formatDuration(o.durationMs) : undefined,
        o.prUrl ? `PR ${o.prUrl}` : o.branch ? `branch ${o.branch}` : undefined,
        o.commitSha ? `commit ${o.commitSha.slice(0, 12)}` : undefined,
        o.error
          ? seenIn !== undefined
            ? `the error is above${seenIn > 0 ? ` (turn ${formatCount(seenIn)})` : ''}`
            : `error: ${cut(oneLine(redact(o.error)), ERROR_CHARS)}`
          : undefined,
      ].filter((p): p is string => Boolean(p));
      write(parts.join(' · '));
    },
  };
}

/**
 * The settings block at the top of the log: what this run was asked and what it runs with (task,
 * provider and model, budgets, commands and their isolation, network), before anything happens.
 * Untrusted text (the request) is redacted, kept to one line and stripped of workflow commands.
 */
export function settingsLines(inputs: ActionInputs, task: Task, env: NodeJS.ProcessEnv = {}): string[] {
  const where =
    task.number !== undefined
      ? `${task.isPullRequest ? 'pull request' : 'issue'} #${task.number}`
      : `the ${task.event} event`;
  const mode = task.mode === 'review' || inputs.mode === 'review' ? 'review' : 'fix';
  const who = task.requester ? `, asked by ${task.requester.login}` : '';
  const request = cut(oneLine(task.request ?? ''), 200);
  const model = inputs.model || DEFAULT_MODELS[inputs.provider];
  const modelText = inputs.model ? model : `${model ?? '(none)'} (the provider's default)`;
  const baseUrl = inputs.baseUrl || PROVIDER_ENV[inputs.provider]?.baseUrl.map((v) => env[v]).find(Boolean);
  const endpoint = baseUrl ? `endpoint ${hostOf(baseUrl)}` : "the provider's default endpoint";
  const fallback = inputs.fallbackModel
    ? ` · fallback ${inputs.fallbackModel.provider}:${inputs.fallbackModel.model}`
    : '';
  const cost = inputs.maxCostUsd !== undefined ? `at most ${formatCost(inputs.maxCostUsd)}` : 'no cost limit';
  const tests = `run_tests (${inputs.testCommand ? `test-command: ${cut(oneLine(inputs.testCommand), 80)}` : 'test command detected'})`;
  const isolation = inputs.allowUnisolatedCommands
    ? 'isolated where the runner allows, else run unisolated (allow-unisolated-commands: true)'
    : 'isolated as a separate user, or not offered (allow-unisolated-commands: false)';
  return [
    'patchloop settings',
    `  task: ${mode} on ${where}${who}${request ? `: “${request}”` : ''}`,
    `  provider: ${inputs.provider} · model ${modelText} · ${endpoint}${fallback}`,
    `  budgets: ${plural(inputs.maxTurns, 'turn')} · ${cost} · ${formatDuration(inputs.timeoutMinutes * 60_000)}`,
    `  commands: ${tests} · bash ${inputs.allowBash ? 'on' : 'off'} · ${isolation}`,
    `  network: command-network ${describeNetwork(inputs.commandNetwork)}`,
    `  delivery: ${inputs.dryRun ? 'dry run (nothing pushed or posted)' : `branch prefix ${inputs.branchPrefix} · ${inputs.openPr ? (inputs.draftPr ? 'draft PR' : 'PR') : 'no PR'}`}${inputs.stage !== 'all' ? ` · stage ${inputs.stage}` : ''}`,
  ];
}

/** Writes the settings block (see settingsLines) to the job's log. */
export function logSettings(
  inputs: ActionInputs,
  task: Task,
  options: { env?: NodeJS.ProcessEnv; redact?: (text: string) => string; sink?: ActionsLogSink } = {},
): void {
  const redact = options.redact ?? ((t: string) => t);
  const sink = options.sink ?? RUNNER_LOG;
  for (const line of settingsLines(inputs, task, options.env))
    sink.write(neutralizeCommands(redact(plain(line))));
}

/** A URL's host only: a base URL may carry a user name, a password or a key in its query. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || 'an unparsable URL';
  } catch {
    return 'an unparsable URL';
  }
}
