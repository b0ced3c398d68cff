// A unified diff for one contiguous change, which is what edit_file and write_file make: the lines
// shared at the start and the end are context, everything between is one hunk.

export interface FileDiff {
  /** Unified diff text ('' when nothing changed). */
  diff: string;
  /** 1-based line of the new text where the change starts; undefined when nothing changed. */
  firstChangedLine?: number;
  added: number;
  removed: number;
}

function toLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function range(start: number, count: number): string {
  // In unified diffs an empty range names the line before it.
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

export function unifiedDiff(path: string, before: string, after: string, context = 3): FileDiff {
  const a = toLines(before);
  const b = toLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const removed = a.slice(prefix, a.length - suffix);
  const added = b.slice(prefix, b.length - suffix);
  if (removed.length === 0 && added.length === 0) return { diff: '', added: 0, removed: 0 };

  const from = Math.max(0, prefix - context);
  const lead = a.slice(from, prefix);
  const trail = a.slice(a.length - suffix, Math.min(a.length, a.length - suffix + context));
  const oldCount = lead.length + removed.length + trail.length;
  const newCount = lead.length + added.length + trail.length;
  const lines = [
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${range(from, oldCount)} +${range(from, newCount)} @@`,
    ...lead.map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...trail.map((l) => ` ${l}`),
  ];
  return {
    diff: lines.join('\n') + '\n',
    firstChangedLine: prefix + 1,
    added: added.length,
    removed: removed.length,
  };
}
