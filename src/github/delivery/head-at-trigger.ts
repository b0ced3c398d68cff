// The commit a fork pull request's head was at when a comment asked for work. A comment names no
// commit, and the head read when the job runs is whatever the author pushed last: code the
// requester never saw, whose test script would then run. Only times GitHub itself records can
// say when the head moved. A commit's author and committer dates are written by its author (a
// commit pushed after the request may claim any earlier date), and the PR timeline's `committed`
// events carry only those dates; the head repository's activity (GET /repos/{o}/{r}/activity)
// lists every push and force push to the branch with the time GitHub received it. The head is
// taken only when that record shows it was the branch's tip before the request and nothing was
// pushed since; anything less (no record, an unreadable one, a push in the same second) is a
// refusal, never a guess.
import type { GitHubClient } from '../octokit.js';
import { apiMessageOf, statusOf } from '../octokit.js';

export type HeadAtTrigger = { ok: true; sha: string } | { ok: false; message: string };

export interface Activity {
  after?: string;
  ref?: string;
  timestamp?: string;
  activity_type?: string;
}

export interface HeadQuery {
  /** the head repository, owner/name ('(deleted fork)' when GitHub no longer has it) */
  headRepo: string;
  headRef: string;
  number: number;
  /** when GitHub recorded the triggering comment */
  triggerAt: string;
  /** the head as GitHub reports it now */
  currentHead: string;
}

const ASK_ELSEWHERE =
  'A review or a review comment on the pull request names the commit it was made on: ask there, or push the change to a branch of this repository.';

export async function headAtTrigger(github: GitHubClient, q: HeadQuery): Promise<HeadAtTrigger> {
  const [owner, repo] = q.headRepo.split('/');
  if (!owner || !repo)
    return refuse(q, `the fork ${q.headRepo} is gone, so GitHub has no record of its pushes`);
  const at = Date.parse(q.triggerAt);
  if (!Number.isFinite(at)) return refuse(q, `the request carries no time GitHub recorded`);
  const seen: Activity[] = [];
  try {
    // newest first; reading stops at the first push GitHub received before the request
    for await (const page of github.paginate.iterator(github.rest.repos.listActivities, {
      owner,
      repo,
      ref: `refs/heads/${q.headRef}`,
      direction: 'desc',
      per_page: 100,
    })) {
      seen.push(...(page.data as Activity[]));
      if (seen.some((a) => before(a, at))) break;
    }
  } catch (err) {
    const status = statusOf(err);
    return refuse(
      q,
      `GitHub's record of the pushes to ${q.headRepo} could not be read (${status ? `${status}: ` : ''}${apiMessageOf(err)})`,
    );
  }
  return headFromActivity(seen, q);
}

/** The decision on the branch's activity already read (exported for tests of the rule itself). */
export function headFromActivity(activity: readonly Activity[], q: HeadQuery): HeadAtTrigger {
  const at = Date.parse(q.triggerAt);
  const ref = `refs/heads/${q.headRef}`;
  const maybeOnBranch = activity
    .filter((a) => a.ref === undefined || a.ref === ref)
    .sort((a, b) => time(b) - time(a));
  const later = maybeOnBranch.find((a) => !before(a, at));
  if (later) {
    const what = later.activity_type === 'force_push' ? 'the branch was force-pushed' : 'a push';
    return {
      ok: false,
      message:
        `The head of pull request #${q.number} moved after the request (${what}${later.after ? ` to ${later.after.slice(0, 12)}` : ''} at ${later.timestamp ?? 'an unknown time'}, as GitHub recorded it; ` +
        `the request was made at ${q.triggerAt}). patchloop works only on the commit the requester saw; ask again to work on the new head.`,
    };
  }
  const last = maybeOnBranch.filter((a) => a.ref === ref).find((a) => before(a, at));
  if (!last) return refuse(q, `GitHub records no push to ${q.headRepo}:${q.headRef} before the request`);
  if (last.after !== q.currentHead) {
    return refuse(
      q,
      `the last push GitHub recorded before the request left ${q.headRepo}:${q.headRef} at ${(last.after ?? 'nothing').slice(0, 12)}, ` +
        `but the pull request's head is ${q.currentHead.slice(0, 12)}`,
    );
  }
  return { ok: true, sha: q.currentHead };
}

const time = (a: Activity): number => {
  const t = a.timestamp ? Date.parse(a.timestamp) : NaN;
  return Number.isFinite(t) ? t : Infinity;
};

/** Strictly before: a push in the same second as the request may have come after it. */
const before = (a: Activity, at: number): boolean => time(a) < at;

function refuse(q: HeadQuery, why: string): HeadAtTrigger {
  return {
    ok: false,
    message:
      `The commit pull request #${q.number} was at when the request was made cannot be established: ${why}. ` +
      `Commit dates are written by the fork's author and prove nothing, so the fork's code is not run. ${ASK_ELSEWHERE}`,
  };
}
