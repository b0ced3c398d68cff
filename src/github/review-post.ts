// Posting a review run's result (CONTRACT §9): one review, event COMMENT (never APPROVE), its
// inline comments on lines of the diff, everything else in its body. A re-review leaves out the
// remarks patchloop already made that still stand, and answers its own threads whose lines
// changed. GitHub rejects a whole review (422) when one comment cannot be placed; then the inline
// comments move into the body and the review is posted again, so it is never lost.
import type { DraftComment } from '../tools/add-review-comment.js';
import { describeGitHubError, type GitHubClient } from './octokit.js';
import { REVIEW_COMMENT_MARKER, type ReviewThread } from './review-context.js';
import { resolveThreads } from './review-threads.js';
import { TRACKING_MARKER } from './trigger.js';

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

/** The comment's text with its suggestion block, as GitHub shows an applicable suggestion. */
export function commentText(c: DraftComment): string {
  if (c.suggestion === undefined) return c.body;
  const f = fence(c.suggestion);
  return `${c.body}\n\n${f}suggestion\n${c.suggestion.replace(/\n$/, '')}\n${f}`;
}

function movedText(c: DraftComment): string {
  const lines = `${c.startLine !== undefined ? `lines ${c.startLine}–` : 'line '}${c.line}`;
  const why = c.reason ? ` (${c.reason})` : '';
  const text = commentText(c)
    .split('\n')
    .map((l) => (l ? `  ${l}` : ''))
    .join('\n');
  return `- \`${c.path.replace(/`/g, "'")}\` ${lines}${why}:\n${text}`;
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
  /** applied to the whole body: the run's redaction and mention neutralising */
  clean: (text: string) => string;
}

export function reviewBody(o: ReviewBodyInput): string {
  const { plan } = o;
  const verdict = o.finalText.trim() || '(The model gave no final message.)';
  const parts = ['### patchloop review', '', verdict, '', `**What was checked:** ${o.checked}`];
  if (plan.moved.length > 0) {
    parts.push(
      '',
      o.refused
        ? `**Comments** (GitHub refused them inline: ${o.refused}):`
        : `**Comments on lines outside the diff** (${plan.moved.length}):`,
      '',
      ...plan.moved.map(movedText),
    );
  }
  if (plan.repeated.length > 0)
    parts.push(
      '',
      `${plan.repeated.length} remark(s) made in an earlier review still apply and are not repeated.`,
    );
  if (plan.resolved.length > 0)
    parts.push('', `${plan.resolved.length} earlier remark(s) no longer apply: their lines changed.`);
  parts.push('', `<sub>${o.usage} · [workflow run](${o.runUrl})</sub>`);
  let body = o.clean(parts.join('\n'));
  if (body.length > BODY_MAX)
    body = `${body.slice(0, BODY_MAX)}\n\n… (cut; the run's summary and transcript have it all)`;
  return `${body}\n\n${TRACKING_MARKER}`;
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
}

export interface PostedReview {
  id: number;
  url: string;
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
        body: `${o.clean(commentText(c))}\n\n${TRACKING_MARKER}${REVIEW_COMMENT_MARKER}`,
      })),
    });
  let posted;
  let refused: string | undefined;
  try {
    posted = await send(o.plan);
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
  for (const t of o.plan.resolved) {
    try {
      // Replies go through POST …/pulls/{n}/comments with in_reply_to: GitHub's description marks
      // the …/comments/{id}/replies route as not enabled for GitHub App tokens (GITHUB_TOKEN is one).
      await github.rest.pulls.createReviewComment({
        owner,
        repo,
        pull_number: number,
        in_reply_to: t.id,
        body: `Resolved: the lines this was about have changed since, so it no longer applies.\n\n${TRACKING_MARKER}${REVIEW_COMMENT_MARKER}${RESOLVED_MARKER}`,
      } as Parameters<typeof github.rest.pulls.createReviewComment>[0]);
      replies++;
      answered.push(t.id);
    } catch (err) {
      notices.push(describeGitHubError(err, 'create-pull', `Answering the outdated thread ${t.id}`));
    }
  }
  // a thread is marked resolved only once its answer says why
  const threads = await resolveThreads(github, { owner, repo, number }, answered);
  notices.push(...threads.notices);
  return {
    id: posted.data.id,
    url: posted.data.html_url,
    ...(refused ? { refused } : {}),
    replies,
    threadsResolved: threads.resolved,
    notices,
  };
}
