// The `mcp-config` input (CONTRACT §10): the `.mcp.json` shape, read strictly. Every value in a
// server's `env` and `headers` is a secret: it is given to that server alone and redacted
// everywhere else.

export interface StdioServerConfig {
  kind: 'stdio';
  name: string;
  command: string;
  args: string[];
  /** Given to this server alone, on top of the neutral variables every command gets. */
  env: Record<string, string>;
}

export interface HttpServerConfig {
  kind: 'http';
  name: string;
  url: string;
  headers: Record<string, string>;
  /** `sse` only for servers that speak the older HTTP+SSE transport; default Streamable HTTP. */
  transport: 'streamable-http' | 'sse';
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export class McpConfigError extends Error {
  constructor(message: string) {
    super(`mcp-config: ${message}`);
    this.name = 'McpConfigError';
  }
}

// Tool names become `mcp__<server>__<tool>`, and providers accept [A-Za-z0-9_-] in tool names only.
const SERVER_NAME = /^[A-Za-z0-9-]{1,32}$/;
const STDIO_KEYS = new Set(['type', 'command', 'args', 'env']);
const HTTP_KEYS = new Set(['type', 'url', 'headers']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringMap(v: unknown, where: string): Record<string, string> {
  if (v === undefined) return {};
  if (!isObject(v)) throw new McpConfigError(`${where} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string') throw new McpConfigError(`${where}.${k} must be a string`);
    out[k] = value;
  }
  return out;
}

/** Parses the configuration text; throws McpConfigError naming the first thing that is wrong. */
export function parseMcpConfig(text: string): McpServerConfig[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new McpConfigError(`not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!isObject(doc) || !isObject(doc.mcpServers))
    throw new McpConfigError('expected {"mcpServers": {NAME: {...}}}');
  const servers: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(doc.mcpServers)) {
    const at = `mcpServers.${name}`;
    if (!SERVER_NAME.test(name))
      throw new McpConfigError(`server name "${name}" must be 1–32 letters, digits or hyphens`);
    if (!isObject(raw)) throw new McpConfigError(`${at} must be an object`);
    const type = raw.type;
    if (type !== undefined && !['stdio', 'http', 'streamable-http', 'sse'].includes(String(type)))
      throw new McpConfigError(`${at}.type must be stdio, http or sse`);
    if (
      typeof raw.command === 'string' &&
      raw.url === undefined &&
      (type === undefined || type === 'stdio')
    ) {
      // a server starts in an empty folder of its own, never in the workspace (servers.ts)
      if (raw.cwd !== undefined)
        throw new McpConfigError(
          `${at}.cwd: a stdio server starts in an empty folder of its own, never in the workspace; give paths in args`,
        );
      const unknown = Object.keys(raw).find((k) => !STDIO_KEYS.has(k));
      if (unknown) throw new McpConfigError(`${at}.${unknown} is not a setting of a stdio server`);
      if (!raw.command.trim()) throw new McpConfigError(`${at}.command is empty`);
      if (raw.command.includes('/') && !raw.command.startsWith('/'))
        throw new McpConfigError(
          `${at}.command must be a program name (looked up on PATH outside the workspace) or an absolute path`,
        );
      const args = raw.args ?? [];
      if (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))
        throw new McpConfigError(`${at}.args must be an array of strings`);
      const env = stringMap(raw.env, `${at}.env`);
      const bad = Object.keys(env).find((k) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
      if (bad !== undefined) throw new McpConfigError(`${at}.env: "${bad}" is not a variable name`);
      servers.push({
        kind: 'stdio',
        name,
        command: raw.command,
        args: args as string[],
        env,
      });
    } else if (typeof raw.url === 'string' && raw.command === undefined && type !== 'stdio') {
      const unknown = Object.keys(raw).find((k) => !HTTP_KEYS.has(k));
      if (unknown) throw new McpConfigError(`${at}.${unknown} is not a setting of an HTTP server`);
      let url: URL;
      try {
        url = new URL(raw.url);
      } catch {
        throw new McpConfigError(`${at}.url is not a URL`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new McpConfigError(`${at}.url must be http or https`);
      if (url.username || url.password)
        throw new McpConfigError(`${at}.url must not hold credentials: put them in headers`);
      servers.push({
        kind: 'http',
        name,
        url: url.href,
        headers: stringMap(raw.headers, `${at}.headers`),
        transport: type === 'sse' ? 'sse' : 'streamable-http',
      });
    } else {
      throw new McpConfigError(`${at} needs either "command" (a stdio server) or "url" (an HTTP server)`);
    }
  }
  return servers;
}

/** The values a run must redact: every env and header value of every server. */
export function mcpSecrets(servers: readonly McpServerConfig[]): string[] {
  return servers
    .flatMap((s) => Object.values(s.kind === 'stdio' ? s.env : s.headers))
    .filter((v) => v !== '');
}
