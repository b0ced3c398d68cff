import pkg from '../../package.json' with { type: 'json' };
import { UsageError, type CliCommand, type CliIO } from './io.js';

export const USAGE = `patchloop ${pkg.version}: run an LLM coding agent on a git checkout

Usage:
  patchloop run [--repo DIR] [--provider P] [--model M] [--base-url U] [--branch B] "task"
  patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C] [--command-env NAMES]
  patchloop inspect FILE.jsonl [--json]
  patchloop export FILE.jsonl [-o OUT.html]
  patchloop replay FILE.jsonl [--repo DIR] [--run-commands]

Run \`patchloop COMMAND --help\` (or \`patchloop help COMMAND\`) for a command's options.
  --help       show this text
  --version    print the version`;

// Commands are loaded on demand so that `tool` does not pay for the provider SDKs at start-up.
const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  run: async () => (await import('./run.js')).runCommand,
  tool: async () => (await import('./tool.js')).toolCommand,
  inspect: async () => (await import('./inspect.js')).inspectCommand,
  export: async () => (await import('./export.js')).exportCommand,
  replay: async () => (await import('./replay.js')).replayCommand,
};

/** Dispatches argv (without node and the script) to a command; returns the exit status. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [first, ...afterFirst] = argv;
  // `patchloop help run` is `patchloop run --help`
  const helpFor = first === 'help' && afterFirst.length > 0 ? afterFirst[0] : undefined;
  const [command, ...rest] = helpFor !== undefined ? [helpFor, '--help'] : argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? io.stderr : io.stdout).write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    io.stderr.write(`patchloop: unknown command "${command}"\n\n${USAGE}\n`);
    return 2;
  }
  try {
    return await (
      await load()
    )(rest, io);
  } catch (err) {
    // Messages are prefixed here, once: a command's own "inspect: …" would read "patchloop inspect: inspect: …".
    const message = (err instanceof Error ? err.message : String(err)).replace(
      new RegExp(`^(?:patchloop )?${command}: `),
      '',
    );
    if (err instanceof UsageError) {
      io.stderr.write(`patchloop ${command}: ${message}\nRun \`patchloop ${command} --help\` for usage.\n`);
      return 2;
    }
    // Not a usage error (a file that cannot be read, a failed write): the usage hint would mislead.
    io.stderr.write(`patchloop ${command}: ${message}\n`);
    return 1;
  }
}
