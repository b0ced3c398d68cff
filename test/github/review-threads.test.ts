// Marking outdated threads resolved goes through GraphQL; the fake executes every document
// against GitHub's published schema, so these tests also check the query and mutation themselves.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../src/github/octokit.js';
import { RESOLVE_MUTATION, THREADS_QUERY, resolveThreads } from '../../src/github/review/review-threads.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';

let gh: FakeGitHub;
let github: GitHubClient;
const where = { owner: 'octo', repo: 'demo', number: 0 };
beforeEach(async () => {
  gh = await startFakeGitHub();
  github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false });
  where.number = gh.addPull({ title: 't', head: 'h', headSha: 'a'.repeat(40) }).number;
});
afterEach(() => gh.stop());

const thread = (line: number) =>
  gh.addReviewComment(where.number, {
    body: `remark ${line}`,
    path: 'a.js',
    line,
    diffHunk: '@@ -1 +1 @@',
    author: 'patchloop[bot]',
  });

describe('resolveThreads', () => {
  it('finds a thread by its first comment past the first page of 100 and resolves it, and only it', async () => {
    const all = Array.from({ length: 130 }, (_, i) => thread(i + 1));
    gh.addReviewComment(where.number, {
      body: 'a reply',
      path: 'a.js',
      diffHunk: '@@ -1 +1 @@',
      inReplyTo: all[120]!.id,
    });
    const r = await resolveThreads(github, where, [all[120]!.id, all[3]!.id]);
    expect(r).toEqual({ resolved: 2, notices: [] });
    expect([...gh.resolvedThreads].sort()).toEqual([all[3]!.id, all[120]!.id].sort());
    // two pages of threads, two mutations
    expect(gh.requestsTo('POST', /^\/graphql$/)).toHaveLength(4);
  });

  it('leaves a thread that is already resolved, and sends nothing for no threads', async () => {
    const a = thread(1);
    gh.resolvedThreads.add(a.id);
    expect(await resolveThreads(github, where, [a.id])).toEqual({ resolved: 0, notices: [] });
    expect(await resolveThreads(github, where, [])).toEqual({ resolved: 0, notices: [] });
    expect(gh.requestsTo('POST', /^\/graphql$/)).toHaveLength(1);
  });

  it('a token that may not list or resolve threads gives a notice, never a throw', async () => {
    const a = thread(1);
    gh.fail({
      method: 'POST',
      path: /^\/graphql$/,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    const r = await resolveThreads(github, where, [a.id]);
    expect(r.resolved).toBe(0);
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/Listing the review threads of #\d+ failed: GitHub answered 403/);
    expect(gh.resolvedThreads.size).toBe(0);
  });
});

describe("the fake's GraphQL endpoint checks documents against GitHub's schema", () => {
  const ask = (query: string, variables: Record<string, unknown> = {}) =>
    github.graphql(query, variables).then(
      (data) => ({ data, errors: undefined }),
      (err: { errors?: { message: string }[] }) => ({
        data: undefined,
        errors: err.errors?.map((e) => e.message),
      }),
    );

  it('accepts the query and mutation patchloop sends, and the viewer query', async () => {
    expect((await ask(THREADS_QUERY, { ...where, cursor: null })).errors).toBeUndefined();
    expect((await ask('query { viewer { login } }')).data).toEqual({ viewer: { login: expect.any(String) } });
    const a = thread(1);
    expect((await ask(RESOLVE_MUTATION, { threadId: `PRRT_fake${a.id}` })).errors).toBeUndefined();
  });

  it('refuses a misspelt field, a wrong argument and a wrong variable type', async () => {
    expect((await ask('query { viewer { loginn } }')).errors?.join()).toMatch(/Cannot query field "loginn"/);
    const wrongArg = THREADS_QUERY.replace('first: 100', 'count: 100');
    expect((await ask(wrongArg, { ...where, cursor: null })).errors?.join()).toMatch(
      /Unknown argument "count"/,
    );
    const wrongType = RESOLVE_MUTATION.replace('$threadId: ID!', '$threadId: Int!');
    expect((await ask(wrongType, { threadId: 1 })).errors?.join()).toMatch(
      /Variable "\$threadId" of type "Int!"/,
    );
  });
});
