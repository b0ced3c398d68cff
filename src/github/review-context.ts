// What a review run reads of its pull request besides the task's own context (CONTRACT §9): the
// changed files with their patches, and the earlier review threads (whose are patchloop's own is
// known by the hidden marker in their bodies and the author). Rendering is review-render.ts.
import { diffFileOf, type DiffFile, type PullFileWire } from './review-diff.js';
import { describeGitHubError, type GitHubClient } from './octokit.js';
import { TRACKING_MARKER } from './trigger.js';

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
  files: DiffFile[];
  threads: ReviewThread[];
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
  return {
    files: (files as PullFileWire[]).map(diffFileOf),
    threads: threadsOf(comments as RawReviewComment[], botLogins),
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
