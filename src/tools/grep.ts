import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError, type AgentTool, type ArgsOf } from '../protocol/tool.js';
import { createToolGit as createGit, type Git } from '../git/index.js';
import { parseGlob } from './glob.js';
import { createGitGrep } from './grep-git.js';
import { createRipgrep, findRipgrep } from './grep-rg.js';
import { GrepError, LineSplitter, type GrepBackend, type GrepQuery, type GrepRecord } from './grep-search.js';
import { openFile } from './safe-fs.js';
import { compilePattern, createWalkGrep, linesOf, searchLines } from './grep-walk.js';
import { displayPath } from './path-display.js';
import { cutLine, formatBytes, MAX_BODY_BYTES, MAX_RESULT_BYTES, truncateHead } from './truncate.js';
import type { Workspace } from './workspace.js';

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

/** CONTRACT §6: at most 100 matches, whatever `limit` asks. */
export const MAX_GREP_MATCHES = 100;
export const DEFAULT_GREP_LIMIT = MAX_GREP_MATCHES;
export const MAX_LINE_CHARS = 500;
const MAX_CONTEXT = 20;
/** Far below the kernel's 128 KiB limit on one command-line argument. */
const MAX_PATTERN_CHARS = 16 * 1024;

const GREP_PARAMETERS = {
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
} as const;

export type GrepArgs = ArgsOf<typeof GREP_PARAMETERS>;

type LineRecord = Extract<GrepRecord, { file: string }>;
/** A line to show, '--' between groups, undefined for a line that failed `confirm`. */
type Shown = LineRecord | '--' | undefined;

/**
 * git grep and ripgrep open files by name, so a folder swapped for a symlink while they run could
 * make them read outside the workspace. Each line they report is shown only if the same file, read
 * through a checked descriptor, has that text on that line; the others are blanked out. Returns how
 * many were.
 */
async function confirm(ws: Workspace, found: Shown[]): Promise<number> {
  const wanted = new Map<string, Set<number>>();
  for (const r of found) {
    if (r === '--' || r === undefined) continue;
    const lines = wanted.get(r.file) ?? new Set<number>();
    lines.add(r.line);
    wanted.set(r.file, lines);
  }
  const texts = new Map<string, Map<number, string>>();
  for (const [file, lines] of wanted) texts.set(file, await linesAt(ws, file, lines));
  let dropped = 0;
  for (let i = 0; i < found.length; i++) {
    const r = found[i];
    if (r === '--' || r === undefined) continue;
    if (texts.get(r.file)?.get(r.line) !== r.text) {
      found[i] = undefined;
      dropped++;
    }
  }
  return dropped;
}

/** The given lines of a workspace file, streamed through a checked descriptor (files of any size). */
async function linesAt(ws: Workspace, file: string, wanted: Set<number>): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const last = Math.max(...wanted);
  let opened;
  try {
    opened = await openFile(join(ws.root, file), [ws.area], 'read');
  } catch {
    return out;
  }
  try {
    let n = 0;
    const splitter = new LineSplitter((line) => {
      n++;
      if (wanted.has(n)) out.set(n, line.toString('utf8'));
      return n < last;
    });
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let position = 0; ;) {
      const { bytesRead } = await opened.handle.read(buf, 0, buf.length, position);
      if (bytesRead === 0) {
        splitter.end();
        break;
      }
      position += bytesRead;
      if (!splitter.push(buf.subarray(0, bytesRead))) break;
    }
  } catch {
    // What could not be read is not confirmed.
  } finally {
    await opened.handle.close();
  }
  return out;
}

export function createGrepTool(
  ws: Workspace,
  options: GrepToolOptions = {},
): AgentTool<GrepArgs, GrepDetails> {
  const git = options.git ?? createGit(ws.root);
  const choice = options.backend ?? 'auto';
  const walk = createWalkGrep(ws.area);
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
      'Search file contents by regex (Perl-style; literal=true for plain text), respecting .gitignore. ' +
      `Output \`file:line: text\`, context \`file-line- text\`; at most ${MAX_GREP_MATCHES} matches (\`limit\` lowers it), ` +
      `lines cut at ${MAX_LINE_CHARS} chars, ${MAX_RESULT_BYTES / 1024} KB in all, with a notice when cut. ` +
      "`path` may be a command's saved output.",
    readOnly: true,
    parameters: GREP_PARAMETERS,
    async execute(args, { signal }) {
      if (args.pattern.includes('\0')) throw new ToolError('The pattern contains a NUL byte.');
      if (args.pattern.length > MAX_PATTERN_CHARS) {
        throw new ToolError(
          `The pattern is ${args.pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are accepted.`,
        );
      }
      const target = await ws.resolve(args.path, 'read');
      if (!target.exists) throw new ToolError(`Path not found: ${target.rel || '.'}.`);
      // Anything but a folder is searched as one file, so a FIFO or device is refused by the open checks.
      const isFile = target.readOnly || !(await lstat(target.real)).isDirectory();
      const limit = Math.min(args.limit ?? DEFAULT_GREP_LIMIT, MAX_GREP_MATCHES);
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

      // Records are gathered first and shown only after those from git grep or ripgrep were checked
      // against the file as read through a checked descriptor (see `confirm`).
      const found: Shown[] = [];
      let matches = 0;
      let limitReached = false;
      let separate = false;
      let last: { file: string; line: number } | undefined;
      const add = (r: LineRecord) => {
        if (separate && found.length > 0) found.push('--');
        separate = false;
        found.push(r);
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
      let dropped = 0;
      try {
        if (isFile) {
          backend = walk;
          const re = compilePattern(query);
          const { handle, stat } = await ws.open(target, 'read');
          try {
            const lines = await linesOf(handle, stat.size);
            if (lines)
              searchLines(target.readOnly ? target.real : target.realRel, lines, re, context, sink, true);
          } finally {
            await handle.close();
          }
        } else {
          backend = await pick(query.base, signal);
          await backend.search(query, sink);
          if (backend !== walk) dropped = await confirm(ws, found);
        }
      } catch (err) {
        if (err instanceof GrepError) throw new ToolError(`grep: ${err.message}`);
        throw err;
      }

      const lines: string[] = [];
      let linesCut = 0;
      matches = 0;
      for (const r of found) {
        if (r === '--' || r === undefined) {
          if (r === '--' && lines.length > 0 && lines[lines.length - 1] !== '--') lines.push('--');
          continue;
        }
        const { text, cut } = cutLine(r.text, MAX_LINE_CHARS);
        if (cut) linesCut++;
        if (r.kind === 'match') matches++;
        const file = displayPath(r.file);
        lines.push(r.kind === 'match' ? `${file}:${r.line}: ${text}` : `${file}-${r.line}- ${text}`);
      }
      if (lines[lines.length - 1] === '--') lines.pop();

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
        maxBytes: MAX_BODY_BYTES,
      });
      const notices: string[] = [];
      if (limitReached) {
        const raise = limit < MAX_GREP_MATCHES ? `Raise limit (up to ${MAX_GREP_MATCHES}), narrow` : 'Narrow';
        notices.push(
          `[Showing the first ${matches === 1 ? 'match' : `${matches} matches`}; there are more (grep shows at most ` +
            `${MAX_GREP_MATCHES}). ${raise} the pattern, or search a narrower \`path\` or \`glob\`; read_file shows a file whole.]`,
        );
      }
      if (head.truncated) {
        notices.push(
          `[Output cut at ${formatBytes(MAX_BODY_BYTES)} (${head.keptLines} of ${head.totalLines} lines). ` +
            'Search a narrower `path` or `glob`, use less `context`, or read a file with read_file and `offset`.]',
        );
      }
      if (dropped > 0) {
        notices.push(
          `[${dropped} line${dropped === 1 ? '' : 's'} left out: the file changed while it was searched, or is not inside the workspace.]`,
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
