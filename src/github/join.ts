// Joining (CONTRACT §13): a trigger on an issue or PR while a run of the same workflow works on it
// does not start a second agent. The running run reads the late requests at its next turn
// (lateRequests); the new run finds the running one (findWorkingRun) and waits until it took the
// request, or finished its loop without it (readWorkingMarker, readRunState).
import { readSessionMarker, type SessionMarker } from './comment.js';
import type { IssueComment } from './context.js';
import { requestWord } from './event.js';
import type { GitHubClient } from './octokit.js';
import { statusOf } from './octokit.js';
import type { Actor } from './task.js';
import { isOwnText, mentionsPhrase } from './trigger.js';

/** A comment written after the running run's trigger that asks for something. */
export interface LateRequest {
  kind: 'issue-comment' | 'review-comment';
  id: number;
  author: Actor;
  body: string;
  createdAt: string;
  url?: string;
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
  const from = Date.parse(since);
  const out: LateRequest[] = [];
  for (const { kind, items } of await Promise.all(lists)) {
    for (const c of items) {
      if (kind === q.trigger.kind && q.trigger.id !== undefined && c.id <= q.trigger.id) continue;
      if (!(Date.parse(c.created_at) >= from)) continue;
      const login = c.user?.login;
      if (!login || isOwnText(c.body, login, q.ownLogins)) continue;
      const body = c.body ?? '';
      if (!joinableRequest(body, q.triggerPhrase)) continue;
      out.push({
        kind,
        id: c.id,
        author: { login, type: c.user?.type ?? 'User', ...(c.user?.id ? { id: c.user.id } : {}) },
        body,
        createdAt: c.created_at,
        ...(c.html_url ? { url: c.html_url } : {}),
      });
    }
  }
  return out.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
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
