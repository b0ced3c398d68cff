// Publishing: the tracking comment (posted at the start, edited into the summary at the end,
// carrying the session marker a follow-up finds), the step summary, the transcript's HTML page
// and artifact, and the outputs.
import * as core from './runner-commands.js';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import type { AgentResult } from '../agent/index.js';
import { chooseArtifactUploader } from '../github/artifact.js';
import { sessionMarkerText, TrackingComment, type SessionMarker } from '../github/comment.js';
import type { Delivery, WorkPlan } from '../github/delivery.js';
import { emptyUsage, type Usage } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import { renderHtml } from '../report/html.js';
import { loadRunView } from '../report/load.js';
import {
  editsDiff,
  renderSummaryMarkdown,
  STEP_SUMMARY_MAX_BYTES,
  toolLogFromMessages,
  type ChangedFile,
  type RunSummaryInput,
} from '../report/summary.js';
import { listRefused, networkSummaryLine } from '../sandbox/network.js';
import { formatCost, formatTokens } from '../report/format.js';
import { GRACE, untilAborted, type Ending } from './ending.js';
import { setRunOutputs, type RunOutputs } from './outputs.js';
import { recordSummary } from '../run/phases.js';
import type { FinishInput, RunState } from './state.js';
import { stageAgentArtifact } from './stage-agent.js';
import { timed } from './timings.js';
import { summaryContext } from './summary-context.js';

/** The transcript upload's deadline outside a cancel (a cancelled run's is its grace period). */
const UPLOAD_TIMEOUT_MS = 90_000;
/** The largest transcript whose HTML page is still made when the run was cancelled. */
const HTML_IN_A_HURRY_BYTES = 2 * 1024 * 1024;
/** The final comment edit's, outside a cancel. */
const COMMENT_TIMEOUT_MS = 60_000;

const FAILING: ReadonlySet<string> = new Set(['failure', 'budget-exceeded', 'cancelled']);

/** Posts the "working" comment; a comment that cannot be posted is a notice, not a failure. */
export async function createComment(s: RunState): Promise<void> {
  if (s.inputs.dryRun || s.task.number === undefined) return;
  try {
    s.comment = await TrackingComment.create(
      {
        github: s.github,
        owner: s.task.owner,
        repo: s.task.repo,
        issueNumber: s.task.number,
        redact: (t) => s.redact(t),
        log: { debug: core.debug, info: core.info, warning: (m) => core.warning(s.redact(m)) },
      },
      `👀 **patchloop is working on this** — [follow the run](${s.runUrl})`,
      { runId: s.runner.runId, sessionId: s.sessionId },
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
  const summary = markdownSafely(
    summaryInput(s, { conclusion: result.conclusion, result, plan, delivery, provider }),
    { redact: s.redact, maxChars: 60_000 },
  );
  const fixes =
    plan.fixes !== undefined
      ? `\n\nFixes #${plan.fixes}`
      : plan.pullNumber !== undefined
        ? `\n\nFollows up #${plan.pullNumber}`
        : '';
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
 * Starts what publishing will wait for, while the push runs beside it (delivery.ts): the artifact
 * client's module, when the transcript is to be uploaded.
 */
export function preparePublishing(s: RunState): void {
  if (!s.transcript || !s.inputs.uploadArtifact) return;
  chooseArtifactUploader(s.env).uploader?.preload();
}

/**
 * A cancelled run's summary, written as soon as its commit is made and before the push, so the
 * comment says what the run did (turns, tokens, cost, the branch) even if the runner kills the
 * process during the push. The final summary replaces it.
 */
export async function earlySummary(s: RunState, o: FinishInput, signal: AbortSignal): Promise<void> {
  if (!s.comment) return;
  const comment = s.comment;
  const input = summaryInput(s, o);
  input.notices = [
    ...(input.notices ?? []),
    'The run was cancelled; its work is being pushed and its transcript uploaded.',
  ];
  comment.marker = markerOf(s, o, input.branch);
  const written = comment.finish(markdownSafely(input, { redact: s.redact }));
  s.commentWrite = written.then(
    () => undefined,
    () => undefined,
  );
  await untilAborted(written, signal).catch(() => undefined);
}

/**
 * Writes the summary everywhere it goes and sets the outputs; returns the exit code. Never
 * throws, and runs once: each step (transcript, upload, outputs, comment) has its own deadline
 * and a failure of one is told without stopping the others.
 */
export function finish(s: RunState, o: FinishInput, ending?: Ending): Promise<number> {
  s.finishing ??= finishOnce(s, o, ending).catch((err: unknown) => lastResort(s, o, err));
  return s.finishing;
}

async function finishOnce(s: RunState, o: FinishInput, ending: Ending | undefined): Promise<number> {
  const refused = s.sandbox?.kind === 'isolated' ? s.sandbox.network.refused() : [];
  if (refused.length) core.warning(`patchloop: command-network refused ${listRefused(refused)}.`);
  const usage: Usage = o.result?.usage ?? emptyUsage();
  if (s.transcript) {
    try {
      recordSummary(s.transcript, {
        conclusion: o.conclusion,
        result: o.result,
        durationMs: Date.now() - s.started,
        ...(o.error ? { error: o.error } : {}),
        ...(o.delivery?.push ? { branch: o.delivery.push.branch, commitSha: o.delivery.push.sha } : {}),
      });
    } catch (err) {
      core.warning(`patchloop: the transcript could not be finished (${(err as Error).message}).`);
    }
  }
  const uploadBound =
    ending?.deadline(UPLOAD_TIMEOUT_MS, GRACE.upload) ?? AbortSignal.timeout(UPLOAD_TIMEOUT_MS);
  const location = await timed(
    'transcript page and artifact',
    publishTranscript(s, uploadBound, Boolean(ending?.cancelled.aborted)),
  );
  const input = summaryInput(s, { ...o, transcriptLocation: location });
  // ---- stage: agent (stage-agent.ts): the delivery is written down as an artifact, not done ----
  const deliveryArtifact =
    s.inputs.stage === 'agent'
      ? await stageAgentArtifact(s, o, input, () => prBody(s, o.result!, o.plan!, o.delivery!, o.provider!))
      : undefined;
  // ---- end stage: agent ----
  const commentText = markdownSafely(input, { redact: s.redact });
  // The outputs and the step summary are local and cannot hang: before the comment's request.
  try {
    await core.appendSummary(markdownSafely(input, { redact: s.redact, maxBytes: STEP_SUMMARY_MAX_BYTES }));
  } catch (err) {
    core.warning(`patchloop: the step summary could not be written (${(err as Error).message}).`);
  }
  const outputs: RunOutputs = {
    conclusion: o.conclusion,
    branch: input.branch,
    commitSha: input.commitSha,
    prNumber: input.prNumber,
    prUrl: input.prUrl,
    commentUrl: s.comment?.url,
    transcriptPath: s.transcript ? s.transcriptPath : undefined,
    artifactUrl: s.artifactUrl,
    model: input.models.join(','),
    turns: input.turns,
    usage,
    ...(s.answer ? { structuredOutput: JSON.stringify(s.answer.value) } : {}),
    ...(s.reviewUrl ? { reviewUrl: s.reviewUrl } : {}),
    deliveryArtifact, // stage: agent
  };
  setRunOutputs(outputs, s.redact);
  if (s.comment) {
    const comment = s.comment;
    const bound =
      ending?.deadline(COMMENT_TIMEOUT_MS, GRACE.finalSummary, true) ??
      AbortSignal.timeout(COMMENT_TIMEOUT_MS);
    // An early summary still on its way is let land first, so it cannot overwrite this one.
    if (s.commentWrite) await untilAborted(s.commentWrite, bound).catch(() => undefined);
    // What a follow-up needs: the branch the work is on (or still the earlier one) and the artifact.
    comment.marker = markerOf(s, o, input.branch);
    const ok = await timed(
      'summary comment',
      untilAborted(comment.finish(commentText), bound).catch(() => false),
    );
    if (!ok) core.warning('patchloop: the summary comment could not be written; it is in the step summary.');
    // A summary posted anew (the comment was deleted) has its own address.
    if (comment.url !== outputs.commentUrl) setRunOutputs({ ...outputs, commentUrl: comment.url }, s.redact);
  }
  try {
    s.log.outcome(input);
  } catch (err) {
    core.warning(`patchloop: the outcome could not be logged (${(err as Error).message}).`);
  }
  return conclude(s, o);
}

function markerOf(s: RunState, o: FinishInput, branch: string | undefined): SessionMarker {
  const b = branch ?? (s.earlier ? o.plan?.branch : undefined);
  return {
    runId: s.runner.runId,
    sessionId: s.sessionId,
    ...(b ? { branch: b } : {}),
    ...(s.artifactId ? { artifactId: s.artifactId } : {}),
    ...(s.artifactName ? { artifactName: s.artifactName } : {}),
  };
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

/**
 * The summary's markdown; when the renderer fails, a plain one with what matters most (outcome,
 * usage, cost, branch, commit, PR), so no ending is left without one.
 */
export function markdownSafely(
  input: RunSummaryInput,
  options: Parameters<typeof renderSummaryMarkdown>[1] = {},
): string {
  try {
    return renderSummaryMarkdown(input, options);
  } catch (err) {
    core.warning(
      `patchloop: the summary could not be rendered (${(err as Error).message}); a short one is given.`,
    );
    return plainSummary(input, options.redact ?? ((t) => t));
  }
}

function plainSummary(s: RunSummaryInput, redact: (text: string) => string): string {
  const lines = [`**patchloop: ${s.conclusion}**`, ''];
  const row = (label: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') lines.push(`- ${label}: ${value}`);
  };
  row('Model', s.models.join(', '));
  row('Turns', s.turns);
  const u = s.usage;
  row(
    'Tokens',
    `input ${formatTokens(u.inputTokens)} · output ${formatTokens(u.outputTokens)} · cache read ${formatTokens(u.cacheReadTokens)} · cache write ${formatTokens(u.cacheWriteTokens)}`,
  );
  row('Cost', formatCost(u.costUsd) ?? 'unknown');
  row('Branch', s.branch && `\`${s.branch}\`${s.pushed ? '' : ' (not pushed)'}`);
  row('Commit', s.commitSha);
  row('Pull request', s.prUrl);
  row('Error', s.error);
  for (const n of s.notices ?? []) row('Note', n);
  row('Transcript', s.transcriptLocation);
  row('Run', s.runUrl);
  return redact(lines.join('\n')).slice(0, 60_000);
}

/**
 * The HTML page beside the JSONL, both uploaded as an artifact when the runner allows it; a
 * cancelled run's too. The upload is given up at `signal` (its deadline, or the runner's SIGTERM).
 */
async function publishTranscript(
  s: RunState,
  signal: AbortSignal,
  hurried: boolean,
): Promise<string | undefined> {
  if (!s.transcript || !existsSync(s.transcriptPath)) return undefined;
  const htmlPath = s.transcriptPath.replace(/\.jsonl$/, '.html');
  const files = [s.transcriptPath];
  // Rendering a long session's page takes seconds a cancelled run does not have: then the JSONL
  // goes alone (`patchloop export` makes the page from it).
  const htmlFits = !hurried || statSync(s.transcriptPath).size <= HTML_IN_A_HURRY_BYTES;
  if (!htmlFits) {
    s.notice(
      'The run was cancelled: the HTML page of its long transcript was not made (`patchloop export` makes it from the JSONL).',
    );
  } else {
    try {
      await timed('transcript page', async () => {
        const view = await loadRunView(s.transcriptPath);
        writeFileSync(
          htmlPath,
          s.redact(renderHtml(view, { source: 'transcript.jsonl', generatedAt: new Date() })),
        );
      });
      files.push(htmlPath);
    } catch (err) {
      core.warning(
        `patchloop: the HTML page of the transcript could not be made (${(err as Error).message}).`,
      );
    }
  }
  const local = `${s.transcriptPath} on the runner`;
  if (!s.inputs.uploadArtifact) return local;
  const choice = chooseArtifactUploader(s.env);
  if (!choice.uploader) {
    s.notice(choice.notice);
    return local;
  }
  try {
    const uploaded = await timed(
      'artifact upload',
      choice.uploader.uploadTranscript(
        { jsonlPath: s.transcriptPath, htmlPath: files[1], taskNumber: s.task.number },
        { signal },
      ),
    );
    s.artifactUrl = uploaded.url;
    s.artifactName = uploaded.name;
    s.artifactId = uploaded.id;
    return uploaded.url ? `artifact [${uploaded.name}](${uploaded.url})` : `artifact ${uploaded.name}`;
  } catch (err) {
    s.notice(`The transcript artifact could not be uploaded (${(err as Error).message}).`);
    return local;
  }
}

function changedFiles(d: Delivery | undefined): ChangedFile[] {
  return (d?.commit?.files ?? []).map((f) => ({
    path: f.path,
    added: f.added ?? 0,
    removed: f.removed ?? 0,
    ...(f.added === null ? { binary: true } : {}),
  }));
}
