import picomatch from 'picomatch';

// One meaning of a `glob` argument across grep and find_files, whatever runs the search: a glob
// without `/` matches file names at any depth (`*.ts`); one with `/` matches the path relative to
// the searched folder (`src/**/*.test.ts`). A leading `!` excludes. Braces expand (`*.{ts,tsx}`).

export interface GlobFilter {
  include: string[];
  exclude: string[];
  /** Tests a path relative to the searched folder. */
  matches(relPath: string): boolean;
}

/** Expands `{a,b}` alternatives (nested ones too); a lone or unbalanced brace stays literal. */
export function expandBraces(pattern: string): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        const body = pattern.slice(open + 1, i);
        const options = splitTopLevel(body);
        if (options.length < 2) continue;
        const head = pattern.slice(0, open);
        const tail = pattern.slice(i + 1);
        return options.flatMap((o) => expandBraces(head + o + tail));
      }
    }
  }
  return [pattern];
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(last, i));
      last = i + 1;
    }
  }
  parts.push(body.slice(last));
  return parts;
}

function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i === -1 ? path : path.slice(i + 1);
}

function compile(glob: string): (rel: string) => boolean {
  const clean = glob.replace(/^\.\//, '');
  const test = picomatch(clean, { dot: true });
  return clean.includes('/') ? test : (rel) => test(baseName(rel));
}

export function parseGlob(glob: string | undefined): GlobFilter | undefined {
  const trimmed = glob?.trim();
  if (!trimmed) return undefined;
  const include: string[] = [];
  const exclude: string[] = [];
  for (const item of trimmed.split(/\s*,\s*(?![^{]*\})/)) {
    if (item === '') continue;
    if (item.startsWith('!')) exclude.push(...expandBraces(item.slice(1)));
    else include.push(...expandBraces(item));
  }
  const inc = include.map(compile);
  const exc = exclude.map(compile);
  return {
    include,
    exclude,
    matches: (rel) => (inc.length === 0 || inc.some((t) => t(rel))) && !exc.some((t) => t(rel)),
  };
}

function escapeGlobMagic(path: string): string {
  return path.replace(/[*?[\]\\]/g, '\\$&');
}

/** Git pathspecs for a folder (workspace-relative, '' for the root) and an optional glob filter. */
export function gitPathspecs(base: string, filter: GlobFilter | undefined): string[] {
  const prefix = base === '' ? '' : `${escapeGlobMagic(base)}/`;
  const spec = (g: string) => {
    const clean = g.replace(/^\.\//, '');
    return clean.includes('/') ? `${prefix}${clean}` : `${prefix}**/${clean}`;
  };
  if (!filter) return [base === '' ? '.' : `:(literal)${base}`];
  const include =
    filter.include.length > 0
      ? filter.include.map((g) => `:(glob)${spec(g)}`)
      : [base === '' ? '.' : `:(literal)${base}`];
  return [...include, ...filter.exclude.map((g) => `:(glob,exclude)${spec(g)}`)];
}
