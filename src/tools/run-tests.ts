import { ToolError, type AgentTool, type ArgsOf } from '../protocol/tool.js';
import { formatCommandResult, type CommandDetails } from './command-output.js';
import { detectTestCommand } from './detect-test-command.js';
import type { CommandEnvOptions } from './env.js';
import { withNetworkNote } from './network-note.js';
import { runCommand, type CommandSandbox } from './process.js';
import { shellQuote, splitWords } from './shell-words.js';
import { DEFAULT_LIMITS } from './truncate.js';
import type { Workspace } from './workspace.js';

const RUN_TESTS_PARAMETERS = {
  type: 'object',
  properties: {
    args: { type: 'string' },
  },
  additionalProperties: false,
} as const;

export type RunTestsArgs = ArgsOf<typeof RUN_TESTS_PARAMETERS>;

export interface RunTestsOptions {
  /** The configured command; empty or undefined means detect it. */
  testCommand?: string;
  env?: NodeJS.ProcessEnv;
  /** `command-env` names and PATH entries to drop (env.ts). */
  envOptions?: CommandEnvOptions;
  sandbox?: CommandSandbox;
  artifactsDir?: string;
  timeoutMs?: number;
}

export const DEFAULT_TEST_TIMEOUT_MS = 10 * 60 * 1000;

export function createRunTestsTool(
  ws: Workspace,
  options: RunTestsOptions = {},
): AgentTool<RunTestsArgs, CommandDetails> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  return {
    name: 'run_tests',
    description:
      "Run the project's tests (configured, or detected: npm test, pytest, go test, cargo test, make test) " +
      'with `args` appended as words (quotes group; not shell text), e.g. a test file. Returns the exit code and ' +
      `the last 2000 lines / 50 KB of output; a cut says where the full output is. Limit ${Math.round(timeoutMs / 60000)} min.`,
    parameters: RUN_TESTS_PARAMETERS,
    async execute(args, { signal, onUpdate }) {
      const configured = options.testCommand?.trim();
      const detected = configured ? undefined : detectTestCommand(ws.root, options.env ?? process.env);
      const base = configured || detected?.command;
      if (!base) {
        throw new ToolError(
          'No test command found: the workspace has no package.json "test" script, pytest configuration, go.mod, ' +
            'Cargo.toml or Makefile "test" target. The `test-command` input (CLI: --test-command) sets one.',
        );
      }
      // words, each quoted for the shell: `; cat /etc/passwd` or `$(id)` reach the test program as
      // literal arguments, so without allow-bash the model cannot run shell text (CONTRACT §6)
      const words = splitWords(args.args ?? '');
      const separator = detected?.argsSeparator ?? '';
      const command = words.length ? `${base} ${separator}${words.map(shellQuote).join(' ')}` : base;
      const network = options.sandbox?.network;
      const mark = network?.mark();
      const result = await runCommand({
        command,
        cwd: ws.root,
        env: options.env,
        envOptions: options.envOptions,
        sandbox: options.sandbox,
        timeoutMs,
        signal,
        limits: DEFAULT_LIMITS,
        artifactsDir: options.artifactsDir,
        name: 'run_tests',
        onProgress: onUpdate ? (tail) => onUpdate({ content: [{ type: 'text', text: tail }] }) : undefined,
      });
      const source = detected ? ` (detected from ${detected.source})` : '';
      const note = mark === undefined ? undefined : network?.note(mark, result.text);
      return withNetworkNote(
        formatCommandResult(command, result, DEFAULT_LIMITS, `$ ${command}${source}`),
        note,
      );
    },
  };
}
