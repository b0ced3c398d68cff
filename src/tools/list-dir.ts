import { stat } from 'node:fs/promises';
import { ToolError, type AgentTool, type ArgsOf } from '../protocol/tool.js';
import { createToolGit as createGit, type Git } from '../git/index.js';
import { ignoredByGit } from './file-list.js';
import { IgnoreRules } from './ignore.js';
import { displayPath } from './path-display.js';
import { formatBytes, MAX_BODY_BYTES, MAX_RESULT_BYTES, truncateHead } from './truncate.js';
import { compareNames } from './walk.js';
import type { Workspace } from './workspace.js';

const LIST_DIR_PARAMETERS = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer', minimum: 1 },
  },
  additionalProperties: false,
} as const;

export type ListDirArgs = ArgsOf<typeof LIST_DIR_PARAMETERS>;

export interface ListDirDetails {
  entries: number;
  shown: number;
  ignored: number;
}

export interface ListDirOptions {
  git?: Git;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_LIST_LIMIT = 500;
/** Whatever `limit` asks; with the byte cap it keeps a result under 50 KB (CONTRACT §6). */
export const MAX_LIST_LIMIT = 1000;

interface Entry {
  name: string;
  rel: string;
  label: string;
  isDir: boolean;
}

/**
 * Entries .gitignore excludes: in a checkout from the tools' cached `git ls-files` (file-list.ts),
 * elsewhere from the .gitignore files.
 */
async function ignoredSet(
  root: string,
  git: Git,
  dir: string,
  entries: Entry[],
  signal?: AbortSignal,
): Promise<{ dirIgnored: boolean; ignored: Set<string> }> {
  const asked = dir === '' ? entries : [...entries, { rel: dir, isDir: true }];
  const ignored = await ignoredByGit(git, asked, signal);
  if (ignored) return { dirIgnored: dir !== '' && ignored.has(dir), ignored };
  const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  const dirIgnored = dir !== '' && IgnoreRules.forFolder(root, parent).ignores(dir, true);
  const rules = IgnoreRules.forFolder(root, dir);
  return {
    dirIgnored,
    ignored: new Set(entries.filter((e) => rules.ignores(e.rel, e.isDir)).map((e) => e.rel)),
  };
}

export function createListDirTool(
  ws: Workspace,
  options: ListDirOptions = {},
): AgentTool<ListDirArgs, ListDirDetails> {
  const git = options.git ?? createGit(ws.root);
  return {
    name: 'list_dir',
    description:
      'List a folder (default: root), sorted; folders end in "/", symlinks in "@". Skips entries ignored by ' +
      `.gitignore; at most \`limit\` (default ${DEFAULT_LIST_LIMIT}, max ${MAX_LIST_LIMIT}), ` +
      `${MAX_RESULT_BYTES / 1024} KB in all, with a notice when cut.`,
    readOnly: true,
    parameters: LIST_DIR_PARAMETERS,
    async execute(args, { signal }) {
      const target = await ws.resolve(args.path, 'read');
      const where = target.rel || '.';
      if (!target.exists) throw new ToolError(`Folder not found: ${where}.`);
      if (!(await stat(target.real)).isDirectory())
        throw new ToolError(`${where} is a file; use read_file to read it.`);
      const dir = target.realRel;
      const dirents = await ws.readDir(target.real, where);
      const entries: Entry[] = dirents
        .filter((d) => d.name.toLowerCase() !== '.git')
        .sort((a, b) => compareNames(a.name, b.name))
        .map((d) => {
          const isDir = d.isDirectory();
          const suffix = isDir ? '/' : d.isSymbolicLink() ? '@' : '';
          return {
            name: d.name,
            rel: dir === '' ? d.name : `${dir}/${d.name}`,
            label: displayPath(d.name) + suffix,
            isDir,
          };
        });
      if (entries.length === 0) {
        return {
          content: [{ type: 'text', text: `[${where} is empty.]` }],
          details: { entries: 0, shown: 0, ignored: 0 },
        };
      }
      const { dirIgnored, ignored } = await ignoredSet(ws.root, git, dir, entries, signal);
      const visible = dirIgnored ? entries : entries.filter((e) => !ignored.has(e.rel));
      const hidden = entries.length - visible.length;
      const limit = Math.min(args.limit ?? DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
      const head = truncateHead(
        visible
          .slice(0, limit)
          .map((e) => e.label)
          .join('\n'),
        { maxLines: Number.MAX_SAFE_INTEGER, maxBytes: MAX_BODY_BYTES },
      );
      const details = { entries: visible.length, shown: head.keptLines, ignored: hidden };
      const notes: string[] = [];
      if (dirIgnored) notes.push(`[${where} itself is ignored by .gitignore; all its entries are shown.]`);
      if (head.keptLines < visible.length) {
        const room = head.truncated || limit >= MAX_LIST_LIMIT;
        notes.push(
          room
            ? `[Showing ${head.keptLines} of ${visible.length} entries (list_dir shows at most ${MAX_LIST_LIMIT} / ` +
                `${formatBytes(MAX_RESULT_BYTES)}). To see the rest, use find_files with this \`path\` and a pattern ` +
                '(e.g. "*.ts"), or list a subfolder.]'
            : `[Showing ${head.keptLines} of ${visible.length} entries. Raise limit (up to ${MAX_LIST_LIMIT}) to see more.]`,
        );
      }
      if (hidden > 0)
        notes.push(`[${hidden} entr${hidden === 1 ? 'y' : 'ies'} ignored by .gitignore not shown.]`);
      if (visible.length === 0) {
        return {
          content: [
            {
              type: 'text',
              text: `[No entries to show in ${where}: all ${hidden} are ignored by .gitignore.]`,
            },
          ],
          details,
        };
      }
      const text = notes.length > 0 ? `${head.text}\n\n${notes.join('\n')}` : head.text;
      return { content: [{ type: 'text', text }], details };
    },
  };
}
