// What the summary says beyond the run's figures: the request as asked (or what started a run
// nobody asked for), what kind of work it was (a review's comments and verdict), how the tests
// ended, and what the next step is on GitHub (the comment that continues the session, the input
// that raises a budget, a re-run after a provider's outage).
import type { AgentResult } from '../agent/index.js';
import { sanitizeUntrusted } from '../github/sanitize.js';
import type { Task } from '../github/context/task.js';
import type { RunSummaryInput } from '../report/summary.js';
import type { RunState } from './state.js';

export function summaryContext(
  s: RunState,
  result: AgentResult | undefined,
): Pick<RunSummaryInput, 'request' | 'next' | 'startedBy' | 'review' | 'tests'> {
  const startedBy = startedByOf(s.task);
  // A run nobody asked for quotes only the workflow's own prompt, never patchloop's default text.
  const asked = startedBy === undefined ? s.task.request : s.task.prompt;
  const request = sanitizeUntrusted(asked ?? '').trim();
  return {
    ...(request ? { request } : {}),
    ...(startedBy ? { startedBy } : {}),
    ...(s.task.mode === 'review'
      ? {
          review: {
            comments: s.reviewDrafts.length,
            posted: s.reviewUrl !== undefined,
            ...(verdictOf(result?.finalText) ? { verdict: verdictOf(result?.finalText) } : {}),
          },
        }
      : {}),
    ...(result?.tests ? { tests: result.tests } : {}),
    next: {
      surface: 'action',
      ...(result?.budget ? { budget: result.budget } : {}),
      ...(result?.failedRequest ? { failedRequest: result.failedRequest } : {}),
      maxTurns: s.inputs.maxTurns,
      ...(s.inputs.maxCostUsd !== undefined ? { maxCostUsd: s.inputs.maxCostUsd } : {}),
      timeoutMinutes: s.inputs.timeoutMinutes,
      triggerPhrase: s.inputs.triggerPhrase,
      continueSession: s.inputs.continueSession,
      onThread: s.task.number !== undefined && !s.inputs.dryRun,
    },
  };
}

/**
 * What started a run that nobody asked for, said in place of "@user asked": a pull request's
 * event (an automatic review), a failed workflow run, or an event with the workflow's prompt
 * other than a manual dispatch (a schedule, a push). Undefined when someone asked.
 */
export function startedByOf(task: Task): string | undefined {
  const t = task.trigger;
  switch (t.kind) {
    case 'pull-request':
      return `the \`${task.event}\` event (\`${t.action}\`) of pull request #${task.number}, automatically`;
    case 'workflow-run':
      return `the failed run of \`${task.workflowRun?.name ?? 'a workflow'}\` (\`workflow_run\`), automatically`;
    case 'prompt':
      return task.event === 'workflow_dispatch' ? undefined : `the \`${task.event}\` event, automatically`;
    default:
      return undefined;
  }
}

/** A review's verdict: the first line of the model's final message, without markdown's marks. */
export function verdictOf(finalText: string | undefined): string | undefined {
  const line = (finalText ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  const bare = line?.replace(/^[#>*_\s-]+/, '').replace(/[*_\s]+$/, '');
  return bare || undefined;
}
