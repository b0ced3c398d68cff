// workflow_dispatch, schedule and any other event: the `prompt` input is the task. With
// `issue-number` the task is about that issue and its work goes where a comment there would
// send it (CONTRACT §4); the issue's title and body are read from GitHub with the context.
import type { TaskDecision } from '../task.js';
import { skip, type EventInput } from './payload.js';

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
