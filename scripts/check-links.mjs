#!/usr/bin/env node
// Checks the links of the Markdown pages (README.md, docs/**/*.md, SECURITY.md, CHANGELOG.md, or
// the files given): every relative link must name a file or folder of the repository, and every
// anchor (#…) a heading of its page, as GitHub makes anchors from headings. External links are
// not fetched (CI has no network for that): they only have to parse as URLs with a host.
// Exit 1 when anything is broken, with one line per broken link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const DEFAULT_PAGES = ['README.md', 'SECURITY.md', 'CHANGELOG.md'];

/** The Markdown pages checked by default: the top-level ones and everything under docs/. */
export function defaultPages(root) {
  const underDocs = (dir) =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const path = join(dir, e.name);
          if (e.isDirectory()) return underDocs(path);
          return e.name.endsWith('.md') ? [path] : [];
        })
      : [];
  return [
    ...DEFAULT_PAGES.map((f) => join(root, f)).filter((f) => existsSync(f)),
    ...underDocs(join(root, 'docs')).sort(),
  ];
}

/** The text with fenced code blocks and inline code spans blanked out (their links are examples). */
function withoutCode(text) {
  const lines = text.split('\n');
  let fence;
  const kept = lines.map((line) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = undefined;
      return '';
    }
    if (m) {
      fence = m[1];
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, (s) => ' '.repeat(s.length));
  });
  return kept.join('\n');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*|_(?=\S)|~~)/g, (m, _g, offset, s) =>
      // an underscore inside a word stays (snake_case); emphasis markers go
      m === '_' && /\w/.test(s[offset - 1] ?? '') ? m : '',
    );
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
export function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  for (const line of withoutCode(text).split('\n')) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

/** Every link target of a Markdown text, with its line number. */
export function linksOf(text) {
  const links = [];
  withoutCode(text)
    .split('\n')
    .forEach((line, i) => {
      const at = i + 1;
      // [text](target "title") and ![alt](target); the text may hold one level of brackets
      for (const m of line.matchAll(/\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g))
        links.push({ target: m[1].replace(/^<|>$/g, ''), line: at });
      // reference definitions: [id]: target
      const def = /^\s{0,3}\[[^\]]+\]:\s+(<[^>]*>|\S+)/.exec(line);
      if (def) links.push({ target: def[1].replace(/^<|>$/g, ''), line: at });
      // autolinks and HTML attributes
      for (const m of line.matchAll(/<(https?:\/\/[^>\s]+)>/g)) links.push({ target: m[1], line: at });
      for (const m of line.matchAll(/\b(?:href|src)="([^"]+)"/g)) links.push({ target: m[1], line: at });
    });
  return links;
}

/** What is wrong with one link of `file` (undefined when it resolves). */
function problemWith(root, file, target, pageAnchors) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    let url;
    try {
      url = new URL(target);
    } catch {
      return 'is not a valid URL';
    }
    if (/^https?:$/.test(url.protocol) && !url.hostname) return 'has no host';
    if (!/^(https?|mailto):$/.test(url.protocol)) return `uses the scheme ${url.protocol}`;
    return undefined;
  }
  const hash = target.indexOf('#');
  const pathPart = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  let path;
  try {
    path = decodeURIComponent(pathPart);
  } catch {
    return 'has a malformed %-escape';
  }
  const resolved = path === '' ? file : resolve(dirname(file), path.split('?')[0]);
  const inside = relative(root, resolved);
  if (inside.startsWith('..') || inside.split(sep).includes('..')) return 'leaves the repository';
  if (!existsSync(resolved)) return `names ${inside || '.'}, which does not exist`;
  if (anchor === undefined) return undefined;
  if (anchor === '') return 'has an empty anchor';
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
    return /^L\d+(-L\d+)?$/.test(anchor) ? undefined : `has an anchor on ${inside}, which is not a page`;
  const anchors = pageAnchors(resolved);
  return anchors.has(anchor) ? undefined : `names #${anchor}, which is no heading of ${inside}`;
}

/** The broken links of the pages, as `file:line: target — what is wrong`. */
export function checkLinks(root, files = defaultPages(root)) {
  const cache = new Map();
  const pageAnchors = (f) => {
    if (!cache.has(f)) cache.set(f, anchorsOf(readFileSync(f, 'utf8')));
    return cache.get(f);
  };
  const problems = [];
  for (const file of files.map((f) => resolve(root, f))) {
    for (const { target, line } of linksOf(readFileSync(file, 'utf8'))) {
      const problem = problemWith(root, file, target, pageAnchors);
      if (problem) problems.push(`${relative(root, file)}:${line}: ${target} — ${problem}`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  const files = process.argv.length > 2 ? process.argv.slice(2) : defaultPages(root);
  const problems = checkLinks(root, files);
  for (const p of problems) console.error(p);
  console.log(`links: ${files.length} page(s), ${problems.length} broken`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
