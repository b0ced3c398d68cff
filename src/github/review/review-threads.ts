// Marking patchloop's own outdated review threads as resolved. The REST API cannot: only GraphQL
// knows threads (`PullRequestReviewThread`) and has `resolveReviewThread`. A thread is found by
// the database id of its first comment, which is what the REST listing gave the review context.
import { describeGitHubError, type GitHubClient } from '../octokit.js';

/** Lists a pull request's review threads, 100 at a time, with each one's first comment. */
export const THREADS_QUERY = `query ($owner: String!, $repo: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        nodes { id isResolved comments(first: 1) { nodes { databaseId } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`;

export const RESOLVE_MUTATION = `mutation ($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

interface ThreadsAnswer {
  repository?: {
    pullRequest?: {
      reviewThreads?: {
        nodes?: ({
          id?: unknown;
          isResolved?: unknown;
          comments?: { nodes?: ({ databaseId?: unknown } | null)[] };
        } | null)[];
        pageInfo?: { hasNextPage?: unknown; endCursor?: unknown };
      };
    } | null;
  } | null;
}

export interface ResolvedThreads {
  /** threads marked resolved now */
  resolved: number;
  /** what could not be done; the review and its replies stand either way */
  notices: string[];
}

/** Marks resolved the threads whose first comment is one of `firstCommentIds` (those already resolved are left). */
export async function resolveThreads(
  github: GitHubClient,
  where: { owner: string; repo: string; number: number },
  firstCommentIds: readonly number[],
): Promise<ResolvedThreads> {
  const out: ResolvedThreads = { resolved: 0, notices: [] };
  if (firstCommentIds.length === 0) return out;
  const wanted = new Set(firstCommentIds);
  const found = new Map<number, string>();
  try {
    let cursor: string | null = null;
    // at most 30 pages (3,000 threads): a pull request with more is not walked to the end
    for (let page = 0; page < 30 && found.size < wanted.size; page++) {
      const answer: ThreadsAnswer = await github.graphql<ThreadsAnswer>(THREADS_QUERY, {
        owner: where.owner,
        repo: where.repo,
        number: where.number,
        cursor,
      });
      const threads = answer.repository?.pullRequest?.reviewThreads;
      for (const t of threads?.nodes ?? []) {
        const first = t?.comments?.nodes?.[0]?.databaseId;
        if (
          typeof first === 'number' &&
          wanted.has(first) &&
          typeof t?.id === 'string' &&
          t.isResolved !== true
        )
          found.set(first, t.id);
      }
      const next = threads?.pageInfo;
      if (next?.hasNextPage !== true || typeof next.endCursor !== 'string') break;
      cursor = next.endCursor;
    }
  } catch (err) {
    out.notices.push(
      describeGitHubError(err, 'create-pull', `Listing the review threads of #${where.number}`),
    );
    return out;
  }
  for (const [first, threadId] of found) {
    try {
      await github.graphql(RESOLVE_MUTATION, { threadId });
      out.resolved++;
    } catch (err) {
      out.notices.push(
        describeGitHubError(err, 'create-pull', `Resolving the review thread of comment ${first}`),
      );
    }
  }
  return out;
}
