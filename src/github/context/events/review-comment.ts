// pull_request_review_comment: a new comment on a line of a PR's diff. The payload's
// `pull_request` is the PR as it was at that moment, so its head sha is the commit the
// requester looked at.
import { isOwnText, mentionsPhrase } from '../trigger.js';
import type { TaskDecision } from '../task.js';
import { actorOf, num, obj, refsOf, skip, str, type EventInput } from './payload.js';

export function reviewCommentTask({
  payload: p,
  action,
  options,
  bots,
  base,
  now,
}: EventInput): TaskDecision {
  const pull = obj(p.pull_request);
  const comment = obj(p.comment);
  const number = num(pull?.number);
  const id = num(comment?.id);
  if (!pull || !comment || number === undefined || id === undefined)
    return skip('the pull_request_review_comment payload has no pull request or comment');
  if (action !== 'created') return skip(`review comment "${action}" is not a new comment`);
  const body = str(comment.body) ?? '';
  const author = actorOf(comment.user);
  if (isOwnText(body, author?.login, bots)) return skip('the comment is patchloop’s own');
  if (!mentionsPhrase(body, options.triggerPhrase))
    return skip(`the review comment does not contain "${options.triggerPhrase}"`);
  return {
    run: true,
    task: {
      ...base,
      kind: 'review-comment',
      number,
      isPullRequest: true,
      title: str(pull.title),
      body: str(pull.body) ?? '',
      trigger: {
        kind: 'review-comment',
        id,
        body,
        createdAt: str(comment.created_at) ?? now,
        url: str(comment.html_url),
      },
      requester: author ?? base.requester,
      request: body,
      pr: refsOf(pull, options.repository),
      review: {
        path: str(comment.path) ?? '',
        line: num(comment.line) ?? num(comment.original_line),
        startLine: num(comment.start_line),
        side: str(comment.side),
        diffHunk: str(comment.diff_hunk) ?? '',
        commitId: str(comment.commit_id),
        inReplyTo: num(comment.in_reply_to_id),
      },
    },
  };
}
