// What a review run reads of its pull request besides the task's own context (CONTRACT §9): the
// changed files with their patches, and the earlier review threads (whose are patchloop's own is
// known by the hidden marker in their bodies and the author). Rendering is review-render.ts.
import { diffFileOf, type DiffFile, type PullFileWire } from './review-diff.js';
import type { LastReviewed } from './review-history.js';
import { planDiffs, type DiffPlan } from './review-pages.js';
import { scopeSince, type ReviewScope } from './review-scope.js';
import { describeGitHubError, type GitHubClient } from '../octokit.js';
import { TRACKING_MARKER } from '../context/trigger.js';

/** In every inline comment patchloop posts, beside the tracking marker. */
export const REVIEW_COMMENT_MARKER = '<!-- patchloop:review-comment -->';

export interface ThreadComment {
  id: number;
  author: string;
  body: string;
  createdAt: string;
  /** written by patchloop (its marker, and the identity patchloop posts as) */
  own: boolean;
}

export interface ReviewThread {
  /** the first comment's id: replies go `in_reply_to` it */
  id: number;
  path: string;
  /** the line now, on the right side; undefined when GitHub marks the thread outdated */
  line?: number;
  /** the line when the thread was started */
  originalLine?: number;
  diffHunk: string;
  comments: ThreadComment[];
}

export interface ReviewContext {
  /** the pull request's files and diffs: where a comment may sit */
  files: DiffFile[];
  threads: ReviewThread[];
  /** what is reviewed: the whole PR, or the commits since patchloop's last review */
  scope: ReviewScope;
  /** the diffs of the scope shown in the first message, and those left to read_diff */
  plan: DiffPlan;
  /** GitHub lists at most 3,000 files of a pull request: true when the list may be cut */
  listCut?: boolean;
}

/** GitHub's `GET /pulls/{n}/files` lists at most this many. */
export const PULL_FILES_MAX = 3000;

/** The diffs a review reads: the scope's. */
export function scopeFiles(review: Pick<ReviewContext, 'files' | 'scope'>): DiffFile[] {
  return review.scope.kind === 'since' ? review.scope.files : review.files;
}

/** Reviews only what changed since the head patchloop reviewed last, when there is one. */
export interface SinceLastReview {
  /** the head under review */
  head: string;
  last: Promise<LastReviewed | undefined>;
}

interface RawReviewComment {
  id: number;
  body?: string | null;
  user?: { login?: string } | null;
  created_at: string;
  path: string;
  line?: number | null;
  original_line?: number | null;
  diff_hunk?: string;
  in_reply_to_id?: number;
}

/** True for a review comment patchloop wrote: its marker, by one of `botLogins`. */
export function isOwnReviewComment(
  c: { body?: string | null; user?: { login?: string } | null },
  botLogins: readonly string[],
): boolean {
  const login = c.user?.login?.toLowerCase();
  return (
    Boolean(c.body?.includes(TRACKING_MARKER)) &&
    login !== undefined &&
    botLogins.some((b) => b.toLowerCase() === login)
  );
}

export async function gatherReviewContext(
  github: GitHubClient,
  where: { owner: string; repo: string; number: number },
  botLogins: readonly string[],
  since?: SinceLastReview,
): Promise<ReviewContext> {
  const { owner, repo, number } = where;
  const [files, comments] = await Promise.all([
    github
      .paginate(github.rest.pulls.listFiles, { owner, repo, pull_number: number, per_page: 100 })
      .catch((err: unknown) => {
        throw new Error(
          describeGitHubError(err, 'read-pull', `Reading the files of pull request #${number}`),
          {
            cause: err,
          },
        );
      }),
    github
      .paginate(github.rest.pulls.listReviewComments, { owner, repo, pull_number: number, per_page: 100 })
      .catch((err: unknown) => {
        throw new Error(
          describeGitHubError(err, 'read-pull', `Reading the review comments of pull request #${number}`),
          { cause: err },
        );
      }),
  ]);
  const prFiles = (files as PullFileWire[]).map(diffFileOf);
  let scope: ReviewScope = { kind: 'whole' };
  if (since) {
    // The earlier review could not be looked up: the whole PR is reviewed, and the summary says why.
    const last = await since.last.catch(
      (err: unknown) => new Error(err instanceof Error ? err.message : String(err)),
    );
    if (last instanceof Error)
      scope = { kind: 'whole', why: `patchloop's earlier review could not be looked up (${last.message})` };
    else if (last) scope = await scopeSince(github, where, last.head, since.head, prFiles);
  }
  return {
    files: prFiles,
    threads: threadsOf(comments as RawReviewComment[], botLogins),
    scope,
    plan: planDiffs(scope.kind === 'since' ? scope.files : prFiles),
    ...(prFiles.length >= PULL_FILES_MAX ? { listCut: true } : {}),
  };
}

/** Review comments grouped into threads (first comment, then its replies), oldest first. */
export function threadsOf(raw: readonly RawReviewComment[], botLogins: readonly string[]): ReviewThread[] {
  const threads = new Map<number, ReviewThread>();
  const sorted = [...raw].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id);
  for (const c of sorted) {
    const comment: ThreadComment = {
      id: c.id,
      author: c.user?.login ?? 'ghost',
      body: c.body ?? '',
      createdAt: c.created_at,
      own: isOwnReviewComment(c, botLogins),
    };
    const root = c.in_reply_to_id !== undefined ? threads.get(c.in_reply_to_id) : undefined;
    if (root) {
      root.comments.push(comment);
      continue;
    }
    threads.set(c.id, {
      id: c.id,
      path: c.path,
      ...(typeof c.line === 'number' ? { line: c.line } : {}),
      ...(typeof c.original_line === 'number' ? { originalLine: c.original_line } : {}),
      diffHunk: c.diff_hunk ?? '',
      comments: [comment],
    });
  }
  return [...threads.values()];
}

/**
 * The threads with `own` judged again for the identity this run posts as (known once its tracking
 * comment is posted: a GitHub App token writes as the App's bot, not github-actions[bot]).
 */
export function ownedBy(threads: readonly ReviewThread[], botLogins: readonly string[]): ReviewThread[] {
  return threads.map((t) => ({
    ...t,
    comments: t.comments.map((c) => ({
      ...c,
      own: isOwnReviewComment({ body: c.body, user: { login: c.author } }, botLogins),
    })),
  }));
}
