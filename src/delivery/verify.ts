// Green only when delivered (issue 37): after the writes, what the summary is about to claim is
// read back. The branch on origin must be the pushed commit (asked of origin itself, as the push
// went) and the PR must exist with that branch of this repository as its head; each part that did
// not land is named.
import type { GitHubClient } from '../github/octokit.js';
import { statusOf } from '../github/octokit.js';

export interface Landed {
  /** the commit pushed to the branch */
  push?: { branch: string; sha: string };
  /** the PR opened or updated for it */
  pr?: { number: number };
}

export interface ReadBack {
  github: GitHubClient;
  owner: string;
  repo: string;
  /** the commit origin's branch is at now (git ls-remote through the checkout's origin) */
  tipOf(branch: string): Promise<string | undefined>;
}

/** What did not land, one sentence each; empty when everything the facts claim is there. */
export async function notLanded(r: ReadBack, facts: Landed): Promise<string[]> {
  const missing: string[] = [];
  const push = facts.push;
  if (push) {
    try {
      const tip = await r.tipOf(push.branch);
      if (tip === undefined)
        missing.push(`the branch \`${push.branch}\` is not on origin although the push reported it`);
      else if (tip !== push.sha)
        missing.push(
          `the branch \`${push.branch}\` on origin is at ${tip.slice(0, 12)}, not the pushed commit ${push.sha.slice(0, 12)}`,
        );
    } catch (err) {
      missing.push(`the branch \`${push.branch}\` could not be read back (${(err as Error).message})`);
    }
  }
  if (facts.pr) {
    const n = facts.pr.number;
    try {
      const { data } = await r.github.rest.pulls.get({ owner: r.owner, repo: r.repo, pull_number: n });
      const here = `${r.owner}/${r.repo}`.toLowerCase();
      if (push && (data.head.ref !== push.branch || data.head.repo?.full_name?.toLowerCase() !== here))
        missing.push(
          `pull request #${n} points at \`${data.head.repo?.full_name ?? '?'}:${data.head.ref}\`, not \`${push.branch}\` of ${r.owner}/${r.repo}`,
        );
    } catch (err) {
      missing.push(
        statusOf(err) === 404
          ? `pull request #${n} does not exist although it was reported opened`
          : `pull request #${n} could not be read back (${(err as Error).message})`,
      );
    }
  }
  return missing;
}

/** The sentence a run that did not fully land fails with. */
export function notLandedError(missing: readonly string[]): string {
  return `Not everything was delivered: ${missing.join('; ')}.`;
}
