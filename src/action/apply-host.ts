// What applying a delivery plan (src/delivery/apply.ts) needs of the action's job: the runner's
// files and log, the deadlines of a cancelled run's ending (ending.ts GRACE), the transcript, and
// how a drafted review is posted. One host for every stage; each stage says what it adds.
import type { ApplyHost, ApplyTranscript, TranscriptEnd } from '../delivery/apply.js';
import type { DeliveryPlan } from '../delivery/plan.js';
import { chooseArtifactUploader, transcriptArtifactName } from '../github/delivery/artifact.js';
import { TrackingComment, type SessionMarker } from '../github/comment.js';
import { GRACE, type Ending } from './ending.js';
import { setRunOutputs } from './outputs.js';
import { preparePublishing, publishTranscript } from './transcript-publish.js';
import { postDraftedReview } from './review.js';
import * as core from './runner-commands.js';
import type { RunState } from './state.js';
import { timed, timing } from './timings.js';

/** The transcript upload's deadline outside a cancel (a cancelled run's is its grace period). */
const UPLOAD_TIMEOUT_MS = 90_000;
/** The final comment edit's, outside a cancel. */
const COMMENT_TIMEOUT_MS = 60_000;

export interface HostOptions {
  ending?: Ending;
  /** the notices from this index on are this job's own, beyond the plan's */
  noticesFrom: number;
  /** writes the transcript's summary line (and closes it) */
  summaryLine?: (end: TranscriptEnd) => void;
  /** posts the drafted review (stage: all, stage: deliver) */
  postsReview: boolean;
  /** posts a summary comment when the run has none (stage: deliver) */
  postsComment: boolean;
  /** called once the push is over (or there is none) */
  afterPush?: () => void;
  /** the final summary's marker with what this job adds (joined requests, a sticky review's history) */
  finalMarker?: (marker: SessionMarker) => SessionMarker;
  /** stage: agent — hands the plan on */
  handOff?: (signal: AbortSignal, plan: DeliveryPlan) => Promise<string | undefined>;
}

export function actionHost(s: RunState, o: HostOptions): ApplyHost {
  const { ending } = o;
  const never = new AbortController().signal;
  // delivery gets what is left of the budget, and at least a minute to push
  const budgetMs = () => Math.max(60_000, s.started + s.inputs.timeoutMinutes * 60_000 - Date.now());
  const cancelled = ending?.cancelled ?? never;
  const uploads = s.inputs.uploadArtifact && chooseArtifactUploader(s.env).uploader !== undefined;
  const transcript: ApplyTranscript | undefined = s.transcript
    ? {
        ...(uploads ? { expectedName: transcriptArtifactName(s.env, s.task.number) } : {}),
        event: (kind, fields) => s.transcript?.event(kind, fields),
        publish: async (end, signal, hurried) => {
          try {
            o.summaryLine?.(end);
          } catch (err) {
            core.warning(`patchloop: the transcript could not be finished (${(err as Error).message}).`);
          }
          const location = await timed('transcript page and artifact', publishTranscript(s, signal, hurried));
          return {
            ...(location ? { location } : {}),
            ...(s.artifactUrl ? { url: s.artifactUrl } : {}),
            ...(s.artifactName ? { name: s.artifactName } : {}),
            ...(s.artifactId !== undefined ? { id: s.artifactId } : {}),
          };
        },
      }
    : undefined;
  return {
    github: s.github,
    owner: s.task.owner,
    repo: s.task.repo,
    ...(s.task.number !== undefined && !s.inputs.dryRun ? { issueNumber: s.task.number } : {}),
    runId: s.runner.runId,
    runUrl: s.runUrl,
    serverUrl: s.runner.serverUrl,
    repository: s.runner.repository,
    ...(s.task.requester?.login ? { requester: s.task.requester.login } : {}),
    redact: (t) => s.redact(t),
    notices: s.notices,
    noticesFrom: o.noticesFrom,
    say: { info: core.info, warning: core.warning },
    runner: {
      appendSummary: core.appendSummary,
      setOutputs: (out) => setRunOutputs(out, s.redact),
      setFailed: core.setFailed,
    },
    outcome: (input) => s.log.outcome(input),
    ...(s.comment ? { comment: s.comment } : {}),
    ...(o.postsComment
      ? {
          createComment: (text, marker) =>
            TrackingComment.create(
              {
                github: s.github,
                owner: s.task.owner,
                repo: s.task.repo,
                issueNumber: s.task.number!,
                redact: (t) => s.redact(t),
              },
              text,
              marker,
            ).then((c) => (s.comment = c)),
        }
      : {}),
    ...(o.finalMarker ? { finalMarker: o.finalMarker } : {}),
    ...(s.commentWrite ? { commentWrite: s.commentWrite } : {}),
    ...(o.postsReview
      ? {
          postReview: async (draft) => {
            await postDraftedReview(s, draft, await s.contextReady);
            return s.reviewUrl!;
          },
        }
      : {}),
    ...(transcript ? { transcript } : {}),
    ...(o.handOff ? { handOff: o.handOff } : {}),
    ...(o.afterPush ? { afterPush: o.afterPush } : {}),
    deadlines: {
      cancelled,
      earlySummary: () => ending?.deadline(undefined, GRACE.earlySummary) ?? never,
      push: () => ending?.deadline(budgetMs(), GRACE.push) ?? AbortSignal.timeout(budgetMs()),
      upload: () =>
        ending?.deadline(UPLOAD_TIMEOUT_MS, GRACE.upload) ?? AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
      finalSummary: () =>
        ending?.deadline(COMMENT_TIMEOUT_MS, GRACE.finalSummary, true) ??
        AbortSignal.timeout(COMMENT_TIMEOUT_MS),
    },
    // the artifact client loads while git pushes (a cancelled run's push has the time to itself)
    whilePushing: () => {
      if (!cancelled.aborted) preparePublishing(s);
    },
    timing,
  };
}
