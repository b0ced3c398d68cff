// Publishing: the tracking comment (posted at the start, edited into the summary at the end,
// carrying the session marker a follow-up finds), the step summary, the transcript's HTML page
// and artifact, and the outputs.
import * as core from './runner-commands.js';
import { existsSync, writeFileSync } from 'node:fs';
import type { AgentResult } from '../agent/index.js';
import { chooseArtifactUploader } from '../github/artifact.js';
import { sessionMarkerText, TrackingComment } from '../github/comment.js';
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
import { setRunOutputs, type RunOutputs } from './outputs.js';
import type { FinishInput, RunState } from './state.js';
import { stageAgentArtifact } from './stage-agent.js';

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
  const summary = renderSummaryMarkdown(
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
    toolLog: r ? toolLogFromMessages(r.messages) : [],
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
    notices: [...s.notices, ...(s.inputs.dryRun ? ['Dry run: nothing was pushed or posted.'] : [])],
  };
}

/** Writes the summary everywhere it goes and sets the outputs; returns the exit code. */
export async function finish(s: RunState, o: FinishInput): Promise<number> {
  const usage: Usage = o.result?.usage ?? emptyUsage();
  if (s.transcript) {
    s.transcript.summary({
      conclusion: o.conclusion,
      usage,
      turns: o.result?.turns ?? 0,
      models: o.result?.models ?? [],
      durationMs: Date.now() - s.started,
      endedAt: new Date().toISOString(),
      ...(o.error ? { error: o.error } : {}),
      ...(o.delivery?.push ? { branch: o.delivery.push.branch, commitSha: o.delivery.push.sha } : {}),
    });
    s.transcript.close();
  }
  const location = o.conclusion === 'cancelled' ? transcriptPathIfAny(s) : await publishTranscript(s);
  const input = summaryInput(s, { ...o, transcriptLocation: location });
  // ---- stage: agent (stage-agent.ts): the delivery is written down as an artifact, not done ----
  const deliveryArtifact =
    s.inputs.stage === 'agent'
      ? await stageAgentArtifact(s, o, input, () => prBody(s, o.result!, o.plan!, o.delivery!, o.provider!))
      : undefined;
  // ---- end stage: agent ----
  const commentText = renderSummaryMarkdown(input, { redact: s.redact });
  let commentUrl: string | undefined;
  if (s.comment) {
    // What a follow-up needs: the branch the work is on (or still the earlier one) and the artifact.
    const branch = input.branch ?? (s.earlier ? o.plan?.branch : undefined);
    s.comment.marker = {
      runId: s.runner.runId,
      sessionId: s.sessionId,
      ...(branch ? { branch } : {}),
      ...(s.artifactId ? { artifactId: s.artifactId } : {}),
      ...(s.artifactName ? { artifactName: s.artifactName } : {}),
    };
    const ok = await s.comment.finish(commentText);
    commentUrl = s.comment.url;
    if (!ok) core.warning('patchloop: the summary comment could not be written; it is in the step summary.');
  }
  try {
    core.appendSummary(renderSummaryMarkdown(input, { redact: s.redact, maxBytes: STEP_SUMMARY_MAX_BYTES }));
  } catch (err) {
    core.warning(`patchloop: the step summary could not be written (${(err as Error).message}).`);
  }
  const outputs: RunOutputs = {
    conclusion: o.conclusion,
    branch: input.branch,
    commitSha: input.commitSha,
    prNumber: input.prNumber,
    prUrl: input.prUrl,
    commentUrl,
    transcriptPath: s.transcript ? s.transcriptPath : undefined,
    artifactUrl: s.artifactUrl,
    model: input.models.join(','),
    turns: input.turns,
    usage,
    deliveryArtifact, // stage: agent
  };
  setRunOutputs(outputs, s.redact);
  s.log.outcome(input);
  if (FAILING.has(o.conclusion)) {
    core.setFailed(
      s.redact(o.error ? `patchloop: ${o.conclusion}: ${o.error}` : `patchloop: ${o.conclusion}`),
    );
    return 1;
  }
  return 0;
}

function transcriptPathIfAny(s: RunState): string | undefined {
  return s.transcript ? `${s.transcriptPath} on the runner` : undefined;
}

/** The HTML page beside the JSONL, both uploaded as an artifact when the runner allows it. */
async function publishTranscript(s: RunState): Promise<string | undefined> {
  if (!s.transcript || !existsSync(s.transcriptPath)) return undefined;
  const htmlPath = s.transcriptPath.replace(/\.jsonl$/, '.html');
  const files = [s.transcriptPath];
  try {
    const view = await loadRunView(s.transcriptPath);
    writeFileSync(
      htmlPath,
      s.redact(renderHtml(view, { source: 'transcript.jsonl', generatedAt: new Date() })),
    );
    files.push(htmlPath);
  } catch (err) {
    core.warning(`patchloop: the HTML page of the transcript could not be made (${(err as Error).message}).`);
  }
  const local = `${s.transcriptPath} on the runner`;
  if (!s.inputs.uploadArtifact) return local;
  const choice = chooseArtifactUploader(s.env);
  if (!choice.uploader) {
    s.notice(choice.notice);
    return local;
  }
  try {
    const uploaded = await choice.uploader.uploadTranscript({
      jsonlPath: s.transcriptPath,
      htmlPath: files[1],
      taskNumber: s.task.number,
    });
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
