import { withoutNpmUpdateNotice } from '../protocol/npm-notice.js';
import type { ToolOutput } from '../protocol/tool.js';
import type { CommandResult } from './process.js';
import { DEFAULT_LIMITS, formatBytes, truncateTail, type TruncationLimits } from './truncate.js';

export interface CommandDetails {
  command: string;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
  fullOutputPath?: string;
  /** Bytes left out of the saved file, between the head and the tail it keeps. */
  droppedBytes?: number;
  /** Set when the command was stopped for printing more than this many bytes. */
  outputLimit?: number;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** What the model reads after a command: how it ended, the tail of its output, and what was cut. */
export function formatCommandResult(
  command: string,
  result: CommandResult,
  limits: TruncationLimits = DEFAULT_LIMITS,
  heading?: string,
): ToolOutput<CommandDetails> {
  const tail = truncateTail(withoutNpmUpdateNotice(result.text), limits);
  const keptLines = tail.keptLines;
  const truncated = tail.truncated || !result.complete;
  const details: CommandDetails = {
    command,
    exitCode: result.exitCode,
    signal: result.signal,
    durationMs: result.durationMs,
    timedOut: result.timedOut,
    aborted: result.aborted,
    truncated,
    totalLines: result.totalLines,
    totalBytes: result.totalBytes,
  };
  if (result.fullOutputPath) details.fullOutputPath = result.fullOutputPath;
  if (result.droppedBytes !== undefined) details.droppedBytes = result.droppedBytes;
  if (result.outputLimit !== undefined) details.outputLimit = result.outputLimit;

  let status: string;
  if (result.spawnError) status = `The command could not be started: ${result.spawnError}`;
  else if (result.outputLimit !== undefined)
    status = `Stopped after ${seconds(result.durationMs)}: the command printed more than ${formatBytes(result.outputLimit)} of output, the most patchloop reads from one command, so it and all its processes were stopped. It did not finish; run something quieter (one test, or the output filtered with grep or tail).`;
  else if (result.timedOut)
    status = `Timed out after ${seconds(result.durationMs)}; the command and all its processes were stopped.`;
  else if (result.aborted) status = 'Cancelled: the run was stopped, and the command with it.';
  else if (result.exitCode !== null) status = `Exit code ${result.exitCode} (${seconds(result.durationMs)}).`;
  else status = `Ended by signal ${result.signal ?? 'unknown'} (${seconds(result.durationMs)}).`;

  const parts = heading ? [heading, status] : [status];
  if (result.totalBytes === 0) parts.push('(no output)');
  else parts.push(tail.text);
  if (truncated) {
    const shown = tail.partialLine
      ? `the last ${formatBytes(tail.keptBytes)} of the last line`
      : `the last ${keptLines} lines`;
    let notice = `[Output cut: showing ${shown} of ${result.totalLines} lines (${formatBytes(result.totalBytes)} in all).`;
    if (result.fullOutputPath && result.droppedBytes !== undefined)
      notice += ` The output's beginning and end are saved to ${result.fullOutputPath} (${formatBytes(result.droppedBytes)} in between were dropped). Read it with read_file or search it with grep at that path.`;
    else if (result.fullOutputPath)
      notice += ` Full output saved to ${result.fullOutputPath}. Read it with read_file or search it with grep at that path.`;
    else if (result.spillError) notice += ` The full output could not be saved: ${result.spillError}.`;
    notice += ' Narrow the command (e.g. run one test, or filter with grep) to see less at a time.]';
    parts.push(notice);
  }
  const isError =
    result.spawnError !== undefined ||
    result.outputLimit !== undefined ||
    result.timedOut ||
    result.aborted ||
    result.exitCode !== 0;
  return { content: [{ type: 'text', text: parts.join('\n') }], details, isError };
}
