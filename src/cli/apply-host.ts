// `patchloop run`'s ending as data (issue 37): the delivery plan of a local run and the host apply
// (src/delivery/apply.ts) is given to apply it. A local run's work stays local: the commit is made
// on the local branch before the plan is built, the plan names it, and it is applied with no
// target — nothing is pushed, proposed or posted, and this host has no GitHub to do it with. What
// apply writes goes where the CLI's ending always went: its events and summary line to the
// transcript, the summary it makes to stdout (printed by the caller), the conclusion to the exit
// status.
import { basename } from 'node:path';
import type { ApplyHost, TranscriptEnd } from '../delivery/apply.js';
import { PLAN_SCHEMA_VERSION, planOutputs, planSummary, type DeliveryPlan } from '../delivery/plan.js';
import type { Redactor, TranscriptWriter } from '../protocol/transcript.js';
import type { RunSummaryInput } from '../report/summary.js';

/** What the plan of a local run is made of. */
export interface LocalRun {
  /** the run's id (`YYYYMMDDTHHMMSS-hex`, the transcript's session id) */
  id: string;
  /** the checkout */
  root: string;
  /** the commit the work started from, and the branch it was on (undefined: a detached HEAD) */
  startedFrom: { commit: string; branch: string | undefined };
  /** the commit made on the local branch, if any */
  commit?: { branch: string; sha: string };
  /** the run's summary as the CLI knows it before the plan is applied */
  summary: RunSummaryInput;
  conclusion: DeliveryPlan['outputs']['conclusion'];
  transcriptPath: string;
  redact: Redactor;
}

// eslint-disable-next-line no-control-regex -- a line field of the plan holds no control character
const ONE_LINE = /^[^\u0000-\u001f\u007f]{0,4096}$/;

/**
 * The plan's run and session ids, from the CLI's run id: the plan's schema takes digits (a
 * workflow run's), so the time stamp is the run and the random part, in decimal, the session.
 */
export function localIds(id: string): { runId: string; sessionId: string } {
  const [stamp = '', random = ''] = id.split('-');
  const runId = stamp.replace(/\D/g, '').slice(0, 20) || '0';
  const n = /^[0-9a-f]{1,12}$/i.test(random) ? parseInt(random, 16) : 0;
  return { runId, sessionId: `${runId}-${n}` };
}

/**
 * The delivery plan of a local run: its summary and outputs, the commit it made on the local
 * branch (with the commit it started from), and no pull request, comment or review. `repository`
 * is `local/<the checkout's folder>`: the run has no repository on GitHub.
 */
export function localPlan(r: LocalRun): DeliveryPlan {
  const { runId, sessionId } = localIds(r.id);
  const name =
    basename(r.root)
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .slice(0, 190) || 'checkout';
  const summary = planSummary(r.summary, r.redact);
  return {
    schema: PLAN_SCHEMA_VERSION,
    repository: `local/${name}`,
    runId,
    runAttempt: '1',
    workflowRef: '',
    baseCommit: r.startedFrom.commit,
    // the commit is on the local branch already; its base is where the run started
    ...(r.commit
      ? {
          headCommit: r.commit.sha,
          branch: r.commit.branch,
          prBase: r.startedFrom.branch ?? r.startedFrom.commit,
        }
      : {}),
    prHead: false,
    openPr: false,
    draft: false,
    prTitle: '',
    prBody: '',
    commentText: '',
    summary: summary as unknown as Record<string, unknown>,
    outputs: planOutputs(r.summary, r.conclusion, {
      ...(ONE_LINE.test(r.transcriptPath) ? { transcriptPath: r.transcriptPath } : {}),
    }),
    marker: { sessionId },
  };
}

export interface CliHostOptions {
  plan: DeliveryPlan;
  transcript: TranscriptWriter;
  redact: Redactor;
  /** writes the transcript's summary line (and closes the transcript) */
  summaryLine(end: TranscriptEnd): void;
  /** the summary as apply made it, with the conclusion apply came to: what the CLI prints */
  ended(input: RunSummaryInput): void;
  /** a warning of apply's, for stderr */
  warn(message: string): void;
}

/**
 * The CLI's ApplyHost: no GitHub, no comment, no step summary or outputs (the CLI has none), no
 * review to post, no hand-off; the transcript is the CLI's, and nothing waits on a deadline.
 */
export function cliHost(o: CliHostOptions): ApplyHost {
  const never = new AbortController().signal;
  return {
    runId: o.plan.runId,
    repository: o.plan.repository,
    redact: (t) => o.redact(t),
    notices: [],
    noticesFrom: 0,
    say: { info: () => undefined, warning: o.warn },
    runner: {
      appendSummary: () => Promise.resolve(),
      setOutputs: () => undefined,
      // the summary's Outcome and Error lines, and the exit status, say it
      setFailed: () => undefined,
    },
    outcome: o.ended,
    transcript: {
      event: (kind, fields) => o.transcript.event(kind, fields),
      publish: (end) => {
        o.summaryLine(end);
        return Promise.resolve({ location: o.transcript.path });
      },
    },
    deadlines: {
      cancelled: never,
      earlySummary: () => never,
      push: () => never,
      upload: () => never,
      finalSummary: () => never,
    },
  };
}
