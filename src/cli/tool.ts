import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolRegistry } from '../protocol/execute.js';
import { createWorkspaceTools } from '../tools/index.js';
import { createSandbox } from '../sandbox/index.js';
import { commandEnvFlag, parseFlags } from './args.js';
import { watchInterrupts } from './interrupt.js';
import { UsageError, type CliCommand } from './io.js';

export const TOOL_USAGE = `Usage: patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C] [--sandbox auto|off]
                      [--command-env NAMES]

Runs one tool call exactly as the agent would and prints the toolResult message as one JSON line.
ARGS is the raw argument text a model would send (it may be invalid; that gives an error result).
run_tests and bash run their command as with \`patchloop run\` (--sandbox, default auto), with the
variables --command-env names (comma-separated) besides the neutral ones; the sandbox's state is
removed when the call ends, however it ends.
Exit status 0 whether or not the result is an error; 2 for a usage error.`;

/** `patchloop tool`: one tool call through the same registry the agent loop uses. */
export const toolCommand: CliCommand = async (argv, io) => {
  const { flags, positionals } = parseFlags(argv, {
    repo: 'string',
    'allow-bash': 'boolean',
    'test-command': 'string',
    sandbox: 'string',
    'command-env': 'string',
    help: 'boolean',
  });
  if (flags.help) {
    io.stdout.write(`${TOOL_USAGE}\n\n${toolList(io.cwd)}\n`);
    return 0;
  }
  const [name, argsText = '', ...extra] = positionals;
  if (!name) throw new UsageError('missing the tool NAME');
  if (extra.length > 0)
    throw new UsageError(`unexpected argument "${extra[0]}" (quote ARGS as one argument)`);
  const root = resolve(io.cwd, flags.repo ?? '.');
  if (!isDirectory(root)) throw new UsageError(`--repo ${root} is not a folder`);

  const sandboxMode = flags.sandbox ?? 'auto';
  if (sandboxMode !== 'auto' && sandboxMode !== 'off') {
    throw new UsageError(`--sandbox must be auto or off, got "${sandboxMode}"`);
  }
  const pass = commandEnvFlag(flags['command-env']);
  // Only the tools that run commands need one; the others answer without setting it up.
  const runsCommands = name === 'run_tests' || name === 'bash';
  const interrupt = watchInterrupts(() => void disposeThenExit());
  let sandbox: Awaited<ReturnType<typeof createSandbox>> | undefined;
  let disposing: Promise<void> | undefined;
  const dispose = () =>
    (disposing ??=
      sandbox?.kind === 'isolated'
        ? sandbox
            .dispose()
            .catch(
              (err: Error) =>
                void io.stderr.write(`patchloop tool: the sandbox was not taken down: ${err.message}\n`),
            )
        : Promise.resolve());
  // A second Ctrl-C does not wait for the command, but still takes the sandbox's state down.
  async function disposeThenExit(): Promise<never> {
    await dispose();
    process.exit(130);
  }
  try {
    sandbox = runsCommands
      ? await createSandbox({ workspace: root, mode: sandboxMode, env: io.env, commandEnv: pass })
      : undefined;
    const tools = createWorkspaceTools({
      root,
      allowBash: flags['allow-bash'] === true,
      testCommand: flags['test-command'],
      env: io.env,
      commandEnv: { pass },
      ...(sandbox?.kind === 'isolated' ? { sandbox: sandbox.sandbox } : {}),
    });
    const registry = new ToolRegistry(tools);
    const result = await registry.execute(
      { type: 'toolCall', id: 'cli-1', name, input: argsText },
      interrupt.signal,
    );
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return interrupt.received ? 130 : 0;
  } finally {
    await dispose();
    interrupt.dispose();
    // the sandbox's state (an overlay's layers) goes with the call
    if (sandbox?.kind === 'isolated') await sandbox.dispose().catch(() => undefined);
  }
};

/** Each tool with its parameters and the first sentence of its description. */
export function toolList(root: string): string {
  const tools = createWorkspaceTools({ root, allowBash: true, testCommand: 'true' });
  const lines = ['Tools (bash only with --allow-bash):'];
  for (const t of tools) {
    const props = (t.parameters as { properties?: Record<string, unknown>; required?: string[] }) ?? {};
    const required = new Set(props.required ?? []);
    const params = Object.keys(props.properties ?? {})
      .map((p) => (required.has(p) ? p : `${p}?`))
      .join(', ');
    const first = t.description.split(/(?<=\.)\s/)[0]!.replace(/\s+/g, ' ');
    lines.push(`  ${t.name}(${params})`, `      ${first}`);
  }
  lines.push('', `Example: patchloop tool read_file '{"path": "src/math.js", "limit": 20}'`);
  return lines.join('\n');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
