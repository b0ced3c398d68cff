// The review context as the model reads it: each changed file's diff with the right-side line
// numbers it cites in add_review_comment, and the earlier review threads — all GitHub text
// sanitised and framed as data.
import { PULL_FILES_MAX, scopeFiles, type ReviewContext } from './review-context.js';
import type { DiffFile } from './review-diff.js';
import { diffPages, numberedDiff } from './review-pages.js';
import { clip, frameUntrusted, sanitizeUntrusted } from '../sanitize.js';

const COMMENT_CHARS = 4_000;
const MAX_THREADS = 50;
/** The most files the list of paged diffs names one by one. */
const MAX_LISTED = 1_000;

export { numberedDiff };

function fileHead(f: DiffFile): string {
  const renamed = f.previousPath ? ` from \`${sanitizeUntrusted(f.previousPath)}\`` : '';
  return `\`${sanitizeUntrusted(f.path)}\` (${f.status}${renamed}, +${f.additions} −${f.deletions})`;
}

export function renderReviewContext(review: ReviewContext, focus?: string): string {
  const out: string[] = [];
  const { scope, plan } = review;
  const files = scopeFiles(review);
  out.push('## The changes under review', '');
  if (focus) out.push(`The requester asks the review to look at: ${sanitizeUntrusted(focus)}`, '');
  if (scope.kind === 'since')
    out.push(
      `You reviewed this pull request before, at commit ${scope.from}. Review only what changed since: the ${scope.commits} new commit(s), whose diff below covers ${files.length} of the ${review.files.length} file(s) the pull request changes. Your earlier remarks are in the review threads below; do not make them again. Read the rest of the code with read_file where the new changes need it.`,
      '',
    );
  else if (scope.why) out.push(`The whole pull request is reviewed: ${scope.why}.`, '');
  out.push(
    `${files.length} file(s) ${scope.kind === 'since' ? 'changed since your last review' : 'changed'}. Each diff line below starts with its line number in the pull request's version (the right side); lines marked - were removed and have none. add_review_comment takes those numbers: a comment can sit only on a numbered line of a hunk of the pull request's diff.`,
    '',
  );
  if (review.listCut)
    out.push(
      `GitHub lists at most ${PULL_FILES_MAX} files of a pull request: files beyond them are not shown and cannot be reviewed here.`,
      '',
    );
  for (const f of plan.inline)
    out.push(
      `### ${fileHead(f)}`,
      '',
      frameUntrusted(`diff of ${f.path}`, numberedDiff(f), { code: true }),
      '',
    );
  for (const f of plan.noPatch)
    out.push(
      `### ${fileHead(f)}`,
      '',
      'GitHub shows no diff for this file (binary or too large); read it with read_file.',
      '',
    );
  if (plan.paged.length > 0) {
    out.push(
      `## Diffs to read page by page (${plan.paged.length} file(s))`,
      '',
      `The pull request is too large to show every diff here. These files' diffs are not shown: read each with read_diff (path, page), page 1 first. Review every one of them if you can; the summary lists the files whose diffs you did not read.`,
      '',
    );
    for (const f of plan.paged.slice(0, MAX_LISTED))
      out.push(`- ${fileHead(f)}, ${diffPages(f).length} page(s)`);
    if (plan.paged.length > MAX_LISTED)
      out.push(`- … and ${plan.paged.length - MAX_LISTED} more (list_dir and find_files show the tree)`);
    out.push('');
  }

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
