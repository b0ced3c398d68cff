// Posting a review run's result (CONTRACT §9): one review, event COMMENT (never APPROVE), its
// inline comments on lines of the diff, everything else in its body. A re-review leaves out the
// remarks patchloop already made that still stand, and answers its own threads whose lines
// changed. GitHub rejects a whole review (422) when one comment cannot be placed; then the inline
// comments move into the body and the review is posted again, so it is never lost.
import type { DraftComment } from '../../tools/add-review-comment.js';
import { describeGitHubError, type GitHubClient } from '../octokit.js';
import { REVIEW_COMMENT_MARKER, type ReviewThread } from './review-context.js';
import { reviewedMarkerText } from './review-history.js';
import { resolveThreads } from './review-threads.js';
import { hiddenCharacters, showHidden } from '../sanitize.js';
import { TRACKING_MARKER } from '../context/trigger.js';

/** Marks patchloop's reply to a thread of its own that no longer applies (so it answers once). */
export const RESOLVED_MARKER = '<!-- patchloop:resolved -->';

const BODY_MAX = 65_000;

export interface ReviewPlan {
  /** comments posted inline */
  inline: DraftComment[];
  /** comments that go into the body: outside the diff, or refused by GitHub */
  moved: DraftComment[];
  /** inline comments left out: patchloop's own earlier comment on those lines still stands */
  repeated: { comment: DraftComment; threadId: number }[];
  /** patchloop's own threads whose lines changed since: answered as resolved */
  resolved: ReviewThread[];
}

/** Which drafted comments go where, given the earlier threads. */
export function planReview(drafts: readonly DraftComment[], threads: readonly ReviewThread[]): ReviewPlan {
  const plan: ReviewPlan = { inline: [], moved: [], repeated: [], resolved: [] };
  const standing = threads.filter((t) => t.comments[0]?.own && t.line !== undefined);
  for (const c of drafts) {
    if (!c.inDiff) {
      plan.moved.push(c);
      continue;
    }
    const from = c.startLine ?? c.line;
    const same = standing.find((t) => t.path === c.path && t.line! >= from && t.line! <= c.line);
    if (same) plan.repeated.push({ comment: c, threadId: same.id });
    else plan.inline.push(c);
  }
  plan.resolved = threads.filter(
    (t) =>
      t.comments[0]?.own &&
      t.line === undefined &&
      !t.comments.some((c) => c.own && c.body.includes(RESOLVED_MARKER)),
  );
  return plan;
}

/** A fence longer than any backtick run in `text`. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(longest + 1);
}

/**
 * How a comment's two kinds of text are made safe to post: prose (`clean`: the run's redaction,
 * mentions and HTML comments neutralised) and code (`redact` alone: GitHub shows a fenced
 * block's text as written, so `@param` is no mention and `<!--` hides nothing there, and a
 * suggestion must commit exactly the code the maintainer reads).
 */
export interface CommentCleaners {
  clean: (text: string) => string;
  redact: (text: string) => string;
}

/**
 * The model's prose, safe above a code fence: what a reader cannot see is written out, and no
 * block it opens (a fence, a raw HTML block of the kinds a blank line does not end) stays open
 * to swallow the fence that follows.
 */
function prose(text: string, o: CommentCleaners): string {
  const shown = cleanShown(text, o).replace(/<(?=(?:pre|script|style|textarea)\b)/gi, '&lt;');
  let open: string | undefined;
  for (const line of shown.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!m) continue;
    const run = m[1]!;
    if (open === undefined) open = run;
    else if (run[0] === open[0] && run.length >= open.length && line.trim() === run) open = undefined;
  }
  return open === undefined ? shown : `${shown}\n${open}`;
}

/** Prose cleaned, then what does not show written out (but the zero-width space `clean` puts after an @). */
function cleanShown(text: string, o: CommentCleaners): string {
  return o.clean(text).split('@\u200B').map(showHidden).join('@\u200B');
}

/**
 * The comment's text with its suggestion block, as GitHub shows an applicable suggestion. A
 * suggestion holding characters a reader cannot see (bidi overrides, zero-width characters, tag
 * characters, look-alike spaces) is not offered as one: its code is shown in a plain block with
 * each such character written out as `<U+202E>`, under a warning.
 */
export function commentText(c: DraftComment, o: CommentCleaners): string {
  const body = prose(c.body, o);
  if (c.suggestion === undefined) return body;
  const code = o.redact(c.suggestion).replace(/\n$/, '');
  const hidden = hiddenCharacters(code);
  if (hidden.length === 0) {
    const f = fence(code);
    return `${body}\n\n${f}suggestion\n${code}\n${f}`;
  }
  const shown = showHidden(code);
  const f = fence(shown);
  return (
    `${body}\n\n> [!WARNING]\n> The suggested code holds characters that do not show (${hidden.join(', ')}), ` +
    'written out below as `<U+…>`. It is not offered as a suggestion to apply: what a click commits must be what you read.\n\n' +
    `${f}text\n${shown}\n${f}`
  );
}

function movedText(c: DraftComment, o: CommentCleaners): string {
  const lines = `${c.startLine !== undefined ? `lines ${c.startLine}–` : 'line '}${c.line}`;
  const why = c.reason ? ` (${prose(c.reason, o)})` : '';
  const text = commentText(c, o)
    .split('\n')
    .map((l) => (l ? `  ${l}` : ''))
    .join('\n');
  return `- \`${cleanShown(c.path, o).replace(/`/g, "'")}\` ${lines}${why}:\n${text}`;
}

export interface ReviewBodyInput {
  /** the model's final message: its verdict first */
  finalText: string;
  /** what was checked: the tests run and their result */
  checked: string;
  /** model, turns, tokens and cost, in one line */
  usage: string;
  runUrl: string;
  plan: ReviewPlan;
  /** why the inline comments are in the body (GitHub refused them) */
  refused?: string;
  /** what was reviewed (the whole PR, or the commits since the last review), in a sentence */
  scope?: string;
  /** the files whose diffs were not reviewed (review-pages.ts), as markdown */
  coverage?: string;
  /** the head commit reviewed: recorded in the body's hidden trailer for the next review */
  head?: string;
}

export function reviewBody(o: ReviewBodyInput & CommentCleaners): string {
  const { plan } = o;
  const verdict = o.finalText.trim() || '(The model gave no final message.)';
  const parts = [
    '### patchloop review',
    '',
    prose(verdict, o),
    '',
    prose(`**What was checked:** ${o.checked}`, o),
  ];
  if (o.scope) parts.push('', prose(`**What was reviewed:** ${o.scope}`, o));
  if (o.coverage) parts.push('', o.coverage);
  if (plan.moved.length > 0) {
    parts.push(
      '',
      o.refused
        ? prose(`**Comments** (GitHub refused them inline: ${o.refused}):`, o)
        : `**Comments on lines outside the diff** (${plan.moved.length}):`,
      '',
      ...plan.moved.map((c) => movedText(c, o)),
    );
  }
  if (plan.repeated.length > 0)
    parts.push(
      '',
      `${plan.repeated.length} remark(s) made in an earlier review still apply and are not repeated.`,
    );
  if (plan.resolved.length > 0)
    parts.push('', `${plan.resolved.length} earlier remark(s) no longer apply: their lines changed.`);
  parts.push('', o.clean(`<sub>${o.usage} · [workflow run](${o.runUrl})</sub>`));
  // each part was made safe on its own: code in suggestions is not prose
  let body = parts.join('\n');
  if (body.length > BODY_MAX)
    body = `${body.slice(0, BODY_MAX)}\n\n… (cut; the run's summary and transcript have it all)`;
  return `${body}\n\n${TRACKING_MARKER}${o.head ? `\n${reviewedMarkerText(o.head)}` : ''}`;
}

export interface PostReviewInput {
  github: GitHubClient;
  owner: string;
  repo: string;
  number: number;
  /** the head commit the review is of */
  commitId?: string;
  body: (plan: ReviewPlan, refused?: string) => string;
  plan: ReviewPlan;
  clean: (text: string) => string;
  /** the run's redaction alone, for the code of suggestions */
  redact: (text: string) => string;
  /**
   * An automatic review with nothing new to say (no comment inline or in the body) posts no
   * review: the outdated threads are still answered.
   */
  quietWhenEmpty?: boolean;
}

export interface PostedReview {
  /** absent when no review was posted (quietWhenEmpty, nothing new) */
  id?: number;
  url?: string;
  /** inline comments GitHub refused, now in the body */
  refused?: string;
  replies: number;
  /** of the answered threads, those now marked resolved (GraphQL) */
  threadsResolved: number;
  /** replies or resolutions that could not be done (the review itself was posted) */
  notices: string[];
}

/** Posts the review (once more, without inline comments, on a 422), then answers and resolves the outdated threads. */
export async function postReview(o: PostReviewInput): Promise<PostedReview> {
  const { github, owner, repo, number } = o;
  const send = (plan: ReviewPlan, refused?: string) =>
    github.rest.pulls.createReview({
      owner,
      repo,
      pull_number: number,
      ...(o.commitId ? { commit_id: o.commitId } : {}),
      event: 'COMMENT',
      body: o.body(plan, refused),
      comments: plan.inline.map((c) => ({
        path: c.path,
        line: c.line,
        side: 'RIGHT',
        ...(c.startLine !== undefined ? { start_line: c.startLine, start_side: 'RIGHT' } : {}),
        body: `${commentText(c, o)}\n\n${TRACKING_MARKER}${REVIEW_COMMENT_MARKER}`,
      })),
    });
  let posted: Awaited<ReturnType<typeof send>> | undefined;
  let refused: string | undefined;
  const quiet = o.quietWhenEmpty && o.plan.inline.length === 0 && o.plan.moved.length === 0;
  try {
    if (!quiet) posted = await send(o.plan);
  } catch (err) {
    if ((err as { status?: number }).status !== 422 || o.plan.inline.length === 0)
      throw new Error(describeGitHubError(err, 'create-pull', `Posting the review of #${number}`), {
        cause: err,
      });
    refused = `422 ${(err as Error).message}`.slice(0, 300);
    const plan = { ...o.plan, inline: [], moved: [...o.plan.moved, ...o.plan.inline] };
    try {
      posted = await send(plan, refused);
    } catch (again) {
      throw new Error(describeGitHubError(again, 'create-pull', `Posting the review of #${number}`), {
        cause: again,
      });
    }
  }
  const notices: string[] = [];
  let replies = 0;
  const answered: number[] = [];
  const commitId = o.commitId ?? posted?.data.commit_id ?? undefined;
  for (const t of commitId ? o.plan.resolved : []) {
    try {
      // Replies go through POST …/pulls/{n}/comments with in_reply_to: GitHub's description marks
      // the …/comments/{id}/replies route as not enabled for GitHub App tokens (GITHUB_TOKEN is
      // one). It requires commit_id and path there too (ignored beside in_reply_to): both are sent.
      await github.rest.pulls.createReviewComment({
        owner,
        repo,
        pull_number: number,
        commit_id: commitId!,
        path: t.path,
        in_reply_to: t.id,
        body: `Resolved: the lines this was about have changed since, so it no longer applies.\n\n${TRACKING_MARKER}${REVIEW_COMMENT_MARKER}${RESOLVED_MARKER}`,
      });
      replies++;
      answered.push(t.id);
    } catch (err) {
      notices.push(describeGitHubError(err, 'create-pull', `Answering the outdated thread ${t.id}`));
    }
  }
  if (!commitId && o.plan.resolved.length > 0)
    notices.push('The outdated threads were not answered: GitHub named no commit for the review.');
  // a thread is marked resolved only once its answer says why
  const threads = await resolveThreads(github, { owner, repo, number }, answered);
  notices.push(...threads.notices);
  return {
    ...(posted ? { id: posted.data.id, url: posted.data.html_url } : {}),
    ...(refused ? { refused } : {}),
    replies,
    threadsResolved: threads.resolved,
    notices,
  };
}
