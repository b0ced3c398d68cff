import { stat } from 'node:fs/promises';
import { ToolError, type AgentTool } from '../protocol/tool.js';
import { listFiles } from './file-list.js';
import { createGit, type Git } from './git.js';
import { parseGlob } from './glob.js';
import { displayPath } from './path-display.js';
import type { Workspace } from './workspace.js';

export interface FindFilesArgs {
  pattern: string;
  path?: string;
  limit?: number;
}

export interface FindFilesDetails {
  count: number;
  shown: number;
}

export interface FindFilesOptions {
  git?: Git;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_FIND_LIMIT = 1000;

export function createFindFilesTool(
  ws: Workspace,
  options: FindFilesOptions = {},
): AgentTool<FindFilesArgs, FindFilesDetails> {
  const git = options.git ?? createGit(ws.root, options.env);
  return {
    name: 'find_files',
    description:
      'Find files by glob ("*.ts" matches names at any depth, "src/**/*.ts" paths under `path`), respecting ' +
      `.gitignore. Sorted; at most \`limit\` (default ${DEFAULT_FIND_LIMIT}), with a notice when cut.`,
    readOnly: true,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1 },
        path: { type: 'string' },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    async execute(args, { signal }) {
      const filter = parseGlob(args.pattern);
      if (!filter) throw new ToolError('`pattern` is empty; give a glob such as "*.ts".');
      const target = await ws.resolve(args.path, 'read');
      const where = target.rel || '.';
      if (!target.exists) throw new ToolError(`Folder not found: ${where}.`);
      if (!(await stat(target.real)).isDirectory()) throw new ToolError(`${where} is a file, not a folder.`);
      const base = target.realRel;
      const { files } = await listFiles(ws.root, git, base, signal);
      const found = files.filter((f) => filter.matches(base === '' ? f : f.slice(base.length + 1)));
      const limit = args.limit ?? DEFAULT_FIND_LIMIT;
      const shown = found.slice(0, limit);
      const details = { count: found.length, shown: shown.length };
      if (found.length === 0) {
        const scope = target.rel === '' ? 'the workspace' : target.rel;
        return {
          content: [{ type: 'text', text: `No files match ${JSON.stringify(args.pattern)} in ${scope}.` }],
          details,
        };
      }
      let text = shown.map(displayPath).join('\n');
      if (found.length > limit) {
        text += `\n\n[Showing ${limit} of ${found.length} files. Raise limit, or narrow the pattern or path.]`;
      }
      return { content: [{ type: 'text', text }], details };
    },
  };
}
