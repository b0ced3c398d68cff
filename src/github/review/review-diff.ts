// A pull request's diff as GitHub's `GET /pulls/{n}/files` gives it (one unified-diff `patch` per
// file), read into hunks with the line numbers of both sides: what the model is shown and where a
// review comment may go. GitHub accepts a comment on the RIGHT side only on a line of a hunk
// (added or context); anywhere else it answers 422 for the whole review.

export interface DiffLine {
  kind: 'add' | 'del' | 'context';
  /** line number on the left (base) side; absent for an added line */
  oldLine?: number;
  /** line number on the right (head) side; absent for a removed line */
  newLine?: number;
  text: string;
}

export interface DiffHunk {
  header: string;
  lines: DiffLine[];
}

export interface DiffFile {
  path: string;
  /** added, removed, modified, renamed, copied, changed, unchanged */
  status: string;
  previousPath?: string;
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
  /** GitHub gives no patch for binary files and very large diffs */
  noPatch: boolean;
}

export interface PullFileWire {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  patch?: string;
  previous_filename?: string;
}

export function diffFileOf(f: PullFileWire): DiffFile {
  return {
    path: f.filename,
    status: f.status,
    ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
    additions: f.additions,
    deletions: f.deletions,
    hunks: f.patch ? parsePatch(f.patch) : [],
    noPatch: !f.patch,
  };
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The hunks of one file's unified diff (no `diff --git` or `---`/`+++` lines: GitHub's `patch`). */
export function parsePatch(patch: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let hunk: DiffHunk | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const raw of patch.split('\n')) {
    const m = HUNK.exec(raw);
    if (m) {
      hunk = { header: raw, lines: [] };
      hunks.push(hunk);
      oldLine = Number(m[1]);
      newLine = Number(m[2]);
      continue;
    }
    if (!hunk) continue;
    const mark = raw[0];
    const text = raw.slice(1);
    if (mark === '+') hunk.lines.push({ kind: 'add', newLine: newLine++, text });
    else if (mark === '-') hunk.lines.push({ kind: 'del', oldLine: oldLine++, text });
    else if (mark === ' ' || raw === '')
      hunk.lines.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text });
    // `\ No newline at end of file` belongs to the line before it
  }
  // A patch ends with a newline: the empty piece after it is no context line.
  for (const h of hunks) {
    const last = h.lines.at(-1);
    if (last && last.kind === 'context' && last.text === '' && patch.endsWith('\n')) h.lines.pop();
  }
  return hunks;
}

export type Placement = { ok: true; hunk: DiffHunk } | { ok: false; reason: string };

/**
 * Whether a comment on `line` (and from `startLine`) of `path`'s right side can sit in the diff:
 * the file is in it, and both lines are right-side lines of one hunk.
 */
export function placeComment(
  files: readonly DiffFile[],
  path: string,
  line: number,
  startLine?: number,
): Placement {
  const file = files.find((f) => f.path === path);
  if (!file) return { ok: false, reason: `${path} is not among the files this pull request changes` };
  if (file.noPatch) return { ok: false, reason: `GitHub shows no diff for ${path} (binary or too large)` };
  if (startLine !== undefined && startLine > line)
    return { ok: false, reason: `start_line ${startLine} is after line ${line}` };
  const hunk = file.hunks.find((h) => h.lines.some((l) => l.newLine === line));
  if (!hunk) return { ok: false, reason: `line ${line} of ${path} is not in the diff (${rangesOf(file)})` };
  if (startLine !== undefined && !hunk.lines.some((l) => l.newLine === startLine))
    return {
      ok: false,
      reason: `lines ${startLine}–${line} of ${path} are not in one hunk of the diff (${rangesOf(file)})`,
    };
  return { ok: true, hunk };
}

/** The right-side line ranges of a file's hunks, as `12–30, 41–47`. */
export function rangesOf(file: DiffFile): string {
  const ranges = file.hunks
    .map((h) => h.lines.flatMap((l) => (l.newLine !== undefined ? [l.newLine] : [])))
    .filter((n) => n.length > 0)
    .map((n) => `${n[0]}–${n.at(-1)}`);
  return ranges.length > 0
    ? `its lines in the diff: ${ranges.join(', ')}`
    : 'it has no lines on the right side';
}

/** The text of a right-side line, when the diff shows it. */
export function rightLineText(files: readonly DiffFile[], path: string, line: number): string | undefined {
  for (const h of files.find((f) => f.path === path)?.hunks ?? [])
    for (const l of h.lines) if (l.newLine === line) return l.text;
  return undefined;
}
