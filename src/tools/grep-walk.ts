import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { classify, SNIFF_BYTES } from './file-kind.js';
import { GrepError, passesFilter, type GrepBackend, type GrepQuery, type GrepSink } from './grep-search.js';
import { walkFiles } from './walk.js';

/** Files larger than this are skipped by the JavaScript search. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export function compilePattern(query: Pick<GrepQuery, 'pattern' | 'literal' | 'ignoreCase'>): RegExp {
  const source = query.literal ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : query.pattern;
  try {
    return new RegExp(source, query.ignoreCase ? 'i' : '');
  } catch (err) {
    throw new GrepError(`Invalid regular expression: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Searches one file's lines, emitting matches with their context; returns false if told to stop. */
export function searchLines(
  file: string,
  lines: string[],
  re: RegExp,
  context: number,
  sink: GrepSink,
  first: boolean,
): boolean {
  let lastEmitted = -1;
  let afterUntil = -1;
  let emittedAny = !first;
  const emit = (i: number, kind: 'match' | 'context') => {
    if (emittedAny && lastEmitted !== i - 1 && !sink({ kind: 'break' })) return false;
    emittedAny = true;
    lastEmitted = i;
    return sink({ kind, file, line: i + 1, text: lines[i]! });
  };
  for (let i = 0; i < lines.length; i++) {
    if (re.test(lines[i]!)) {
      for (let j = Math.max(lastEmitted + 1, i - context); j < i; j++) if (!emit(j, 'context')) return false;
      if (!emit(i, 'match')) return false;
      afterUntil = i + context;
    } else if (i <= afterUntil) {
      if (!emit(i, 'context')) return false;
    }
  }
  return true;
}

/** A search in JavaScript, for when neither git nor ripgrep can be used. */
export function createWalkGrep(root: string): GrepBackend {
  return {
    name: 'javascript',
    async search(query, sink) {
      const re = compilePattern(query);
      let first = true;
      let anyInFile = false;
      const counting: GrepSink = (r) => {
        if (r.kind !== 'break') anyInFile = true;
        return sink(r);
      };
      for await (const entry of walkFiles(root, query.base, query.signal)) {
        if (entry.type !== 'file' || !passesFilter(query, entry.rel)) continue;
        if (!(await searchFile(root, entry.rel, re, query.context, counting, first))) return;
        if (anyInFile) first = false;
        anyInFile = false;
      }
    },
  };
}

/** Searches a single file; used by every backend when the path names one file. */
export async function searchFile(
  root: string,
  rel: string,
  re: RegExp,
  context: number,
  sink: GrepSink,
  first = true,
): Promise<boolean> {
  let data: Buffer;
  try {
    data = await readFile(join(root, rel));
  } catch {
    return true;
  }
  if (data.length > MAX_FILE_BYTES || classify(data.subarray(0, SNIFF_BYTES)).kind !== 'text') return true;
  const lines = data.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
  return searchLines(rel, lines, re, context, sink, first);
}
