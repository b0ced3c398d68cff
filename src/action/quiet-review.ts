// Quiet reviews in the action (CONTRACT §9): an automatic review edits the pull request's one
// sticky summary comment (created the first time) instead of posting a tracking comment per push,
// and records each push in it — the head reviewed, what was reviewed, the review's link — in a
// short visible history and in its hidden `review-summary` marker, from which the next push's run
// learns what it need not review again.
import * as core from './runner-commands.js';
import {
  TrackingComment,
  type CommentExtras,
  type SessionMarker,
  type TrackingCommentOptions,
} from '../github/comment.js';
import {
  costOfLastDay,
  historyMarkdown,
  reviewSummaryMarkerText,
  withPush,
  type ReviewHistory,
  type StickySummary,
} from '../github/review/review-history.js';
import type { FinishInput, RunState } from './state.js';

function commitUrl(s: RunState): (sha: string) => string {
  return (sha) => `${s.runner.serverUrl}/${s.runner.repository}/commit/${sha}`;
}

function extrasOf(s: RunState, h: ReviewHistory): CommentExtras {
  return {
    ...(h.pushes.length > 0 || h.dropped > 0 ? { footer: historyMarkdown(h, commitUrl(s)) } : {}),
    hidden: reviewSummaryMarkerText(h),
  };
}

/** The sticky summary this run edits (adopted, or posted the first time). Throws as TrackingComment.create does. */
export async function stickyComment(
  s: RunState,
  options: TrackingCommentOptions,
  marker: SessionMarker,
): Promise<TrackingComment> {
  const quiet = s.quiet!;
  const sticky: StickySummary | undefined = await quiet.sticky.catch((err: unknown) => {
    s.notice(
      `The pull request's earlier review summary could not be looked up (${err instanceof Error ? err.message : String(err)}); a new one was posted.`,
    );
    return undefined;
  });
  const history = sticky?.history ?? { pushes: [], dropped: 0 };
  const head = s.task.pr?.headSha ?? '';
  const text = `👀 **patchloop is reviewing ${head ? `\`${head.slice(0, 7)}\`` : 'this pull request'}** — [follow the run](${s.runUrl})`;
  if (sticky) {
    const comment = await TrackingComment.adopt(options, sticky, text, marker, extrasOf(s, history));
    core.info(`patchloop: editing the review summary ${comment.url}`);
    stickyHistory.set(s, history);
    return comment;
  }
  const comment = await TrackingComment.create(options, text, marker, extrasOf(s, history));
  stickyHistory.set(s, history);
  return comment;
}

/** The history each run's sticky comment started from. */
const stickyHistory = new WeakMap<RunState, ReviewHistory>();

/**
 * The sticky comment's last edit: this push added to its history, and the session marker's cost
 * made what all pushes of the last 24 hours cost (the daily budget counts the comment once).
 */
export function finalSticky(s: RunState, o: FinishInput, marker: SessionMarker): SessionMarker {
  const comment = s.comment;
  const before = stickyHistory.get(s);
  const head = s.task.pr?.headSha ?? '';
  if (!comment || !before || !/^[0-9a-f]{40}$/.test(head)) return marker;
  const scope = s.reviewScope;
  const history = withPush(before, {
    head,
    scope: scope?.kind ?? 'whole',
    ...(scope?.kind === 'since' ? { from: scope.from } : {}),
    ...(scope?.kind === 'whole' && scope.why ? { why: scope.why } : {}),
    at: new Date().toISOString(),
    ...(s.reviewUrl ? { reviewUrl: s.reviewUrl } : {}),
    runUrl: s.runUrl,
    conclusion: o.conclusion,
    comments: s.reviewDrafts.length,
    ...(s.reviewCoverage?.notReviewed.length ? { notReviewed: s.reviewCoverage.notReviewed.length } : {}),
    ...(o.result?.usage.costUsd !== undefined ? { costUsd: o.result.usage.costUsd } : {}),
  });
  comment.extras = extrasOf(s, history);
  const { costUsd: _own, ...rest } = marker;
  const cost = costOfLastDay(history, Date.now());
  return { ...rest, ...(cost !== undefined ? { costUsd: cost } : {}) };
}
