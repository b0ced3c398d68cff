// The commit a pull request's head was at when the request was made. A comment names no
// commit, and `refs/pull/N/head` fetched when the job runs is whatever the author pushed last:
// on a fork, code the requester never saw, whose test script would then run. The PR's timeline
// lists the comment and every change of the head (`committed`, `head_ref_force_pushed`) in the
// order GitHub recorded them; any head change after the comment means the head moved.
import type { GitHubClient } from './octokit.js';
import { describeGitHubError } from './octokit.js';

export type HeadAtTrigger = { ok: true; sha: string } | { ok: false; message: string };

interface TimelineEvent {
  event?: string;
  id?: number;
  sha?: string;
  commit_id?: string | null;
  created_at?: string;
  committer?: { date?: string };
}

export interface HeadQuery {
  owner: string;
  repo: string;
  number: number;
  /** the triggering comment */
  triggerId?: number;
  triggerAt: string;
  /** the head as GitHub reports it now */
  currentHead: string;
}

export async function headAtTrigger(github: GitHubClient, q: HeadQuery): Promise<HeadAtTrigger> {
  let events: TimelineEvent[];
  try {
    events = (await github.paginate(github.rest.issues.listEventsForTimeline, {
      owner: q.owner,
      repo: q.repo,
      issue_number: q.number,
      per_page: 100,
    })) as TimelineEvent[];
  } catch (err) {
    return {
      ok: false,
      message: `${describeGitHubError(err, 'read-issue', `Reading the timeline of pull request #${q.number}`)} Without it the commit the request was made on is unknown, so the fork's code is not run.`,
    };
  }
  return headFromTimeline(events, q);
}

/** The decision on a timeline already read (exported for tests of the rule itself). */
export function headFromTimeline(events: readonly TimelineEvent[], q: HeadQuery): HeadAtTrigger {
  const at = Date.parse(q.triggerAt);
  let seenTrigger = false;
  for (const e of events) {
    if (e.event === 'commented' && q.triggerId !== undefined && e.id === q.triggerId) {
      seenTrigger = true;
      continue;
    }
    if (e.event !== 'committed' && e.event !== 'head_ref_force_pushed') continue;
    // A force push carries the server's time; a commit only the date its author wrote into it,
    // which says nothing about when it was pushed, hence the order as well.
    const when = e.event === 'committed' ? e.committer?.date : e.created_at;
    const later = seenTrigger || (when !== undefined && Date.parse(when) > at);
    if (!later) continue;
    const sha = (e.event === 'committed' ? e.sha : e.commit_id) ?? '';
    const what =
      e.event === 'committed' ? `commit ${sha.slice(0, 12)} was added` : 'the branch was force-pushed';
    return {
      ok: false,
      message:
        `The head of pull request #${q.number} moved after the request (${what}${when ? ` at ${when}` : ''}). ` +
        'patchloop works only on the commit the requester saw; ask again to work on the new head.',
    };
  }
  return { ok: true, sha: q.currentHead };
}
