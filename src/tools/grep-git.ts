import { gitPathspecs } from './glob.js';
import type { Git } from '../git/index.js';
import {
  GrepError,
  LineSplitter,
  unquoteGitPath,
  type GrepBackend,
  type GrepQuery,
  type GrepSink,
} from './grep-search.js';

const RECORD = /^(\d+)([:-])/;

/**
 * `git grep` over tracked and untracked-but-not-ignored files of the working tree. Output is read
 * with `--heading --break`: a file name on its own line after each blank line, then `N:text`
 * (match) or `N-text` (context) lines, so names with `:` or `-` in them cannot be misread.
 */
export function createGitGrep(git: Git): GrepBackend {
  let pcre: boolean | undefined;

  async function attempt(query: GrepQuery, sink: GrepSink, usePcre: boolean) {
    const args = ['grep', '--no-color', '-n', '-I', '--heading', '--break', '--untracked', '--no-column'];
    if (query.ignoreCase) args.push('-i');
    if (query.literal) args.push('-F');
    else args.push(usePcre ? '-P' : '-E');
    if (query.context > 0) args.push(`-C${query.context}`);
    args.push('-e', query.pattern, '--', ...gitPathspecs(query.base, query.filter));

    let file: string | undefined;
    let heading = true;
    let stopped = false;
    const splitter = new LineSplitter((raw) => {
      const line = raw.toString('utf8');
      if (line === '') {
        heading = true;
        return true;
      }
      if (heading) {
        if (file !== undefined && !sink({ kind: 'break' })) return ((stopped = true), false);
        file = unquoteGitPath(line);
        heading = false;
        return true;
      }
      if (line === '--') return sink({ kind: 'break' }) || ((stopped = true), false);
      const m = RECORD.exec(line);
      if (!m || file === undefined) return true;
      const ok = sink({
        kind: m[2] === ':' ? 'match' : 'context',
        file,
        line: Number(m[1]),
        text: line.slice(m[0].length),
      });
      if (!ok) stopped = true;
      return ok;
    });
    const result = await git.stream(args, (chunk) => splitter.push(chunk), { signal: query.signal });
    if (!stopped && !result.stopped) splitter.end();
    return result;
  }

  return {
    name: 'git grep',
    async search(query, sink) {
      let result = await attempt(query, sink, !query.literal && pcre !== false);
      // git built without PCRE support says so; fall back to extended regular expressions.
      if (
        result.code === 128 &&
        /PCRE|Perl/i.test(result.stderr) &&
        /support|compiled|USE_LIBPCRE/i.test(result.stderr)
      ) {
        pcre = false;
        result = await attempt(query, sink, false);
      } else if (!query.literal && result.code !== 128) pcre = true;
      if (result.stopped || query.signal?.aborted) return;
      if (result.code !== 0 && result.code !== 1) {
        throw new GrepError(
          result.stderr.replace(/^fatal: /, '') || `git grep exited with code ${result.code}`,
        );
      }
    },
  };
}
