import { stat } from 'node:fs/promises';
import { ToolError, type AgentTool } from '../protocol/tool.js';
import { createGit, type Git } from './git.js';
import { parseGlob } from './glob.js';
import { createGitGrep } from './grep-git.js';
import { createRipgrep, findRipgrep } from './grep-rg.js';
import { GrepError, type GrepBackend, type GrepQuery, type GrepRecord } from './grep-search.js';
import { compilePattern, createWalkGrep, searchFile } from './grep-walk.js';
import { displayPath } from './path-display.js';
import { cutLine, DEFAULT_MAX_BYTES, formatBytes, truncateHead } from './truncate.js';
import type { Workspace } from './workspace.js';

export interface GrepArgs {
  pattern: string;
  path?: string;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  context?: number;
  limit?: number;
}

export interface GrepDetails {
  backend: string;
  matches: number;
  /** More matches exist than were shown. */
  limitReached: boolean;
  linesCut: number;
}

export type GrepBackendChoice = 'auto' | 'git' | 'ripgrep' | 'javascript';

export interface GrepToolOptions {
  git?: Git;
  /** Which search to use; 'auto' picks git grep in a checkout, then ripgrep, then JavaScript. */
  backend?: GrepBackendChoice;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_GREP_LIMIT = 100;
export const MAX_LINE_CHARS = 500;
const MAX_CONTEXT = 20;
/** Far below the kernel's 128 KiB limit on one command-line argument. */
const MAX_PATTERN_CHARS = 16 * 1024;

export function createGrepTool(
  ws: Workspace,
  options: GrepToolOptions = {},
): AgentTool<GrepArgs, GrepDetails> {
  const git = options.git ?? createGit(ws.root, options.env);
  const choice = options.backend ?? 'auto';
  const walk = createWalkGrep(ws.root);
  const gitGrep = createGitGrep(git);

  async function pick(base: string, signal: AbortSignal): Promise<GrepBackend> {
    if (choice === 'javascript') return walk;
    if (choice === 'git') return gitGrep;
    // git grep skips an ignored folder even when it is named; the walk searches it.
    if (choice === 'auto' && (await git.isWorkTree()))
      return (await git.isIgnored(base, signal)) ? walk : gitGrep;
    const rg = choice === 'ripgrep' || choice === 'auto' ? findRipgrep(options.env) : undefined;
    if (rg) return createRipgrep(ws.root, rg, options.env);
    return walk;
  }

  return {
    name: 'grep',
    description:
      'Search file contents by regular expression (Perl-style; literal=true for plain text), respecting .gitignore. ' +
      'Output `file:line: text`, context lines `file-line- text`; at most `limit` matches ' +
      `(default ${DEFAULT_GREP_LIMIT}), lines cut at ${MAX_LINE_CHARS} chars, with a notice when cut.`,
    readOnly: true,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1 },
        path: { type: 'string', description: 'Folder or file' },
        glob: { type: 'string', description: '"*.ts" (any depth) or "src/**/*.ts"' },
        ignoreCase: { type: 'boolean' },
        literal: { type: 'boolean' },
        context: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    async execute(args, { signal }) {
      if (args.pattern.includes('\0')) throw new ToolError('The pattern contains a NUL byte.');
      if (args.pattern.length > MAX_PATTERN_CHARS) {
        throw new ToolError(
          `The pattern is ${args.pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are accepted.`,
        );
      }
      const target = await ws.resolve(args.path, 'read');
      if (!target.exists) throw new ToolError(`Path not found: ${target.rel || '.'}.`);
      const isFile = (await stat(target.real)).isFile();
      const limit = args.limit ?? DEFAULT_GREP_LIMIT;
      const context = args.context ?? 0;
      const query: GrepQuery = {
        pattern: args.pattern,
        literal: args.literal === true,
        ignoreCase: args.ignoreCase === true,
        context,
        base: target.realRel,
        filter: isFile ? undefined : parseGlob(args.glob),
        signal,
      };

      const lines: string[] = [];
      let matches = 0;
      let limitReached = false;
      let linesCut = 0;
      let separate = false;
      let last: { file: string; line: number } | undefined;
      const add = (r: Extract<GrepRecord, { file: string }>) => {
        if (separate && lines.length > 0) lines.push('--');
        separate = false;
        const { text, cut } = cutLine(r.text, MAX_LINE_CHARS);
        if (cut) linesCut++;
        const file = displayPath(r.file);
        lines.push(r.kind === 'match' ? `${file}:${r.line}: ${text}` : `${file}-${r.line}- ${text}`);
      };
      const sink = (r: GrepRecord): boolean => {
        if (r.kind === 'break') {
          // Like grep, groups are marked off only when context lines make them ambiguous.
          separate = context > 0;
          return true;
        }
        if (matches >= limit) {
          // Past the limit only the trailing context of the last match is still wanted.
          if (
            r.kind === 'context' &&
            !separate &&
            last &&
            r.file === last.file &&
            r.line <= last.line + context
          ) {
            add(r);
            return true;
          }
          limitReached = true;
          return false;
        }
        add(r);
        if (r.kind === 'match') {
          matches++;
          last = { file: r.file, line: r.line };
        }
        return true;
      };

      let backend: GrepBackend;
      try {
        if (isFile) {
          backend = walk;
          await searchFile(ws.root, target.realRel, compilePattern(query), context, sink);
        } else {
          backend = await pick(query.base, signal);
          await backend.search(query, sink);
        }
      } catch (err) {
        if (err instanceof GrepError) throw new ToolError(`grep: ${err.message}`);
        throw err;
      }

      const details: GrepDetails = { backend: backend.name, matches, limitReached, linesCut };
      const where = target.rel === '' ? '' : ` in ${target.rel}`;
      if (matches === 0) {
        const filter = query.filter ? ` (files matching ${JSON.stringify(args.glob)})` : '';
        return {
          content: [
            { type: 'text', text: `No matches for ${JSON.stringify(args.pattern)}${where}${filter}.` },
          ],
          details,
        };
      }
      const head = truncateHead(lines.join('\n'), {
        maxLines: Number.MAX_SAFE_INTEGER,
        maxBytes: DEFAULT_MAX_BYTES,
      });
      const notices: string[] = [];
      if (limitReached) {
        notices.push(
          `[Showing the first ${matches === 1 ? 'match' : `${matches} matches`}; there are more. Raise limit, narrow the pattern, path or glob, or open a file with read_file.]`,
        );
      }
      if (head.truncated) {
        notices.push(
          `[Output cut at ${formatBytes(DEFAULT_MAX_BYTES)} (${head.keptLines} of ${head.totalLines} lines). Narrow the search.]`,
        );
      }
      if (linesCut > 0) {
        notices.push(
          `[${linesCut} line${linesCut === 1 ? ' was' : 's were'} longer than ${MAX_LINE_CHARS} characters and cut; read_file shows them whole.]`,
        );
      }
      const text = notices.length > 0 ? `${head.text}\n\n${notices.join('\n')}` : head.text;
      return { content: [{ type: 'text', text }], details };
    },
  };
}
