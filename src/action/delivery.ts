// The delivery phase: the git configuration put back, then the commit (deliverWork), in the
// transcript, and the run's conclusion so far from the agent's and the commit's; the push, the PR
// and the review are the delivery plan's, applied at the end (publish.ts, delivery/apply.ts).
import type { AgentResult } from '../agent/index.js';
import { commitMessage } from '../github/delivery/commit-message.js';
import { deliverWork } from '../github/delivery/delivery.js';
import { proposalFields } from '../github/delivery/pr.js';
import type { Provider } from '../providers/types.js';
import { GRACE, untilAborted, type Ending } from './ending.js';
import { reviewPhase } from './review.js';
import type { PreparedWork } from './start-up.js';
import type { FinishInput, RunState } from './state.js';
import { awaitWorkspace, concludeRun, unfinishedReason } from '../run/phases.js';
import { timed, timing } from './timings.js';

export async function deliverPhase(
  s: RunState,
  work: PreparedWork,
  result: AgentResult,
  provider: Provider,
  ending: Ending,
): Promise<FinishInput> {
  const { inputs, task, runner } = s;
  const { checkout, plan } = work;
  // A run whose model finished before the workspace's set-up did waits for it here; one whose
  // set-up failed delivers nothing (no tool ran: the agent waited for the same promise).
  const signal = ending.cancelled;
  // After a cancel the wait has a deadline: a walk of a large self-hosted checkout can outlive the
  // runner's 10 s, and a set-up that never finished ran no tool, so there is nothing to commit.
  const ready = untilAborted(work.ready, ending.deadline(undefined, GRACE.commit));
  const unready = await timed('workspace set-up awaited', awaitWorkspace(result, ready, signal));
  if (unready) return { ...unready, result, plan, provider };
  if (task.mode === 'review') return withAnswer(s, await reviewPhase(s, work, result, provider));
  // A plan delivers nothing: its final message is the plan (CONTRACT §13).
  if (task.intent === 'plan')
    return withAnswer(s, {
      conclusion: result.conclusion === 'success' ? 'planned' : result.conclusion,
      result,
      plan,
      provider,
      ...(result.error ? { error: result.error } : {}),
    });
  if (
    await timed(
      'git configuration checked',
      checkout.restoreConfig().catch(() => false),
    )
  ) {
    s.notice('The git configuration was changed during the run; it was put back before committing.');
  }
  // A cancelled run keeps its work too: committed here inside the runner's grace period, then
  // pushed (its summary written before the push) when the plan is applied (delivery/apply.ts).
  const cancelled = () => result.conclusion === 'cancelled' || signal.aborted;
  // Delivery gets what is left of the budget, and at least a minute to commit.
  const budgetMs = Math.max(60_000, s.started + inputs.timeoutMinutes * 60_000 - Date.now());
  const unfinished = unfinishedReason(result); // tests red, a budget, an error: a draft that fixes nothing
  // Only the commit is made here: the push, the PR and the read-back are the plan's to apply.
  const delivery = await deliverWork({
    checkout,
    plan,
    message: commitMessage({ task, runUrl: s.runUrl, agentSummary: firstLine(result.finalText), unfinished }),
    baselineUntracked: work.baseline,
    push: false,
    // stage: all pushes the commit next, moving the checkout onto it then
    pushFollows: !inputs.dryRun && inputs.stage === 'all',
    owner: task.owner,
    repo: task.repo,
    serverUrl: runner.serverUrl,
    ...proposalFields({ task, runUrl: s.runUrl, draft: inputs.draftPr, unfinished }),
    prBody: () => '',
    timing,
    commitSignal: ending.deadline(budgetMs, GRACE.commit),
  });
  for (const n of delivery.notices) s.notice(n);
  const transcript = s.transcript;
  if (delivery.commit)
    transcript?.event('commit', { sha: delivery.commit.sha, files: delivery.commit.files.length });
  if (delivery.error) transcript?.event('error', { message: delivery.error });
  const isCancelled = cancelled();
  const { conclusion, error } = concludeRun({
    result,
    committed: delivery.commit !== undefined,
    cancelled: isCancelled,
    // a cancelled run is not asked for its answer
    failures: [delivery.error, ...(isCancelled ? [] : [unansweredError(s, result)])],
  });
  return { conclusion, result, plan, delivery, error, provider };
}

function withAnswer(s: RunState, o: FinishInput): FinishInput {
  const unanswered = o.result && o.conclusion !== 'cancelled' ? unansweredError(s, o.result) : undefined;
  if (!unanswered) return o;
  return { ...o, conclusion: 'failure', error: [o.error, unanswered].filter(Boolean).join(' ') };
}

/** With an output schema, a run that ends without a valid answer is a failure (CONTRACT §9). */
export function unansweredError(s: RunState, result: AgentResult): string | undefined {
  if (!s.answerSchema || s.answer) return undefined;
  const tries = result.messages.filter(
    (m) => m.role === 'toolResult' && m.toolName === 'submit_answer',
  ).length;
  return tries === 0
    ? 'No answer was given: the model never called submit_answer, so there is no structured-output.'
    : `No valid answer was given: all ${tries} answer(s) submitted failed the output schema, so there is no structured-output.`;
}

function firstLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  return line || undefined;
}
