// GitHub event payload → the task of this run, or why there is none (CONTRACT §4). Each event
// kind has its own small reader in ./events/; this file only picks one.
import { sanitizeUntrusted } from '../sanitize.js';
import type { Task, TaskDecision } from './task.js';
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
import { pullRequestTask } from './events/pull-request.js';
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
  pull_request: pullRequestTask,
  pull_request_target: pullRequestTask,
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
  let decision = handler(input);
  // With `prompt` no phrase is needed (CONTRACT §2): an issue opened without one is the prompt's
  // task about that issue (a triage workflow on `issues: opened`).
  if (!decision.run && prompt && eventName === 'issues') decision = issuePromptTask(input) ?? decision;
  if (!decision.run) return decision;
  const task = withIntent(asReview(decision.task, options), options);
  // `mode: review` changes nothing; without a pull request there is nothing to review.
  if (options.mode === 'review' && task.mode !== 'review')
    return {
      run: false,
      reason: `mode: review reviews pull requests, and this ${eventName || 'event'} is not about one`,
    };
  return { run: true, task };
}

/**
 * A request on a pull request is a review (CONTRACT §9) when its words after the trigger phrase
 * begin with "review" (the rest is its focus), or when `mode` is review.
 */
function asReview(task: Task, options: EventOptions): Task {
  if (!task.isPullRequest || task.mode) return task;
  const t = task.trigger;
  if (t.kind !== 'issue-comment' && t.kind !== 'review-comment' && t.kind !== 'review') return task;
  const focus = reviewFocusOf(t.body, options.triggerPhrase);
  if (focus === undefined && options.mode !== 'review') return task;
  return { ...task, mode: 'review', ...(focus ? { reviewFocus: focus } : {}) };
}

/** The words after `<phrase> review`, '' for a bare `<phrase> review`; undefined when the request is not a review. */
export function reviewFocusOf(body: string, phrase: string): string | undefined {
  return wordsAfter(body, phrase, 'review');
}

/**
 * The word a request begins with when it names a kind of run of its own (`review`, `plan`,
 * `approve`); undefined for an ordinary request.
 */
export function requestWord(body: string, phrase: string): 'review' | 'plan' | 'approve' | undefined {
  for (const word of ['review', 'plan', 'approve'] as const)
    if (wordsAfter(body, phrase, word) !== undefined) return word;
  return undefined;
}

/** The words after `<phrase> <word>` ('' when none); undefined when the request does not begin with `word`. */
function wordsAfter(body: string, phrase: string, word: 'review' | 'plan' | 'approve'): string | undefined {
  const needle = phrase.trim().toLowerCase();
  if (!needle) return undefined;
  const clean = sanitizeUntrusted(body);
  const at = clean.toLowerCase().indexOf(needle);
  if (at === -1) return undefined;
  const after = clean.slice(at + needle.length);
  const m = new RegExp(`^[\\s,:]*${word}\\b[\\s,:.-]*`, 'i').exec(after);
  if (!m) return undefined;
  return after.slice(m[0].length).trim();
}

/**
 * Plan and approve (CONTRACT §13): a request that begins with "plan" is a plan, one that begins
 * with "approve" approves the plan of the session it continues; under `require-approval` every
 * other write run is a plan. A review writes nothing, so it is never one.
 */
function withIntent(task: Task, options: EventOptions): Task {
  if (task.mode === 'review') return task;
  const t = task.trigger;
  const said =
    t.kind === 'issue-comment' ||
    t.kind === 'review-comment' ||
    t.kind === 'review' ||
    t.kind === 'issue-body'
      ? t.body
      : undefined;
  if (said !== undefined && wordsAfter(said, options.triggerPhrase, 'approve') !== undefined)
    return { ...task, intent: 'approve' };
  if (said !== undefined && wordsAfter(said, options.triggerPhrase, 'plan') !== undefined)
    return { ...task, intent: 'plan' };
  return options.requireApproval ? { ...task, intent: 'plan' } : task;
}
