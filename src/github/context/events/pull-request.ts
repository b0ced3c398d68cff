// pull_request / pull_request_target (CONTRACT §4): with `mode: review`, a PR that was opened,
// pushed to, reopened or marked ready is reviewed. The payload's `pull_request` is the PR at the
// event, so its head sha is the commit under review.
import type { TaskDecision } from '../task.js';
import { actorOf, num, obj, refsOf, skip, str, type EventInput } from './payload.js';

const ACTIONS = new Set(['opened', 'synchronize', 'reopened', 'ready_for_review']);

export function pullRequestTask({ event, payload: p, action, options, base, now }: EventInput): TaskDecision {
  const pull = obj(p.pull_request);
  const number = num(pull?.number);
  if (!pull || number === undefined) return skip(`the ${event} payload has no pull request`);
  if (options.mode !== 'review') return skip(`${event} events start a run only with mode: review`);
  if (!action || !ACTIONS.has(action))
    return skip(`${event} "${action}" is not opened, synchronize, reopened or ready_for_review`);
  if (pull.draft === true && action !== 'ready_for_review') return skip('the pull request is a draft');
  const pr = refsOf(pull, options.repository);
  // GitHub runs `pull_request` of a fork's PR with a read-only token and without secrets: there
  // is no key to ask a model with and no right to post a review. `pull_request_target` runs the
  // base's workflow with both (README: reviewing pull requests from forks).
  if (event === 'pull_request' && pr?.fork)
    return skip(
      `pull request #${number} comes from the fork ${pr.headRepo}, and GitHub gives a pull_request run of a fork a read-only token and no secrets, so it cannot be reviewed here; review forks with pull_request_target (see the README, "Reviewing pull requests from forks")`,
    );
  return {
    run: true,
    task: {
      ...base,
      kind: 'pr',
      number,
      isPullRequest: true,
      title: str(pull.title),
      body: str(pull.body) ?? '',
      trigger: {
        kind: 'pull-request',
        action,
        createdAt: str(pull.updated_at) ?? now,
        url: str(pull.html_url),
      },
      requester: base.requester ?? actorOf(pull.user),
      request: base.prompt ?? 'Review this pull request.',
      pr,
      mode: 'review',
    },
  };
}
