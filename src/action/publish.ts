// Publishing: the tracking comment (posted at the start, edited into the summary at the end,
// carrying the session marker a follow-up finds), the summary's input, and the run's ending: its
// delivery plan, applied (src/delivery/apply.ts).
import * as core from './runner-commands.js';
import type { AgentResult } from '../agent/index.js';
import { applyPlan } from '../delivery/apply.js';
import type { DeliveryPlan } from '../delivery/plan.js';
import { sessionMarkerText, TrackingComment } from '../github/comment.js';
import type { Delivery, WorkPlan } from '../github/delivery/delivery.js';
import { DeliveryCheckError } from '../github/delivery/delivery-artifact.js';
import { emptyUsage } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import {
  editsDiff,
  toolLogFromMessages,
  type ChangedFile,
  type RunSummaryInput,
  type SummaryMarkdownOptions,
} from '../report/summary.js';
import { markdownSafely as renderSafely, plainSummary } from '../report/summary-safe.js';
import { listRefused, networkSummaryLine } from '../sandbox/network.js';
import { untilAborted, type Ending } from './ending.js';
import { setRunOutputs } from './outputs.js';
import { concludeRun, recordSummary, unfinishedReason } from '../run/phases.js';
import { issueReference } from '../github/delivery/pr.js';
import { actionHost } from './apply-host.js';
import { planOfRun } from './run-plan.js';
import type { FinishInput, RunState } from './state.js';
import { stageAgentArtifact } from './stage-agent.js';
import { timed } from './timings.js';
import { summaryContext } from './summary-context.js';
import { finalSticky, stickyComment } from './quiet-review.js';
import { joinedMarker, takesJoins } from './join.js';

const FAILING: ReadonlySet<string> = new Set(['failure', 'budget-exceeded', 'cancelled']);

/** Posts the "working" comment; a comment that cannot be posted is a notice, not a failure. */
export async function createComment(s: RunState): Promise<void> {
  if (s.inputs.dryRun || s.task.number === undefined) return;
  const options = {
    github: s.github,
    owner: s.task.owner,
    repo: s.task.repo,
    issueNumber: s.task.number,
    redact: (t: string) => s.redact(t),
    log: { debug: core.debug, info: core.info, warning: (m: string) => core.warning(s.redact(m)) },
  };
  const marker = {
    runId: s.runner.runId,
    sessionId: s.sessionId,
    // a later trigger joins this run while its agent works (action/join.ts)
    ...(takesJoins(s) ? { loop: 'working' as const } : {}),
  };
  try {
    // An automatic review edits the PR's one sticky review summary (quiet-review.ts).
    s.comment = s.quiet
      ? await stickyComment(s, options, marker)
      : await TrackingComment.create(
          options,
          `👀 **patchloop is working on this** — [follow the run](${s.runUrl})`,
          marker,
        );
    core.info(`patchloop: tracking comment ${s.comment.url}`);
  } catch (err) {
    s.notice((err as Error).message);
  }
}

export function prBody(
  s: RunState,
  result: AgentResult,
  plan: WorkPlan,
  delivery: Delivery,
  provider: Provider,
): string {
  // the conclusion the run will have, its work committed (a red-test run's is `failure`)
  const ending = concludeRun({ result, committed: true, cancelled: false });
  // the body is written before the push and read once the branch is pushed: it links the branch
  const pushed: Delivery = delivery.commit
    ? { ...delivery, push: { ok: true, branch: plan.branch, sha: delivery.commit.sha, rebased: false } }
    : delivery;
  const summary = markdownSafely(summaryInput(s, { ...ending, result, plan, delivery: pushed, provider }), {
    redact: s.redact,
    maxChars: 60_000,
  });
  const reference = issueReference(plan, unfinishedReason(result));
  const fixes = reference ? `\n\n${reference}` : '';
  // The session that opened the PR, for a follow-up on the PR itself.
  const marker = sessionMarkerText({ runId: s.runner.runId, sessionId: s.sessionId, branch: plan.branch });
  return `${summary}${fixes}\n\n${marker}`;
}

function summaryInput(s: RunState, o: FinishInput): RunSummaryInput {
  const r = o.result;
  const d = o.delivery;
  const pr = d?.pr && (d.pr.kind === 'created' || d.pr.kind === 'existing') ? d.pr : undefined;
  const compare =
    d?.pr && (d.pr.kind === 'forbidden' || d.pr.kind === 'failed') ? d.pr.compareUrl : undefined;
  const models = r?.models.length ? r.models : o.provider ? [o.provider.model] : [];
  const related: { label: string; url: string }[] = [];
  if (s.task.workflowRun)
    related.push({
      label: 'Failed run',
      url: `${s.runner.serverUrl}/${s.runner.repository}/actions/runs/${s.task.workflowRun.id}`,
    });
  if (s.earlier) related.push({ label: 'Earlier run (continued)', url: s.earlier.runUrl });
  if (s.approval)
    related.push({
      label: `Plan approved by @${s.approval.by} at ${s.approval.at}`,
      url: s.approval.plan.commentUrl,
    });
  // the requests that joined while the run worked (CONTRACT §13)
  for (const j of s.joined)
    if (j.url) related.push({ label: `Joined request by @${j.author} (${j.createdAt})`, url: j.url });
  return {
    conclusion: o.conclusion,
    models,
    turns: r?.turns ?? 0,
    durationMs: Date.now() - s.started,
    usage: r?.usage ?? emptyUsage(),
    branch: d?.push?.branch ?? (d?.commit ? o.plan?.branch : undefined),
    commitSha: d?.push?.sha ?? d?.commit?.sha,
    prUrl: pr?.url,
    prNumber: pr?.number,
    compareUrl: compare,
    changedFiles: changedFiles(d),
    finalMessage: r?.finalText || undefined,
    error: o.error,
    toolLog: r ? toolLogFromMessages(r.messages, s.redact) : [],
    transcriptLocation: o.transcriptLocation,
    runUrl: s.runUrl,
    serverUrl: s.runner.serverUrl,
    repository: s.runner.repository,
    pushed: Boolean(d?.push),
    requester: s.task.requester?.login,
    artifactUrl: s.artifactUrl,
    artifactName: s.artifactName,
    diff: s.inputs.dryRun && r ? editsDiff(r.messages) || undefined : undefined,
    related: related.length > 0 ? related : undefined,
    ...(s.answer ? { structuredOutput: JSON.stringify(s.answer.value, null, 2) } : {}),
    ...(s.reviewUrl ? { reviewUrl: s.reviewUrl } : {}),
    notices: [...s.notices, ...(s.inputs.dryRun ? ['Dry run: nothing was pushed or posted.'] : [])],
    commandNetwork: commandNetworkLine(s),
    ...summaryContext(s, r),
  };
}

/** What commands could reach and what was refused; undefined when no command could run. */
function commandNetworkLine(s: RunState): string | undefined {
  const box = s.sandbox;
  if (box?.kind === 'isolated') return networkSummaryLine(box.network.policy, box.network.refused());
  if (box && s.inputs.allowUnisolatedCommands) return 'all (commands were not isolated)';
  return undefined;
}

/**
 * Ends the run: its delivery plan, applied (src/delivery/apply.ts) — pushed, proposed, reviewed and
 * summarised in stage: all, handed on as the delivery artifact in stage: agent, summarised only in
 * a dry run. Returns the exit code. Never throws, and runs once: each step has its own deadline
 * and a failure of one is told without stopping the others.
 */
export function finish(
  s: RunState,
  o: FinishInput,
  ending?: Ending,
  afterPush?: () => void,
): Promise<number> {
  s.finishing ??= finishOnce(s, o, ending, afterPush).catch((err: unknown) => lastResort(s, o, err));
  return s.finishing;
}

async function finishOnce(
  s: RunState,
  o: FinishInput,
  ending: Ending | undefined,
  afterPush: (() => void) | undefined,
): Promise<number> {
  const refused = s.sandbox?.kind === 'isolated' ? s.sandbox.network.refused() : [];
  if (refused.length) core.warning(`patchloop: command-network refused ${listRefused(refused)}.`);
  const input = summaryInput(s, o);
  const commit = o.delivery?.commit;
  const body =
    commit && o.result && o.plan && o.provider
      ? () => prBody(s, o.result!, o.plan!, o.delivery!, o.provider!)
      : undefined;
  const plan = planOfRun(s, o, input, body);
  const noticesFrom = s.notices.length;
  const agentStage = s.inputs.stage === 'agent';
  const host = actionHost(s, {
    ...(ending ? { ending } : {}),
    noticesFrom,
    summaryLine: (end) => {
      if (!s.transcript) return;
      recordSummary(s.transcript, {
        conclusion: end.conclusion,
        result: o.result,
        durationMs: Date.now() - s.started,
        ...(end.error ? { error: end.error } : {}),
        ...(end.branch ? { branch: end.branch, commitSha: end.commitSha } : {}),
      });
    },
    postsReview: !s.inputs.dryRun && !agentStage,
    // the requests that joined stay listed (a run that waited for this one ends as handed over);
    // an automatic review's sticky summary records this push (quiet-review.ts)
    finalMarker: (m) => (s.quiet ? finalSticky(s, o, joinedMarker(s, m)) : joinedMarker(s, m)),
    postsComment: false,
    ...(afterPush ? { afterPush } : {}),
    // ---- stage: agent (stage-agent.ts): the plan is handed on as the delivery artifact ----
    ...(agentStage
      ? { handOff: (signal: AbortSignal, p: DeliveryPlan) => stageAgentArtifact(s, o, p, signal) }
      : {}),
  });
  // stage: all pushes the commit it made; stage: agent and a dry run push nothing
  const work = o.plan;
  const pushes = !s.inputs.dryRun && !agentStage && commit !== undefined && s.repo !== undefined;
  const target = work
    ? {
        target: {
          mode: work.mode,
          branch: work.branch,
          prBases: [work.prBase],
          openPr: work.openPr,
          ...(work.pullNumber !== undefined ? { pullNumber: work.pullNumber } : {}),
          followUp: s.earlier !== undefined,
        },
        ...(pushes ? { repo: s.repo } : {}),
      }
    : undefined;
  // the value applied, as it was applied: what the ending wrote is read from here (inspect, tests)
  s.transcript?.event('delivery-plan', { plan });
  const applied = await timed('plan applied', applyPlan(host, plan, target));
  s.outcome.delivery = { ...(o.delivery ?? { notices: [], leftOut: [] }), ...applied.delivery, commit };
  return applied.code;
}

function conclude(s: RunState, o: FinishInput): number {
  if (!FAILING.has(o.conclusion)) return 0;
  core.setFailed(s.redact(o.error ? `patchloop: ${o.conclusion}: ${o.error}` : `patchloop: ${o.conclusion}`));
  return 1;
}

/** Publishing itself failed: the comment and the outputs still say what the run did. */
async function lastResort(s: RunState, o: FinishInput, err: unknown): Promise<number> {
  const why = err instanceof Error ? err.message : String(err);
  core.warning(`patchloop: publishing the summary failed (${s.redact(why)}).`);
  // a plan that could not be applied (its schema refused it) delivered nothing: a failure
  if (err instanceof DeliveryCheckError) {
    // the checkout is left on the commit, as after any ending
    if (o.delivery?.commit) await s.repo?.writeBack().catch(() => undefined);
    if (o.conclusion !== 'cancelled')
      o = {
        ...o,
        conclusion: 'failure',
        error: [o.error, `${why} Nothing was pushed.`].filter(Boolean).join(' '),
      };
  }
  let input: RunSummaryInput;
  try {
    input = summaryInput(s, o);
  } catch {
    // Not even the figures could be gathered: the outputs say how the run ended.
    setRunOutputs({ conclusion: o.conclusion }, s.redact);
    return conclude(s, o);
  }
  const text = plainSummary(input, s.redact);
  setRunOutputs(
    {
      conclusion: o.conclusion,
      branch: input.branch,
      commitSha: input.commitSha,
      prNumber: input.prNumber,
      prUrl: input.prUrl,
      commentUrl: s.comment?.url,
      model: input.models.join(','),
      turns: input.turns,
      usage: input.usage,
    },
    s.redact,
  );
  if (s.comment) await untilAborted(s.comment.finish(text), AbortSignal.timeout(5_000)).catch(() => false);
  return conclude(s, o);
}

/** The summary's markdown; a plain one when the renderer fails (report/summary-safe.ts). */
export function markdownSafely(input: RunSummaryInput, options: SummaryMarkdownOptions = {}): string {
  return renderSafely(input, options, core.warning);
}

function changedFiles(d: Delivery | undefined): ChangedFile[] {
  return (d?.commit?.files ?? []).map((f) => ({
    path: f.path,
    added: f.added ?? 0,
    removed: f.removed ?? 0,
    ...(f.added === null ? { binary: true } : {}),
  }));
}
