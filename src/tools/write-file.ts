import { ToolError, type AgentTool, type ArgsOf } from '../protocol/tool.js';
import { unifiedDiff } from './diff.js';
import { readAll, replaceContent } from './safe-fs.js';
import { formatBytes, splitLines } from './truncate.js';
import type { Workspace } from './workspace.js';

const WRITE_FILE_PARAMETERS = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    content: { type: 'string' },
  },
  required: ['path', 'content'],
  additionalProperties: false,
} as const;

export type WriteFileArgs = ArgsOf<typeof WRITE_FILE_PARAMETERS>;

export interface WriteFileDetails {
  path: string;
  created: boolean;
  bytes: number;
  /** Unified diff against the previous content (omitted for large or binary files). */
  diff?: string;
}

/** Above this, no diff is computed for the UI. */
const MAX_DIFF_BYTES = 1024 * 1024;

export function createWriteFileTool(ws: Workspace): AgentTool<WriteFileArgs, WriteFileDetails> {
  return {
    name: 'write_file',
    description:
      'Create or overwrite a file, making parent folders. To change part of a file prefer edit_file. ' +
      'Protected paths (e.g. .github/workflows/) are refused.',
    parameters: WRITE_FILE_PARAMETERS,
    async execute(args) {
      if (args.path.trim() === '')
        throw new ToolError('`path` is empty; give a file path relative to the workspace root.');
      const target = await ws.resolve(args.path, 'write');
      const shown = target.rel;
      if (!target.exists) await ws.makeParents(target);
      // The previous content is read, and the new one written, through one checked descriptor.
      const { handle, stat: info, created } = await ws.open(target, 'write');
      let before: string | undefined;
      try {
        if (!created && info.size <= MAX_DIFF_BYTES) {
          const raw = await readAll(handle, info.size);
          if (!raw.includes(0)) before = raw.toString('utf8');
        }
        await replaceContent(handle, args.content);
      } finally {
        await handle.close();
      }
      const bytes = Buffer.byteLength(args.content, 'utf8');
      const lines = splitLines(args.content).length;
      const verb = created ? 'Created' : 'Overwrote';
      const details: WriteFileDetails = { path: shown, created, bytes };
      if ((before !== undefined || created) && bytes <= MAX_DIFF_BYTES) {
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
