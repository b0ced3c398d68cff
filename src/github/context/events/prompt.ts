// workflow_dispatch, schedule and any other event: the `prompt` input is the task. With
// `issue-number` the task is about that issue and its work goes where a comment there would
// send it (CONTRACT §4); the issue's title and body are read from GitHub with the context.
import { isOwnText } from '../trigger.js';
import type { TaskDecision } from '../task.js';
import { actorOf, num, obj, skip, str, type EventInput } from './payload.js';

export function promptTask({ event, options, base, prompt, now }: EventInput): TaskDecision {
  if (!prompt) return skip(`the ${event || 'unknown'} event needs the prompt input to run`);
  const number = options.issueNumber;
  if (number !== undefined) {
    return {
      run: true,
      task: {
        ...base,
        kind: 'issue',
        number,
        isPullRequest: false,
        issueFromInput: true,
        trigger: { kind: 'prompt', createdAt: now },
        request: prompt,
      },
    };
  }
  return {
    run: true,
    task: {
      ...base,
      kind: 'prompt',
      isPullRequest: false,
      trigger: { kind: 'prompt', createdAt: now },
      request: prompt,
    },
  };
}

/**
 * `issues` `opened` with a `prompt` and no phrase: the prompt is the task, about the issue the
 * event names (its title and body as the event carried them). Undefined for anything else.
 */
export function issuePromptTask({
  payload: p,
  action,
  base,
  bots,
  prompt,
  now,
}: EventInput): TaskDecision | undefined {
  const issue = obj(p.issue);
  const number = num(issue?.number);
  if (!issue || number === undefined || action !== 'opened' || obj(issue.pull_request)) return undefined;
  const body = str(issue.body) ?? '';
  if (isOwnText(body, actorOf(issue.user)?.login, bots)) return skip('the issue is patchloop’s own');
  return {
    run: true,
    task: {
      ...base,
      kind: 'issue',
      number,
      isPullRequest: false,
      title: str(issue.title) ?? '',
      body,
      trigger: { kind: 'prompt', createdAt: str(issue.created_at) ?? now },
      request: prompt,
    },
  };
}
