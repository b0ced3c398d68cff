// What the model is told about the task, read from GitHub: the issue or PR, the earlier
// conversation, the review location or the failed jobs — all as it was when the request was made
// (comments written or edited later are left out). Rendering it for the model is
// context-render.ts; the images of its texts, context-images.ts.
import type { GitHubClient } from '../octokit.js';
import { describeGitHubError } from '../octokit.js';
import { headAtTrigger } from '../delivery/head-at-trigger.js';
import { gatherImages } from './context-images.js';
import { gatherReviewContext, type ReviewContext, type SinceLastReview } from '../review/review-context.js';
import { imageRefs, type ImageFetchOptions, type ImageOutcome } from './images.js';
import type { PullRequestRefs, Task } from './task.js';
import { isOwnText } from './trigger.js';
import { fetchFailedJobs, type FailedJob } from './workflow-logs.js';

export interface ContextComment {
  id: number;
  author: string;
  createdAt: string;
  body: string;
}

export interface LeftOut {
  /** written after the request */
  later: number;
  /**
   * edited at or after the request: their current text is not what the requester saw, and the
   * REST API keeps no earlier version of it
   */
  edited: number;
  /** patchloop's own comments */
  own: number;
  /** older comments beyond the limit */
  overLimit: number;
}

export interface TaskContext {
  /** the PR's branches (from the event, or fetched for a comment on a PR) */
  pr?: PullRequestRefs;
  /** the issue a prompt task is about (`issue-number`), read from GitHub */
  issue?: { title: string; body: string };
  comments: ContextComment[];
  /** earlier comments of a review thread */
  thread: ContextComment[];
  leftOut: LeftOut;
  failedJobs?: FailedJob[];
  /** problems reading context; the run goes on without that part */
  warnings: string[];
  /** the images of the texts above, when `images` was asked for (see renderTaskMessage) */
  images?: ContextImages;
  /** a review run's diff and earlier review threads (review-context.ts) */
  review?: ReviewContext;
}

export interface ContextImages {
  /** `fetch`: for a model that takes images; `placeholders`: their places only, for one that does not */
  mode: 'fetch' | 'placeholders';
  /** by the URL the markdown gives: the image GitHub renders there, or why it is not given */
  byUrl: Map<string, ImageOutcome>;
}

export interface ContextOptions {
  botLogins: readonly string[];
  /** earlier comments kept, most recent first (default 30) */
  maxComments?: number;
  /**
   * The images of the texts given (CONTRACT §5): downloaded (`fetch`, for a model that takes
   * images) or only marked where they stand (`placeholders`). Absent: the texts as they are.
   */
  images?: { mode: 'fetch'; fetch: ImageFetchOptions } | { mode: 'placeholders' };
  /**
   * Whether the requester may run patchloop, when the reads go out before that is known: the
   * images are downloaded only once it resolves true (false: none are).
   */
  allowed?: Promise<boolean>;
  /**
   * The issue's comments, when the caller has listed them already (listIssueComments, with
   * `html` when images are fetched): the run's own marker search reads the same listing.
   */
  comments?: Promise<readonly IssueComment[]>;
  /** an automatic review: review only what changed since patchloop's last review (review-scope.ts) */
  reviewSince?: SinceLastReview;
}

// REST answers `body_html` (GitHub's rendering, with signed attachment URLs) beside `body` when
// asked with this media type ("Media types" in GitHub's REST reference).
const FULL_JSON = { accept: 'application/vnd.github.full+json' };

/**
 * The issue's (or PR's) comments, listed once for both readers: the context (with `html`, the
 * rendering whose images it fetches) and findEarlierComment. The listing goes out before the
 * login whose markers count is known (it is the author of this run's comment).
 */
export function listIssueComments(
  github: GitHubClient,
  o: { owner: string; repo: string; issueNumber: number; html?: boolean },
) {
  return github.paginate(github.rest.issues.listComments, {
    owner: o.owner,
    repo: o.repo,
    issue_number: o.issueNumber,
    per_page: 100,
    ...(o.html ? { headers: FULL_JSON } : {}),
  });
}

export type IssueComment = Awaited<ReturnType<typeof listIssueComments>>[number];

interface RawComment {
  id: number;
  body?: string | null;
  user?: { login?: string } | null;
  created_at: string;
  updated_at: string;
  in_reply_to_id?: number;
  body_html?: string | null;
}

export async function gatherContext(
  github: GitHubClient,
  task: Task,
  options: ContextOptions,
): Promise<TaskContext> {
  const ctx: TaskContext = {
    pr: task.pr,
    comments: [],
    thread: [],
    leftOut: { later: 0, edited: 0, own: 0, overLimit: 0 },
    warnings: [],
  };
  const { owner, repo } = task;
  const withHtml = options.images?.mode === 'fetch';
  const html = new Map<string, string>();
  // The rendering of the issue or PR body is read only when its text (or the request, for a
  // task made of the body) shows an image, and that of a review only when the review shows one;
  // both beside the other reads, not after them; a failure is a warning, never a rejection.
  const bodyHasImage =
    imageRefs(task.body ?? '').length > 0 ||
    ((task.trigger.kind === 'issue-body' || task.trigger.kind === 'label') &&
      imageRefs(task.request).length > 0);
  const bodyHtml =
    withHtml && bodyHasImage && task.number !== undefined && !task.issueFromInput
      ? github.rest.issues
          .get({ owner, repo, issue_number: task.number, headers: FULL_JSON })
          .then(({ data }) => (data as { body_html?: string | null }).body_html ?? '')
          .catch((err: unknown) => {
            ctx.warnings.push(
              describeGitHubError(err, 'read-issue', `Reading the images of #${task.number}`),
            );
            return '';
          })
      : undefined;
  const reviewId = task.trigger.kind === 'review' ? task.trigger.id : undefined;
  const reviewHtml =
    withHtml && reviewId !== undefined && task.number !== undefined && imageRefs(task.request).length > 0
      ? github.rest.pulls
          .getReview({ owner, repo, pull_number: task.number, review_id: reviewId, headers: FULL_JSON })
          .then(({ data }) => (data as { body_html?: string | null }).body_html ?? '')
          .catch((err: unknown) => {
            ctx.warnings.push(
              describeGitHubError(err, 'read-pull', `Reading the images of the review of #${task.number}`),
            );
            return '';
          })
      : undefined;
  if (task.isPullRequest && task.number !== undefined && !ctx.pr) {
    try {
      const { data } = await github.rest.pulls.get({ owner, repo, pull_number: task.number });
      const headRepo = data.head.repo?.full_name;
      ctx.pr = {
        headRef: data.head.ref,
        headSha: data.head.sha,
        baseSha: data.base.sha,
        headRepo: headRepo ?? '(deleted fork)',
        baseRef: data.base.ref,
        fork: !headRepo || headRepo.toLowerCase() !== data.base.repo.full_name.toLowerCase(),
      };
    } catch (err) {
      throw new Error(describeGitHubError(err, 'read-pull', `Reading pull request #${task.number}`), {
        cause: err,
      });
    }
    // The API's head is the head now. On a fork that is the author's to move, so it is taken
    // only when GitHub's record of the fork's pushes shows it was the head at the request.
    if (ctx.pr.fork) {
      const head = await headAtTrigger(github, {
        headRepo: ctx.pr.headRepo,
        headRef: ctx.pr.headRef,
        number: task.number,
        triggerAt: task.trigger.createdAt,
        currentHead: ctx.pr.headSha,
      });
      if (!head.ok) throw new Error(head.message);
      ctx.pr = { ...ctx.pr, headSha: head.sha };
    }
  }
  if (task.issueFromInput && task.number !== undefined) {
    try {
      const { data } = await github.rest.issues.get({
        owner,
        repo,
        issue_number: task.number,
        ...(withHtml ? { headers: FULL_JSON } : {}),
      });
      ctx.issue = { title: data.title, body: data.body ?? '' };
      const rendered = (data as { body_html?: string | null }).body_html;
      if (rendered) html.set('body', rendered);
      if (data.pull_request)
        ctx.warnings.push(
          `#${task.number} is a pull request; issue-number works on it as on an issue (a new branch and a pull request that fixes it).`,
        );
    } catch (err) {
      throw new Error(
        describeGitHubError(err, 'read-issue', `Reading issue #${task.number} (issue-number)`),
        {
          cause: err,
        },
      );
    }
  }
  if (task.number !== undefined) {
    try {
      const raw = (await (options.comments ??
        listIssueComments(github, {
          owner,
          repo,
          issueNumber: task.number,
          html: withHtml,
        }))) as readonly RawComment[];
      for (const c of raw) if (c.body_html) html.set(`comment:${c.id}`, c.body_html);
      ctx.comments = earlierThan(raw, task, options, ctx.leftOut);
      const max = options.maxComments ?? 30;
      if (ctx.comments.length > max) {
        ctx.leftOut.overLimit = ctx.comments.length - max;
        ctx.comments = ctx.comments.slice(-max);
      }
    } catch (err) {
      ctx.warnings.push(describeGitHubError(err, 'read-issue', `Reading the comments of #${task.number}`));
    }
  }
  if (task.kind === 'review-comment' && task.number !== undefined && task.trigger.kind === 'review-comment') {
    const root = task.review?.inReplyTo ?? task.trigger.id;
    try {
      const raw = (await github.paginate(github.rest.pulls.listReviewComments, {
        owner,
        repo,
        pull_number: task.number,
        per_page: 100,
        ...(withHtml ? { headers: FULL_JSON } : {}),
      })) as RawComment[];
      for (const c of raw) if (c.body_html) html.set(`review-comment:${c.id}`, c.body_html);
      const inThread = raw.filter((c) => c.id === root || c.in_reply_to_id === root);
      ctx.thread = earlierThan(inThread, task, options, ctx.leftOut);
    } catch (err) {
      ctx.warnings.push(
        describeGitHubError(err, 'read-pull', `Reading the review thread of #${task.number}`),
      );
    }
  }
  // A review cannot be made without its diff: a failure here stops the run before the model.
  const review =
    task.mode === 'review' && task.number !== undefined
      ? gatherReviewContext(
          github,
          { owner, repo, number: task.number },
          options.botLogins,
          options.reviewSince,
        )
      : undefined;
  review?.catch(() => undefined);
  if (task.workflowRun) {
    try {
      ctx.failedJobs = await fetchFailedJobs(github, { owner, repo, runId: task.workflowRun.id });
    } catch (err) {
      ctx.warnings.push(err instanceof Error ? err.message : String(err));
    }
  }
  if (review) ctx.review = await review;
  if (bodyHtml) html.set('body', await bodyHtml);
  if (reviewHtml) html.set(`review:${reviewId}`, await reviewHtml);
  if (options.images) {
    const images =
      options.allowed && !(await options.allowed) ? { mode: 'placeholders' as const } : options.images;
    ctx.images = await gatherImages(task, ctx, images, html);
  }
  return ctx;
}

/** Comments the requester could have read, as they read them: not later, not edited since. */
function earlierThan(
  raw: readonly RawComment[],
  task: Task,
  options: ContextOptions,
  leftOut: LeftOut,
): ContextComment[] {
  const triggerId = 'id' in task.trigger ? task.trigger.id : undefined;
  const at = Date.parse(task.trigger.createdAt);
  const kept: ContextComment[] = [];
  for (const c of raw) {
    if (c.id === triggerId) continue;
    const created = Date.parse(c.created_at);
    const updated = Date.parse(c.updated_at);
    if (created > at || (created === at && triggerId !== undefined && c.id > triggerId)) {
      leftOut.later++;
      continue;
    }
    // GitHub's times have whole seconds: an edit in the same second as the request may have come
    // after it. An unedited comment keeps updated_at equal to created_at.
    if (updated !== created && updated >= at) {
      leftOut.edited++;
      continue;
    }
    if (isOwnText(c.body, c.user?.login, options.botLogins)) {
      leftOut.own++;
      continue;
    }
    kept.push({ id: c.id, author: c.user?.login ?? 'ghost', createdAt: c.created_at, body: c.body ?? '' });
  }
  return kept.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
}

export { prependText, renderTaskMessage, renderTaskPrompt, type PromptOptions } from './context-render.js';
