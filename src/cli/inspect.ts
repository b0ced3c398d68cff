import { resolve } from 'node:path';
import { inspectJson, renderInspectText } from '../report/inspect.js';
import { loadRunView } from '../report/load.js';
import type { RunView } from '../report/model.js';
import { parseFlags } from './args.js';
import { terminalWidth, UsageError, useColour, type CliCommand, type CliIO } from './io.js';

export const INSPECT_USAGE = `Usage: patchloop inspect FILE.jsonl [--json]

Prints a run's timeline: the task, each turn (model, stop reason, tokens, cost), each tool call
(arguments, ok or error, duration, first lines of output), events, errors and totals.
  --json   one JSON object instead: turns, totals, tools (calls and errors per tool), errors, events`;

/**
 * Loads the transcript named by the first positional. A missing positional is a usage error (exit
 * 2); a file that cannot be read or is no transcript throws TranscriptFileError (exit 1).
 */
export async function loadFromArgs(
  command: string,
  positionals: string[],
  io: CliIO,
): Promise<{ path: string; view: RunView }> {
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError(`missing the transcript FILE.jsonl (patchloop ${command} FILE.jsonl)`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const path = resolve(io.cwd, file);
  return { path, view: await loadRunView(path) };
}

export const inspectCommand: CliCommand = async (argv, io) => {
  const { flags, positionals } = parseFlags(argv, { json: 'boolean', help: 'boolean' });
  if (flags.help) {
    io.stdout.write(`${INSPECT_USAGE}\n`);
    return 0;
  }
  const { view } = await loadFromArgs('inspect', positionals, io);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(inspectJson(view), null, 2)}\n`);
    return 0;
  }
  const stdout = io.stdout as CliIO['stdout'] & { columns?: number };
  const color = useColour(stdout, io.env);
  io.stdout.write(renderInspectText(view, { color, width: stdout.isTTY ? terminalWidth(stdout) : 120 }));
  return 0;
};
