// Joining (CONTRACT §13): a trigger on an issue or PR while a run of the same workflow works on it
// does not start a second agent. The running run reads the late requests at its next turn
// (lateRequests); the new run finds the running one (findWorkingComment) and waits until it took
// the request, or finished its loop without it (readWorkingMarker, readRunState). Two runs started
// at the same moment, each unseen by the other, are told apart once both posted their comments
// (earlierWorkingComments): the one that yields names its request in a hand-over marker
// (handedMarkerText), which the other's lateRequests reads.
import { readSessionMarker, type SessionMarker } from '../comment.js';
import type { IssueComment } from '../context/context.js';
import { requestWord } from '../context/event.js';
import type { GitHubClient } from '../octokit.js';
import { statusOf } from '../octokit.js';
import type { Actor } from '../context/task.js';
import { isOwnText, mentionsPhrase } from '../context/trigger.js';

/** A comment written after the running run's trigger that asks for something. */
export interface LateRequest {
  kind: 'issue-comment' | 'review-comment';
  id: number;
  author: Actor;
  body: string;
  createdAt: string;
  url?: string;
  /** named by a run that yielded to this one (a hand-over marker) */
  handed?: true;
}

export interface LateRequestQuery {
  owner: string;
  repo: string;
  number: number;
  isPullRequest: boolean;
  /** the running run's trigger: what came after it counts */
  trigger: { kind: string; id?: number; createdAt: string };
  triggerPhrase: string;
  /** the logins whose comments are the run's own (its comment's author, the Actions bot) */
  ownLogins: readonly string[];
  /**
   * The running run's id: the requests of runs that yielded to it in a tie-break
   * (earlierWorkingComments), named by a hand-over marker on a comment of `ownLogins`, count too,
   * even when they were written before its trigger.
   */
  runId?: string;
  signal?: AbortSignal;
}

/**
 * A request a running session may take: one that asks for more of the same work. A review, a plan
 * or an approval is a run of its own kind (it changes the tools), never a message to a running one.
 */
export function joinableRequest(body: string, triggerPhrase: string): boolean {
  return mentionsPhrase(body, triggerPhrase) && requestWord(body, triggerPhrase) === undefined;
}

interface RawComment {
  id: number;
  body?: string | null;
  user?: { login?: string; type?: string; id?: number } | null;
  created_at: string;
  html_url?: string;
}

/**
 * The comments on the issue or PR (and, on a PR, its review comments) written after the trigger
 * that carry the phrase, are not patchloop's own and ask for more of the same work, oldest first.
 * GitHub's `since` filters by the time of the last update, so what was written before the trigger
 * (and edited since) is left out here by its creation.
 */
export async function lateRequests(github: GitHubClient, q: LateRequestQuery): Promise<LateRequest[]> {
  const since = q.trigger.createdAt;
  const request = q.signal ? { request: { signal: q.signal } } : {};
  const lists: Promise<{ kind: LateRequest['kind']; items: RawComment[] }>[] = [
    github
      .paginate(github.rest.issues.listComments, {
        owner: q.owner,
        repo: q.repo,
        issue_number: q.number,
        since,
        per_page: 100,
        ...request,
      })
      .then((items) => ({ kind: 'issue-comment' as const, items: items as RawComment[] })),
  ];
  if (q.isPullRequest)
    lists.push(
      github
        .paginate(github.rest.pulls.listReviewComments, {
          owner: q.owner,
          repo: q.repo,
          pull_number: q.number,
          since,
          per_page: 100,
          ...request,
        })
        .then((items) => ({ kind: 'review-comment' as const, items: items as RawComment[] })),
    );
  const out: LateRequest[] = [];
  const handed: HandedMarker[] = [];
  const listed = new Map<string, RawComment>();
  const considered = new Set<string>();
  const take = (kind: LateRequest['kind'], c: RawComment, handedOver = false) => {
    const login = c.user?.login;
    if (!login || isOwnText(c.body, login, q.ownLogins)) return;
    const body = c.body ?? '';
    if (!joinableRequest(body, q.triggerPhrase)) return;
    out.push({
      kind,
      id: c.id,
      author: { login, type: c.user?.type ?? 'User', ...(c.user?.id ? { id: c.user.id } : {}) },
      body,
      createdAt: c.created_at,
      ...(c.html_url ? { url: c.html_url } : {}),
      ...(handedOver ? { handed: true as const } : {}),
    });
  };
  for (const { kind, items } of await Promise.all(lists)) {
    for (const c of items) {
      listed.set(`${kind}:${c.id}`, c);
      if (q.runId !== undefined && kind === 'issue-comment' && ownLogin(c.user?.login, q.ownLogins)) {
        const m = readHandedMarker(c.body);
        if (m && m.to === q.runId) handed.push(m);
      }
      if (!writtenAfter({ kind, id: c.id, createdAt: c.created_at }, q.trigger)) continue;
      considered.add(`${kind}:${c.id}`);
      take(kind, c);
    }
  }
  // A request handed over by a run that yielded to this one, which may have been written before
  // this run's trigger (even in the same second): taken from the listing, or read by its id when
  // the listing (since this run's trigger) did not hold it. Its author's permission is checked
  // as any's.
  for (const m of handed) {
    const key = `${m.kind}:${m.id}`;
    if (considered.has(key) || (m.kind === q.trigger.kind && m.id === q.trigger.id)) continue;
    considered.add(key);
    const known = listed.get(key);
    if (known) {
      take(m.kind, known, true);
      continue;
    }
    if (m.kind === 'review-comment' && !q.isPullRequest) continue;
    try {
      const { data } =
        m.kind === 'issue-comment'
          ? await github.rest.issues.getComment({
              owner: q.owner,
              repo: q.repo,
              comment_id: m.id,
              ...request,
            })
          : await github.rest.pulls.getReviewComment({
              owner: q.owner,
              repo: q.repo,
              comment_id: m.id,
              ...request,
            });
      const c = data as RawComment & { issue_url?: string; pull_request_url?: string };
      // only a comment of this issue or PR
      const home = m.kind === 'issue-comment' ? c.issue_url : c.pull_request_url;
      if (!home?.endsWith(`/${m.kind === 'issue-comment' ? 'issues' : 'pulls'}/${q.number}`)) continue;
      take(m.kind, c, true);
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
  }
  return out.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
}

function ownLogin(login: string | undefined, ownLogins: readonly string[]): boolean {
  return login !== undefined && ownLogins.some((o) => o.toLowerCase() === login.toLowerCase());
}

/**
 * Whether a comment was written after the trigger: later by its creation time, or of the same
 * second and (of the same kind) a later id. GitHub's times have whole seconds, so two requests
 * of one second are told apart by their ids; ids of the two kinds are not comparable, so a
 * comment of the other kind of the same second counts as after.
 */
export function writtenAfter(
  c: { kind: string; id: number; createdAt: string },
  trigger: { kind: string; id?: number; createdAt: string },
): boolean {
  const at = Date.parse(c.createdAt);
  const from = Date.parse(trigger.createdAt);
  if (!(at >= from)) return false;
  if (at > from || c.kind !== trigger.kind || trigger.id === undefined) return true;
  return c.id > trigger.id;
}

/** Whether a marker says the run took the comment `id` of `kind`. */
export function markerTook(marker: SessionMarker, kind: string, id: number): boolean {
  const list = kind === 'review-comment' ? marker.joinedReview : marker.joined;
  return list?.includes(id) ?? false;
}

/** Another run's tracking comment this run may have to join or wait for. */
export interface WorkingComment {
  id: number;
  url: string;
  marker: SessionMarker;
}

/**
 * The latest tracking comment of another run (by `botLogin`, with a session marker) when it is of
 * a run that works or worked here while joining existed: its marker has a loop phase, or lists
 * `trigger` as taken. Undefined otherwise (no run to join: the run goes on as it would have).
 */
export function findWorkingComment(
  comments: readonly IssueComment[],
  o: { botLogin: string; ownRunId: string; trigger: { kind: string; id?: number } },
): WorkingComment | undefined {
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i]!;
    if (c.user?.login !== o.botLogin) continue;
    const marker = readSessionMarker(c.body);
    if (!marker) continue;
    // A re-run's earlier attempt is this run: it is continued, never joined (start-up.ts).
    if (marker.runId === o.ownRunId) return undefined;
    const took = o.trigger.id !== undefined && markerTook(marker, o.trigger.kind, o.trigger.id);
    return marker.loop !== undefined || took ? { id: c.id, url: c.html_url, marker } : undefined;
  }
  return undefined;
}

/** The marker the comment carries now; undefined when it is gone or carries none. */
export async function readWorkingMarker(
  github: GitHubClient,
  o: { owner: string; repo: string; commentId: number },
): Promise<SessionMarker | undefined> {
  try {
    const { data } = await github.rest.issues.getComment({
      owner: o.owner,
      repo: o.repo,
      comment_id: o.commentId,
    });
    return readSessionMarker(data.body);
  } catch (err) {
    if (statusOf(err) === 404) return undefined;
    throw err;
  }
}

/**
 * Whether the run a marker names still runs: a run of this repository's workflow `workflowPath`
 * whose status is not `completed`. Anything else (another workflow's run, one that is gone) counts
 * as not running: nobody there can take the request.
 */
export async function readRunState(
  github: GitHubClient,
  o: { owner: string; repo: string; runId: string; workflowPath: string | undefined },
): Promise<{ running: true; url: string } | { running: false; why: string }> {
  if (!o.workflowPath) return { running: false, why: "this run's workflow file is not known" };
  let run;
  try {
    ({ data: run } = await github.rest.actions.getWorkflowRun({
      owner: o.owner,
      repo: o.repo,
      run_id: Number(o.runId),
    }));
  } catch (err) {
    if (statusOf(err) === 404) return { running: false, why: `run ${o.runId} is not found` };
    throw err;
  }
  if (run.repository?.full_name?.toLowerCase() !== `${o.owner}/${o.repo}`.toLowerCase())
    return { running: false, why: `run ${o.runId} is not a run of ${o.owner}/${o.repo}` };
  const path = (run.path ?? '').replace(/@[^@]*$/, '').replace(`${o.owner}/${o.repo}/`, '');
  if (path !== o.workflowPath) return { running: false, why: `run ${o.runId} is a run of another workflow` };
  if (run.status === 'completed') return { running: false, why: `run ${o.runId} has completed` };
  return { running: true, url: run.html_url };
}

/**
 * The tie-break of runs that started at nearly the same moment (CONTRACT §13): each lists the
 * comments before either posted its tracking comment, so neither found the other working. Once
 * its own tracking comment is posted, a run lists them again; of the runs working here, the one
 * whose tracking comment came first (the lowest id) goes on, every other one yields to it.
 *
 * Why the tracking comment and not the trigger: each run lists after its own post, so the run
 * that posted second always sees the one that posted first, whatever the order of the listings
 * (its own comment, with the higher id, did not exist yet when the first one was made); by the
 * triggers' order, a run with the earlier trigger that posted second would see a later trigger
 * only, not knowing whether that run saw its own comment, and both would go on. The winner's
 * trigger may then be the later one: the loser names its request in a hand-over marker, and the
 * winner's lateRequests takes it from there (`runId`).
 *
 * Returns the working comments of other runs posted before `ownCommentId`, in the order they were
 * posted (the first still running is the one to yield to); empty when this run goes on.
 */
export function earlierWorkingComments(
  comments: readonly {
    id: number;
    html_url: string;
    body?: string | null;
    user?: { login?: string } | null;
  }[],
  o: { botLogin: string; ownRunId: string; ownCommentId: number },
): WorkingComment[] {
  const out: WorkingComment[] = [];
  for (const c of comments) {
    if (c.user?.login !== o.botLogin || !precedes(c.id, o.ownCommentId)) continue;
    const marker = readSessionMarker(c.body);
    // never itself (nor an earlier attempt of its own run), never a run whose loop ended
    if (!marker || marker.runId === o.ownRunId || marker.loop !== 'working') continue;
    out.push({ id: c.id, url: c.html_url, marker });
  }
  return out.sort((a, b) => a.id - b.id);
}

/** The tie-break's order: the tracking comment posted first (the lower id) goes first. */
export function precedes(a: number, b: number): boolean {
  return a < b;
}

/** What a run that yielded says in its hand-over note: which run took which request. */
export interface HandedMarker {
  /** the run that yielded */
  runId: string;
  /** the run that takes its request */
  to: string;
  kind: LateRequest['kind'];
  id: number;
}

const HANDED_MARKER = /<!-- patchloop:handed ([A-Za-z0-9_-]{1,400}) -->/;
const HANDED_TRAILER = new RegExp(`\n${HANDED_MARKER.source}$`);

export function handedMarkerText(m: HandedMarker): string {
  const { runId, to, kind, id } = m;
  return `<!-- patchloop:handed ${Buffer.from(JSON.stringify({ runId, to, kind, id }), 'utf8').toString('base64url')} -->`;
}

/** The hand-over marker a body ends with (patchloop's own hidden line, after the tracking marker). */
export function readHandedMarker(body: string | null | undefined): HandedMarker | undefined {
  const match = body ? HANDED_TRAILER.exec(`\n${body.replace(/\r\n?/g, '\n').trimEnd()}`) : null;
  if (!match) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const { runId, to, kind, id } = v as Record<string, unknown>;
  const run = (x: unknown): x is string => typeof x === 'string' && /^\d{1,20}$/.test(x);
  if (!run(runId) || !run(to) || (kind !== 'issue-comment' && kind !== 'review-comment')) return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
  return { runId, to, kind, id };
}
