// Applying a delivery plan: the one path every run's writes take (issue 37). `stage: all` applies
// its own plan in process, `stage: deliver` the agent job's once every check passed; `stage:
// agent` and a dry run apply theirs with no target (nothing pushed or posted on the repository:
// the transcript, the plan's hand-off, the summary and the outputs). In order: the plan's schema;
// the tracking comment; a cancelled run's summary before its push; the push and the PR; the
// review; the read-back of what landed; the transcript's events and upload; the hand-off; the step
// summary, the outputs and the summary comment. A failure on the way is told with what was
// already written, never as "nothing was delivered". Everything this needs of the job it runs in
// (the runner's files, deadlines, the transcript, how a review is posted) is passed in.
import type { GitRepo } from '../git/index.js';
import {
  sessionMarkerText,
  withoutMarkers,
  type SessionMarker,
  type TrackingComment,
} from '../github/comment.js';
import { pushAndPropose, type Delivery, type WorkPlan } from '../github/delivery/delivery.js';
import { DeliveryCheckError } from '../github/delivery/delivery-artifact.js';
import type { GitHubClient } from '../github/octokit.js';
import type { Usage } from '../protocol/types.js';
import { markdownSafely } from '../report/summary-safe.js';
import { STEP_SUMMARY_MAX_BYTES, type RunSummaryInput } from '../report/summary.js';
import { planErrors, type DeliveryPlan, type ReviewDraft } from './plan.js';
import type { Target } from './target.js';
import { notLanded, notLandedError } from './verify.js';

const FAILING: ReadonlySet<string> = new Set(['failure', 'budget-exceeded', 'cancelled']);

/** The step outputs (CONTRACT §3) as apply sets them. */
export interface DeliveredOutputs {
  conclusion: string;
  branch?: string;
  commitSha?: string;
  prNumber?: number;
  prUrl?: string;
  commentUrl?: string;
  transcriptPath?: string;
  artifactUrl?: string;
  model?: string;
  turns?: number;
  usage?: Usage;
  structuredOutput?: string;
  reviewUrl?: string;
  deliveryArtifact?: string;
}

/** The deadline of each step; a cancelled run's are its grace period's (src/action/ending.ts). */
export interface ApplyDeadlines {
  /** aborted once the run is cancelled: no PR then, no read-back, and the summary before the push */
  cancelled: AbortSignal;
  earlySummary(): AbortSignal;
  push(): AbortSignal;
  upload(): AbortSignal;
  finalSummary(): AbortSignal;
}

/** How the run ended, for the transcript's summary line. */
export interface TranscriptEnd {
  conclusion: string;
  error?: string;
  branch?: string;
  commitSha?: string;
}

/** Where the transcript went. */
export interface TranscriptPublished {
  location?: string;
  url?: string;
  name?: string;
  id?: number;
}

/** This job's transcript: the delivery's events, its summary line, its page and artifact. */
export interface ApplyTranscript {
  /** the artifact's name before it is uploaded: the PR body's marker names it */
  expectedName?: string;
  event(kind: string, fields: Record<string, unknown>): void;
  /** the summary line, then the page and the artifact (the upload given up at `signal`) */
  publish(end: TranscriptEnd, signal: AbortSignal, hurried: boolean): Promise<TranscriptPublished>;
}

export interface ApplyHost {
  /**
   * The repository on GitHub the work may go to; absent for a host that writes nothing there (the
   * CLI: its commit stays on the local branch). A plan applied with a target needs it.
   */
  github?: GitHubClient;
  owner?: string;
  repo?: string;
  /** the issue or PR the summary comment belongs on */
  issueNumber?: number;
  /** this job's run, its page, the server and `owner/name`: what the summary links (no page for a local run) */
  runId: string;
  runUrl?: string;
  serverUrl?: string;
  repository: string;
  /** who asked, as this job knows it (the follow-up marker's requester) */
  requester?: string;
  redact(text: string): string;
  /** this job's notices; those from index `noticesFrom` on are added to the plan's */
  notices: readonly string[];
  noticesFrom: number;
  say: { info(message: string): void; warning(message: string): void };
  /** the runner's side of the ending */
  runner: {
    appendSummary(text: string): Promise<void>;
    setOutputs(o: DeliveredOutputs): void;
    setFailed(message: string): void;
  };
  /** the outcome in the log */
  outcome?(input: RunSummaryInput): void;
  /** the tracking comment the summary is written into */
  comment?: TrackingComment;
  /**
   * Without a tracking comment: posts one (with the marker) before anything else is written, so
   * this job's transcript names it for a later follow-up. Undefined: the summary goes to the step
   * summary alone.
   */
  createComment?(text: string, marker: SessionMarker): Promise<TrackingComment>;
  /**
   * The final summary's marker with what the job adds to it (the requests that joined the run, a
   * sticky review summary's history); undefined: the marker as apply makes it.
   */
  finalMarker?(marker: SessionMarker): SessionMarker;
  /** an earlier edit of the comment still on its way, let land before the final one */
  commentWrite?: Promise<void>;
  /** posts a drafted review; returns its address (throws with GitHub's reason) */
  postReview?(draft: ReviewDraft): Promise<string>;
  transcript?: ApplyTranscript;
  /** stage: agent — hands the plan on (the delivery artifact); returns its name */
  handOff?(signal: AbortSignal, plan: DeliveryPlan): Promise<string | undefined>;
  deadlines: ApplyDeadlines;
  /** called once the push has started (a wait on git and the network other work can use) */
  whilePushing?(): void;
  /** called once the push is over, or there is none (what the run changed outside its branch is undone) */
  afterPush?(): void;
  timing?(step: string, ms: number): void;
}

/** Where the work goes, and the checkout on the plan's commit (when it is to be pushed). */
export interface ApplyTarget {
  target: Target;
  repo?: GitRepo;
}

/** What apply did, for the caller's record. */
export interface Applied {
  code: number;
  conclusion: string;
  delivery: Delivery;
}

/**
 * Applies the plan; returns the exit code. Throws only a DeliveryCheckError("plan") when the value
 * is not a delivery plan, before anything is written.
 */
export async function applyPlan(h: ApplyHost, m: DeliveryPlan, c: ApplyTarget | undefined): Promise<Applied> {
  const wrong = planErrors(m);
  if (wrong !== undefined) throw new DeliveryCheckError('plan', wrong);
  const out: Delivery & { reviewUrl?: string } = { notices: [], leftOut: [] };
  const errors: string[] = [];
  const summary = m.summary as unknown as RunSummaryInput;
  const pushing = Boolean(m.headCommit && c?.repo);
  const cancelled = () => h.deadlines.cancelled.aborted;
  const marker = (branch: string | undefined, t?: TranscriptPublished): SessionMarker =>
    markerOf(h, m, branch ?? (c?.target.followUp ? c.target.branch : undefined), t);
  let comment = h.comment;
  let commentWrite = h.commentWrite;
  // A summary the follow-up can find: posted first when this job has none (stage: deliver).
  if (!comment && h.createComment && h.issueNumber !== undefined) {
    comment = await h
      .createComment(
        h.runUrl
          ? `👀 **patchloop is delivering this run's work** — [follow the run](${h.runUrl})`
          : "👀 **patchloop is delivering this run's work**",
        marker(undefined),
      )
      .catch((err: Error) => {
        h.say.warning(h.redact(`patchloop: the summary comment could not be posted: ${err.message}`));
        return undefined;
      });
    if (comment) h.transcript?.event('comment', { id: comment.id, url: comment.url });
  }
  try {
    if (pushing && cancelled() && comment) {
      // written before the push, which waits for it (within its deadline)
      commentWrite = earlySummary(h, m, comment, marker(c!.target.branch));
      await within(commentWrite, h.deadlines.earlySummary());
    }
    if (pushing)
      await push(h, m, c!, out, marker(c!.target.branch, { name: h.transcript?.expectedName })).finally(() =>
        h.afterPush?.(),
      );
    else h.afterPush?.();
    if (out.error) errors.push(out.error);
    if (m.review && h.postReview && !out.error) {
      await h.postReview(m.review).then(
        (url) => (out.reviewUrl = url),
        (err: Error) => errors.push(`The review could not be posted: ${err.message}`),
      );
    }
    // Green only when delivered: what the summary is about to claim is read back (a cancelled
    // run's grace period is for the push and the summary).
    const pr = openedPr(out);
    if (out.push && !cancelled()) {
      const gh = onGitHub(h);
      const t0 = performance.now();
      const missing = await notLanded(
        {
          github: gh.github,
          owner: gh.owner,
          repo: gh.repo,
          tipOf: (b) => c?.repo?.remoteBranchSha(b) ?? Promise.resolve(undefined),
        },
        {
          push: { branch: out.push.branch, sha: out.push.sha },
          ...(pr ? { pr: { number: pr.number } } : {}),
        },
      );
      h.timing?.('delivery read back', performance.now() - t0);
      if (missing.length) errors.push(notLandedError(missing));
    }
  } catch (err) {
    errors.push(`The delivery stopped: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (errors.length && (out.push || out.pr)) errors.push(whatWasWritten(out));
  return publish(h, m, summary, out, errors, { comment, commentWrite, marker });
}

/** The host's repository on GitHub; a host without one cannot push (thrown before any write). */
function onGitHub(h: ApplyHost): { github: GitHubClient; owner: string; repo: string; serverUrl: string } {
  if (!h.github || h.owner === undefined || h.repo === undefined || h.serverUrl === undefined)
    throw new Error('this host has no repository on GitHub to push to; nothing was pushed');
  return { github: h.github, owner: h.owner, repo: h.repo, serverUrl: h.serverUrl };
}

function openedPr(d: Delivery) {
  return d.pr && (d.pr.kind === 'created' || d.pr.kind === 'existing') ? d.pr : undefined;
}

/** The follow-up marker: this job's run, the plan's session, the branch, the transcript artifact. */
function markerOf(
  h: ApplyHost,
  m: DeliveryPlan,
  branch: string | undefined,
  t: TranscriptPublished | undefined,
  conclusion: string = m.outputs.conclusion,
): SessionMarker {
  const name = t ? t.name : m.marker.artifactName;
  const id = t ? t.id : m.marker.artifactId;
  const cost = m.outputs.usage.costUsd;
  return {
    runId: h.runId,
    sessionId: m.marker.sessionId,
    ...(branch ? { branch } : {}),
    ...(id !== undefined ? { artifactId: id } : {}),
    ...(name ? { artifactName: name } : {}),
    // what the daily budgets count (github/follow-up/daily-budget.ts)
    ...(cost !== undefined ? { costUsd: cost } : {}),
    ...(h.requester ? { requester: h.requester } : {}),
    ...(conclusion === 'planned' ? { planned: true as const } : {}),
  };
}

/**
 * A cancelled run's summary, written before its push so the comment says what the run did (turns,
 * tokens, cost, the branch) even if the runner kills the process during the push. The final
 * summary replaces it.
 */
function earlySummary(
  h: ApplyHost,
  m: DeliveryPlan,
  comment: TrackingComment,
  marker: SessionMarker,
): Promise<void> {
  const input = m.summary as unknown as RunSummaryInput;
  const text = markdownSafely(
    {
      ...input,
      notices: [
        ...(input.notices ?? []),
        'The run was cancelled; its work is being pushed and its transcript uploaded.',
      ],
    },
    { redact: h.redact },
    h.say.warning,
  );
  comment.marker = marker;
  return comment.finish(text).then(
    () => undefined,
    () => undefined,
  );
}

async function push(h: ApplyHost, m: DeliveryPlan, c: ApplyTarget, out: Delivery, marker: SessionMarker) {
  const { target } = c;
  const repo = c.repo!;
  const gh = onGitHub(h);
  out.commit = { sha: m.headCommit!, files: [], leftOut: [] };
  const signal = h.deadlines.push();
  if (signal.aborted) {
    // the grace period left no time for the push: the checkout still gets the commit
    await repo.writeBack().catch(() => undefined);
    return;
  }
  const plan: WorkPlan = {
    mode: target.mode,
    branch: target.branch,
    prBase: target.prBases[0]!,
    openPr: target.openPr,
    ...(target.pullNumber !== undefined ? { pullNumber: target.pullNumber } : {}),
    note: '',
  };
  // The PR body's text is the plan's; the marker in it is this job's (the plan's is dropped).
  const body = `${withoutMarkers(m.prBody)}\n\n${sessionMarkerText(marker)}`;
  await pushAndPropose(
    {
      checkout: repo,
      plan,
      message: '',
      baselineUntracked: [],
      push: true,
      ...gh,
      draft: m.draft,
      prTitle: m.prTitle,
      prBody: () => body,
      // a cancelled run pushes its branch only
      openPr: !h.deadlines.cancelled.aborted,
      ...(target.followUp ? { prMayExist: true } : {}),
      ...(h.whilePushing ? { whilePushing: h.whilePushing } : {}),
      ...(h.timing ? { timing: h.timing } : {}),
    },
    out,
    { signal },
  );
  const t = h.transcript;
  if (out.push) t?.event('push', { branch: out.push.branch, sha: out.push.sha, rebased: out.push.rebased });
  if (out.pr) t?.event('pull-request', { ...out.pr });
  if (out.error) t?.event('error', { message: out.error });
}

/** What was already written, for an error after a write: never "nothing was pushed" then. */
function whatWasWritten(d: Delivery): string {
  const parts: string[] = [];
  if (d.push) parts.push(`${d.push.sha.slice(0, 12)} was pushed to \`${d.push.branch}\``);
  const pr = openedPr(d);
  if (pr)
    parts.push(`pull request #${pr.number} was ${pr.kind === 'created' ? 'opened' : 'updated'} (${pr.url})`);
  return `Already done: ${parts.join('; ')}.`;
}

interface Written {
  comment: TrackingComment | undefined;
  commentWrite: Promise<void> | undefined;
  marker: (branch: string | undefined, t?: TranscriptPublished) => SessionMarker;
}

async function publish(
  h: ApplyHost,
  m: DeliveryPlan,
  summary: RunSummaryInput,
  d: Delivery & { reviewUrl?: string },
  errors: string[],
  w: Written,
): Promise<Applied> {
  const planned = m.outputs.conclusion;
  // a failure to deliver makes the run a failure; a run cancelled before or during its delivery
  // (a push the cancel cut short) is cancelled, with the reason
  const conclusion =
    planned === 'cancelled' || h.deadlines.cancelled.aborted
      ? 'cancelled'
      : errors.length
        ? 'failure'
        : planned;
  const error = [summary.error, ...errors].filter(Boolean).join(' ') || undefined;
  const branch = d.push?.branch ?? summary.branch;
  const commitSha = d.push?.sha ?? summary.commitSha;
  const t = h.transcript
    ? await h.transcript
        .publish(
          {
            conclusion,
            ...(error ? { error } : {}),
            ...(d.push ? { branch: d.push.branch, commitSha: d.push.sha } : {}),
          },
          h.deadlines.upload(),
          h.deadlines.cancelled.aborted,
        )
        .catch((err: Error): TranscriptPublished => {
          h.say.warning(`patchloop: the transcript could not be published (${err.message}).`);
          return {};
        })
    : undefined;
  const pr = openedPr(d);
  const compare = d.pr && (d.pr.kind === 'forbidden' || d.pr.kind === 'failed') ? d.pr.compareUrl : undefined;
  const reviewUrl = d.reviewUrl ?? summary.reviewUrl;
  const input: RunSummaryInput = {
    ...summary,
    conclusion,
    branch,
    commitSha,
    prUrl: pr?.url ?? summary.prUrl,
    prNumber: pr?.number ?? summary.prNumber,
    compareUrl: compare ?? summary.compareUrl,
    pushed: Boolean(d.push) || summary.pushed === true,
    runUrl: h.runUrl,
    serverUrl: h.serverUrl,
    repository: h.repository,
    reviewUrl,
    ...(summary.review ? { review: { ...summary.review, posted: reviewUrl !== undefined } } : {}),
    structuredOutput: m.answer !== undefined ? prettyJson(m.answer) : undefined,
    ...(t?.location ? { transcriptLocation: t.location } : {}),
    ...(t?.url ? { artifactUrl: t.url } : {}),
    ...(t?.name ? { artifactName: t.name } : {}),
    error,
    notices: [...(summary.notices ?? []), ...d.notices, ...h.notices.slice(h.noticesFrom)],
  };
  // stage: agent — the plan is handed on with where its transcript went and this job's notices
  const deliveryArtifact = h.handOff
    ? await h.handOff(h.deadlines.upload(), {
        ...m,
        summary: {
          ...m.summary,
          ...pick(input, ['transcriptLocation', 'artifactUrl', 'artifactName', 'notices']),
        },
        outputs: {
          ...m.outputs,
          ...(t?.url ? { artifactUrl: t.url } : {}),
        },
        marker: {
          sessionId: m.marker.sessionId,
          ...(t?.name ? { artifactName: t.name } : {}),
          ...(t?.id !== undefined ? { artifactId: t.id } : {}),
        },
      })
    : undefined;
  // (what the hand-off said is this job's to tell)
  if (h.handOff)
    input.notices = [...(summary.notices ?? []), ...d.notices, ...h.notices.slice(h.noticesFrom)];
  const text = markdownSafely(input, { redact: h.redact }, h.say.warning);
  // The outputs and the step summary are local and cannot hang: before the comment's request.
  try {
    await h.runner.appendSummary(
      markdownSafely(input, { redact: h.redact, maxBytes: STEP_SUMMARY_MAX_BYTES }, h.say.warning),
    );
  } catch (err) {
    h.say.warning(`patchloop: the step summary could not be written (${(err as Error).message}).`);
  }
  const outputs: DeliveredOutputs = {
    conclusion,
    branch: input.branch,
    commitSha: input.commitSha,
    prNumber: input.prNumber,
    prUrl: input.prUrl,
    commentUrl: w.comment?.url,
    transcriptPath: m.outputs.transcriptPath,
    artifactUrl: t?.url ?? m.outputs.artifactUrl,
    model: m.outputs.model,
    turns: m.outputs.turns,
    usage: m.outputs.usage as unknown as Usage,
    ...(m.answer !== undefined ? { structuredOutput: m.answer } : {}),
    ...(reviewUrl ? { reviewUrl } : {}),
    ...(deliveryArtifact ? { deliveryArtifact } : {}),
  };
  h.runner.setOutputs(outputs);
  let final = conclusion;
  let finalError = error;
  if (w.comment) {
    const comment = w.comment;
    const bound = h.deadlines.finalSummary();
    // An early summary still on its way is let land first, so it cannot overwrite this one.
    if (w.commentWrite) await within(w.commentWrite, bound);
    const made = w.marker(branch, t ?? {});
    comment.marker = h.finalMarker ? h.finalMarker(made) : made;
    const t0 = performance.now();
    const ok = await within(comment.finish(text), bound).then((v) => v === true);
    h.timing?.('summary comment', performance.now() - t0);
    if (!ok) {
      h.say.warning('patchloop: the summary comment could not be written; it is in the step summary.');
      // green only when delivered: a summary that did not land is a failure, unless the run already is one
      if (!FAILING.has(final)) {
        final = 'failure';
        finalError = [finalError, 'The summary comment could not be written (it is in the step summary).']
          .filter(Boolean)
          .join(' ');
      }
    }
    // the comment posted anew (the first was deleted) has its own address
    if (!ok || comment.url !== outputs.commentUrl)
      h.runner.setOutputs({ ...outputs, conclusion: final, commentUrl: comment.url });
  }
  try {
    h.outcome?.({ ...input, conclusion: final, error: finalError });
  } catch (err) {
    h.say.warning(`patchloop: the outcome could not be logged (${(err as Error).message}).`);
  }
  const code = FAILING.has(final) ? 1 : 0;
  if (code)
    h.runner.setFailed(h.redact(finalError ? `patchloop: ${final}: ${finalError}` : `patchloop: ${final}`));
  return { code, conclusion: final, delivery: d };
}

function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** `work`, or undefined once `signal` aborts (the work is left to finish unwatched). */
function within<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve) => {
    const stop = () => resolve(undefined);
    signal.addEventListener('abort', stop, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', stop);
        resolve(v);
      },
      () => {
        signal.removeEventListener('abort', stop);
        resolve(undefined);
      },
    );
  });
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
