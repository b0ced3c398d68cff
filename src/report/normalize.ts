import type {
  AssistantContent,
  AssistantMessage,
  ImageContent,
  Message,
  StopReason,
  TextContent,
  ToolResultMessage,
  Usage,
  UserMessage,
} from '../protocol/types.js';
import { STOP_REASONS } from '../protocol/types.js';

// A transcript is a file someone downloaded: it may come from an older version of patchloop, from a
// killed run, or be edited by hand. Everything read from it passes through here, so the renderers
// can trust the shapes they get. Nothing here throws.

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : fallback;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A timestamp in milliseconds from a number or an ISO date string. */
export function toMillis(v: unknown): number | undefined {
  const n = num(v);
  // Beyond ±8.64e15 ms a Date is invalid and toISOString throws.
  if (n !== undefined) return Math.abs(n) <= 8.64e15 ? n : undefined;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** Usage in the current shape, also reading the short names older writers used. */
export function normalizeUsage(v: unknown): Usage {
  const u = isObj(v) ? v : {};
  const usage: Usage = {
    inputTokens: num(u.inputTokens) ?? num(u.input) ?? num(u.input_tokens) ?? 0,
    outputTokens: num(u.outputTokens) ?? num(u.output) ?? num(u.output_tokens) ?? 0,
    cacheReadTokens: num(u.cacheReadTokens) ?? num(u.cacheRead) ?? num(u.cache_read_input_tokens) ?? 0,
    cacheWriteTokens: num(u.cacheWriteTokens) ?? num(u.cacheWrite) ?? num(u.cache_creation_input_tokens) ?? 0,
  };
  const cost = num(u.costUsd) ?? (isObj(u.cost) ? num(u.cost.total) : num(u.cost));
  if (cost !== undefined) usage.costUsd = cost;
  return usage;
}

function textBlock(text: string): TextContent {
  return { type: 'text', text };
}

function imageBlock(b: Obj): ImageContent | TextContent {
  const data = str(b.data);
  const mimeType = str(b.mimeType, str(b.mime_type));
  if (!data || !mimeType) return textBlock('[image without data]');
  return { type: 'image', data, mimeType };
}

function userContent(v: unknown): (TextContent | ImageContent)[] {
  if (typeof v === 'string') return [textBlock(v)];
  if (!Array.isArray(v)) return [];
  return v.map((b): TextContent | ImageContent => {
    if (!isObj(b)) return textBlock(typeof b === 'string' ? b : '');
    if (b.type === 'text') return textBlock(str(b.text));
    if (b.type === 'image') return imageBlock(b);
    return textBlock(`[${str(b.type, 'unknown')} block]`);
  });
}

function assistantContent(v: unknown): AssistantContent[] {
  if (typeof v === 'string') return [textBlock(v)];
  if (!Array.isArray(v)) return [];
  const out: AssistantContent[] = [];
  v.forEach((b, i) => {
    if (!isObj(b)) return;
    switch (b.type) {
      case 'text':
        out.push(textBlock(str(b.text)));
        break;
      case 'thinking':
        out.push({
          type: 'thinking',
          thinking: str(b.thinking),
          ...(b.redacted === true ? { redacted: true } : {}),
        });
        break;
      case 'toolCall':
      case 'tool_use': {
        const raw = 'input' in b ? b.input : b.arguments;
        const input =
          isObj(raw) || typeof raw === 'string' ? raw : raw === undefined ? {} : JSON.stringify(raw);
        out.push({ type: 'toolCall', id: str(b.id, `call-${i}`), name: str(b.name, '(unnamed)'), input });
        break;
      }
      default:
        out.push(textBlock(`[${str(b.type, 'unknown')} block]`));
    }
  });
  return out;
}

function stopReason(v: unknown): StopReason {
  return (STOP_REASONS as readonly unknown[]).includes(v) ? (v as StopReason) : 'stop';
}

/** A message in the current shape, or undefined when the value is not a message at all. */
export function normalizeMessage(v: unknown): Message | undefined {
  if (!isObj(v)) return undefined;
  const timestamp = toMillis(v.timestamp) ?? 0;
  switch (v.role) {
    case 'user': {
      const m: UserMessage = { role: 'user', content: userContent(v.content), timestamp };
      return m;
    }
    case 'assistant': {
      const m: AssistantMessage = {
        role: 'assistant',
        content: assistantContent(v.content),
        provider: str(v.provider, str(v.api)),
        model: str(v.model, '(unknown model)'),
        usage: normalizeUsage(v.usage),
        stopReason: stopReason(v.stopReason),
        timestamp,
      };
      if (typeof v.errorMessage === 'string') m.errorMessage = v.errorMessage;
      if (typeof v.errorKind === 'string') m.errorKind = v.errorKind as AssistantMessage['errorKind'];
      return m;
    }
    case 'toolResult': {
      const m: ToolResultMessage = {
        role: 'toolResult',
        toolCallId: str(v.toolCallId),
        toolName: str(v.toolName, '(unknown tool)'),
        content: userContent(v.content),
        isError: v.isError === true,
        timestamp,
      };
      if (v.details !== undefined) m.details = v.details;
      return m;
    }
    default:
      return undefined;
  }
}

/** Joins the text of result or user content; images are named, not inlined. */
export function contentText(content: readonly (TextContent | ImageContent)[]): string {
  return content
    .map((c) => (c.type === 'text' ? c.text : `[image ${c.mimeType}, ${c.data.length} base64 characters]`))
    .join('\n');
}
