import type { AgentTool, ArgsOf } from '../protocol/tool.js';
import { formatCommandResult, type CommandDetails } from './command-output.js';
import type { CommandEnvOptions } from './env.js';
import { withNetworkNote } from './network-note.js';
import { runCommand, type CommandSandbox } from './process.js';
import { DEFAULT_LIMITS } from './truncate.js';
import type { Workspace } from './workspace.js';

export interface BashOptions {
  env?: NodeJS.ProcessEnv;
  /** `command-env` names and PATH entries to drop (env.ts). */
  envOptions?: CommandEnvOptions;
  sandbox?: CommandSandbox;
  artifactsDir?: string;
}

export const DEFAULT_BASH_TIMEOUT_S = 120;
export const MAX_BASH_TIMEOUT_S = 1800;

const BASH_PARAMETERS = {
  type: 'object',
  properties: {
    command: { type: 'string', minLength: 1 },
    timeout: { type: 'number', exclusiveMinimum: 0, maximum: MAX_BASH_TIMEOUT_S },
  },
  required: ['command'],
  additionalProperties: false,
} as const;

export type BashArgs = ArgsOf<typeof BASH_PARAMETERS>;

export function createBashTool(
  ws: Workspace,
  options: BashOptions = {},
): AgentTool<BashArgs, CommandDetails> {
  return {
    name: 'bash',
    description:
      'Run `bash -c command` in the workspace root (no stdin; the environment holds only neutral variables and those the workflow passes on). ' +
      'Returns the exit code and the last 2000 lines / 50 KB of stdout+stderr. `timeout` in seconds ' +
      `(default ${DEFAULT_BASH_TIMEOUT_S}, max ${MAX_BASH_TIMEOUT_S}) kills all it started.`,
    parameters: BASH_PARAMETERS,
    async execute(args, { signal, onUpdate }) {
      const network = options.sandbox?.network;
      const mark = network?.mark();
      const result = await runCommand({
        command: args.command,
        cwd: ws.root,
        env: options.env,
        envOptions: options.envOptions,
        sandbox: options.sandbox,
        timeoutMs: (args.timeout ?? DEFAULT_BASH_TIMEOUT_S) * 1000,
        signal,
        limits: DEFAULT_LIMITS,
        artifactsDir: options.artifactsDir,
        name: 'bash',
        onProgress: onUpdate ? (tail) => onUpdate({ content: [{ type: 'text', text: tail }] }) : undefined,
      });
      const note = mark === undefined ? undefined : network?.note(mark, result.text);
      return withNetworkNote(formatCommandResult(args.command, result), note);
    },
  };
}
