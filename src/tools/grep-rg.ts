import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { statSync } from 'node:fs';
import { scrubEnv } from './env.js';
import { GrepError, LineSplitter, passesFilter, type GrepBackend, type GrepQuery } from './grep-search.js';

const RECORD = /^(\d+)([:-])/;

/** Path of the `rg` executable on PATH, if there is one. */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'rg');
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function args(query: GrepQuery): string[] {
  const out = ['--no-config', '--hidden', '--no-require-git', '--glob', '!.git', '--color', 'never', '-n'];
  out.push('--no-heading', '--with-filename', '--null', '--sort', 'path');
  if (query.ignoreCase) out.push('-i');
  if (query.literal) out.push('-F');
  if (query.context > 0) out.push('-C', String(query.context));
  const filter = query.filter;
  // Globs without `/` mean the same to rg as to us; globs with `/` are applied afterwards.
  if (filter && filter.include.every((g) => !g.includes('/')))
    for (const g of filter.include) out.push('--glob', g);
  if (filter) for (const g of filter.exclude.filter((x) => !x.includes('/'))) out.push('--glob', `!${g}`);
  out.push('-e', query.pattern);
  if (query.base !== '') out.push('--', query.base);
  return out;
}

/** ripgrep, for folders that are not git checkouts. It honours .gitignore there too. */
export function createRipgrep(
  root: string,
  rgPath: string,
  env: NodeJS.ProcessEnv = process.env,
): GrepBackend {
  const childEnv = scrubEnv(env);
  return {
    name: 'ripgrep',
    search(query, sink) {
      return new Promise<void>((resolve, reject) => {
        let child: ReturnType<typeof spawn>;
        try {
          child = spawn(rgPath, args(query), { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (err) {
          reject(new GrepError(`ripgrep could not run: ${err instanceof Error ? err.message : String(err)}`));
          return;
        }
        let stopped = false;
        let lastFile: string | undefined;
        let pendingBreak = false;
        const stop = () => {
          stopped = true;
          child.kill('SIGTERM');
        };
        const onAbort = () => stop();
        query.signal?.addEventListener('abort', onAbort, { once: true });
        const splitter = new LineSplitter((raw) => {
          if (raw.length === 2 && raw[0] === 45 && raw[1] === 45) {
            pendingBreak = true;
            return true;
          }
          const nul = raw.indexOf(0);
          if (nul === -1) return true;
          const file = raw.subarray(0, nul).toString('utf8');
          const rest = raw.subarray(nul + 1).toString('utf8');
          const m = RECORD.exec(rest);
          if (!m || !passesFilter(query, file)) return true;
          if ((pendingBreak || (lastFile !== undefined && file !== lastFile)) && lastFile !== undefined) {
            if (!sink({ kind: 'break' })) return false;
          }
          pendingBreak = false;
          lastFile = file;
          return sink({
            kind: m[2] === ':' ? 'match' : 'context',
            file,
            line: Number(m[1]),
            text: rest.slice(m[0].length),
          });
        });
        child.stdout!.on('data', (chunk: Buffer) => {
          if (!stopped && !splitter.push(chunk)) stop();
        });
        let stderr = '';
        child.stderr!.on('data', (c: Buffer) => {
          if (stderr.length < 8192) stderr += c.toString('utf8');
        });
        child.once('error', (err) => reject(new GrepError(`ripgrep could not run: ${err.message}`)));
        child.once('close', (code) => {
          query.signal?.removeEventListener('abort', onAbort);
          if (!stopped) splitter.end();
          // rg exits 2 both for a bad pattern and for an unreadable file among results.
          if (!stopped && code === 2 && lastFile === undefined)
            reject(new GrepError(stderr.trim() || 'ripgrep failed'));
          else resolve();
        });
      });
    },
  };
}
