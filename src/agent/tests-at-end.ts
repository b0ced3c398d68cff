// How the tests stood when the model stopped: the last test run in the conversation, read from
// the tool results' details (the exit code the model was shown, never its own account of it).
import type { Message, ToolResultMessage } from '../protocol/types.js';
import type { CommandDetails } from '../tools/index.js';

export interface TestsAtEnd {
  /** the last test run ended with exit code 0 (not timed out, not stopped) */
  passed: boolean;
  /** the tool that ran it: `run_tests`, or `bash` running the test command */
  tool: string;
  /** the command as it ran */
  command: string;
  exitCode: number | null;
  /** how it ended, in a few words: `exit 1`, `timed out`, `killed by SIGKILL` */
  ending: string;
  /**
   * The file tools changed the workspace after it: the run says how the tests stood before the
   * last changes, not after them (a model that reproduced the failure, fixed it, and stopped).
   */
  stale?: boolean;
}

/** The tools whose successful call changes the workspace's files. */
const EDITS: ReadonlySet<string> = new Set(['edit_file', 'write_file']);

// Shell text after the test command that would make the exit code someone else's (`| tail`,
// `; echo`, `|| true`), or the command something else altogether: such a call is no test run.
const SHELL_TEXT = /[|;&<>()`$\n]/;

/**
 * The last test run in `messages`: each `run_tests` result, and each `bash` call that ran the test
 * command (`testCommand`, or a command run_tests ran) with at most plain words after it. A run
 * that was aborted (the run was cancelled) is no evidence either way; a later edit by the file
 * tools makes it `stale`. Undefined when no test ran.
 */
export function testsAtEnd(messages: readonly Message[], testCommand?: string): TestsAtEnd | undefined {
  const results = messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
  const known = new Set<string>();
  if (testCommand?.trim()) known.add(normalise(testCommand));
  for (const r of results) {
    const d = commandDetails(r);
    if (r.toolName === 'run_tests' && d) known.add(normalise(d.command));
  }
  let last: TestsAtEnd | undefined;
  for (const r of results) {
    if (last && EDITS.has(r.toolName) && !r.isError) last.stale = true;
    const d = commandDetails(r);
    if (!d || d.aborted) continue;
    if (r.toolName === 'run_tests' || (r.toolName === 'bash' && runsTests(d.command, known))) {
      last = evidence(r.toolName, d);
    }
  }
  return last;
}

function commandDetails(r: ToolResultMessage): CommandDetails | undefined {
  const d = r.details as Partial<CommandDetails> | undefined;
  if (!d || typeof d !== 'object' || typeof d.command !== 'string') return undefined;
  if (typeof d.exitCode !== 'number' && d.exitCode !== null) return undefined;
  return d as CommandDetails;
}

function normalise(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

/** A bash command that is the test command, maybe with arguments and `2>&1`, and nothing else. */
function runsTests(command: string, known: ReadonlySet<string>): boolean {
  const c = normalise(command).replace(/\s+2>&1$/, '');
  for (const k of known) {
    if (c === k) return true;
    if (c.startsWith(`${k} `) && !SHELL_TEXT.test(c.slice(k.length))) return true;
  }
  return false;
}

function evidence(tool: string, d: CommandDetails): TestsAtEnd {
  const passed = d.exitCode === 0 && !d.timedOut && d.outputLimit === undefined;
  const ending = d.timedOut
    ? 'timed out'
    : d.outputLimit !== undefined
      ? 'stopped for printing too much'
      : d.exitCode !== null
        ? `exit ${d.exitCode}`
        : d.signal
          ? `killed by ${d.signal}`
          : 'did not start';
  return { passed, tool, command: d.command, exitCode: d.exitCode, ending };
}

/** The reason a run whose tests fail at the end is not a success, in one sentence. */
export function testsFailingError(t: TestsAtEnd): string {
  const which = t.tool === 'run_tests' ? 'run_tests' : `test run (${t.tool})`;
  return `The tests still fail at the end (last ${which} ${t.ending}).`;
}
