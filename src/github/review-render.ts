// The review context as the model reads it: each changed file's diff with the right-side line
// numbers it cites in add_review_comment, and the earlier review threads — all GitHub text
// sanitised and framed as data.
import type { ReviewContext } from './review-context.js';
import type { DiffFile } from './review-diff.js';
import { clip, frameUntrusted, sanitizeUntrusted } from './sanitize.js';

const DIFF_CHARS = 80_000;
const COMMENT_CHARS = 4_000;
const MAX_THREADS = 50;

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

export function renderReviewContext(review: ReviewContext, focus?: string): string {
  const out: string[] = [];
  const { files } = review;
  out.push('## The changes under review', '');
  if (focus) out.push(`The requester asks the review to look at: ${sanitizeUntrusted(focus)}`, '');
  out.push(
    `${files.length} file(s) changed. Each diff line below starts with its line number in the pull request's version (the right side); lines marked - were removed and have none. add_review_comment takes those numbers: a comment can sit only on a numbered line of a hunk.`,
    '',
  );
  let used = 0;
  let left = 0;
  for (const f of files) {
    const renamed = f.previousPath ? ` from \`${sanitizeUntrusted(f.previousPath)}\`` : '';
    const head = `### \`${sanitizeUntrusted(f.path)}\` (${f.status}${renamed}, +${f.additions} −${f.deletions})`;
    if (f.noPatch) {
      out.push(
        head,
        '',
        'GitHub shows no diff for this file (binary or too large); read it with read_file.',
        '',
      );
      continue;
    }
    const diff = numberedDiff(f);
    if (used + diff.length > DIFF_CHARS) {
      left++;
      out.push(head, '', 'Diff not shown (the diffs above took the room); read the file with read_file.', '');
      continue;
    }
    used += diff.length;
    out.push(head, '', frameUntrusted(`diff of ${f.path}`, diff, { code: true }), '');
  }
  if (left > 0) out.push(`${left} file(s)' diffs were not shown for room.`, '');

  const threads = review.threads.slice(-MAX_THREADS);
  if (threads.length > 0) {
    out.push(`## Earlier review threads (${review.threads.length})`, '');
    out.push(
      "Threads whose first comment is patchloop's own come from an earlier review by you. Do not repeat a remark that still applies (it is not posted again); one whose lines changed since is answered as resolved by patchloop itself.",
      '',
    );
    for (const t of threads) {
      const where =
        t.line !== undefined
          ? `line ${t.line}`
          : `outdated (the lines changed since; it was on line ${t.originalLine ?? '?'})`;
      out.push(`### \`${sanitizeUntrusted(t.path)}\`, ${where}`, '');
      for (const c of t.comments) {
        const who = c.own ? 'patchloop (you, an earlier review)' : `@${c.author}`;
        out.push(
          frameUntrusted(`review comment by ${who} at ${c.createdAt}`, clip(c.body, COMMENT_CHARS)),
          '',
        );
      }
    }
  }
  return out.join('\n');
}
