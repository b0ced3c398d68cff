// What a review reads (CONTRACT §9, quiet reviews): the whole pull request, or — for an automatic
// review after patchloop reviewed the PR before — only the commits since the head it reviewed
// last: GitHub's compare of that head with the new one (`GET /compare/{base}...{head}`), kept to
// the files the PR changes (a merge of the base branch brings others). When the earlier head is
// no longer in the branch's history (a force-push), the whole PR is reviewed and the summary says so.
import { diffFileOf, type DiffFile, type PullFileWire } from './review-diff.js';
import { describeGitHubError, statusOf, type GitHubClient } from '../octokit.js';

/** The compare API lists at most this many files (and no more on later pages). */
export const COMPARE_FILES_MAX = 300;

export type ReviewScope =
  | { kind: 'whole'; /** why the whole PR although it was reviewed before */ why?: string }
  | {
      kind: 'since';
      /** the head reviewed last */
      from: string;
      /** the commits since it */
      commits: number;
      /** the diff since it, of the PR's files */
      files: DiffFile[];
    };

const short = (sha: string) => sha.slice(0, 7);

/** The scope of a review of `head` whose earlier review read `from`. Never throws: a failure reviews the whole PR. */
export async function scopeSince(
  github: GitHubClient,
  where: { owner: string; repo: string },
  from: string,
  head: string,
  prFiles: readonly DiffFile[],
): Promise<ReviewScope> {
  if (from === head)
    return {
      kind: 'whole',
      why: `its head ${short(head)} is the commit reviewed last, so it was reviewed again`,
    };
  let data: { status?: string; total_commits?: number; files?: PullFileWire[] };
  try {
    ({ data } = (await github.rest.repos.compareCommitsWithBasehead({
      owner: where.owner,
      repo: where.repo,
      basehead: `${from}...${head}`,
    })) as { data: typeof data });
  } catch (err) {
    if (statusOf(err) === 404)
      return {
        kind: 'whole',
        why: `the commit reviewed last, ${short(from)}, is no longer in its history (a force-push)`,
      };
    return {
      kind: 'whole',
      why: `what changed since ${short(from)} could not be read (${describeGitHubError(err, 'read-pull', 'Comparing the commits')})`,
    };
  }
  if (data.status !== 'ahead')
    return {
      kind: 'whole',
      why: `the commit reviewed last, ${short(from)}, is no longer in its history (a force-push)`,
    };
  const changed = data.files ?? [];
  if (changed.length >= COMPARE_FILES_MAX)
    return {
      kind: 'whole',
      why: `at least ${COMPARE_FILES_MAX} files changed since ${short(from)}, more than GitHub's compare lists`,
    };
  const inPr = new Set(prFiles.map((f) => f.path));
  const files = changed.filter((f) => inPr.has(f.filename)).map(diffFileOf);
  if (files.length === 0)
    return {
      kind: 'whole',
      why: `the commits since ${short(from)} change none of its files`,
    };
  return { kind: 'since', from, commits: data.total_commits ?? 0, files };
}
