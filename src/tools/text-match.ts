// Finding where `oldText` sits in a file when a model copied it almost, but not exactly: other
// line endings, trailing spaces, typographic quotes and dashes, no-break spaces, another Unicode
// normal form. Both texts are normalised the same way, keeping for every normalised character the
// span of the original it came from, so a match maps back to an exact region of the original.

export type MatchMode = 'exact' | 'line-endings' | 'tolerant';

export interface Located {
  mode: MatchMode;
  /** Occurrences found in that mode (overlapping ones count: each is a place the edit could go). */
  count: number;
  /** Region of the original text, when count is 1. */
  start?: number;
  end?: number;
}

interface Mapped {
  text: string;
  /** For each UTF-16 unit of `text`: the start and end of the original span it came from. */
  from: number[];
  to: number[];
}

const QUOTES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
};
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g;
const SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
const SEGMENT = /\r\n|[\s\S]\p{M}*/gu;

function tolerantForm(segment: string): string {
  return segment
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033]/g, (c) => QUOTES[c]!)
    .replace(DASHES, '-')
    .replace(SPACES, ' ');
}

function normalise(text: string, tolerant: boolean): Mapped {
  const pieces: { text: string; from: number; to: number }[] = [];
  for (const m of text.matchAll(SEGMENT)) {
    const seg = m[0];
    const from = m.index;
    const to = from + seg.length;
    if (seg === '\r\n') pieces.push({ text: '\n', from, to });
    else pieces.push({ text: tolerant ? tolerantForm(seg) : seg, from, to });
  }
  if (tolerant) {
    // Trailing spaces and tabs before a line end (or the end) are dropped.
    for (let i = pieces.length - 1, atEol = true; i >= 0; i--) {
      const t = pieces[i]!.text;
      if (t === '\n') atEol = true;
      else if (atEol && /^[ \t]+$/.test(t)) pieces[i]!.text = '';
      else atEol = false;
    }
  }
  const out: Mapped = { text: '', from: [], to: [] };
  const chunks: string[] = [];
  for (const p of pieces) {
    if (p.text === '') continue;
    chunks.push(p.text);
    for (let k = 0; k < p.text.length; k++) {
      out.from.push(p.from);
      out.to.push(p.to);
    }
  }
  out.text = chunks.join('');
  return out;
}

/** Start offsets of every occurrence, overlapping ones included. */
function occurrences(
  haystack: string,
  needle: string,
  accept: (start: number) => boolean = () => true,
): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) {
    if (accept(i)) found.push(i);
  }
  return found;
}

function locateNormalised(content: string, oldText: string, tolerant: boolean): Omit<Located, 'mode'> {
  const hay = normalise(content, tolerant);
  const needle = normalise(oldText, tolerant).text;
  // A match must start and end on whole original spans, or an edit would cut a character apart.
  const aligned = (s: number) => {
    const e = s + needle.length - 1;
    const startsSpan = s === 0 || hay.from[s - 1] !== hay.from[s];
    const endsSpan = e === hay.text.length - 1 || hay.from[e + 1] !== hay.from[e];
    return startsSpan && endsSpan;
  };
  const found = occurrences(hay.text, needle, aligned);
  if (found.length !== 1) return { count: found.length };
  const s = found[0]!;
  return { count: 1, start: hay.from[s]!, end: hay.to[s + needle.length - 1]! };
}

/**
 * Locates oldText in content: exactly first; failing that, ignoring CRLF/LF differences; failing
 * that, tolerantly. The first mode that finds anything decides.
 */
export function locate(content: string, oldText: string): Located {
  const exact = occurrences(content, oldText);
  if (exact.length > 0) {
    return exact.length === 1
      ? { mode: 'exact', count: 1, start: exact[0]!, end: exact[0]! + oldText.length }
      : { mode: 'exact', count: exact.length };
  }
  const eol = locateNormalised(content, oldText, false);
  if (eol.count > 0) return { mode: 'line-endings', ...eol };
  return { mode: 'tolerant', ...locateNormalised(content, oldText, true) };
}
