// Starting the configured MCP servers and collecting their tools (CONTRACT §10), with the MCP
// SDK's client: the handshake, tools/list page by page, tools/call. A stdio server is a command,
// started through the same sandbox as run_tests, in an empty folder of its own and from a program
// outside the workspace (program.ts); an HTTP server is called by patchloop itself with its
// configured headers. A server that fails to start, or does not finish its handshake and listing
// by the deadline (counted from its launch), is left out and named; one that misbehaves later is
// stopped and named; the run goes on without it. What a server wrote on stderr, and the error in
// its own words, go to the transcript alone.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { compileValidator } from '../../protocol/arguments.js';
import { formatDuration } from '../../protocol/format.js';
import type { AnyAgentTool } from '../../protocol/tool.js';
import { commandEnv, type CommandEnvOptions } from '../env.js';
import type { CommandSandbox } from '../process.js';
import { isInside } from '../safe-fs.js';
import { shellQuote } from '../shell-words.js';
import type { HttpServerConfig, McpServerConfig, StdioServerConfig } from './config.js';
import { pathOutside, ProgramError, resolveProgram } from './program.js';
import { CommandStdioTransport } from './stdio-transport.js';
import { createMcpTool, mcpParameters, mcpToolName, unofferable } from './tool.js';

export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** A server that lists more tools than this is cut there (a listing that never ends must end). */
const MAX_TOOLS_PER_SERVER = 200;
/** A server's own words (a tool name, a schema's error) are cut to this in the summary and log. */
const SERVER_TEXT_CHARS = 200;
/** How long a failed server's end (and the rest of its stderr) is waited for. */
const STDERR_SETTLE_MS = 1000;

export interface McpStartOptions {
  /** The workspace root: never a stdio server's folder, nor where its program comes from. */
  root: string;
  /**
   * Through the sandbox: the folder a stdio server starts in, an empty one inside its own mounts
   * (the sandbox's HOME). Without the sandbox a fresh empty folder is made under `scratchDir`.
   */
  sandboxDir?: string;
  /** Where a server's empty folder is made when it runs without the sandbox; default the system temp folder. */
  scratchDir?: string;
  /** A server stopped after it started (it exited, or broke the protocol): its line for the summary. */
  onDropped?: (line: string) => void;
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
  /** The error in full and the server's stderr, redacted: for the transcript alone. */
  detail?: string;
}

/** Where a session writes its servers' failures: the run's transcript. */
export interface McpEventSink {
  event(kind: string, data: Record<string, unknown>): void;
}

export interface McpSession {
  tools: AnyAgentTool[];
  servers: McpServerState[];
  /** Writes each failure so far to the transcript, and any later one as it happens. */
  record(sink: McpEventSink): void;
  /** Stops every stdio server and closes every connection; never throws. */
  close(): Promise<void>;
}

/** Said where a failure's words are kept. */
const IN_TRANSCRIPT = 'its stderr and the full error are in the transcript';

function cut(text: string, n = SERVER_TEXT_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function httpTransport(server: HttpServerConfig): Promise<Transport> {
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

/** A stdio server's folder: empty, of its own, outside the workspace; and how to remove it. */
function serverFolder(o: McpStartOptions): { cwd: string; remove: () => void } {
  const made = o.sandbox ? undefined : mkdtempSync(join(o.scratchDir ?? tmpdir(), 'patchloop-mcp-'));
  const cwd = o.sandbox ? o.sandboxDir : made;
  const remove = () => {
    if (made) rmSync(made, { recursive: true, force: true });
  };
  const ws = realpathSync(o.root);
  if (!cwd || isInside(cwd, ws) || isInside(ws, cwd)) {
    remove();
    throw new ProgramError('it has no empty folder of its own outside the workspace to start in');
  }
  return { cwd, remove };
}

function stdioTransport(server: StdioServerConfig, o: McpStartOptions): CommandStdioTransport {
  const env = commandEnv(o.env ?? process.env, o.envOptions ?? {});
  // nothing the server starts by name comes from the workspace either
  env.PATH = pathOutside(env.PATH ?? '', o.root);
  const program = resolveProgram(server.command, { workspace: o.root, path: env.PATH });
  const folder = serverFolder(o);
  const transport = new CommandStdioTransport(
    {
      command: [program, ...server.args].map(shellQuote).join(' '),
      argv: [program, ...server.args],
      cwd: folder.cwd,
      env,
      ownEnv: server.env,
      readOnlyWorkspace: true,
    },
    o.sandbox,
  );
  const close = transport.close.bind(transport);
  transport.close = () => close().finally(folder.remove);
  return transport;
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
  let closing = false;
  let sink: McpEventSink | undefined;
  const pending: McpServerState[] = [];
  const report = (state: McpServerState) => {
    if (!state.detail) return;
    if (sink)
      sink.event('mcp-server', {
        server: state.name,
        kind: state.kind,
        problems: state.problems,
        detail: state.detail,
      });
    else pending.push(state);
  };
  // a server that stops after it started: its tools answer with the reason, the summary names it
  const drop = async (state: McpServerState, stdio: CommandStdioTransport) => {
    state.failed = true;
    state.problems.push(
      `${stdio.stopped ?? 'its connection closed'}; its tools answer no more (${IN_TRANSCRIPT})`,
    );
    o.onDropped?.(describeMcpServers([state])[0]!);
    // the transcript gets its stderr once the process has ended and it has all been read
    await stdio.settled(STDERR_SETTLE_MS);
    const stderr = stdio.stderr.trim();
    state.detail = o.redact(stderr ? `--- its stderr (the end) ---\n${stderr}` : '(no stderr)');
    report(state);
  };

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
    let timer: NodeJS.Timeout | undefined;
    // counted from the launch: the sandbox's set-up (and the wait for it) is not the server's time
    const startClock = () => {
      timer ??= setTimeout(
        () => abort.abort(new Error(`no answer within ${formatDuration(deadline)}`)),
        deadline,
      );
    };
    let transport: Transport | undefined;
    let started = false;
    const client = new Client({ name: 'patchloop', version: o.clientVersion ?? '0' }, { capabilities: {} });
    try {
      if (server.kind === 'stdio') {
        if (o.commandsReady) await o.commandsReady;
        const stdio = stdioTransport(server, o);
        stdio.onlaunch = startClock;
        stdio.onclose = () => {
          if (started && !closing) void drop(state, stdio);
        };
        transport = stdio;
      } else {
        transport = await httpTransport(server);
        startClock();
      }
      clients.push({ client, transport });
      await client.connect(transport, { signal: abort.signal, timeout: deadline });
      const listed = await listAll(client, abort.signal);
      const tools: AnyAgentTool[] = [];
      const seen = new Set<string>();
      for (const tool of listed) {
        const why = unofferable(server.name, tool) ?? (await schemaProblem(server.name, tool));
        if (why || seen.has(tool.name)) {
          state.problems.push(
            o.redact(`tool ${cut(JSON.stringify(tool.name), 80)} left out: ${cut(why ?? 'listed twice')}`),
          );
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
            stopped: () => (state.failed ? state.problems.at(-1) : undefined),
          }),
        );
        state.tools.push(mcpToolName(server.name, tool.name));
      }
      started = true;
      return { state, tools };
    } catch (err) {
      state.failed = true;
      const stdio = transport instanceof CommandStdioTransport ? transport : undefined;
      // a server that ended: its exit and its last words, rather than the broken pipe they caused
      await stdio?.settled(STDERR_SETTLE_MS);
      const reason = abort.signal.aborted
        ? String((abort.signal.reason as Error | undefined)?.message ?? 'timed out')
        : err instanceof ProgramError
          ? err.message
          : stdio
            ? (stdio.stopped ?? 'its handshake failed')
            : cut(errorText(err));
      const stderr = stdio?.stderr.trim();
      state.detail = o.redact(
        `${errorText(err)}${stderr ? `\n--- its stderr (the end) ---\n${stderr}` : ''}`,
      );
      state.problems.push(o.redact(`did not start: ${reason}${stdio ? ` (${IN_TRANSCRIPT})` : ''}`));
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
      return { state, tools: [] };
    } finally {
      clearTimeout(timer);
    }
  };

  const results = await Promise.all(servers.map(one));
  for (const r of results) if (r.state.failed) report(r.state);
  return {
    tools: results.flatMap((r) => r.tools),
    servers: results.map((r) => r.state),
    record(to) {
      sink = to;
      for (const state of pending.splice(0)) report(state);
    },
    async close() {
      closing = true;
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
      ? `MCP server "${s.name}" (${s.kind}) was ${s.tools.length ? 'stopped' : 'left out'}: ${s.problems.join('; ')}`
      : `MCP server "${s.name}" (${s.kind}): ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
    return s.failed || s.problems.length === 0 ? head : `${head}; ${s.problems.join('; ')}`;
  });
}
