// issue_comment: a new comment with the phrase, on an issue or on a pull request (GitHub sends
// comments on a PR's conversation as issue comments, with `issue.pull_request` set).
import { isOwnText, mentionsPhrase } from '../trigger.js';
import { actorOf, num, obj, skip, str, type EventInput } from './payload.js';
import type { TaskDecision } from '../task.js';

export function issueCommentTask({ payload: p, action, options, bots, base, now }: EventInput): TaskDecision {
  const issue = obj(p.issue);
  const comment = obj(p.comment);
  const number = num(issue?.number);
  const id = num(comment?.id);
  if (!issue || !comment || number === undefined || id === undefined)
    return skip('the issue_comment payload has no issue or comment');
  if (action !== 'created') return skip(`issue_comment "${action}" is not a new comment`);
  const body = str(comment.body) ?? '';
  const author = actorOf(comment.user);
  if (isOwnText(body, author?.login, bots)) return skip('the comment is patchloop’s own');
  if (!mentionsPhrase(body, options.triggerPhrase))
    return skip(`the comment does not contain "${options.triggerPhrase}"`);
  const isPullRequest = obj(issue.pull_request) !== undefined;
  return {
    run: true,
    task: {
      ...base,
      kind: isPullRequest ? 'pr' : 'issue',
      number,
      isPullRequest,
      title: str(issue.title),
      body: str(issue.body) ?? '',
      trigger: {
        kind: 'issue-comment',
        id,
        body,
        createdAt: str(comment.created_at) ?? now,
        url: str(comment.html_url),
      },
      requester: author ?? base.requester,
      request: body,
    },
  };
}
