// A pull request too large to read whole (hundreds of files, or diffs over the room a model's
// context leaves) is paged by file (CONTRACT §9): the model is shown the list of files with their
// sizes and as many diffs as fit, and reads the others page by page with read_diff. What was read
// is counted, so the summary says which files were not reviewed and why — and a review that read
// nothing is no success.
import type { DiffFile } from './review-diff.js';

/** The most characters of numbered diff shown in the first message. */
export const INLINE_CHARS = 80_000;
/** The most files whose diffs are shown in the first message. */
export const INLINE_FILES = 100;
/** One page of read_diff. */
export const PAGE_CHARS = 20_000;

/** One file's hunks, each line led by its right-side number (blank for a removed line). */
export function numberedDiff(file: DiffFile): string {
  const out: string[] = [];
  for (const h of file.hunks) {
    out.push(h.header);
    for (const l of h.lines) {
      const n = l.newLine !== undefined ? String(l.newLine).padStart(5) : '     ';
      const mark = l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' ';
      out.push(`${n} ${mark}${l.text}`);
    }
  }
  return out.join('\n');
}

/** A file's numbered diff in pages of at most PAGE_CHARS, cut between lines (a longer line is cut). */
export function diffPages(file: DiffFile, pageChars = PAGE_CHARS): string[] {
  const pages: string[] = [];
  let page: string[] = [];
  let size = 0;
  for (const line of numberedDiff(file).split('\n')) {
    const l = line.length > pageChars ? `${line.slice(0, pageChars - 40)} … (line cut)` : line;
    if (size + l.length + 1 > pageChars && page.length > 0) {
      pages.push(page.join('\n'));
      page = [];
      size = 0;
    }
    page.push(l);
    size += l.length + 1;
  }
  if (page.length > 0) pages.push(page.join('\n'));
  return pages;
}

export interface DiffPlan {
  /** shown whole in the first message */
  inline: DiffFile[];
  /** listed; their diffs are read with read_diff */
  paged: DiffFile[];
  /** GitHub shows no diff (binary, or too large): read with read_file, if at all */
  noPatch: DiffFile[];
}

/** Which diffs the first message shows, in the PR's order, and which are left to read_diff. */
export function planDiffs(
  files: readonly DiffFile[],
  budget: { chars: number; files: number } = { chars: INLINE_CHARS, files: INLINE_FILES },
): DiffPlan {
  const plan: DiffPlan = { inline: [], paged: [], noPatch: [] };
  let used = 0;
  for (const f of files) {
    if (f.noPatch) {
      plan.noPatch.push(f);
      continue;
    }
    const size = numberedDiff(f).length;
    if (plan.paged.length === 0 && plan.inline.length < budget.files && used + size <= budget.chars) {
      plan.inline.push(f);
      used += size;
    } else plan.paged.push(f);
  }
  return plan;
}

/** What a review run read of the diffs it was given. */
export interface ReviewReads {
  /** read_diff: path → the pages read (1-based) */
  diffPages: Map<string, Set<number>>;
  /** read_file: the paths read (for files GitHub shows no diff of) */
  files: Set<string>;
}

export function emptyReads(): ReviewReads {
  return { diffPages: new Map(), files: new Set() };
}

export interface ReviewCoverage {
  total: number;
  reviewed: number;
  /** the files not (or not wholly) reviewed, and why */
  notReviewed: { path: string; why: string }[];
}

export function coverageOf(plan: DiffPlan, reads: ReviewReads): ReviewCoverage {
  const notReviewed: ReviewCoverage['notReviewed'] = [];
  let reviewed = plan.inline.length;
  for (const f of plan.paged) {
    const pages = diffPages(f).length;
    const read = reads.diffPages.get(f.path)?.size ?? 0;
    if (read >= pages) reviewed++;
    else if (read === 0)
      notReviewed.push({ path: f.path, why: 'its diff was not read (too large to show whole)' });
    else notReviewed.push({ path: f.path, why: `only ${read} of its ${pages} diff pages were read` });
  }
  for (const f of plan.noPatch) {
    // a removed file without a diff (a binary) has nothing left to read: the list says it went
    if (f.status === 'removed' || reads.files.has(f.path)) reviewed++;
    else
      notReviewed.push({
        path: f.path,
        why: 'GitHub shows no diff (binary, or too large) and the file was not read',
      });
  }
  return { total: plan.inline.length + plan.paged.length + plan.noPatch.length, reviewed, notReviewed };
}

/** What the summary and the review body say of a review that left files unread; '' when none. */
export function coverageMarkdown(c: ReviewCoverage, clean: (t: string) => string, keep = 25): string {
  if (c.notReviewed.length === 0) return '';
  const lines = [
    `**Not reviewed:** ${c.notReviewed.length} of ${c.total} file(s) (${c.reviewed} reviewed):`,
    '',
    ...c.notReviewed.slice(0, keep).map((f) => `- \`${clean(f.path).replace(/`/g, "'")}\` — ${f.why}`),
  ];
  if (c.notReviewed.length > keep) lines.push(`- … and ${c.notReviewed.length - keep} more`);
  return lines.join('\n');
}

/** The same in one line, for the run summary's notes; '' when every file was reviewed. */
export function coverageLine(c: ReviewCoverage, keep = 25): string {
  if (c.notReviewed.length === 0) return '';
  const named = c.notReviewed.slice(0, keep).map((f) => `\`${f.path.replace(/`/g, "'")}\` (${f.why})`);
  const more = c.notReviewed.length > keep ? `, … and ${c.notReviewed.length - keep} more` : '';
  return `Not reviewed: ${c.notReviewed.length} of ${c.total} file(s) (${c.reviewed} reviewed): ${named.join(', ')}${more}.`;
}
