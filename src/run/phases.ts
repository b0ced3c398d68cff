// The phases of a run that the action and the CLI share, so that the two entry points cannot drift
// apart: the command sandbox set up beside git's isolation, which commands are offered, the common
// part of the transcript's session line, the agent loop with its budgets, the wait for the
// workspace's set-up after it, the conclusion from the agent's result and the delivery's, and the
// transcript's summary line. What differs stays in each surface: GitHub (the comment, the context,
// the branch plan, push and PR, the log) in src/action; the local branch, its commit and the
// terminal in src/cli.
import {
  runAgent,
  testsAtEnd,
  testsFailingError,
  type AgentEvent,
  type AgentOptions,
  type AgentResult,
} from '../agent/index.js';
import type { AnyAgentTool } from '../protocol/tool.js';
import type { SessionFields, TranscriptWriter } from '../protocol/transcript.js';
import { emptyUsage, type UserMessage } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import { startSandbox, type SandboxOptions, type SandboxSetup } from '../sandbox/index.js';

/** How a run ended: the agent's own conclusions, and `no-changes` for a success that changed nothing. */
export type RunConclusion = AgentResult['conclusion'] | 'no-changes';

/** A run's budgets as both surfaces take them (inputs `max-turns`, … ; flags `--max-turns`, …). */
export interface RunBudgets {
  maxTurns: number;
  maxCostUsd?: number;
  timeoutMinutes: number;
}

/** The command sandbox and, behind `ready`, everything the tools wait for. */
export interface CommandWorkspace {
  sandbox: SandboxSetup;
  /**
   * Patchloop's private git dir and the sandbox's access and self-check, made beside the first
   * model request: no tool runs before it resolves; when it rejects, the run stops there (a
   * sandbox that cannot be set up never means "unisolated"). Both settle before it does.
   */
  ready: Promise<void>;
}

/**
 * Sets up the command sandbox beside git's isolation (`isolating`, already started: making the
 * private git dir only reads the checkout, so the sandbox's ACL walk races no git lock file).
 * Throws `unready(err)` when the sandbox cannot be set up at all (after the isolation settled);
 * a failure later in its set-up rejects `ready` the same way.
 */
export async function startCommandWorkspace(o: {
  isolating: Promise<void>;
  sandbox: SandboxOptions;
  /** the error a failed set-up is told as, in the surface's words */
  unready: (err: Error) => Error;
  /** the sandbox's access and self-check are done (the action's timings) */
  onSandboxReady?: () => void;
}): Promise<CommandWorkspace> {
  let sandbox: SandboxSetup;
  try {
    sandbox = await startSandbox(o.sandbox);
  } catch (err) {
    await o.isolating.catch(() => undefined);
    throw o.unready(err as Error);
  }
  const boxReady =
    sandbox.kind === 'isolated'
      ? sandbox.ready.then(
          () => o.onSandboxReady?.(),
          (err: Error) => {
            throw o.unready(err);
          },
        )
      : Promise.resolve();
  // both settle before `ready` does: a failure of one never leaves the other running unseen
  const ready = Promise.allSettled([o.isolating, boxReady]).then(([iso, box]) => {
    if (iso.status === 'rejected') throw iso.reason;
    if (box.status === 'rejected') throw box.reason;
  });
  ready.catch(() => undefined);
  return { sandbox, ready };
}

/**
 * Whether run_tests, bash and stdio MCP servers are offered: when commands are isolated, or when
 * the user chose to run them unisolated (`allow-unisolated-commands`, `--sandbox off`).
 */
export function commandsOffered(sandbox: SandboxSetup, allowUnisolated: boolean): boolean {
  return sandbox.kind === 'isolated' || allowUnisolated;
}

/** What every session line holds, whichever surface wrote it. */
export interface SessionCommon {
  id: string;
  startedAt: string;
  repository: string;
  trigger: string;
  provider: Provider;
  workspace: string;
  /** the commit this part of the session started from */
  head: string | undefined;
  /** the continued session's own session line (its `baseCommit`), when this one continues one */
  earlierSession?: Readonly<Record<string, unknown>>;
  allowBash: boolean;
  isolated: boolean;
  testCommand?: string;
  systemPrompt: string;
  tools: readonly AnyAgentTool[];
}

/**
 * The session line: the common fields, with the surface's own (`own`: the task's number, the
 * branch, the base URL, …) after the model. A continued session keeps the whole session's start
 * as `baseCommit`, for replay, and says where this part started (`continuedFrom`).
 */
export function sessionLine(c: SessionCommon, own: Record<string, unknown> = {}): SessionFields {
  const earlier = c.earlierSession;
  return {
    id: c.id,
    startedAt: c.startedAt,
    repository: c.repository,
    trigger: c.trigger,
    provider: c.provider.name,
    model: c.provider.model,
    ...own,
    baseCommit: typeof earlier?.baseCommit === 'string' ? earlier.baseCommit : c.head,
    ...(earlier ? { continuedFrom: c.head } : {}),
    workspace: c.workspace,
    allowBash: c.allowBash,
    isolated: c.isolated,
    ...(c.testCommand ? { testCommand: c.testCommand } : {}),
    // for the HTML page: what the model was told and offered
    systemPrompt: c.systemPrompt,
    tools: c.tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
  };
}

export interface LoopInput {
  provider: Provider;
  tools: AnyAgentTool[];
  systemPrompt: string;
  task: string | UserMessage;
  earlier?: AgentOptions['earlier'];
  budgets: RunBudgets;
  /** aborting it cancels the run */
  signal: AbortSignal;
  transcript: TranscriptWriter;
  onEvent: (e: AgentEvent) => void;
  /** the workspace's `ready`: no tool runs before it */
  toolsReady: Promise<void>;
  /** the configured test command: a bash call that runs it counts as a test run (`tests`) */
  testCommand?: string;
  /** requests that join the running session (the action's joining; the CLI has none) */
  pendingMessages?: AgentOptions['pendingMessages'];
}

/**
 * The agent loop with the run's budgets and cancellation, and how its last test run ended
 * (`tests`, the evidence the conclusion follows). Never throws.
 */
export async function runLoop(o: LoopInput): Promise<AgentResult> {
  const result = await runAgent({
    provider: o.provider,
    tools: o.tools,
    systemPrompt: o.systemPrompt,
    task: o.task,
    ...(o.earlier ? { earlier: o.earlier } : {}),
    maxTurns: o.budgets.maxTurns,
    maxCostUsd: o.budgets.maxCostUsd,
    timeoutMs: o.budgets.timeoutMinutes * 60_000,
    signal: o.signal,
    transcript: o.transcript,
    onEvent: o.onEvent,
    toolsReady: o.toolsReady,
    ...(o.pendingMessages ? { pendingMessages: o.pendingMessages } : {}),
  });
  const tests = testsAtEnd(result.messages, o.testCommand);
  return tests ? { ...result, tests } : result;
}

/**
 * After the loop: a model that finished before the workspace's set-up did waits for it; one whose
 * set-up failed delivers and commits nothing (no tool ran: the loop waited for the same promise),
 * and ends as a failure with the reason — or cancelled, when it was.
 */
export async function awaitWorkspace(
  result: AgentResult,
  ready: Promise<void>,
  cancelled: AbortSignal,
): Promise<{ conclusion: 'cancelled' | 'failure'; error: string } | undefined> {
  const unready = await ready.then(
    () => undefined,
    (err: Error) => err.message,
  );
  if (unready === undefined) return undefined;
  const wasCancelled = result.conclusion === 'cancelled' || cancelled.aborted;
  return { conclusion: wasCancelled ? 'cancelled' : 'failure', error: unready };
}

/**
 * The run's conclusion from the agent's and the delivery's: a cancelled run is cancelled; a
 * success that committed nothing is `no-changes`; a success whose tests still fail at the end
 * (`result.tests`: the last run failed and no file was edited since), or a failure after the loop (the commit, the push, a missing answer:
 * `failures`), is a failure. The error joins every reason.
 */
export function concludeRun(o: {
  result: AgentResult;
  committed: boolean;
  cancelled: boolean;
  failures?: readonly (string | undefined)[];
}): { conclusion: RunConclusion; error?: string } {
  const failures = (o.failures ?? []).filter((f): f is string => !!f);
  const red = o.result.conclusion === 'success' && o.committed && testsRed(o.result);
  if (red) failures.unshift(testsFailingError(o.result.tests!));
  const error = [o.result.error, ...failures].filter(Boolean).join(' ') || undefined;
  const ending = (conclusion: RunConclusion) => ({ conclusion, ...(error ? { error } : {}) });
  if (o.cancelled) return ending('cancelled');
  if (failures.length > 0) return ending('failure');
  if (o.result.conclusion === 'success' && !o.committed) return ending('no-changes');
  return ending(o.result.conclusion);
}

/**
 * Why the work a run proposes is not finished, in a few words for the PR's title (`tests still
 * failing`, `turns budget used up`), or undefined when it is: then, and only then, the PR may
 * say it fixes the issue. Known before the push, from the agent's result alone.
 */
export function unfinishedReason(result: AgentResult): string | undefined {
  switch (result.conclusion) {
    case 'budget-exceeded':
      return result.budget ? `${result.budget} budget used up` : 'budget used up';
    case 'failure':
      return 'stopped on an error';
    case 'cancelled':
      return 'cancelled';
    case 'success':
      return testsRed(result) ? 'tests still failing' : undefined;
  }
}

/** The last test run failed and nothing was edited since: the tests fail at the end. */
function testsRed(result: AgentResult): boolean {
  return result.tests?.passed === false && !result.tests.stale;
}

/** The transcript's last line (CONTRACT §7), then the transcript is closed. */
export function recordSummary(
  transcript: TranscriptWriter,
  o: {
    conclusion: string;
    result: AgentResult | undefined;
    durationMs: number;
    error?: string;
    branch?: string;
    commitSha?: string;
    /** the surface's own fields (the CLI's changed files) */
    own?: Record<string, unknown>;
  },
): void {
  const r = o.result;
  transcript.summary({
    conclusion: o.conclusion,
    usage: r?.usage ?? emptyUsage(),
    turns: r?.turns ?? 0,
    models: r?.models ?? [],
    durationMs: o.durationMs,
    endedAt: new Date().toISOString(),
    ...(o.error ? { error: o.error } : {}),
    ...(r?.budget ? { budget: r.budget } : {}),
    ...(r?.tests ? { tests: r.tests } : {}),
    ...(o.branch ? { branch: o.branch, commitSha: o.commitSha } : {}),
    ...o.own,
  });
  transcript.close();
}

/**
 * A second job's summary line (stage: deliver): the agent job's own summary line, with how the
 * delivery ended and where the work went in place of the agent job's ending.
 */
export function recordDeliveredSummary(
  transcript: TranscriptWriter,
  agentSummary: Record<string, unknown> | undefined,
  end: { conclusion: string; error?: string; branch?: string; commitSha?: string },
): void {
  const { branch: _b, commitSha: _c, type: _t, ...rest } = agentSummary ?? {};
  transcript.summary({
    ...(rest as Record<string, unknown>),
    conclusion: end.conclusion,
    ...(end.error ? { error: end.error } : {}),
    ...(end.branch ? { branch: end.branch, commitSha: end.commitSha } : {}),
    endedAt: new Date().toISOString(),
  } as unknown as Parameters<TranscriptWriter['summary']>[0]);
  transcript.close();
}
