// Joining (CONTRACT §13), the action's two sides. The running run (JoinWatch) reads, before each
// model turn, the requests written on its issue or PR since its trigger, and gives those of people
// allowed to trigger it to its agent as user messages; it says which it took in its tracking
// comment's marker. A new run (joinRunningRun) that finds such a run working hands its request
// over and ends, or waits for that run's loop to end and then continues its session as a follow-up:
// never two agents on one branch. Two runs started at the same moment, neither seeing the other
// at its start, settle it after posting their comments (yieldToEarlierRun): one yields.
import * as core from './runner-commands.js';
import type { PendingMessage } from '../agent/index.js';
import { commentBody, MAX_JOINED_IDS, readSessionMarker, type SessionMarker } from '../github/comment.js';
import { listIssueComments, type IssueComment } from '../github/context/context.js';
import { workflowPathOf } from '../github/follow-up/follow-up.js';
import { tokenLogin } from '../github/identity.js';
import {
  earlierWorkingComments,
  findWorkingComment,
  handedMarkerText,
  joinableRequest,
  lateRequests,
  markerTook,
  readRunState,
  readWorkingMarker,
  type LateRequest,
  type WorkingComment,
} from '../github/follow-up/join.js';
import { describeGitHubError } from '../github/octokit.js';
import { checkPermission, type PermissionDecision } from '../github/permission.js';
import { acknowledge } from '../github/reaction.js';
import { clip, sanitizeUntrusted } from '../github/sanitize.js';
import { ACTIONS_BOT_LOGIN } from '../github/context/trigger.js';
import { untilAborted } from './ending.js';
import { setRunOutputs } from './outputs.js';
import type { RunState } from './state.js';

/** A request that joined this run's session: what the transcript and the summary say of it. */
export interface JoinedRequest {
  kind: LateRequest['kind'];
  id: number;
  author: string;
  createdAt: string;
  url?: string;
}

/** The least time between two listings of the late requests (env PATCHLOOP_JOIN_INTERVAL_MS). */
const JOIN_INTERVAL_MS = 10_000;
/** How long a new run waits for the running one (env PATCHLOOP_JOIN_WAIT_MS). */
const JOIN_WAIT_MS = 5 * 60_000;
/** How often it looks (env PATCHLOOP_JOIN_POLL_MS). */
const JOIN_POLL_MS = 5_000;
/** A listing that takes longer is given up for this turn. */
const LISTING_TIMEOUT_MS = 15_000;
const REQUEST_CHARS = 20_000;
/** The tie-break's listing starts this long before the trigger. */
const SINCE_MARGIN_MS = 60_000;

function envMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = Number(env[name]);
  return env[name] !== undefined && env[name] !== '' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

/**
 * Whether this run takes late requests (and says so in its marker): a run with an issue or PR and
 * a tracking comment to say it in; a review starts afresh each time and takes none.
 */
export function takesJoins(s: RunState): boolean {
  return (
    s.task.number !== undefined &&
    s.task.mode !== 'review' &&
    !s.inputs.dryRun &&
    s.inputs.stage !== 'deliver'
  );
}

/** The running run's side: the `pendingMessages` the agent loop asks before each turn. */
export class JoinWatch {
  private last = -Infinity;
  private readonly seen = new Set<string>();
  private readonly permissions = new Map<string, Promise<PermissionDecision>>();
  private readonly interval: number;

  constructor(private readonly s: RunState) {
    this.interval = envMs(s.env, 'PATCHLOOP_JOIN_INTERVAL_MS', JOIN_INTERVAL_MS);
    const t = s.task.trigger;
    if (t.kind === 'issue-comment' || t.kind === 'review-comment') this.seen.add(`${t.kind}:${t.id}`);
  }

  readonly pending = async (o: { final: boolean }): Promise<PendingMessage[]> => {
    const { s } = this;
    if (!s.comment || s.task.number === undefined) return [];
    const now = Date.now();
    if (!o.final && now - this.last < this.interval) return [];
    this.last = now;
    let found: LateRequest[];
    try {
      const t = s.task.trigger;
      found = await lateRequests(s.github, {
        owner: s.task.owner,
        repo: s.task.repo,
        number: s.task.number,
        isPullRequest: s.task.isPullRequest,
        trigger: { kind: t.kind, ...('id' in t ? { id: t.id } : {}), createdAt: t.createdAt },
        triggerPhrase: s.inputs.triggerPhrase,
        ownLogins: [ACTIONS_BOT_LOGIN, ...(s.comment.author ? [s.comment.author] : [])],
        runId: s.runner.runId,
        signal: AbortSignal.timeout(LISTING_TIMEOUT_MS),
      });
    } catch (err) {
      core.info(
        `patchloop: the requests written since the trigger could not be listed (${describeGitHubError(err, 'read-issue', 'Listing the comments')}); trying again next turn.`,
      );
      return [];
    }
    const out: PendingMessage[] = [];
    for (const r of found) {
      const key = `${r.kind}:${r.id}`;
      if (this.seen.has(key)) continue;
      if (!r.handed && this.earlierRunsOwn(r)) {
        this.seen.add(key);
        continue;
      }
      const decision = await this.permission(r);
      if (!decision.allowed) {
        // A failed check is asked again next turn; a refusal stands.
        if (!decision.failed) this.seen.add(key);
        core.info(`patchloop: not taking the request ${r.url ?? r.id}: ${decision.reason}.`);
        continue;
      }
      this.seen.add(key);
      out.push(this.take(r, decision.level));
    }
    if (out.length > 0) s.comment.remark(joinedMarker(s, s.comment.marker));
    return out;
  };

  /**
   * A request written before the tracking comment of the session this run continues was that
   * run's (its trigger above all: a run that waited for it in a tie-break may have the earlier
   * trigger), not a late request of this one; one handed over to this run is its own.
   */
  private earlierRunsOwn(r: LateRequest): boolean {
    const c = this.s.earlier?.comment;
    if (!c || c.source !== 'comment') return false;
    if (r.kind === 'issue-comment') return r.id < c.id;
    return c.createdAt !== undefined && Date.parse(r.createdAt) < Date.parse(c.createdAt);
  }

  private permission(r: LateRequest): Promise<PermissionDecision> {
    const login = r.author.login.toLowerCase();
    let p = this.permissions.get(login);
    if (!p) {
      p = checkPermission(this.s.github, {
        owner: this.s.task.owner,
        repo: this.s.task.repo,
        actor: r.author,
        required: this.s.inputs.requiredPermission,
        allowedBots: this.s.inputs.allowedBots,
      });
      this.permissions.set(login, p);
      // a check that could not be made is made again next time
      void p.then((d) => {
        if (!d.allowed && d.failed) this.permissions.delete(login);
      });
    }
    return p;
  }

  private take(r: LateRequest, level: string): PendingMessage {
    const { s } = this;
    const joined: JoinedRequest = {
      kind: r.kind,
      id: r.id,
      author: r.author.login,
      createdAt: r.createdAt,
      ...(r.url ? { url: r.url } : {}),
    };
    s.joined.push(joined);
    core.info(
      `patchloop: @${r.author.login} asked while the run worked (${r.url ?? r.id}); the agent reads it next.`,
    );
    // the reaction says it was taken (a stage: agent token may write nothing but the comment)
    if (s.inputs.stage !== 'agent') {
      void acknowledge(s.github, {
        ...s.task,
        trigger: { kind: r.kind, id: r.id, body: r.body, createdAt: r.createdAt },
      }).then((a) => {
        if (!a.ok) core.warning(`patchloop: ${a.message}`);
      });
    }
    const who = `@${r.author.login}`;
    const request = clip(sanitizeUntrusted(r.body), REQUEST_CHARS).replace(/<(\/?)(request)/gi, '&lt;$1$2');
    const text = [
      `${who} (while you were working):`,
      '',
      `<request from="${who}" permission="${level}">`,
      request,
      '</request>',
      '',
      'Take this into account in the work you are doing; it is part of the same task.',
    ].join('\n');
    return {
      message: { role: 'user', content: text, timestamp: Date.now() },
      event: {
        source: r.kind,
        commentId: r.id,
        author: r.author.login,
        createdAt: r.createdAt,
        ...(r.url ? { url: r.url } : {}),
      },
    };
  }
}

/** The marker with the requests this run took (the latest ones, when there are very many). */
export function joinedMarker(s: RunState, base: SessionMarker | undefined): SessionMarker {
  const ids = (kind: JoinedRequest['kind']) =>
    s.joined
      .filter((j) => j.kind === kind)
      .map((j) => j.id)
      .slice(-MAX_JOINED_IDS);
  const issue = ids('issue-comment');
  const review = ids('review-comment');
  return {
    ...(base ?? { runId: s.runner.runId, sessionId: s.sessionId }),
    ...(issue.length ? { joined: issue } : {}),
    ...(review.length ? { joinedReview: review } : {}),
  };
}

/** The loop ended: a run waiting on this one now knows its request will not be taken here. */
export function markLoopDone(s: RunState): void {
  const m = s.comment?.marker;
  if (!s.comment || m?.loop !== 'working') return;
  s.comment.remark({ ...m, loop: 'done' });
}

export type JoinOutcome =
  /** no run to join or wait for (any more): this run goes on as any run */
  | { kind: 'go' }
  /** the request went to the running run (or this run gave up waiting): it ends here */
  | { kind: 'ended'; code: number }
  | { kind: 'cancelled' };

/**
 * The new run's side, before its tracking comment and any model request: when a run of this
 * workflow is working on the issue or PR, the request is handed to it (an ordinary request in a
 * comment) or waits for it to finish (anything else); either way no second agent starts beside it.
 */
export async function joinRunningRun(s: RunState, signal: AbortSignal): Promise<JoinOutcome> {
  const { task, inputs } = s;
  if (task.number === undefined || task.mode === 'review' || inputs.dryRun || !s.commentsListed)
    return { kind: 'go' };
  const listed = await s.commentsListed.catch(() => undefined);
  if (!listed) return { kind: 'go' };
  const t = task.trigger;
  const trigger = { kind: t.kind, ...('id' in t ? { id: t.id } : {}) };
  // Whose markers count: the token's identity, asked only when some marker could matter.
  const matters = (m: SessionMarker | undefined) =>
    m !== undefined &&
    (m.loop !== undefined || (trigger.id !== undefined && markerTook(m, trigger.kind, trigger.id)));
  if (!listed.some((c) => matters(readSessionMarker(c.body)))) return { kind: 'go' };
  let botLogin: string;
  try {
    botLogin = await tokenLogin(s.github);
  } catch (err) {
    core.info(`patchloop: whose comments are patchloop's could not be asked (${(err as Error).message}).`);
    return { kind: 'go' };
  }
  const working = findWorkingComment(listed, { botLogin, ownRunId: s.runner.runId, trigger });
  if (!working) return { kind: 'go' };
  const where = { owner: task.owner, repo: task.repo };
  const runUrl = `${s.runner.serverUrl}/${task.owner}/${task.repo}/actions/runs/${working.marker.runId}`;
  const handed = (unconfirmed = false) => handOver(s, { runUrl, commentUrl: working.url }, unconfirmed);
  if (trigger.id !== undefined && markerTook(working.marker, trigger.kind, trigger.id)) return handed();
  const workflowPath = workflowPathOf(s.env.GITHUB_WORKFLOW_REF, s.runner.repository);
  const running = async (): Promise<boolean> => {
    try {
      const state = await readRunState(s.github, { ...where, runId: working.marker.runId, workflowPath });
      if (!state.running) core.info(`patchloop: the run that worked here is not running (${state.why}).`);
      return state.running;
    } catch (err) {
      core.info(`patchloop: run ${working.marker.runId} could not be read (${(err as Error).message}).`);
      return true; // not known to have ended: keep waiting (bounded)
    }
  };
  if (working.marker.loop === undefined || !(await running())) return { kind: 'go' };
  const joinable = joinableTrigger(s);
  core.info(
    `patchloop: ${runUrl} is working on this; ${joinable ? 'handing the request to it' : 'waiting for it to finish before this run starts'}.`,
  );
  return waitForRun(s, { working, runUrl, joinable, running, handed }, signal);
}

/** Whether this run's request may join a running session (an ordinary request in a comment). */
export function joinableTrigger(s: RunState): boolean {
  const t = s.task.trigger;
  return (
    (t.kind === 'issue-comment' || t.kind === 'review-comment') &&
    joinableRequest(t.body, s.inputs.triggerPhrase)
  );
}

/**
 * Waits (bounded) until the working run took this run's request, or its loop ended without it
 * (this run then goes on, continuing its session), or it stopped running. At the end of the
 * wait, a joinable request is counted as handed over, anything else as not started (busy).
 */
async function waitForRun(
  s: RunState,
  o: {
    working: WorkingComment;
    runUrl: string;
    joinable: boolean;
    running: () => Promise<boolean>;
    handed: (unconfirmed?: boolean) => Promise<JoinOutcome>;
  },
  signal: AbortSignal,
): Promise<JoinOutcome> {
  const { task } = s;
  const t = task.trigger;
  const trigger = { kind: t.kind, ...('id' in t ? { id: t.id } : {}) };
  const where = { owner: task.owner, repo: task.repo };
  const wait = envMs(s.env, 'PATCHLOOP_JOIN_WAIT_MS', JOIN_WAIT_MS);
  const poll = envMs(s.env, 'PATCHLOOP_JOIN_POLL_MS', JOIN_POLL_MS);
  const deadline = Date.now() + wait;
  let phase = o.working.marker.loop;
  while (Date.now() < deadline) {
    try {
      await untilAborted(sleep(Math.min(poll, Math.max(0, deadline - Date.now()))), signal);
    } catch {
      return { kind: 'cancelled' };
    }
    let marker: SessionMarker | undefined;
    try {
      marker = await readWorkingMarker(s.github, { ...where, commentId: o.working.id });
    } catch (err) {
      core.info(`patchloop: the running run's comment could not be read (${(err as Error).message}).`);
      continue;
    }
    if (!marker) return refreshed(s, 'go');
    if (trigger.id !== undefined && markerTook(marker, trigger.kind, trigger.id)) return o.handed();
    // its final summary: its loop ended without this request, whose run now continues the session
    if (marker.loop === undefined) return refreshed(s, 'go');
    phase = marker.loop;
    if (!(await o.running())) return refreshed(s, 'go');
  }
  // Its agent finished: nothing runs beside this one (its delivery is still going).
  if (phase === 'done') return refreshed(s, 'go');
  if (o.joinable) return o.handed(true);
  return busy(s, { runUrl: o.runUrl, minutes: Math.round(wait / 60_000) });
}

/**
 * The tie-break of two runs started at nearly the same moment (CONTRACT §13; the order is
 * github/follow-up/join.ts earlierWorkingComments'): neither saw the other working when it listed the
 * comments at start, so each posted a tracking comment. Now, after its post and before any model
 * request, this run lists them again; when a run whose tracking comment came first is working
 * here and still running, this run yields to it:
 * - an ordinary request (joinableRequest) is handed over at once: the tracking comment becomes the
 *   hand-over note, whose hidden marker names the request for the winner (its JoinWatch takes it
 *   at its next turn, as any late request, after the same permission check); no model request,
 *   conclusion `skipped`;
 * - anything else (a plan, an approval, a review word, a label…) cannot join a running session:
 *   as in joinRunningRun, the run waits (bounded) for the winner's loop to end and then goes on
 *   (continuing its session as a follow-up), or ends saying the other run is still working. Its
 *   main.ts awaits this before preparing the workspace, so that going on after the wait finds the
 *   winner's session (a joinable request is checked beside the preparation instead).
 * A listing or identity that cannot be read lets the run go on, as joinRunningRun does.
 */
export async function yieldToEarlierRun(s: RunState, signal: AbortSignal): Promise<JoinOutcome> {
  const own = s.comment;
  const { task } = s;
  if (!own?.author || own.marker?.loop !== 'working' || task.number === undefined) return { kind: 'go' };
  // A run's comment this run did not see at its first listing was posted after it, so after this
  // run's trigger: the listing starts there (a minute earlier, for a trigger time of the
  // runner's clock), and reads one page on a long thread.
  const from = Date.parse(task.trigger.createdAt);
  const since = Number.isFinite(from) ? new Date(from - SINCE_MARGIN_MS).toISOString() : undefined;
  let listed: readonly IssueComment[];
  try {
    listed = await s.github.paginate(s.github.rest.issues.listComments, {
      owner: task.owner,
      repo: task.repo,
      issue_number: task.number,
      per_page: 100,
      ...(since ? { since } : {}),
      request: { signal: AbortSignal.any([signal, AbortSignal.timeout(LISTING_TIMEOUT_MS)]) },
    });
  } catch (err) {
    core.info(
      `patchloop: the comments could not be listed again (${describeGitHubError(err, 'read-issue', 'Listing the comments')}); going on.`,
    );
    return { kind: 'go' };
  }
  const earlier = earlierWorkingComments(listed, {
    botLogin: own.author,
    ownRunId: s.runner.runId,
    ownCommentId: own.id,
  });
  if (earlier.length === 0) return { kind: 'go' };
  const where = { owner: task.owner, repo: task.repo };
  const workflowPath = workflowPathOf(s.env.GITHUB_WORKFLOW_REF, s.runner.repository);
  const runningOf = (runId: string) => async (): Promise<boolean> => {
    try {
      const state = await readRunState(s.github, { ...where, runId, workflowPath });
      if (!state.running) core.info(`patchloop: the run that worked here is not running (${state.why}).`);
      return state.running;
    } catch (err) {
      core.info(`patchloop: run ${runId} could not be read (${(err as Error).message}).`);
      return true; // not known to have ended: it posted its comment moments ago
    }
  };
  // the first that still runs: every run that yields here yields to the same one
  let working: WorkingComment | undefined;
  for (const w of earlier) {
    if (await runningOf(w.marker.runId)()) {
      working = w;
      break;
    }
  }
  if (!working) return { kind: 'go' };
  const runUrl = `${s.runner.serverUrl}/${task.owner}/${task.repo}/actions/runs/${working.marker.runId}`;
  const joinable = joinableTrigger(s);
  core.info(
    `patchloop: ${runUrl} started on this at the same moment and posted its comment first; ${joinable ? 'handing the request to it' : 'waiting for it to finish before this run starts'}.`,
  );
  const t = task.trigger;
  const handed = (unconfirmed = false) => {
    if (joinable && (t.kind === 'issue-comment' || t.kind === 'review-comment'))
      own.extras = {
        ...own.extras,
        hidden: handedMarkerText({ runId: s.runner.runId, to: working.marker.runId, kind: t.kind, id: t.id }),
      };
    return handOver(s, { runUrl, commentUrl: working.url }, unconfirmed);
  };
  // The winner reads the request at its next turn: the note says so rather than waiting for it.
  if (joinable) return handed(true);
  return waitForRun(
    s,
    { working, runUrl, joinable, running: runningOf(working.marker.runId), handed },
    signal,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Going on after a wait: the earlier session is looked up in a listing made now. */
function refreshed(s: RunState, kind: 'go'): JoinOutcome {
  if (s.task.number !== undefined)
    s.commentsListed = listIssueComments(s.github, {
      owner: s.task.owner,
      repo: s.task.repo,
      issueNumber: s.task.number,
    });
  s.commentsListed?.catch(() => undefined);
  return { kind };
}

/** The request is the running run's now: a short reply, the step summary, conclusion `skipped`. */
async function handOver(
  s: RunState,
  o: { runUrl: string; commentUrl: string },
  unconfirmed = false,
): Promise<JoinOutcome> {
  const text = unconfirmed
    ? `Handed to the run already working on this: ${o.runUrl} — it reads this request at its next turn ([its comment](${o.commentUrl})).`
    : `Handed to the run already working on this: ${o.runUrl} ([its comment](${o.commentUrl})).`;
  return endWith(s, text);
}

/** A request that cannot join (a plan, an approval, a label) and a run that did not finish in time. */
function busy(s: RunState, o: { runUrl: string; minutes: number }): Promise<JoinOutcome> {
  return endWith(
    s,
    `A run is still working on this (${o.runUrl}) and did not finish within ${o.minutes} minute(s), so this request was not started beside it. Ask again once it has finished.`,
  );
}

async function endWith(s: RunState, text: string): Promise<JoinOutcome> {
  let commentUrl: string | undefined;
  const own = s.comment;
  if (own) {
    // This run's own tracking comment (the tie-break) becomes the note: without its session
    // marker, no later run takes it for a session to continue or a run to join.
    own.marker = undefined;
    if (await own.finish(text)) commentUrl = own.url;
  } else if (s.task.number !== undefined) {
    try {
      const { data } = await s.github.rest.issues.createComment({
        owner: s.task.owner,
        repo: s.task.repo,
        issue_number: s.task.number,
        body: commentBody(text, s.redact),
      });
      commentUrl = data.html_url;
    } catch (err) {
      core.warning(`patchloop: ${describeGitHubError(err, 'comment', 'Posting the reply')}`);
    }
  }
  core.info(`patchloop: ${s.redact(text)}`);
  await core.appendSummary(`**patchloop: skipped** — ${s.redact(text)}\n`).catch(() => undefined);
  setRunOutputs({ conclusion: 'skipped', ...(commentUrl ? { commentUrl } : {}) }, s.redact);
  return { kind: 'ended', code: 0 };
}
