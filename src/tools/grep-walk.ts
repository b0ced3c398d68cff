import type { FileHandle } from 'node:fs/promises';
import { classify, SNIFF_BYTES } from './file-kind.js';
import { GrepError, passesFilter, type GrepBackend, type GrepQuery, type GrepSink } from './grep-search.js';
import { readAll, type Area, type OpenedFile } from './safe-fs.js';
import { walkFiles } from './walk.js';

/** Files larger than this are skipped by the JavaScript search. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

async function linesThrough(open: () => Promise<OpenedFile>): Promise<string[] | undefined> {
  try {
    const { handle, stat } = await open();
    try {
      return await linesOf(handle, stat.size);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** The lines of an opened text file; undefined when it is binary or too large to search. */
export async function linesOf(handle: FileHandle, size: number): Promise<string[] | undefined> {
  if (size > MAX_FILE_BYTES) return undefined;
  const data = await readAll(handle, size);
  if (classify(data.subarray(0, SNIFF_BYTES)).kind !== 'text') return undefined;
  const lines = data.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
  return lines;
}

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
export function createWalkGrep(area: Area): GrepBackend {
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
      for await (const entry of walkFiles(area, query.base, query.signal)) {
        if (entry.type !== 'file' || !passesFilter(query, entry.rel)) continue;
        const lines = await linesThrough(entry.open);
        if (lines && !searchLines(entry.rel, lines, re, query.context, counting, first)) return;
        if (anyInFile) first = false;
        anyInFile = false;
      }
    },
  };
}
