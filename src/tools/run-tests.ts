import { ToolError, type AgentTool } from '../protocol/tool.js';
import { formatCommandResult, type CommandDetails } from './command-output.js';
import { detectTestCommand } from './detect-test-command.js';
import { runCommand, type CommandSandbox } from './process.js';
import { DEFAULT_LIMITS } from './truncate.js';
import type { Workspace } from './workspace.js';

export interface RunTestsArgs {
  args?: string;
}

export interface RunTestsOptions {
  /** The configured command; empty or undefined means detect it. */
  testCommand?: string;
  env?: NodeJS.ProcessEnv;
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
      'with `args` appended, e.g. a test file. Returns the exit code and the last 2000 lines / 50 KB of output, ' +
      `saying what was cut and where the full output is. Time limit ${Math.round(timeoutMs / 60000)} min.`,
    parameters: {
      type: 'object',
      properties: {
        args: { type: 'string' },
      },
      additionalProperties: false,
    },
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
      const extra = args.args?.trim();
      const separator = detected?.argsSeparator ?? '';
      const command = extra ? `${base} ${separator}${extra}` : base;
      const result = await runCommand({
        command,
        cwd: ws.root,
        env: options.env,
        sandbox: options.sandbox,
        timeoutMs,
        signal,
        limits: DEFAULT_LIMITS,
        artifactsDir: options.artifactsDir,
        name: 'run_tests',
        onProgress: onUpdate ? (tail) => onUpdate({ content: [{ type: 'text', text: tail }] }) : undefined,
      });
      const source = detected ? ` (detected from ${detected.source})` : '';
      return formatCommandResult(command, result, DEFAULT_LIMITS, `$ ${command}${source}`);
    },
  };
}
