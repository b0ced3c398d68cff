// A small MCP server for the tests, built with the SDK's own server classes and served over
// Streamable HTTP on loopback. It checks a bearer token, as a hosted server would, and offers a
// tool whose result is 5 MB.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface FixtureServer {
  url: string;
  /** Requests refused for a wrong or missing token. */
  refused: number;
  calls: { name: string; args: unknown }[];
  close(): Promise<void>;
}

function mcpServer(calls: FixtureServer['calls']): Server {
  const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    // two pages, so the client's pagination is exercised
    if (!req.params?.cursor)
      return {
        tools: [
          {
            name: 'lookup',
            description: 'Looks up a ticket.',
            inputSchema: {
              $schema: 'https://json-schema.org/draft/2020-12/schema',
              type: 'object',
              properties: { id: { type: 'integer' } },
              required: ['id'],
              additionalProperties: false,
            },
          },
        ],
        nextCursor: 'page-2',
      };
    return {
      tools: [
        {
          name: 'huge',
          description: 'Returns 5 MB of text.',
          inputSchema: { type: 'object', properties: {} },
        },
        {
          name: 'broken',
          description: 'Its schema cannot compile.',
          inputSchema: { type: 'object', properties: { x: { type: 'no-such-type' } } },
        },
      ],
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    calls.push({ name: req.params.name, args: req.params.arguments });
    if (req.params.name === 'lookup')
      return {
        content: [
          { type: 'text', text: `ticket ${String(req.params.arguments?.id)}: the login page times out` },
        ],
      };
    if (req.params.name === 'huge') {
      const line = `${'x'.repeat(99)}\n`;
      return { content: [{ type: 'text', text: line.repeat(50_000) + 'THE-END' }] };
    }
    return { content: [{ type: 'text', text: 'unknown tool' }], isError: true };
  });
  return server;
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** Streamable HTTP, stateful sessions, `Authorization: Bearer <token>` required. */
export async function startFixtureServer(token: string): Promise<FixtureServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const state: FixtureServer = { url: '', refused: 0, calls: [], close: async () => {} };
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      if (req.headers.authorization !== `Bearer ${token}`) {
        state.refused++;
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      const parsed = req.method === 'POST' ? await body(req) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, transport!),
        });
        await mcpServer(state.calls).connect(transport);
      }
      await transport.handleRequest(req, res, parsed);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  state.close = async () => {
    for (const t of transports.values()) await t.close().catch(() => undefined);
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
  };
  return state;
}
