// The run's ending as data (issue 37): the delivery plan this job's run ends in, built from what
// the run did (src/delivery/plan.ts has its type and schema). `stage: all` applies it here,
// `stage: agent` hands it on as the delivery artifact's manifest.
import { PLAN_SCHEMA_VERSION, planOutputs, planSummary, type DeliveryPlan } from '../delivery/plan.js';
import { proposalFields } from '../github/delivery/pr.js';
import { markdownSafely } from '../report/summary-safe.js';
import type { RunSummaryInput } from '../report/summary.js';
import { unfinishedReason } from '../run/phases.js';
import * as core from './runner-commands.js';
import type { FinishInput, RunState } from './state.js';

/** `input` is the summary as this job knows it before any write; `prBody` the PR's body. */
export function planOfRun(
  s: RunState,
  o: FinishInput,
  input: RunSummaryInput,
  prBody: (() => string) | undefined,
): DeliveryPlan {
  const work = o.plan;
  const commit = o.delivery?.commit;
  const base = work?.startedFrom;
  const summary = planSummary(input, (t) => s.redact(t));
  return {
    schema: PLAN_SCHEMA_VERSION,
    repository: s.runner.repository,
    runId: s.runner.runId,
    runAttempt: s.runner.runAttempt,
    workflowRef: s.env.GITHUB_WORKFLOW_REF ?? '',
    ...(base ? { baseCommit: base } : {}),
    ...(commit ? { headCommit: commit.sha } : {}),
    ...(work ? { branch: work.branch, prBase: work.prBase } : {}),
    prHead: work?.mode === 'pr-head',
    openPr: work?.openPr ?? false,
    ...(work?.pullNumber !== undefined ? { pullNumber: work.pullNumber } : {}),
    ...proposalFields({
      task: s.task,
      runUrl: s.runUrl,
      draft: s.inputs.draftPr,
      unfinished: o.result && unfinishedReason(o.result),
    }),
    prBody: commit && prBody ? s.redact(prBody()).slice(0, 65_536) : '',
    ...(s.reviewDraft
      ? { review: JSON.parse(s.redact(JSON.stringify(s.reviewDraft))) as DeliveryPlan['review'] }
      : {}),
    ...(s.answer ? { answer: s.redact(JSON.stringify(s.answer.value)) } : {}),
    ...(s.comment ? { commentId: s.comment.id } : {}),
    commentText: markdownSafely(summary, { redact: s.redact }, core.warning),
    summary: summary as unknown as Record<string, unknown>,
    outputs: planOutputs(input, o.conclusion, {
      ...(s.transcript ? { transcriptPath: s.transcriptPath } : {}),
      ...(s.artifactUrl ? { artifactUrl: s.artifactUrl } : {}),
    }),
    marker: {
      sessionId: s.sessionId,
      ...(s.artifactName ? { artifactName: s.artifactName } : {}),
      ...(s.artifactId !== undefined ? { artifactId: s.artifactId } : {}),
    },
  };
}
