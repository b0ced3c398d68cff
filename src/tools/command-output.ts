import { closeSync, openSync, readSync } from 'node:fs';
import { formatDuration } from '../protocol/format.js';
import { withoutNpmUpdateNotice } from '../protocol/npm-notice.js';
import type { ToolOutput } from '../protocol/tool.js';
import type { CommandResult } from './process.js';
import {
  DEFAULT_LIMITS,
  formatBytes,
  splitLines,
  truncateTail,
  utf8Head,
  type TruncationLimits,
} from './truncate.js';

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

// A line that starts a test failure in the common runners' output: TAP (`not ok`), jest/vitest
// (`FAIL`, `×`), mocha and node (`AssertionError`, `Error:`), and the usual cross marks.
const FAILURE_LINE = /^\s*(?:not ok\b|FAIL\b|[✗×✖]\s|\S*(?:AssertionError|Error:))/u;
/** Lines kept after the failure line: TAP's YAML block holds the message a few lines down. */
const FAILURE_CONTEXT_LINES = 14;
/** The most the first-failure excerpt takes of the result's byte cap. */
const FAILURE_MAX_BYTES = 2048;
/** How much of a saved full output is searched for the first failure. */
const FAILURE_SCAN_BYTES = 4 * 1024 * 1024;

function readStart(path: string, maxBytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(maxBytes);
    const n = readSync(fd, buf, 0, maxBytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The first failure and the lines after it, from the whole output, when the tail shown to the model
 * does not already contain it: a cut test run otherwise ends in counters ("# fail 1") and the
 * failing assertion's message is lost.
 */
function firstFailure(result: CommandResult, tailText: string): string | undefined {
  const whole = result.complete
    ? result.text
    : result.fullOutputPath
      ? readStart(result.fullOutputPath, FAILURE_SCAN_BYTES)
      : undefined;
  if (whole === undefined) return undefined;
  const lines = splitLines(withoutNpmUpdateNotice(whole));
  const at = lines.findIndex((l) => FAILURE_LINE.test(l));
  if (at < 0) return undefined;
  const excerpt = lines.slice(at, at + 1 + FAILURE_CONTEXT_LINES).join('\n');
  if (tailText.includes(lines[at]!) && tailText.includes(excerpt)) return undefined;
  return utf8Head(excerpt, FAILURE_MAX_BYTES);
}

/** What the model reads after a command: how it ended, the tail of its output, and what was cut. */
export function formatCommandResult(
  command: string,
  result: CommandResult,
  limits: TruncationLimits = DEFAULT_LIMITS,
  heading?: string,
): ToolOutput<CommandDetails> {
  const failed =
    result.spawnError !== undefined ||
    result.outputLimit !== undefined ||
    result.timedOut ||
    result.aborted ||
    result.exitCode !== 0;
  let tail = truncateTail(withoutNpmUpdateNotice(result.text), limits);
  let failure: string | undefined;
  if (failed && (tail.truncated || !result.complete)) {
    failure = firstFailure(result, tail.text);
    // The excerpt and its label come out of the same byte cap as the tail.
    if (failure !== undefined) {
      const maxBytes = Math.max(0, limits.maxBytes - Buffer.byteLength(failure, 'utf8') - 160);
      const maxLines = Math.max(1, limits.maxLines - splitLines(failure).length - 2);
      tail = truncateTail(withoutNpmUpdateNotice(result.text), { maxLines, maxBytes });
    }
  }
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
    status = `Stopped after ${formatDuration(result.durationMs)}: the command printed more than ${formatBytes(result.outputLimit)} of output, the most patchloop reads from one command, so it and all its processes were stopped. It did not finish; run something quieter (one test, or the output filtered with grep or tail).`;
  else if (result.timedOut)
    status = `Timed out after ${formatDuration(result.durationMs)}; the command and all its processes were stopped.`;
  else if (result.aborted) status = 'Cancelled: the run was stopped, and the command with it.';
  else if (result.exitCode !== null)
    status = `Exit code ${result.exitCode} (${formatDuration(result.durationMs)}).`;
  else status = `Ended by signal ${result.signal ?? 'unknown'} (${formatDuration(result.durationMs)}).`;

  const parts = heading ? [heading, status] : [status];
  if (result.totalBytes === 0) parts.push('(no output)');
  else {
    if (failure !== undefined)
      parts.push(
        `[First failure, from earlier in the output:]\n${failure}\n[End of the first failure; the output's last lines follow.]`,
      );
    parts.push(tail.text);
  }
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
  if (result.limitNote) parts.push(`[${result.limitNote}]`);
  if (result.workspaceNote) parts.push(`[${result.workspaceNote}]`);
  return {
    content: [{ type: 'text', text: parts.join('\n') }],
    details,
    isError: failed || result.workspaceNote !== undefined,
  };
}
