// The delivery phase: the git configuration put back, then commit, push and PR (deliverWork),
// each step in the transcript, and the run's conclusion from the agent's and the delivery's.
import type { AgentResult } from '../agent/index.js';
import { commitMessage } from '../github/commit-message.js';
import { deliverWork } from '../github/delivery.js';
import type { Provider } from '../providers/types.js';
import { prBody } from './publish.js';
import type { PreparedWork } from './start-up.js';
import type { Conclusion, FinishInput, RunState } from './state.js';

export async function deliverPhase(
  s: RunState,
  work: PreparedWork,
  result: AgentResult,
  provider: Provider,
  signal: AbortSignal,
): Promise<FinishInput> {
  const { inputs, task, runner } = s;
  const { checkout, plan } = work;
  // A run whose model finished before the workspace's set-up did waits for it here; one whose
  // set-up failed delivers nothing (no tool ran: the agent waited for the same promise).
  const unready = await work.ready.then(
    () => undefined,
    (err: Error) => err.message,
  );
  if (unready !== undefined) {
    const cancelled = result.conclusion === 'cancelled' || signal.aborted;
    return { conclusion: cancelled ? 'cancelled' : 'failure', result, plan, error: unready, provider };
  }
  if (await checkout.restoreConfig().catch(() => false)) {
    s.notice('The git configuration was changed during the run; it was put back before committing.');
  }
  if (result.conclusion === 'cancelled' || signal.aborted) {
    return { conclusion: 'cancelled', result, plan, error: result.error };
  }
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
    signal,
    // Delivery gets what is left of the budget, and at least a minute to commit and push.
    timeoutMs: Math.max(60_000, s.started + inputs.timeoutMinutes * 60_000 - Date.now()),
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

  if (signal.aborted) {
    return { conclusion: 'cancelled', result, plan, delivery, error: delivery.error, provider };
  }
  let conclusion: Conclusion = result.conclusion;
  if (conclusion === 'success' && !delivery.commit) conclusion = 'no-changes';
  if (delivery.error) conclusion = 'failure';
  const error = [result.error, delivery.error].filter(Boolean).join(' ') || undefined;
  return { conclusion, result, plan, delivery, error, provider };
}

function firstLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  return line || undefined;
}
