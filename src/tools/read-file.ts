import type { FileHandle } from 'node:fs/promises';
import { ToolError, type AgentTool, type ArgsOf, type ToolOutput } from '../protocol/tool.js';
import { classify, SNIFF_BYTES } from './file-kind.js';
import { readAll } from './safe-fs.js';
import { DEFAULT_MAX_LINES, formatBytes, MAX_BODY_BYTES, MAX_RESULT_BYTES, utf8Head } from './truncate.js';
import type { Workspace } from './workspace.js';

const READ_FILE_PARAMETERS = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    offset: { type: 'integer', minimum: 1 },
    limit: { type: 'integer', minimum: 1 },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

export type ReadFileArgs = ArgsOf<typeof READ_FILE_PARAMETERS>;

export interface ReadFileDetails {
  path: string;
  kind: 'text' | 'image';
  startLine?: number;
  endLine?: number;
  totalLines?: number;
  truncated: boolean;
}

/** Anthropic's per-image limit; larger images would fail the next request. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const CHUNK = 64 * 1024;

interface Window {
  lines: string[];
  totalLines: number;
  /** Why reading stopped before the end of the file, if it did. */
  stoppedBy?: 'lines' | 'bytes' | 'long-line';
}

/**
 * Reads lines [start, start + maxLines) within maxBytes, streaming, and counts every line of the
 * file, so a huge file never sits in memory.
 */
async function readWindow(
  handle: FileHandle,
  start: number,
  maxLines: number,
  maxBytes: number,
): Promise<Window> {
  const buf = Buffer.allocUnsafe(CHUNK);
  const lines: string[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let lineNo = 1;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let pending = false;
  let usedBytes = 0;
  let stoppedBy: Window['stoppedBy'];

  const collecting = () => stoppedBy === undefined && lineNo >= start;
  const finishLine = () => {
    let text = decoder.decode(Buffer.concat(parts));
    parts = [];
    partBytes = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (lines.length >= maxLines) {
      stoppedBy = 'lines';
      return;
    }
    const size = Buffer.byteLength(text, 'utf8') + (lines.length > 0 ? 1 : 0);
    if (usedBytes + size > maxBytes) {
      if (lines.length === 0) {
        lines.push(utf8Head(text, maxBytes));
        stoppedBy = 'long-line';
      } else stoppedBy = 'bytes';
      return;
    }
    lines.push(text);
    usedBytes += size;
  };

  for (let position = 0; ;) {
    const { bytesRead } = await handle.read(buf, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let pos = 0;
    while (pos < bytesRead) {
      const nl = buf.indexOf(10, pos);
      const end = nl === -1 || nl >= bytesRead ? bytesRead : nl;
      if (end > pos) pending = true;
      // Past maxBytes + 4 the line is cut anyway; keeping more would only hold memory.
      if (collecting() && partBytes <= maxBytes + 4) {
        parts.push(Buffer.from(buf.subarray(pos, end)));
        partBytes += end - pos;
      }
      if (end === bytesRead) break;
      if (collecting()) finishLine();
      pending = false;
      lineNo++;
      pos = end + 1;
    }
  }
  if (pending && collecting()) finishLine();
  return { lines, totalLines: pending ? lineNo : lineNo - 1, stoppedBy };
}

export function createReadFileTool(ws: Workspace): AgentTool<ReadFileArgs, ReadFileDetails> {
  return {
    name: 'read_file',
    description:
      'Read a text file: at most 2000 lines / 50 KB from `offset` (1-based line); when cut, a notice gives the ' +
      'offset to continue. Images (png, jpeg, gif, webp) return as images; other binary files are refused. ' +
      "Also reads a command's saved output (absolute path from its notice).",
    readOnly: true,
    parameters: READ_FILE_PARAMETERS,
    async execute(args) {
      if (args.path.trim() === '')
        throw new ToolError('`path` is empty; give a file path relative to the workspace root.');
      const target = await ws.resolve(args.path, 'read');
      const shown = target.rel || '.';
      if (!target.exists)
        throw new ToolError(`File not found: ${shown}. Use find_files or list_dir to see what exists.`);
      // Everything below reads through this one descriptor, whose real path was checked after opening.
      const { handle, stat: info } = await ws.open(target, 'read');
      try {
        return await readOpened(handle, info.size, shown, args);
      } finally {
        await handle.close();
      }
    },
  };
}

async function readOpened(
  handle: FileHandle,
  size: number,
  shown: string,
  args: ReadFileArgs,
): Promise<ToolOutput<ReadFileDetails>> {
  const info = { size };
  const head = await readAll(handle, size, SNIFF_BYTES);
  const kind = classify(head);
  if (kind.kind === 'image') {
    if (info.size > MAX_IMAGE_BYTES) {
      throw new ToolError(
        `${shown} is an image of ${formatBytes(info.size)}, over the ${formatBytes(MAX_IMAGE_BYTES)} that can be shown.`,
      );
    }
    const data = (await readAll(handle, info.size)).toString('base64');
    return {
      content: [
        { type: 'text', text: `Image ${shown} (${kind.mimeType}, ${formatBytes(info.size)}):` },
        { type: 'image', data, mimeType: kind.mimeType },
      ],
      details: { path: shown, kind: 'image', truncated: false },
    };
  }
  if (kind.kind === 'binary') {
    throw new ToolError(
      `${shown} looks like a binary file (${kind.reason}; ${formatBytes(info.size)}), so it is not shown as text.`,
    );
  }

  const start = args.offset ?? 1;
  const maxLines = Math.min(args.limit ?? DEFAULT_MAX_LINES, DEFAULT_MAX_LINES);
  const win = await readWindow(handle, start, maxLines, MAX_BODY_BYTES);
  if (win.totalLines === 0) {
    return {
      content: [{ type: 'text', text: `[${shown} is empty.]` }],
      details: { path: shown, kind: 'text', totalLines: 0, truncated: false },
    };
  }
  if (start > win.totalLines) {
    throw new ToolError(
      `offset ${start} is past the end of ${shown}, which has ${win.totalLines} line${win.totalLines === 1 ? '' : 's'}.`,
    );
  }
  const end = start + win.lines.length - 1;
  if (start === 1 && win.lines[0]?.startsWith('\uFEFF')) win.lines[0] = win.lines[0].slice(1);
  let text = win.lines.join('\n');
  const more = end < win.totalLines;
  if (win.stoppedBy === 'long-line') {
    text += `\n\n[Line ${start} is longer than the ${formatBytes(MAX_BODY_BYTES)} a result can show; only its start is shown.`;
    text += more ? ` Use offset=${start + 1} to continue after it.]` : ']';
  } else if (more) {
    const why = win.stoppedBy === 'bytes' ? ` (${formatBytes(MAX_RESULT_BYTES)} limit)` : '';
    text += `\n\n[Showing lines ${start}-${end} of ${win.totalLines}${why}. Use offset=${end + 1} to continue.]`;
  }
  return {
    content: [{ type: 'text', text }],
    details: {
      path: shown,
      kind: 'text',
      startLine: start,
      endLine: end,
      totalLines: win.totalLines,
      truncated: more || win.stoppedBy === 'long-line',
    },
  };
}
