import { stat } from 'node:fs/promises';
import { ToolError, type AgentTool, type ArgsOf } from '../protocol/tool.js';
import { listFiles } from './file-list.js';
import { createToolGit as createGit, type Git } from '../git/index.js';
import { parseGlob } from './glob.js';
import { displayPath } from './path-display.js';
import { formatBytes, MAX_BODY_BYTES, MAX_RESULT_BYTES, truncateHead } from './truncate.js';
import type { Workspace } from './workspace.js';

const FIND_FILES_PARAMETERS = {
  type: 'object',
  properties: {
    pattern: { type: 'string', minLength: 1 },
    path: { type: 'string' },
    limit: { type: 'integer', minimum: 1 },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

export type FindFilesArgs = ArgsOf<typeof FIND_FILES_PARAMETERS>;

export interface FindFilesDetails {
  count: number;
  shown: number;
}

export interface FindFilesOptions {
  git?: Git;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_FIND_LIMIT = 1000;
/** Whatever `limit` asks; with the byte cap it keeps a result under 50 KB (CONTRACT §6). */
export const MAX_FIND_LIMIT = 1000;

export function createFindFilesTool(
  ws: Workspace,
  options: FindFilesOptions = {},
): AgentTool<FindFilesArgs, FindFilesDetails> {
  const git = options.git ?? createGit(ws.root);
  return {
    name: 'find_files',
    description:
      'Find files by glob ("*.ts" matches names at any depth, "src/**/*.ts" paths under `path`), respecting ' +
      `.gitignore. Sorted; at most \`limit\` (default and max ${MAX_FIND_LIMIT}), ` +
      `${MAX_RESULT_BYTES / 1024} KB in all, with a notice when cut.`,
    readOnly: true,
    parameters: FIND_FILES_PARAMETERS,
    async execute(args, { signal }) {
      const filter = parseGlob(args.pattern);
      if (!filter) throw new ToolError('`pattern` is empty; give a glob such as "*.ts".');
      const target = await ws.resolve(args.path, 'read');
      const where = target.rel || '.';
      if (!target.exists) throw new ToolError(`Folder not found: ${where}.`);
      if (!(await stat(target.real)).isDirectory()) throw new ToolError(`${where} is a file, not a folder.`);
      const base = target.realRel;
      const { files } = await listFiles(ws.area, git, base, signal);
      const found = files.filter((f) => filter.matches(base === '' ? f : f.slice(base.length + 1)));
      const limit = Math.min(args.limit ?? DEFAULT_FIND_LIMIT, MAX_FIND_LIMIT);
      const listed = found.slice(0, limit);
      const head = truncateHead(listed.map(displayPath).join('\n'), {
        maxLines: Number.MAX_SAFE_INTEGER,
        maxBytes: MAX_BODY_BYTES,
      });
      const details = { count: found.length, shown: head.keptLines };
      if (found.length === 0) {
        const scope = target.rel === '' ? 'the workspace' : target.rel;
        return {
          content: [{ type: 'text', text: `No files match ${JSON.stringify(args.pattern)} in ${scope}.` }],
          details,
        };
      }
      let text = head.text;
      if (head.keptLines < found.length) {
        const room = head.truncated || limit >= MAX_FIND_LIMIT;
        text += room
          ? `\n\n[Showing ${head.keptLines} of ${found.length} files (find_files shows at most ${MAX_FIND_LIMIT} paths / ` +
            `${formatBytes(MAX_RESULT_BYTES)}). To see the rest, give a narrower \`path\` (one folder at a time; list_dir ` +
            'shows the folders) or a more specific pattern.]'
          : `\n\n[Showing ${head.keptLines} of ${found.length} files. Raise limit (up to ${MAX_FIND_LIMIT}), or give a ` +
            'narrower `path` or a more specific pattern.]';
      }
      return { content: [{ type: 'text', text }], details };
    },
  };
}
