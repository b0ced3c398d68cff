import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolError, type AgentTool } from '../protocol/tool.js';
import { unifiedDiff } from './diff.js';
import { formatBytes, splitLines } from './truncate.js';
import type { Workspace } from './workspace.js';

export interface WriteFileArgs {
  path: string;
  content: string;
}

export interface WriteFileDetails {
  path: string;
  created: boolean;
  bytes: number;
  /** Unified diff against the previous content (omitted for large or binary files). */
  diff?: string;
}

/** Above this, no diff is computed for the UI. */
const MAX_DIFF_BYTES = 1024 * 1024;

function errorCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

export function createWriteFileTool(ws: Workspace): AgentTool<WriteFileArgs, WriteFileDetails> {
  return {
    name: 'write_file',
    description:
      'Create or overwrite a file, making parent folders. To change part of a file prefer edit_file. ' +
      'Protected paths (e.g. .github/workflows/) are refused.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        content: { type: 'string' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    async execute(args) {
      if (args.path.trim() === '')
        throw new ToolError('`path` is empty; give a file path relative to the workspace root.');
      const target = await ws.resolve(args.path, 'write');
      const shown = target.rel;
      let before: string | undefined;
      if (target.exists) {
        const info = await stat(target.real);
        if (info.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path.`);
        if (!info.isFile()) throw new ToolError(`${shown} is not a regular file.`);
        if (info.size <= MAX_DIFF_BYTES) {
          const raw = await readFile(target.real);
          if (!raw.includes(0)) before = raw.toString('utf8');
        }
      }
      try {
        await mkdir(dirname(target.real), { recursive: true });
        await writeFile(target.real, args.content, 'utf8');
      } catch (err) {
        const code = errorCode(err);
        if (code === 'ENOTDIR' || code === 'EEXIST') {
          throw new ToolError(`Cannot write ${shown}: a part of its folder path is a file, not a folder.`);
        }
        if (code === 'EISDIR') throw new ToolError(`${shown} is a directory; give a file path.`);
        throw err;
      }
      const bytes = Buffer.byteLength(args.content, 'utf8');
      const lines = splitLines(args.content).length;
      const verb = target.exists ? 'Overwrote' : 'Created';
      const details: WriteFileDetails = { path: shown, created: !target.exists, bytes };
      if ((before !== undefined || !target.exists) && bytes <= MAX_DIFF_BYTES) {
        details.diff = unifiedDiff(shown, before ?? '', args.content).diff;
      }
      return {
        content: [
          {
            type: 'text',
            text: `${verb} ${shown} (${lines} line${lines === 1 ? '' : 's'}, ${formatBytes(bytes)}).`,
          },
        ],
        details,
      };
    },
  };
}
