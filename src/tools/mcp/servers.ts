// Starting the configured MCP servers and collecting their tools (CONTRACT §10), with the MCP
// SDK's client: the handshake, tools/list page by page, tools/call. A stdio server is a command,
// started through the same sandbox as run_tests; an HTTP server is called by patchloop itself with
// its configured headers. A server that fails to start, or does not finish its handshake and
// listing by the deadline, is left out and named; the run goes on without it.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { compileValidator } from '../../protocol/arguments.js';
import { formatDuration } from '../../protocol/format.js';
import type { AnyAgentTool } from '../../protocol/tool.js';
import { commandEnv, type CommandEnvOptions } from '../env.js';
import type { CommandSandbox } from '../process.js';
import { shellQuote } from '../shell-words.js';
import type { McpServerConfig } from './config.js';
import { CommandStdioTransport } from './stdio-transport.js';
import { createMcpTool, mcpParameters, mcpToolName, unofferable } from './tool.js';

export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** A server that lists more tools than this is cut there (a listing that never ends must end). */
const MAX_TOOLS_PER_SERVER = 200;

export interface McpStartOptions {
  /** The workspace root: a stdio server's working folder (or its `cwd` below it). */
  root: string;
  /** Whether commands may run at all (isolated, or allow-unisolated-commands); no: stdio servers are left out. */
  commands: boolean;
  sandbox?: CommandSandbox;
  /** The job's environment, of which a stdio server gets the allow-listed part only (as every command). */
  env?: NodeJS.ProcessEnv;
  envOptions?: CommandEnvOptions;
  redact: (text: string) => string;
  artifactsDir?: string;
  handshakeTimeoutMs?: number;
  callTimeoutMs?: number;
  /** Resolves when commands may run (the sandbox's set-up and self-check); stdio servers wait for it. */
  commandsReady?: Promise<void>;
  clientVersion?: string;
}

export interface McpServerState {
  name: string;
  kind: 'stdio' | 'http';
  /** Tools offered from it (before allowed-tools). */
  tools: string[];
  /** Why it, or some of its tools, are left out. */
  problems: string[];
  failed: boolean;
}

export interface McpSession {
  tools: AnyAgentTool[];
  servers: McpServerState[];
  /** Stops every stdio server and closes every connection; never throws. */
  close(): Promise<void>;
}

async function transportFor(server: McpServerConfig, o: McpStartOptions): Promise<Transport> {
  if (server.kind === 'http') {
    // loaded only where a server needs them (they bring their SSE parsers along)
    if (server.transport === 'sse') {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      // the stream is opened by EventSource, which takes headers only through its fetch
      const withHeaders: typeof fetch = (url, init) =>
        fetch(url, {
          ...init,
          headers: { ...Object.fromEntries(new Headers(init?.headers)), ...server.headers },
        });
      return new SSEClientTransport(new URL(server.url), {
        requestInit: { headers: server.headers },
        eventSourceInit: { fetch: withHeaders },
      });
    }
    const { StreamableHTTPClientTransport } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: server.headers },
    });
  }
  const command = [server.command, ...server.args].map(shellQuote).join(' ');
  const env = commandEnv(o.env ?? process.env, o.envOptions ?? {});
  return new CommandStdioTransport(
    {
      command,
      cwd: server.cwd ? join(o.root, server.cwd) : o.root,
      env,
      ownEnv: server.env,
      readOnlyWorkspace: true,
    },
    o.sandbox,
  );
}

async function listAll(client: Client, signal: AbortSignal): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { signal });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor && tools.length < MAX_TOOLS_PER_SERVER);
  return tools.slice(0, MAX_TOOLS_PER_SERVER);
}

// Compiled here, with the same ajv and options as every tool's check (protocol/arguments.ts), so a
// schema that cannot be compiled leaves that one tool out with a note instead of failing each call.
async function schemaProblem(server: string, tool: McpTool): Promise<string | undefined> {
  const check = await compileValidator({
    name: mcpToolName(server, tool.name),
    parameters: mcpParameters(tool),
  })({});
  if (check.ok || !/could not be compiled/.test(check.error)) return undefined;
  return `its input schema cannot be compiled (${check.error.replace(/^.*?checked: /s, '')})`;
}

/** Starts every server side by side; resolves when each is ready, failed or past the deadline. */
export async function startMcpServers(
  servers: readonly McpServerConfig[],
  o: McpStartOptions,
): Promise<McpSession> {
  const clients: { client: Client; transport: Transport }[] = [];
  const deadline = o.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;

  const one = async (server: McpServerConfig): Promise<{ state: McpServerState; tools: AnyAgentTool[] }> => {
    const state: McpServerState = {
      name: server.name,
      kind: server.kind,
      tools: [],
      problems: [],
      failed: false,
    };
    if (server.kind === 'stdio' && !o.commands) {
      state.failed = true;
      state.problems.push('a stdio server is a command, and commands cannot be isolated on this runner');
      return { state, tools: [] };
    }
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error(`no answer within ${formatDuration(deadline)}`)),
      deadline,
    );
    let transport: Transport | undefined;
    const client = new Client({ name: 'patchloop', version: o.clientVersion ?? '0' }, { capabilities: {} });
    try {
      if (server.kind === 'stdio' && o.commandsReady) await o.commandsReady;
      transport = await transportFor(server, o);
      clients.push({ client, transport });
      await client.connect(transport, { signal: abort.signal, timeout: deadline });
      const listed = await listAll(client, abort.signal);
      const tools: AnyAgentTool[] = [];
      const seen = new Set<string>();
      for (const tool of listed) {
        const why = unofferable(server.name, tool) ?? (await schemaProblem(server.name, tool));
        if (why || seen.has(tool.name)) {
          state.problems.push(`tool ${JSON.stringify(tool.name)} left out: ${why ?? 'listed twice'}`);
          continue;
        }
        seen.add(tool.name);
        tools.push(
          createMcpTool(tool, {
            server: server.name,
            client,
            redact: o.redact,
            artifactsDir: o.artifactsDir,
            callTimeoutMs: o.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
          }),
        );
        state.tools.push(mcpToolName(server.name, tool.name));
      }
      return { state, tools };
    } catch (err) {
      state.failed = true;
      const reason = abort.signal.aborted
        ? String((abort.signal.reason as Error | undefined)?.message ?? 'timed out')
        : err instanceof Error
          ? err.message
          : String(err);
      const stderr =
        transport instanceof CommandStdioTransport
          ? transport.stderr.trim().split('\n').slice(-3).join(' | ')
          : '';
      state.problems.push(o.redact(`did not start: ${reason}${stderr ? ` (its stderr: ${stderr})` : ''}`));
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
      return { state, tools: [] };
    } finally {
      clearTimeout(timer);
    }
  };

  const results = await Promise.all(servers.map(one));
  return {
    tools: results.flatMap((r) => r.tools),
    servers: results.map((r) => r.state),
    async close() {
      await Promise.all(
        clients.map(async ({ client, transport }) => {
          await client.close().catch(() => undefined);
          await transport.close().catch(() => undefined);
        }),
      );
    },
  };
}

/** One line per server for the summary and the log: what was offered and what was left out. */
export function describeMcpServers(servers: readonly McpServerState[]): string[] {
  return servers.map((s) => {
    const head = s.failed
      ? `MCP server "${s.name}" (${s.kind}) was left out: ${s.problems.join('; ')}`
      : `MCP server "${s.name}" (${s.kind}): ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
    return s.failed || s.problems.length === 0 ? head : `${head}; ${s.problems.join('; ')}`;
  });
}
