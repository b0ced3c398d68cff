// The commit message: names the task, the issue or PR, and the run; credits the requester.
import { neutralizeMentions } from '../../report/mentions.js';
import { sanitizeUntrusted } from '../sanitize.js';
import type { Actor, Task } from '../context/task.js';

/** `Co-authored-by:` line for a GitHub account, with its noreply address. */
export function coAuthorTrailer(actor: Actor): string {
  const email =
    actor.id !== undefined
      ? `${actor.id}+${actor.login}@users.noreply.github.com`
      : `${actor.login}@users.noreply.github.com`;
  return `Co-authored-by: ${actor.login} <${email}>`;
}

// The subject becomes the PR title and the summary line its body's start: a mention there would
// notify whoever the model or the issue text named.
function oneLine(text: string, max: number): string {
  const line = neutralizeMentions(sanitizeUntrusted(text).replace(/\s+/g, ' ').trim());
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

export interface CommitMessageInput {
  task: Task;
  runUrl: string;
  /** the first line of the agent's own summary, when it gave one */
  agentSummary?: string;
  /**
   * Why the work is not finished (`tests still failing`, `turns budget used up`): then the
   * subject, which becomes the PR's title, claims no fix. "Fix #N" in a commit that reaches the
   * default branch closes issue N, so an unfinished run's commit never says it.
   */
  unfinished?: string;
}

export function commitMessage({ task, runUrl, agentSummary, unfinished }: CommitMessageInput): string {
  const ref = task.number !== undefined ? `#${task.number}` : undefined;
  const why = unfinished ? ` (${oneLine(unfinished, 60)})` : '';
  let subject: string;
  switch (task.kind) {
    case 'issue':
      subject = `${why ? `Attempt at ${ref}${why}` : `Fix ${ref}`}: ${oneLine(task.title ?? '', 60)}`;
      break;
    case 'pr':
    case 'review-comment':
    case 'review':
      subject = `${why ? `Attempt at request on ${ref}${why}` : `Address request on ${ref}`}: ${oneLine(task.request.replace(/^\s*\S*patchloop\S*\s*/i, ''), 50)}`;
      break;
    case 'workflow-run':
      // "(run N)", not "(#N)": GitHub would link #N to issue N.
      subject = `${why ? 'Attempt to fix' : 'Fix'} failed run of ${oneLine(task.workflowRun?.name ?? 'workflow', 40)} (run ${task.workflowRun?.id})${why}`;
      break;
    case 'prompt':
      subject = `patchloop${why}: ${oneLine(task.request, 60)}`;
      break;
  }
  const lines = [subject.replace(/:\s*$/, ''), ''];
  if (agentSummary) lines.push(oneLine(agentSummary, 300), '');
  if (why) lines.push(`Unfinished: ${oneLine(unfinished!, 200)}.`, '');
  const where = ref
    ? `${task.isPullRequest ? 'pull request' : 'issue'} ${ref}`
    : `the ${task.event} workflow`;
  lines.push(`Requested${task.requester ? ` by @${task.requester.login}` : ''} on ${where}.`);
  lines.push(`Run: ${runUrl}`);
  if (task.requester && !/\[bot\]$/i.test(task.requester.login))
    lines.push('', coAuthorTrailer(task.requester));
  return lines.join('\n');
}
