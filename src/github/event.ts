// GitHub event payload → the task of this run, or why there is none (CONTRACT §4). Each event
// kind has its own small reader in ./events/; this file only picks one.
import type { TaskDecision } from './task.js';
import { ACTIONS_BOT_LOGIN } from './trigger.js';
import { issueCommentTask } from './events/issue-comment.js';
import { issuesTask } from './events/issues.js';
import {
  actorOf,
  obj,
  str,
  type EventHandler,
  type EventInput,
  type EventOptions,
} from './events/payload.js';
import { issuePromptTask, promptTask } from './events/prompt.js';
import { reviewCommentTask } from './events/review-comment.js';
import { reviewTask } from './events/review.js';
import { workflowRunTask } from './events/workflow-run.js';

export type { EventOptions } from './events/payload.js';

const HANDLERS: Record<string, EventHandler> = {
  issue_comment: issueCommentTask,
  pull_request_review_comment: reviewCommentTask,
  pull_request_review: reviewTask,
  issues: issuesTask,
  workflow_run: workflowRunTask,
};

/** Reads the event and decides whether this run has a task. Never throws on odd payloads. */
export function taskFromEvent(eventName: string, payload: unknown, options: EventOptions): TaskDecision {
  const p = obj(payload);
  if (!p) return { run: false, reason: `the ${eventName || 'unknown'} event payload could not be read` };
  const [owner = '', repo = '', extra] = options.repository.split('/');
  if (!owner || !repo || extra !== undefined)
    return { run: false, reason: `GITHUB_REPOSITORY "${options.repository}" is not owner/name` };
  const prompt = options.prompt.trim();
  const sender = actorOf(p.sender) ?? (options.actor ? { login: options.actor, type: 'User' } : undefined);
  const handler = HANDLERS[eventName] ?? promptTask;
  const input: EventInput = {
    event: eventName,
    payload: p,
    action: str(p.action),
    options,
    bots: options.botLogins ?? [ACTIONS_BOT_LOGIN],
    prompt,
    now: (options.now ?? (() => new Date()))().toISOString(),
    base: {
      event: eventName,
      owner,
      repo,
      defaultBranch: str(obj(p.repository)?.default_branch),
      requester: sender,
      prompt: prompt || undefined,
    },
  };
  const decision = handler(input);
  if (decision.run || !prompt) return decision;
  // With `prompt` no phrase is needed (CONTRACT §2): an issue opened without one is the prompt's
  // task about that issue (a triage workflow on `issues: opened`).
  return eventName === 'issues' ? (issuePromptTask(input) ?? decision) : decision;
}
