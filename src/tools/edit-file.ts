import type { FileHandle } from 'node:fs/promises';
import { ToolError, type AgentTool, type ArgsOf, type ToolOutput } from '../protocol/tool.js';
import { unifiedDiff } from './diff.js';
import { locate, type MatchMode } from './text-match.js';
import { readAll, replaceContent } from './safe-fs.js';
import { formatBytes } from './truncate.js';
import type { Workspace } from './workspace.js';

const EDIT_FILE_PARAMETERS = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    oldText: { type: 'string', minLength: 1 },
    newText: { type: 'string' },
  },
  required: ['path', 'oldText', 'newText'],
  additionalProperties: false,
} as const;

export type EditFileArgs = ArgsOf<typeof EDIT_FILE_PARAMETERS>;

export interface EditFileDetails {
  path: string;
  diff: string;
  firstChangedLine?: number;
  matchedBy: MatchMode;
}

const MAX_EDIT_BYTES = 20 * 1024 * 1024;
const BOM = '\uFEFF';

/** CRLF when most line ends in the file are CRLF. */
function lineEnding(text: string): '\r\n' | '\n' {
  const all = text.split('\n').length - 1;
  const crlf = text.split('\r\n').length - 1;
  return crlf > 0 && crlf >= all - crlf ? '\r\n' : '\n';
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Where the first line of oldText appears, to point a model whose oldText did not match. */
function hint(content: string, oldText: string): string {
  const first = oldText
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length >= 3);
  if (!first) return '';
  const lines: number[] = [];
  content.split('\n').forEach((l, i) => {
    if (lines.length < 5 && l.includes(first)) lines.push(i + 1);
  });
  return lines.length > 0
    ? ` Its first line appears at line ${lines.join(', ')}; the lines after it differ.`
    : '';
}

export function createEditFileTool(ws: Workspace): AgentTool<EditFileArgs, EditFileDetails> {
  return {
    name: 'edit_file',
    description:
      'Replace the one occurrence of `oldText` in a file with `newText`. Copy `oldText` from read_file with enough ' +
      'lines to be unique; no match or several are errors. Trailing spaces, quote/dash style and Unicode form may ' +
      'differ; line endings and BOM are kept.',
    parameters: EDIT_FILE_PARAMETERS,
    async execute(args) {
      const target = await ws.resolve(args.path, 'write');
      const shown = target.rel;
      if (!target.exists) throw new ToolError(`File not found: ${shown}. To create a file, use write_file.`);
      // Read and written through one descriptor whose real path was checked after opening.
      const { handle, stat: info } = await ws.open(target, 'update');
      try {
        return await edit(handle, info.size, shown, args);
      } finally {
        await handle.close();
      }
    },
  };
}

async function edit(
  handle: FileHandle,
  size: number,
  shown: string,
  args: EditFileArgs,
): Promise<ToolOutput<EditFileDetails>> {
  if (size > MAX_EDIT_BYTES) {
    throw new ToolError(
      `${shown} is ${formatBytes(size)}, more than edit_file handles (${formatBytes(MAX_EDIT_BYTES)}).`,
    );
  }
  const raw = await readAll(handle, size);
  if (raw.includes(0))
    throw new ToolError(`${shown} looks like a binary file (it contains NUL bytes); edit_file edits text.`);
  let original: string;
  try {
    original = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ToolError(
      `${shown} is not valid UTF-8 text, so edit_file cannot change it without damaging it.`,
    );
  }
  // TextDecoder drops a leading BOM; put it back so it is kept through the edit.
  const hasBom = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf;
  const content = original;
  const oldText = args.oldText.startsWith(BOM) ? args.oldText.slice(1) : args.oldText;
  if (oldText === args.newText)
    throw new ToolError('oldText and newText are the same; nothing would change.');

  const found = locate(content, oldText);
  if (found.count === 0) {
    throw new ToolError(
      `oldText was not found in ${shown} (also tried ignoring line endings, trailing spaces, quote and dash ` +
        `styles and Unicode form). Read the file again and copy the text exactly.${hint(content, oldText)}`,
    );
  }
  if (found.count > 1) {
    throw new ToolError(
      `oldText occurs ${found.count} times in ${shown}; it must match exactly one place. ` +
        'Include more surrounding lines in oldText to make it unique.',
    );
  }
  const start = found.start!;
  const end = found.end!;
  const eol = lineEnding(content);
  let replacement = args.newText.replace(/\r\n/g, '\n');
  if (eol === '\r\n') replacement = replacement.replace(/\n/g, '\r\n');
  const updated = content.slice(0, start) + replacement + content.slice(end);
  await replaceContent(handle, (hasBom ? BOM : '') + updated);

  const { diff, firstChangedLine, added, removed } = unifiedDiff(shown, content, updated);
  const at = lineOf(content, start);
  let text = `Edited ${shown} at line ${at}: ${removed} line${removed === 1 ? '' : 's'} removed, ${added} added.`;
  if (found.mode === 'tolerant') {
    text +=
      ' (oldText matched after normalising whitespace, quotes, dashes or Unicode; only that region changed.)';
  }
  return {
    content: [{ type: 'text', text }],
    details: { path: shown, diff, firstChangedLine, matchedBy: found.mode },
  };
}
