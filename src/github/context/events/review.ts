// pull_request_review: a submitted review whose body has the phrase. A review's body is often
// null (an approval without text); then there is nothing to ask.
import { isOwnText, mentionsPhrase } from '../trigger.js';
import type { TaskDecision } from '../task.js';
import { actorOf, num, obj, refsOf, skip, str, type EventInput } from './payload.js';

export function reviewTask({ payload: p, action, options, bots, base, now }: EventInput): TaskDecision {
  const pull = obj(p.pull_request);
  const review = obj(p.review);
  const number = num(pull?.number);
  const id = num(review?.id);
  if (!pull || !review || number === undefined || id === undefined)
    return skip('the pull_request_review payload has no pull request or review');
  if (action !== 'submitted') return skip(`review "${action}" is not a submitted review`);
  const body = str(review.body) ?? '';
  const author = actorOf(review.user);
  if (isOwnText(body, author?.login, bots)) return skip('the review is patchloop’s own');
  if (!mentionsPhrase(body, options.triggerPhrase))
    return skip(`the review does not contain "${options.triggerPhrase}"`);
  return {
    run: true,
    task: {
      ...base,
      kind: 'review',
      number,
      isPullRequest: true,
      title: str(pull.title),
      body: str(pull.body) ?? '',
      trigger: {
        kind: 'review',
        id,
        body,
        createdAt: str(review.submitted_at) ?? now,
        url: str(review.html_url),
      },
      requester: author ?? base.requester,
      request: body,
      pr: refsOf(pull, options.repository),
    },
  };
}
