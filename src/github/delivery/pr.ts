// The pull request that carries a run's branch, or, when GitHub will not let Actions open one,
// the compare link a person can open it from.
import type { GitHubClient } from '../octokit.js';
import { apiMessageOf, describeGitHubError, statusOf } from '../octokit.js';
import { COMMENT_LIMIT } from '../comment.js';
import { commitMessage } from './commit-message.js';
import type { Task } from '../context/task.js';

export interface PullRequestInput {
  owner: string;
  repo: string;
  /** branch in this repository */
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  /** GITHUB_SERVER_URL, for the compare link */
  serverUrl: string;
  /**
   * The branch may have its PR already (a follow-up's branch): look for an open one first, so
   * the PR is updated by the push alone and no create is tried (GitHub answers it 422).
   */
  mayExist?: boolean;
}

export type PullRequestOutcome =
  | { kind: 'created' | 'existing'; number: number; url: string }
  /** Actions may not create PRs here (an organisation or repository setting), or the token lacks the scope */
  | { kind: 'forbidden'; compareUrl: string; message: string }
  | { kind: 'failed'; compareUrl: string; message: string };

/**
 * The PR's title and whether it is a draft. `unfinished` says why the run's work is not done
 * (tests still failing, a budget used up, an error): then the PR is a draft, whatever `draft-pr`
 * says, and its title claims no fix.
 */
export function proposalFields(o: {
  task: Task;
  runUrl: string;
  /** the `draft-pr` input */
  draft: boolean;
  unfinished?: string;
}): { prTitle: string; draft: boolean } {
  const subject = commitMessage({
    task: o.task,
    runUrl: o.runUrl,
    ...(o.unfinished ? { unfinished: o.unfinished } : {}),
  }).split('\n')[0]!;
  return { prTitle: subject, draft: o.draft || o.unfinished !== undefined };
}

/**
 * The PR body's last line about the issue or PR the work belongs to: `Fixes #N` only for finished
 * work (GitHub closes issue N when the PR merges), `Refs #N` for unfinished work, `Follows up #N`
 * for a PR's follow-up; undefined when there is neither.
 */
export function issueReference(
  plan: { fixes?: number; pullNumber?: number },
  unfinished?: string,
): string | undefined {
  if (plan.fixes !== undefined) return `${unfinished ? 'Refs' : 'Fixes'} #${plan.fixes}`;
  if (plan.pullNumber !== undefined) return `Follows up #${plan.pullNumber}`;
  return undefined;
}

export function compareUrl(
  serverUrl: string,
  owner: string,
  repo: string,
  base: string,
  head: string,
): string {
  const enc = (s: string) => s.split('/').map(encodeURIComponent).join('/');
  return `${serverUrl.replace(/\/+$/, '')}/${owner}/${repo}/compare/${enc(base)}...${enc(head)}?expand=1`;
}

/** PR bodies share the comment limit. */
function fitBody(body: string): string {
  if (body.length <= COMMENT_LIMIT) return body;
  const note = '\n\n[… cut to fit GitHub’s limit]';
  return body.slice(0, COMMENT_LIMIT - note.length) + note;
}

export async function openPullRequest(
  github: GitHubClient,
  input: PullRequestInput,
): Promise<PullRequestOutcome> {
  const { owner, repo, head, base } = input;
  const compare = compareUrl(input.serverUrl, owner, repo, base, head);
  const found = () =>
    github.rest.pulls
      .list({ owner, repo, head: `${owner}:${head}`, state: 'open', per_page: 1 })
      .then((r) => r.data[0])
      .catch(() => undefined);
  if (input.mayExist) {
    const existing = await found();
    if (existing) return { kind: 'existing', number: existing.number, url: existing.html_url };
  }
  const create = (draft: boolean) =>
    github.rest.pulls.create({
      owner,
      repo,
      head,
      base,
      title: input.title.slice(0, 256),
      body: fitBody(input.body),
      draft,
    });
  try {
    const { data } = await create(input.draft);
    return { kind: 'created', number: data.number, url: data.html_url };
  } catch (err) {
    const status = statusOf(err);
    const message = apiMessageOf(err);
    const details = JSON.stringify((err as { response?: { data?: unknown } }).response?.data ?? '');
    if (status === 403 && /not permitted to create or approve pull requests/i.test(message)) {
      return {
        kind: 'forbidden',
        compareUrl: compare,
        message:
          'GitHub Actions is not permitted to create pull requests in this repository (Settings → Actions → General → ' +
          '“Allow GitHub Actions to create and approve pull requests”). Open it from the compare link instead.',
      };
    }
    if (status === 422 && /already exists/i.test(details)) {
      const existing = await found();
      if (existing) return { kind: 'existing', number: existing.number, url: existing.html_url };
    }
    if (status === 422 && input.draft && /draft/i.test(details)) {
      // Draft PRs are not available on every plan; an ordinary PR is the next best thing.
      try {
        const { data } = await create(false);
        return { kind: 'created', number: data.number, url: data.html_url };
      } catch (again) {
        return {
          kind: 'failed',
          compareUrl: compare,
          message: describeGitHubError(again, 'create-pull', 'Opening the pull request'),
        };
      }
    }
    const described = describeGitHubError(err, 'create-pull', 'Opening the pull request');
    return { kind: status === 403 ? 'forbidden' : 'failed', compareUrl: compare, message: described };
  }
}
