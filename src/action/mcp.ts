// MCP servers in an action run (CONTRACT §10): the configuration from the input (inline JSON, or a
// path read from the base branch through the contents API — never the checkout's file, which a PR
// or an earlier run's commands may have written), its secrets registered before anything can echo
// them, and the servers started once commands may run. What they say reaches the log as model and
// tool text does: through the log's neutraliser, never as a workflow command.
import * as core from './runner-commands.js';
import pkg from '../../package.json' with { type: 'json' };
import { describeGitHubError } from '../github/octokit.js';
import { fetchFileText } from '../github/context/agents-md.js';
import type { PullRequestRefs } from '../github/context/task.js';
import { McpConfigError, mcpSecrets, parseMcpConfig, type McpServerConfig } from '../tools/mcp/config.js';
import type { McpSession } from '../tools/mcp/servers.js';
import type { CommandSandbox } from '../tools/process.js';
import { SANDBOX_HOME } from '../sandbox/launch.js';
import { neutralizeCommands } from './log.js';
import type { RunState } from './state.js';

/** Inline JSON is checked with the other inputs (an InputError before anything runs); a path later. */
export function isInlineMcpConfig(text: string): boolean {
  return text.trimStart().startsWith('{');
}

/** The configured servers, or undefined (none configured, or the file could not be had: noticed). */
export async function loadMcpConfig(
  s: RunState,
  pr: PullRequestRefs | undefined,
): Promise<McpServerConfig[] | undefined> {
  const raw = s.inputs.mcpConfig;
  if (!raw) return undefined;
  let text: string | undefined = raw;
  if (!isInlineMcpConfig(raw)) {
    const path = raw.replace(/^\.\//, '');
    const ref = pr ? pr.baseSha || pr.baseRef : s.env.GITHUB_SHA;
    const where = pr ? `the base branch ${pr.baseRef}` : 'the commit this workflow runs from';
    try {
      text = ref ? await fetchFileText(s.github, s.task.owner, s.task.repo, path, ref) : undefined;
    } catch (err) {
      s.notice(
        `${describeGitHubError(err, 'read-contents', `Reading the mcp-config file ${path}`)} The run goes on without MCP servers.`,
      );
      return undefined;
    }
    if (text === undefined) {
      s.notice(`The mcp-config file ${path} is not on ${where}; the run goes on without MCP servers.`);
      return undefined;
    }
  }
  try {
    const servers = parseMcpConfig(text);
    s.addSecrets(mcpSecrets(servers));
    return servers;
  } catch (err) {
    if (!(err instanceof McpConfigError)) throw err;
    s.notice(`${err.message}. The run goes on without MCP servers.`);
    return undefined;
  }
}

export interface McpStartContext {
  commands: boolean;
  sandbox?: CommandSandbox;
  /** Settles when commands may run: stdio servers wait for it. */
  commandsReady: Promise<void>;
}

/** Starts the servers; each one's tools, or the reason it is left out, goes to the log and the summary. */
export async function startRunMcp(
  s: RunState,
  servers: McpServerConfig[],
  c: McpStartContext,
): Promise<McpSession> {
  // Loaded only when there are servers: the MCP SDK (with zod and ajv) is a third of what the
  // bundle would otherwise parse at every start.
  const { describeMcpServers, startMcpServers } = await import('../tools/mcp/servers.js');
  const session = await startMcpServers(servers, {
    root: s.runner.workspace,
    commands: c.commands,
    sandbox: c.sandbox,
    // the sandbox's HOME: empty, on the command's own /tmp; without it, a folder in the run's own
    sandboxDir: SANDBOX_HOME,
    scratchDir: s.dir,
    onDropped: (line) => s.notice(neutralizeCommands(line)),
    commandsReady: c.commandsReady,
    env: s.env,
    envOptions: { pass: s.inputs.commandEnv, privateDirs: [s.runner.runnerTemp, s.dir] },
    redact: (t) => s.redact(t),
    artifactsDir: s.outputsDir(),
    clientVersion: pkg.version,
  });
  describeMcpServers(session.servers).forEach((line, i) => {
    const safe = neutralizeCommands(line);
    if (session.servers[i]!.failed) s.notice(safe);
    else core.info(`patchloop: ${safe}.`);
  });
  return session;
}
