import { createHash } from 'node:crypto';
import { dirname, isAbsolute, join } from 'node:path';
import type { ToolRegistry } from '../protocol/execute.js';
import type { SessionLine } from '../protocol/transcript.js';
import type { ToolResultContent } from '../protocol/types.js';
import { compareResults, type Comparison, type NormalizeContext } from './compare.js';
import type { RunView } from './model.js';

// `patchloop replay`: every recorded tool call, in order, run again on a checkout through the same
// registry the agent uses, with no model involved; each new result is compared with the recorded
// one, and the replay stops at the first call whose result differs.
//
// A transcript is untrusted input: a steered model's run records whatever it was steered to run.
// So the calls that reach past the checkout's files (commands, MCP tools) are not made again unless
// the caller asks for them (`runCommands`), and then only through the tools the caller built (the
// command sandbox, the servers the user configured); nothing here takes a setting from the file.

export interface ReplayCallReport {
  /** 1-based position among all calls of the run. */
  index: number;
  turn: number;
  id: string;
  name: string;
  input: Record<string, unknown> | string;
  /** `not-run`: a command or MCP call, not made again without `runCommands`. */
  status: 'match' | 'differ' | 'skipped' | 'not-run';
  /** For a match: whether the texts were equal as they are, or only after normalising. */
  comparison?: Comparison;
  /** Why a call was not run again. */
  reason?: string;
  recorded?: { isError: boolean; text: string };
  replayed?: { isError: boolean; text: string };
}

export interface ReplayReport {
  calls: ReplayCallReport[];
  matched: number;
  skipped: number;
  /** Command and MCP calls that were not made again (no `runCommands`). */
  notRun: number;
  /** The first call whose result differs; the replay stopped there. */
  divergence?: ReplayCallReport;
  /** True when the signal stopped the replay before the end. */
  aborted: boolean;
}

export interface ReplayOptions {
  /** Tools on the checkout the calls are replayed on. */
  registry: ToolRegistry;
  /** The replay checkout's root. */
  workspace: string;
  /** Extra paths to treat as the workspace or as temp folders when comparing. */
  normalize?: Partial<NormalizeContext>;
  signal?: AbortSignal;
  /**
   * Make command calls (run_tests, bash) again, through `registry`'s tools. Without it they are
   * reported as not run (and the registry should not hold such tools at all).
   */
  runCommands?: boolean;
  /** Make MCP tool calls again: the user named the servers. Without it they are reported as not run. */
  callMcp?: boolean;
  /** Called after each call, for progress output. */
  onCall?: (call: ReplayCallReport) => void;
}

/** The tools that run a command: never called again without `runCommands`. */
export const COMMAND_TOOLS: readonly string[] = ['run_tests', 'bash'];

/** Whether a call reaches past the checkout's files: a command, or a tool of an MCP server. */
export function reachesOut(name: string): boolean {
  return COMMAND_TOOLS.includes(name) || name.startsWith('mcp__');
}

/**
 * The tool options a run recorded in its session line (names as the loop writes them). Shown to
 * the user only: replay takes its test command and bash from its own flags, never from the file.
 */
export interface SessionToolOptions {
  testCommand?: string;
  allowBash?: boolean;
  protectedPaths?: string[];
}

function pick(session: Record<string, unknown>, ...names: string[]): unknown {
  for (const n of names) if (session[n] !== undefined) return session[n];
  const nested = session.options;
  if (nested && typeof nested === 'object') {
    for (const n of names)
      if ((nested as Record<string, unknown>)[n] !== undefined) return (nested as Record<string, unknown>)[n];
  }
  return undefined;
}

export function toolOptionsFromSession(session: SessionLine | undefined): SessionToolOptions {
  if (!session) return {};
  const out: SessionToolOptions = {};
  const testCommand = pick(session, 'testCommand', 'test-command');
  if (typeof testCommand === 'string' && testCommand.trim()) out.testCommand = testCommand;
  const allowBash = pick(session, 'allowBash', 'allow-bash');
  if (allowBash === true || allowBash === 'true') out.allowBash = true;
  const protectedPaths = pick(session, 'protectedPaths', 'protected-paths');
  if (Array.isArray(protectedPaths) && protectedPaths.every((p) => typeof p === 'string'))
    out.protectedPaths = protectedPaths;
  else if (typeof protectedPaths === 'string') {
    out.protectedPaths = protectedPaths
      .split(/[\n,]/)
      .map((p) => p.trim())
      .filter(Boolean);
  }
  return out;
}

/** The recorded run's workspace root, when the session line tells it. */
export function recordedWorkspace(session: SessionLine | undefined): string | undefined {
  if (!session) return undefined;
  const value = pick(session, 'workspace', 'root', 'cwd');
  if (typeof value === 'string' && isAbsolute(value)) return value;
  return typeof session.repository === 'string' && isAbsolute(session.repository)
    ? session.repository
    : undefined;
}

/**
 * Temp folders of the recorded run, whose paths replay ignores: those the session line names, and
 * for a run of the action, the runner's temp folder. A transcript written by the action does not
 * record RUNNER_TEMP, but GitHub-hosted and self-hosted runners alike keep it beside the checkouts:
 * GITHUB_WORKSPACE is `<work>/<repo>/<repo>` and RUNNER_TEMP `<work>/_temp`.
 */
export function recordedTempDirs(session: SessionLine | undefined): string[] {
  if (!session) return [];
  const out: string[] = [];
  for (const name of ['tmpdir', 'runnerTemp', 'artifactsDir', 'outputsDir']) {
    const v = pick(session, name);
    if (typeof v === 'string' && isAbsolute(v)) out.push(v);
  }
  const ws = recordedWorkspace(session);
  if (ws && session.trigger !== 'cli') {
    const repoDir = dirname(ws);
    if (repoDir.split('/').pop() === ws.split('/').pop()) out.push(join(dirname(repoDir), '_temp'));
  }
  return out;
}

/** The commit the recorded run started from, when the session line tells it. */
export function recordedBaseCommit(session: SessionLine | undefined): string | undefined {
  if (!session) return undefined;
  const value = pick(session, 'baseCommit', 'baseSha', 'headSha', 'commit');
  return typeof value === 'string' && /^[0-9a-f]{7,64}$/i.test(value) ? value : undefined;
}

/** Result content as comparable text; images by type and a digest of their bytes. */
export function comparableText(content: readonly ToolResultContent[]): string {
  return content
    .map((c) =>
      c.type === 'text'
        ? c.text
        : `[image ${c.mimeType} ${createHash('sha256').update(c.data).digest('hex').slice(0, 16)}]`,
    )
    .join('\n');
}

// Results the loop wrote without running the tool (pairing.ts wording), and calls the recorded
// run interrupted: running them again cannot reproduce what was recorded.
const NOT_RUN = /^Tool call (not run|aborted)\b/;

export async function replayRun(view: RunView, options: ReplayOptions): Promise<ReplayReport> {
  const signal = options.signal ?? new AbortController().signal;
  const ctx: NormalizeContext = {
    workspaces: [options.workspace, ...(options.normalize?.workspaces ?? [])],
    tmpdirs: options.normalize?.tmpdirs ?? [],
  };
  const recordedRoot = recordedWorkspace(view.session);
  if (recordedRoot) ctx.workspaces.push(recordedRoot);
  ctx.tmpdirs.push(...recordedTempDirs(view.session));
  const report: ReplayReport = { calls: [], matched: 0, skipped: 0, notRun: 0, aborted: false };
  const offered = (name: string) => options.registry.tools.some((t) => t.name === name);
  let index = 0;
  for (const turn of view.turns) {
    for (const call of turn.calls) {
      index++;
      if (signal.aborted) {
        report.aborted = true;
        return report;
      }
      const entry: ReplayCallReport = {
        index,
        turn: turn.index,
        id: call.id,
        name: call.name,
        input: call.input,
        status: 'skipped',
      };
      const recorded = call.result
        ? { isError: call.result.isError, text: comparableText(call.result.content) }
        : undefined;
      if (recorded) entry.recorded = recorded;
      if (!recorded) entry.reason = 'no result was recorded (the run ended before it)';
      else if (turn.stopReason === 'aborted' || turn.stopReason === 'error') {
        entry.reason = `the recorded turn ended with ${turn.stopReason}, so the call was never run`;
      } else if (recorded.isError && NOT_RUN.test(recorded.text))
        entry.reason = 'the recorded run did not complete this call';
      else if (
        call.name.startsWith('mcp__') ? !options.callMcp : reachesOut(call.name) && !options.runCommands
      ) {
        entry.status = 'not-run';
        entry.reason = call.name.startsWith('mcp__')
          ? 'MCP servers are called again only with replay --mcp-config'
          : 'commands are run again only with replay --run-commands (in the command sandbox)';
      } else if (call.name.startsWith('mcp__') && !offered(call.name))
        entry.reason = `a tool of an MCP server that is not configured here: not replayable (replay --mcp-config starts it)`;
      else if (call.name === 'bash' && !offered(call.name))
        entry.reason = 'bash is not offered: replay --allow-bash offers it';
      if (entry.reason) {
        if (entry.status === 'not-run') report.notRun++;
        else report.skipped++;
        report.calls.push(entry);
        options.onCall?.(entry);
        continue;
      }
      const result = await options.registry.execute(
        { type: 'toolCall', id: call.id, name: call.name, input: call.input },
        signal,
      );
      if (signal.aborted) {
        report.aborted = true;
        return report;
      }
      entry.replayed = { isError: result.isError, text: comparableText(result.content) };
      const command = COMMAND_TOOLS.includes(call.name);
      const comparison = compareResults(recorded!, entry.replayed, { ...ctx, commandOutput: command });
      entry.comparison = comparison;
      entry.status = comparison === 'differ' ? 'differ' : 'match';
      report.calls.push(entry);
      options.onCall?.(entry);
      if (entry.status === 'differ') {
        report.divergence = entry;
        return report;
      }
      report.matched++;
    }
  }
  return report;
}
