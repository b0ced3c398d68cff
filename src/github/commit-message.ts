// The commit message: names the task, the issue or PR, and the run; credits the requester.
import { neutralizeMentions } from '../report/mentions.js';
import { sanitizeUntrusted } from './sanitize.js';
import type { Actor, Task } from './task.js';

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
}

export function commitMessage({ task, runUrl, agentSummary }: CommitMessageInput): string {
  const ref = task.number !== undefined ? `#${task.number}` : undefined;
  let subject: string;
  switch (task.kind) {
    case 'issue':
      subject = `Fix ${ref}: ${oneLine(task.title ?? '', 60)}`;
      break;
    case 'pr':
    case 'review-comment':
    case 'review':
      subject = `Address request on ${ref}: ${oneLine(task.request.replace(/^\s*\S*patchloop\S*\s*/i, ''), 50)}`;
      break;
    case 'workflow-run':
      // "(run N)", not "(#N)": GitHub would link #N to issue N.
      subject = `Fix failed run of ${oneLine(task.workflowRun?.name ?? 'workflow', 40)} (run ${task.workflowRun?.id})`;
      break;
    case 'prompt':
      subject = `patchloop: ${oneLine(task.request, 60)}`;
      break;
  }
  const lines = [subject.replace(/:\s*$/, ''), ''];
  if (agentSummary) lines.push(oneLine(agentSummary, 300), '');
  const where = ref
    ? `${task.isPullRequest ? 'pull request' : 'issue'} ${ref}`
    : `the ${task.event} workflow`;
  lines.push(`Requested${task.requester ? ` by @${task.requester.login}` : ''} on ${where}.`);
  lines.push(`Run: ${runUrl}`);
  if (task.requester && !/\[bot\]$/i.test(task.requester.login))
    lines.push('', coAuthorTrailer(task.requester));
  return lines.join('\n');
}
