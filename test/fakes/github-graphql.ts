// The fake GitHub's GraphQL endpoint. Every document is parsed, validated and executed against
// GitHub's published schema (@octokit/graphql-schema), so a query or mutation patchloop sends
// with a misspelt field, a wrong argument or a wrong variable type fails here as it would there.
// Only the fields patchloop asks for have data behind them.
import { readFileSync } from 'node:fs';
import { buildSchema, graphqlSync, type GraphQLSchema } from 'graphql';

let schema: GraphQLSchema | undefined;

/** GitHub's schema, built once per process (the SDL is large: a few hundred milliseconds). */
function githubSchema(): GraphQLSchema {
  if (!schema) {
    // read beside the package (its index parses the whole JSON form on import, for every test file)
    const sdl = readFileSync(
      new URL('../../node_modules/@octokit/graphql-schema/schema.graphql', import.meta.url),
      'utf8',
    );
    schema = buildSchema(sdl, { assumeValidSDL: true });
  }
  return schema;
}

/** A review thread as the fake keeps it: named by its first comment's database id. */
export interface FakeThread {
  firstCommentId: number;
  isResolved: boolean;
}

export interface GraphQLState {
  viewerLogin: string;
  owner: string;
  repo: string;
  /** the review threads of a pull request, oldest first */
  threadsOf(number: number): FakeThread[];
  /** marks the thread of that first comment resolved; false when there is none */
  resolve(firstCommentId: number): boolean;
}

export const threadNodeId = (firstCommentId: number) => `PRRT_fake${firstCommentId}`;

/** Answers one GraphQL request body the way api.github.com/graphql does (HTTP 200 with `errors` for a bad document). */
export function answerGraphQL(body: unknown, state: GraphQLState): { data?: unknown; errors?: unknown } {
  const b = (body ?? {}) as { query?: unknown; variables?: unknown };
  if (typeof b.query !== 'string')
    return { errors: [{ message: 'A query attribute must be specified and must be a string.' }] };
  const rootValue = {
    viewer: { login: state.viewerLogin },
    repository: ({ owner, name }: { owner: string; name: string }) =>
      owner.toLowerCase() === state.owner.toLowerCase() && name.toLowerCase() === state.repo.toLowerCase()
        ? {
            pullRequest: ({ number }: { number: number }) => ({
              reviewThreads: ({ first, after }: { first?: number; after?: string | null }) => {
                const all = state.threadsOf(number);
                const start = after ? Number(after.replace(/^cursor:/, '')) : 0;
                const size = Math.min(first ?? 100, 100);
                const page = all.slice(start, start + size);
                return {
                  nodes: page.map((t) => ({
                    id: threadNodeId(t.firstCommentId),
                    isResolved: t.isResolved,
                    comments: () => ({ nodes: [{ databaseId: t.firstCommentId }] }),
                  })),
                  pageInfo: {
                    hasNextPage: start + size < all.length,
                    endCursor: page.length > 0 ? `cursor:${start + page.length}` : null,
                  },
                };
              },
            }),
          }
        : null,
    resolveReviewThread: ({ input }: { input: { threadId: string } }) => {
      const m = /^PRRT_fake(\d+)$/.exec(input.threadId);
      if (!m || !state.resolve(Number(m[1])))
        throw new Error(`Could not resolve to a node with the global id of '${input.threadId}'`);
      return { thread: { id: input.threadId, isResolved: true } };
    },
  };
  const result = graphqlSync({
    schema: githubSchema(),
    source: b.query,
    rootValue,
    variableValues: (b.variables ?? {}) as Record<string, unknown>,
  });
  return JSON.parse(JSON.stringify(result)) as { data?: unknown; errors?: unknown };
}
