// One MCP server tool as an agent tool: `mcp__<server>__<tool>`, the server's JSON Schema as its
// parameters (validated by the runtime like any tool's), and its result mapped onto a tool result
// with the same byte cap as the built-in tools, redacted before the model sees it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ToolError, type AgentTool, type JsonSchema } from '../../protocol/tool.js';
import type { ImageContent, TextContent } from '../../protocol/types.js';
import { formatBytes, MAX_BODY_BYTES, utf8Head } from '../truncate.js';

/** What the transcript and the UI get besides the content. */
export interface McpToolDetails {
  server: string;
  tool: string;
  isError: boolean;
  truncated: boolean;
  totalBytes: number;
  fullResultPath?: string;
}

export interface McpToolOptions {
  server: string;
  client: Client;
  /** Redacts what the server returns before it reaches the model (its own secrets included). */
  redact: (text: string) => string;
  /** Where a cut result is saved whole, for read_file and grep. */
  artifactsDir?: string;
  /** A call's deadline. */
  callTimeoutMs: number;
  /** Why the server was stopped after it started, once it has been (its tools answer no more). */
  stopped?: () => string | undefined;
}

// Providers accept tool names of [A-Za-z0-9_-], 64 characters at most.
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Larger images are described, not sent: the providers' own limits are around 5 MB. */
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
/** A saved result is cut here: a server's answer must not fill the runner's disk. */
const MAX_SAVED_BYTES = 16 * 1024 * 1024;

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** The schema offered and checked: the server's, as an object schema, without `$schema` (ajv's default draft reads the rest). */
export function mcpParameters(tool: McpTool): JsonSchema {
  const { $schema: _ignored, ...schema } = tool.inputSchema as Record<string, unknown>;
  return { ...schema, type: 'object' };
}

/** Why this server tool cannot be offered, or undefined. */
export function unofferable(server: string, tool: McpTool): string | undefined {
  const name = mcpToolName(server, tool.name);
  if (!TOOL_NAME.test(name))
    return `its name ${JSON.stringify(name)} is not a valid tool name (letters, digits, _ and -, at most 64)`;
  return undefined;
}

type McpContent = { type: string; [k: string]: unknown };

function describeBlock(block: McpContent): string {
  switch (block.type) {
    case 'resource_link':
      return `[resource link] ${String(block.name ?? '')} ${String(block.uri ?? '')}`.trim();
    case 'resource': {
      const r = (block.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === 'string') return `[resource ${String(r.uri ?? '')}]\n${r.text}`;
      const size = typeof r.blob === 'string' ? Math.floor((r.blob.length * 3) / 4) : 0;
      return `[binary resource ${String(r.uri ?? '')}, ${String(r.mimeType ?? 'unknown type')}, ${formatBytes(size)}: not shown]`;
    }
    case 'audio':
      return `[audio, ${String(block.mimeType ?? 'unknown type')}: not shown]`;
    default:
      return `[${block.type} content: not shown]`;
  }
}

export function createMcpTool(
  tool: McpTool,
  o: McpToolOptions,
): AgentTool<Record<string, unknown>, McpToolDetails> {
  const name = mcpToolName(o.server, tool.name);
  const description = (tool.description ?? tool.title ?? '').trim();
  return {
    name,
    description:
      `${description ? `${description} ` : ''}(Tool "${tool.name}" of the MCP server "${o.server}". Results over ` +
      `${formatBytes(MAX_BODY_BYTES)} are cut; a cut result is saved whole at a path the result names.)`,
    parameters: mcpParameters(tool),
    readOnly: tool.annotations?.readOnlyHint === true,
    async execute(args, { signal }) {
      const gone = () => {
        const why = o.stopped?.();
        return why && new ToolError(o.redact(`The MCP server "${o.server}" was stopped: ${why}.`));
      };
      const before = gone();
      if (before) throw before;
      let result;
      try {
        result = await o.client.callTool({ name: tool.name, arguments: args }, undefined, {
          signal,
          timeout: o.callTimeoutMs,
        });
      } catch (err) {
        const stopped = gone();
        if (stopped) throw stopped;
        const message = err instanceof Error ? err.message : String(err);
        throw new ToolError(o.redact(`The MCP server "${o.server}" did not answer the call: ${message}`));
      }
      const blocks = (Array.isArray(result.content) ? result.content : []) as McpContent[];
      const texts: string[] = [];
      const images: ImageContent[] = [];
      for (const block of blocks) {
        if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
        else if (
          block.type === 'image' &&
          typeof block.data === 'string' &&
          IMAGE_TYPES.has(String(block.mimeType)) &&
          block.data.length <= MAX_IMAGE_BASE64
        )
          images.push({ type: 'image', data: block.data, mimeType: String(block.mimeType) });
        else if (block.type === 'image')
          texts.push(`[image, ${String(block.mimeType)}: too large or of a type not shown]`);
        else texts.push(describeBlock(block));
      }
      if (texts.length === 0 && result.structuredContent !== undefined)
        texts.push(JSON.stringify(result.structuredContent, null, 2));
      const isError = result.isError === true;
      const full = o.redact(texts.join('\n'));
      const totalBytes = Buffer.byteLength(full);
      const details: McpToolDetails = {
        server: o.server,
        tool: tool.name,
        isError,
        truncated: false,
        totalBytes,
      };
      let text = full || (images.length ? '' : '(no content)');
      if (totalBytes > MAX_BODY_BYTES) {
        details.truncated = true;
        text = utf8Head(full, MAX_BODY_BYTES);
        let notice = `[Result cut: showing the first ${formatBytes(Buffer.byteLength(text))} of ${formatBytes(totalBytes)}.`;
        if (o.artifactsDir) {
          const path = join(
            o.artifactsDir,
            `mcp-${o.server}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.txt`,
          );
          try {
            writeFileSync(path, utf8Head(full, MAX_SAVED_BYTES), { mode: 0o644 });
            details.fullResultPath = path;
            notice += ` The whole result${totalBytes > MAX_SAVED_BYTES ? ` (its first ${formatBytes(MAX_SAVED_BYTES)})` : ''} is saved at ${path}: read it with read_file (offset, limit) or search it with grep at that path.`;
          } catch {
            // saved nowhere: the notice says only what was shown
          }
        }
        text += `\n${notice} Ask the tool for less at a time where it allows (a narrower query, a page).]`;
      }
      const content: (TextContent | ImageContent)[] = [];
      if (text) content.push({ type: 'text', text });
      content.push(...images);
      return { content, details, isError };
    },
  };
}
