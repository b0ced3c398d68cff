// `--mcp-config` of `run` and `replay`: the CLI user's own configuration (a file or inline JSON),
// the same servers and tools as in the action, their lines on stderr.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { McpConfigError, parseMcpConfig, type McpServerConfig } from '../tools/mcp/config.js';
import type { McpSession } from '../tools/mcp/servers.js';
import type { CommandSandbox } from '../tools/process.js';
import { SANDBOX_HOME } from '../sandbox/launch.js';
import { UsageError, type CliIO } from './io.js';

/** The servers of `--mcp-config` (inline JSON when it starts with `{`, else a file); a usage error says what is wrong. */
export function readMcpFlag(value: string, cwd: string): McpServerConfig[] {
  let text = value;
  if (!value.trimStart().startsWith('{')) {
    try {
      text = readFileSync(resolve(cwd, value), 'utf8');
    } catch (err) {
      throw new UsageError(`--mcp-config ${value}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
  try {
    return parseMcpConfig(text);
  } catch (err) {
    if (err instanceof McpConfigError)
      throw new UsageError(`--mcp-config: ${err.message.replace(/^mcp-config: /, '')}`);
    throw err;
  }
}

export interface CliMcpOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  redact: (text: string) => string;
  artifactsDir: string;
  io: CliIO;
  sandbox?: CommandSandbox;
  commands?: boolean;
  commandsReady?: Promise<void>;
}

/** Starts the servers; says on stderr what each offers or why it was left out. */
export async function startCliMcp(servers: McpServerConfig[], o: CliMcpOptions): Promise<McpSession> {
  // Loaded only when there are servers: the MCP SDK (with zod and ajv) is a third of what the
  // bundle would otherwise parse at every start.
  const { describeMcpServers, startMcpServers } = await import('../tools/mcp/servers.js');
  const session = await startMcpServers(servers, {
    root: o.root,
    commands: o.commands ?? true,
    sandbox: o.sandbox,
    sandboxDir: SANDBOX_HOME,
    onDropped: (line) => o.io.stderr.write(`patchloop: ${line}\n`),
    commandsReady: o.commandsReady,
    env: o.env,
    redact: o.redact,
    artifactsDir: o.artifactsDir,
    clientVersion: pkg.version,
  });
  for (const line of describeMcpServers(session.servers)) o.io.stderr.write(`patchloop: ${line}\n`);
  return session;
}
