// The delivery phase: the git configuration put back, then commit, push and PR (deliverWork),
// each step in the transcript, and the run's conclusion from the agent's and the delivery's.
import type { AgentResult } from '../agent/index.js';
import { commitMessage } from '../github/commit-message.js';
import { deliverWork } from '../github/delivery.js';
import type { Provider } from '../providers/types.js';
import { GRACE, type Ending } from './ending.js';
import { earlySummary, prBody, preparePublishing } from './publish.js';
import { reviewPhase } from './review.js';
import type { PreparedWork } from './start-up.js';
import type { FinishInput, RunState } from './state.js';
import { awaitWorkspace, concludeRun } from '../run/phases.js';
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
  const unready = await timed('workspace set-up awaited', awaitWorkspace(result, work.ready, signal));
  if (unready) return { ...unready, result, plan, provider };
  if (task.mode === 'review') return withAnswer(s, await reviewPhase(s, work, result, provider));
  if (
    await timed(
      'git configuration checked',
      checkout.restoreConfig().catch(() => false),
    )
  ) {
    s.notice('The git configuration was changed during the run; it was put back before committing.');
  }
  // A cancelled run keeps its work too: committed and pushed inside the runner's grace period,
  // its summary (turns, tokens, cost, the branch) written before the push. No PR is opened then.
  const cancelled = () => result.conclusion === 'cancelled' || signal.aborted;
  const wasCancelled = cancelled();
  // Delivery gets what is left of the budget, and at least a minute to commit and push.
  const budgetMs = Math.max(60_000, s.started + inputs.timeoutMinutes * 60_000 - Date.now());
  const delivery = await deliverWork({
    checkout,
    plan,
    message: commitMessage({ task, runUrl: s.runUrl, agentSummary: firstLine(result.finalText) }),
    baselineUntracked: work.baseline,
    // stage: agent commits only; the deliver job pushes (stage-agent.ts, stage-deliver.ts)
    push: !inputs.dryRun && inputs.stage !== 'agent',
    github: inputs.dryRun || inputs.stage === 'agent' ? undefined : s.github,
    owner: task.owner,
    repo: task.repo,
    serverUrl: runner.serverUrl,
    draft: inputs.draftPr,
    prTitle: commitMessage({ task, runUrl: s.runUrl }).split('\n')[0]!,
    prBody: (d) => prBody(s, result, plan, d, provider),
    timing,
    // The artifact client loads while git pushes, a wait on the network that hides it (a cancelled
    // run's push has the time to itself).
    whilePushing: () => {
      if (!cancelled()) preparePublishing(s);
    },
    commitSignal: ending.deadline(budgetMs, GRACE.commit),
    pushSignal: ending.deadline(budgetMs, GRACE.push),
    openPr: !wasCancelled,
    prMayExist: s.earlier !== undefined,
    onCommitted: async (d) => {
      if (!cancelled() || inputs.dryRun) return;
      const early = { conclusion: 'cancelled' as const, result, plan, delivery: d, provider };
      await earlySummary(s, early, ending.deadline(undefined, GRACE.earlySummary));
    },
  });
  for (const n of delivery.notices) s.notice(n);
  const transcript = s.transcript;
  if (delivery.commit)
    transcript?.event('commit', { sha: delivery.commit.sha, files: delivery.commit.files.length });
  if (delivery.push)
    transcript?.event('push', {
      branch: delivery.push.branch,
      sha: delivery.push.sha,
      rebased: delivery.push.rebased,
    });
  if (delivery.pr) transcript?.event('pull-request', { ...delivery.pr });
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
