// Two texts in two columns for the terminal, around their first differing line; lines that
// differ are marked in the gutter and shown in full, wrapped over as many rows as they need (the
// difference may be at the end of a long line); equal lines are cut to the column.

export interface SideBySideOptions {
  width?: number;
  /** Lines shown at most. */
  rows?: number;
  leftTitle?: string;
  rightTitle?: string;
  /** Comparison key per line (e.g. the normalised line); defaults to the line itself. */
  key?: (line: string) => string;
}

function fitColumn(text: string, width: number): string {
  const flat = text.replace(/\t/g, '  ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat.padEnd(width);
}

/** The line in pieces of at most `width` characters (at least one piece). */
function wrap(text: string | undefined, width: number): string[] {
  if (text === undefined) return [];
  const chars = [...text.replace(/\t/g, '  ')];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(''));
  return out.length > 0 ? out : [''];
}

export function sideBySide(left: string, right: string, options: SideBySideOptions = {}): string {
  const width = Math.max(40, options.width ?? 120);
  const rows = options.rows ?? 30;
  const key = options.key ?? ((l: string) => l);
  const col = Math.floor((width - 3) / 2);
  const a = left.split('\n');
  const b = right.split('\n');
  const total = Math.max(a.length, b.length);
  let first = 0;
  while (
    first < total &&
    a[first] !== undefined &&
    b[first] !== undefined &&
    key(a[first]!) === key(b[first]!)
  )
    first++;
  const start = Math.max(0, Math.min(first - 3, total - rows));
  const end = Math.min(total, start + rows);
  const out = [`${fitColumn(options.leftTitle ?? 'recorded', col)}   ${options.rightTitle ?? 'replayed'}`];
  out.push(`${'─'.repeat(col)}─┼─${'─'.repeat(col)}`);
  if (start > 0) out.push(`${fitColumn(`… ${start} lines above`, col)} │`);
  for (let i = start; i < end; i++) {
    const l = a[i];
    const r = b[i];
    const same = l !== undefined && r !== undefined && key(l) === key(r);
    if (same) {
      out.push(`${fitColumn(l, col)} │ ${fitColumn(r, col).trimEnd()}`);
      continue;
    }
    const left = wrap(l, col);
    const right = wrap(r, col);
    for (let k = 0; k < Math.max(left.length, right.length); k++) {
      const gutter = k === 0 ? '≠' : '┆';
      out.push(`${(left[k] ?? '').padEnd(col)} ${gutter} ${right[k] ?? ''}`.trimEnd());
    }
  }
  if (end < total) out.push(`${fitColumn(`… ${total - end} lines below`, col)} │`);
  return out.join('\n');
}
