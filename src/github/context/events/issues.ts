// issues: an issue labeled with `label-trigger`, or opened with the phrase in its title or body.
import { isOwnText, mentionsPhrase } from '../trigger.js';
import type { TaskDecision, TriggerSource } from '../task.js';
import { actorOf, num, obj, skip, str, type EventInput } from './payload.js';

export function issuesTask({ payload: p, action, options, bots, base, now }: EventInput): TaskDecision {
  const issue = obj(p.issue);
  const number = num(issue?.number);
  if (!issue || number === undefined) return skip('the issues payload has no issue');
  if (obj(issue.pull_request)) return skip('the issue is a pull request');
  const body = str(issue.body) ?? '';
  const title = str(issue.title) ?? '';
  let trigger: TriggerSource;
  if (action === 'labeled') {
    const label = str(obj(p.label)?.name) ?? '';
    if (!options.labelTrigger || label.toLowerCase() !== options.labelTrigger.toLowerCase())
      return skip(`the label "${label}" is not "${options.labelTrigger}"`);
    trigger = { kind: 'label', label, createdAt: str(issue.updated_at) ?? now };
  } else if (action === 'opened') {
    if (isOwnText(body, actorOf(issue.user)?.login, bots)) return skip('the issue is patchloop’s own');
    if (!mentionsPhrase(body, options.triggerPhrase) && !mentionsPhrase(title, options.triggerPhrase))
      return skip(`the issue does not contain "${options.triggerPhrase}"`);
    trigger = { kind: 'issue-body', body, createdAt: str(issue.created_at) ?? now };
  } else {
    return skip(`issues "${action}" is neither opened nor labeled`);
  }
  return {
    run: true,
    task: {
      ...base,
      kind: 'issue',
      number,
      isPullRequest: false,
      title,
      body,
      trigger,
      request: trigger.kind === 'label' ? `Resolve issue #${number}: ${title}` : body,
    },
  };
}
