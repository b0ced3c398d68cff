import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGitHubClient,
  describeGitHubError,
  NOTIFYING_BURST,
  WRITE_BURST,
} from '../../src/github/octokit.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import { mismatches, responseSchema } from './fixtures/openapi.js';
import { git, makeRepo } from './git-fixtures.js';

let gh: FakeGitHub;
beforeAll(async () => {
  gh = await startFakeGitHub();
});
afterAll(() => gh.stop());

describe('the GitHub client', () => {
  it('waits out a secondary rate limit (403 with retry-after) and retries', async () => {
    const issue = gh.addIssue({ title: 'rate limited' });
    const warnings: string[] = [];
    // retryAfterBaseValue 5: one "second" of retry-after is 5 ms here.
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      retryAfterBaseValue: 5,
      log: { debug: () => {}, info: () => {}, warning: (m) => warnings.push(m) },
    });
    gh.secondaryRateLimit(/\/issues\/\d+\/comments$/, { method: 'POST', retryAfter: 2 });
    const { data } = await github.rest.issues.createComment({
      owner: 'octo',
      repo: 'demo',
      issue_number: issue.number,
      body: 'hello',
    });
    expect(data.body).toBe('hello');
    const attempts = gh.requestsTo('POST', new RegExp(`/issues/${issue.number}/comments$`));
    expect(attempts.map((r) => r.status)).toEqual([403, 201]);
    expect(warnings.join('\n')).toMatch(/secondary rate limit .* retrying after 2 s/);
  });

  it('one comment under a 429 with Retry-After: 1 is two requests, a second apart; a lasting 429 is three, not twelve', async () => {
    const issue = gh.addIssue({ title: 'too many requests' });
    const comments = new RegExp(`/issues/${issue.number}/comments$`);
    const warnings: string[] = [];
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      log: { debug: () => {}, info: () => {}, warning: (m) => warnings.push(m) },
    });
    const tooMany = { message: 'Too many requests', status: '429' };
    gh.fail({ method: 'POST', path: comments, status: 429, headers: { 'retry-after': '1' }, body: tooMany });
    const post = (body: string) =>
      github.rest.issues.createComment({ owner: 'octo', repo: 'demo', issue_number: issue.number, body });
    const { data } = await post('hello');
    expect(data.body).toBe('hello');
    const attempts = gh.requestsTo('POST', comments);
    expect(attempts.map((r) => r.status)).toEqual([429, 201]);
    // waited as told: a second (the fake's clock is the wall clock)
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(990);
    expect(warnings.join('\n')).toMatch(/secondary rate limit on POST .* retrying after 1 s/);

    // a 429 that lasts: the first try and rateLimitRetries (2) more, each after its retry-after
    gh.fail({
      method: 'POST',
      path: comments,
      status: 429,
      headers: { 'retry-after': '0' },
      body: tooMany,
      times: 20,
    });
    await expect(post('again')).rejects.toMatchObject({ status: 429 });
    expect(gh.requestsTo('POST', comments)).toHaveLength(2 + 3);
    expect(warnings.at(-1)).toMatch(/giving up/);
  });

  it('a 429 without retry-after waits for x-ratelimit-reset, or a minute with no header at all', async () => {
    const issue = gh.addIssue({ title: 'limits without retry-after' });
    const path = new RegExp(`/issues/${issue.number}$`);
    const warnings: string[] = [];
    // retryAfterBaseValue 5: a "second" is 5 ms
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      retryAfterBaseValue: 5,
      log: { debug: () => {}, info: () => {}, warning: (m) => warnings.push(m) },
    });
    const get = () => github.rest.issues.get({ owner: 'octo', repo: 'demo', issue_number: issue.number });
    gh.fail({
      method: 'GET',
      path,
      status: 429,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 20),
      },
    });
    await get();
    expect(warnings.at(-1)).toMatch(/secondary rate limit on GET .* retrying after (20|21) s/);
    gh.fail({ method: 'GET', path, status: 429 });
    await get();
    expect(warnings.at(-1)).toMatch(/secondary rate limit on GET .* retrying after 60 s/);
    const seen = gh.requestsTo('GET', path);
    expect(seen.map((r) => r.status)).toEqual([429, 200, 429, 200]);
    expect(seen[3]!.at - seen[2]!.at).toBeGreaterThanOrEqual(60 * 5 - 10);
  });

  it("is the toolkit's Octokit: the token as authorization, each request on the debug log", async () => {
    const issue = gh.addIssue({ title: 'logged' });
    const debug: string[] = [];
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      log: { debug: (m) => debug.push(m), info: () => {}, warning: () => {} },
    });
    const { data } = await github.rest.issues.get({
      owner: 'octo',
      repo: 'demo',
      issue_number: issue.number,
    });
    expect(data.title).toBe('logged');
    const seen = gh.requestsTo('GET', new RegExp(`/issues/${issue.number}$`));
    expect(seen.at(-1)!.headers.authorization).toBe('token ghs_faketoken');
    expect(debug.join('\n')).toMatch(new RegExp(`GET /repos/octo/demo/issues/${issue.number} - 200 with id`));
  });

  it('waits out a primary rate limit whose reset is near, and gives up on one an hour away', async () => {
    const warnings: string[] = [];
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      retryAfterBaseValue: 5,
      log: { debug: () => {}, info: () => {}, warning: (m) => warnings.push(m) },
    });
    const near = gh.addIssue({ title: 'near reset' });
    const limited = (reset: number) => ({
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + reset),
    });
    const body = { message: 'API rate limit exceeded for installation.', status: '403' };
    gh.fail({
      method: 'GET',
      path: new RegExp(`/issues/${near.number}$`),
      status: 403,
      headers: limited(1),
      body,
    });
    const { data } = await github.rest.issues.get({ owner: 'octo', repo: 'demo', issue_number: near.number });
    expect(data.title).toBe('near reset');
    expect(warnings.join('\n')).toMatch(/primary rate limit on GET .* retrying after [1-3] s/);

    const far = gh.addIssue({ title: 'far reset' });
    gh.fail({
      method: 'GET',
      path: new RegExp(`/issues/${far.number}$`),
      status: 403,
      headers: limited(3600),
      body,
    });
    await expect(
      github.rest.issues.get({ owner: 'octo', repo: 'demo', issue_number: far.number }),
    ).rejects.toMatchObject({ status: 403 });
    expect(warnings.at(-1)).toMatch(/primary rate limit on GET .* giving up/);
    expect(gh.requestsTo('GET', new RegExp(`/issues/${far.number}$`))).toHaveLength(1);
  });

  it("sends a run's handful of writes at once, yet one at a time, and reads beside them", async () => {
    const issue = gh.addIssue({ title: 'a burst' });
    // retryAfterBaseValue 600000: a "second" of spacing is ten minutes here, so a single spaced
    // write would outlast the test's deadline
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      retryAfterBaseValue: 600_000,
    });
    const where = { owner: 'octo', repo: 'demo', issue_number: issue.number };
    let inFlight = 0;
    let mostInFlight = 0;
    let readArrived!: () => void;
    const read = new Promise<void>((r) => (readArrived = r));
    let id = 900_000;
    gh.override('POST', new RegExp(`/issues/${issue.number}/comments$`), async (req) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      // the writes are held until the read has arrived: a read queued behind them never would
      await read;
      await new Promise((r) => setTimeout(r, 10));
      inFlight--;
      const body = (req.body as { body: string }).body;
      return {
        status: 201,
        body: {
          id: ++id,
          body,
          html_url: `https://github.com/octo/demo/issues/${issue.number}#issuecomment-${id}`,
        },
      };
    });
    gh.override('GET', new RegExp(`/issues/${issue.number}$`), () => {
      readArrived();
      return { status: 200, body: { number: issue.number, title: issue.title } };
    });
    const writes = Array.from({ length: NOTIFYING_BURST }, (_, i) =>
      github.rest.issues.createComment({ ...where, body: `comment ${i}` }),
    );
    const got = await github.rest.issues.get(where);
    expect(got.data.title).toBe('a burst');
    const done = await Promise.all(writes);
    expect(done.map((d) => d.data.body)).toEqual(
      Array.from({ length: NOTIFYING_BURST }, (_, i) => `comment ${i}`),
    );
    expect(mostInFlight).toBe(1);
  });

  it('spaces writes past the burst: a unit apart, and three between writes that notify', async () => {
    const issue = gh.addIssue({ title: 'spaced' });
    // retryAfterBaseValue 40: a "second" of spacing is 40 ms here
    const unit = 40;
    const github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, retryAfterBaseValue: unit });
    const where = { owner: 'octo', repo: 'demo', issue_number: issue.number };
    const t0 = Date.now();
    const posted = await Promise.all(
      Array.from({ length: NOTIFYING_BURST + 2 }, (_, i) =>
        github.rest.issues.createComment({ ...where, body: `spaced ${i}` }),
      ),
    );
    const posts = gh.requestsTo('POST', new RegExp(`/issues/${issue.number}/comments$`));
    expect(posts).toHaveLength(NOTIFYING_BURST + 2);
    // Lower bounds only (a loaded machine makes gaps longer, never shorter): the burst's sends
    // are due at once, the two past it 3 units after each other.
    expect(posts.at(-1)!.at - t0).toBeGreaterThanOrEqual(2 * 3 * unit);

    // Writes that notify nobody (reactions), from a client of their own: WRITE_BURST at once, then
    // a unit apart.
    const other = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, retryAfterBaseValue: unit });
    const t1 = Date.now();
    await Promise.all(
      Array.from({ length: WRITE_BURST + 2 }, () =>
        other.rest.reactions.createForIssueComment({
          owner: 'octo',
          repo: 'demo',
          comment_id: posted[0]!.data.id,
          content: 'eyes',
        }),
      ),
    );
    const reactions = gh.requestsTo('POST', new RegExp(`/issues/comments/${posted[0]!.data.id}/reactions$`));
    expect(reactions).toHaveLength(WRITE_BURST + 2);
    expect(reactions.at(-1)!.at - t1).toBeGreaterThanOrEqual(2 * unit);
  });

  it('retries a 500 and gets the answer', async () => {
    const issue = gh.addIssue({ title: 'flaky' });
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      throttle: false,
      retryAfterBaseValue: 1,
    });
    gh.fail({ method: 'GET', path: new RegExp(`/issues/${issue.number}$`), status: 500, times: 2 });
    const { data } = await github.rest.issues.get({
      owner: 'octo',
      repo: 'demo',
      issue_number: issue.number,
    });
    expect(data.title).toBe('flaky');
  });

  it('names the missing permissions: entry on 403 and 404', async () => {
    const github = createGitHubClient({
      token: 'ghs_faketoken',
      baseUrl: gh.url,
      throttle: false,
      retryAfterBaseValue: 1,
    });
    gh.fail({
      method: 'POST',
      path: /\/pulls$/,
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest',
        status: '403',
      },
    });
    const err = await github.rest.pulls
      .create({ owner: 'octo', repo: 'demo', head: 'a', base: 'main', title: 't' })
      .catch((e: unknown) => e);
    const text = describeGitHubError(err, 'create-pull', 'Opening the pull request');
    expect(text).toContain('GitHub answered 403 (Resource not accessible by integration)');
    expect(text).toContain('`pull-requests: write`');
    const missing = await github.rest.issues
      .get({ owner: 'octo', repo: 'demo', issue_number: 9999 })
      .catch((e: unknown) => e);
    expect(describeGitHubError(missing, 'read-issue', 'Reading #9999')).toMatch(/404 .*`issues: read`/);
  });

  it('reports a bad token plainly', async () => {
    const github = createGitHubClient({ token: 'wrong', baseUrl: gh.url, throttle: false });
    const err = await github.rest.repos.get({ owner: 'octo', repo: 'demo' }).catch((e: unknown) => e);
    expect(describeGitHubError(err, 'read-issue', 'Reading the repository')).toMatch(
      /401 .*not a valid token/,
    );
  });
});

describe('the fake GitHub speaks GitHub’s REST description', () => {
  const o = { owner: 'octo', repo: 'demo' };
  const client = () => createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false });

  // Every route patchloop calls, with the template GitHub's description files it under.
  it('answers every route patchloop uses with the fields the description requires', async () => {
    const github = client();
    const issue = gh.addIssue({ title: 'Schema', body: 'body' });
    const comment = gh.addComment(issue.number, { body: 'a comment' });
    const pull = gh.addPull({
      title: 'PR',
      head: 'feature',
      headSha: '1'.repeat(40),
      forkRepo: 'mallory/demo',
    });
    gh.addComment(pull.number, { body: 'on the PR' });
    gh.pushToPull(pull.number, { sha: '2'.repeat(40) });
    gh.pushToPull(pull.number, { sha: '3'.repeat(40), force: true });
    const review = gh.addReviewComment(pull.number, {
      body: 'nit',
      path: 'a.js',
      line: 1,
      diffHunk: '@@ -1 +1 @@',
    });
    const submitted = gh.addReview(pull.number, { body: 'Looks good, but /patchloop fix the nit' });
    gh.setPermission('alice', 'write');
    gh.addWorkflowRun(901, [
      { name: 'test', conclusion: 'failure', steps: [{ name: 'Run', conclusion: 'failure' }] },
    ]);
    gh.setFile('main', 'AGENTS.md', 'notes');
    const calls: [string, string, number, () => Promise<{ data: unknown }>][] = [
      ['GET', '/repos/{owner}/{repo}', 200, () => github.rest.repos.get(o)],
      [
        'GET',
        '/repos/{owner}/{repo}/issues/{issue_number}',
        200,
        () => github.rest.issues.get({ ...o, issue_number: issue.number }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/issues/{issue_number}/comments',
        200,
        () => github.rest.issues.listComments({ ...o, issue_number: issue.number }),
      ],
      [
        'POST',
        '/repos/{owner}/{repo}/issues/{issue_number}/comments',
        201,
        () => github.rest.issues.createComment({ ...o, issue_number: issue.number, body: 'new' }),
      ],
      [
        'PATCH',
        '/repos/{owner}/{repo}/issues/comments/{comment_id}',
        200,
        () => github.rest.issues.updateComment({ ...o, comment_id: comment.id, body: 'edited' }),
      ],
      [
        'POST',
        '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
        201,
        () => github.rest.reactions.createForIssueComment({ ...o, comment_id: comment.id, content: 'eyes' }),
      ],
      [
        'POST',
        '/repos/{owner}/{repo}/issues/{issue_number}/reactions',
        201,
        () => github.rest.reactions.createForIssue({ ...o, issue_number: issue.number, content: 'eyes' }),
      ],
      [
        'POST',
        '/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions',
        201,
        () =>
          github.rest.reactions.createForPullRequestReviewComment({
            ...o,
            comment_id: review.id,
            content: 'eyes',
          }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/pulls/{pull_number}',
        200,
        () => github.rest.pulls.get({ ...o, pull_number: pull.number }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
        200,
        () => github.rest.pulls.listReviewComments({ ...o, pull_number: pull.number }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
        200,
        () => github.rest.pulls.getReview({ ...o, pull_number: pull.number, review_id: submitted.id }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
        200,
        () =>
          github.rest.pulls.getReview({
            ...o,
            pull_number: pull.number,
            review_id: submitted.id,
            headers: { accept: 'application/vnd.github.full+json' },
          }),
      ],
      ['GET', '/repos/{owner}/{repo}/pulls', 200, () => github.rest.pulls.list(o)],
      [
        'POST',
        '/repos/{owner}/{repo}/pulls',
        201,
        () => github.rest.pulls.create({ ...o, head: 'patchloop/x', base: 'main', title: 'x', body: 'y' }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/collaborators/{username}/permission',
        200,
        () => github.rest.repos.getCollaboratorPermissionLevel({ ...o, username: 'alice' }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs',
        200,
        () => github.rest.actions.listJobsForWorkflowRun({ ...o, run_id: 901 }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/issues/{issue_number}/timeline',
        200,
        () => github.rest.issues.listEventsForTimeline({ ...o, issue_number: pull.number }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/activity',
        200,
        () =>
          github.rest.repos.listActivities({
            owner: 'mallory',
            repo: 'demo',
            ref: 'refs/heads/feature',
            direction: 'desc',
          }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/branches/{branch}',
        200,
        () => github.rest.repos.getBranch({ ...o, branch: 'main' }),
      ],
      [
        'GET',
        '/repos/{owner}/{repo}/contents/{path}',
        200,
        () => github.rest.repos.getContent({ ...o, path: 'AGENTS.md', ref: 'main' }),
      ],
    ];
    const problems: string[] = [];
    for (const [method, template, status, call] of calls) {
      const { data } = await call();
      for (const m of mismatches(responseSchema(method, template, status), data))
        problems.push(`${method} ${template}: ${m}`);
    }
    expect(problems).toEqual([]);
  });

  it('the checker itself notices a missing required field and a wrong type', () => {
    const schema = responseSchema('GET', '/repos/{owner}/{repo}/branches/{branch}', 200);
    expect(mismatches(schema, { name: 'main', protected: 'yes' })).toEqual(
      expect.arrayContaining(['$.commit: missing', '$.protected: string, but the description says boolean']),
    );
  });
});

describe('the fake GitHub’s compare route, answered by real git over the test’s origin', () => {
  it('says ahead, behind, identical and diverged with the counts and merge base git gives, 404 for an unknown commit or no common history, and fits the description', async () => {
    const repo = makeRepo();
    const fake = await startFakeGitHub({ origin: repo.origin });
    try {
      const github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: fake.url, throttle: false });
      const o = { owner: 'octo', repo: 'demo' };
      const root = git(repo.origin, 'rev-parse', 'main').trim();
      const a1 = repo.pushToOrigin('main', { 'a.txt': '1\n' });
      const a2 = repo.pushToOrigin('main', { 'a.txt': '2\n' });
      const side = repo.pushToOrigin('side', { 'b.txt': 'side\n' }); // side: main + one commit
      // an unrelated history, kept under a ref that is no branch
      const lone = repo.clone('lone');
      git(lone, 'checkout', '--quiet', '--orphan', 'lone');
      git(lone, 'commit', '--quiet', '--allow-empty', '-m', 'unrelated');
      git(lone, 'push', '--quiet', 'origin', 'HEAD:refs/pull/9/head');
      const unrelated = git(lone, 'rev-parse', 'HEAD').trim();
      const compare = (basehead: string) =>
        github.rest.repos.compareCommitsWithBasehead({ ...o, basehead, per_page: 1 });
      const cases: [string, string, number, number, string][] = [
        [`${root}...${a2}`, 'ahead', 2, 0, root],
        [`${a2}...${root}`, 'behind', 0, 2, root],
        [`${a1}...${a1}`, 'identical', 0, 0, a1],
        [`${a2}...side`, 'ahead', 1, 0, a2],
        [`${a1}...side`, 'ahead', 2, 0, a1],
      ];
      const movedMain = repo.pushToOrigin('main', { 'c.txt': 'on main\n' });
      cases.push([`side...${movedMain}`, 'diverged', 1, 1, a2], [`main...side`, 'diverged', 1, 1, a2]);
      for (const [basehead, status, ahead, behind, mergeBase] of cases) {
        const { data } = await compare(basehead);
        expect({ basehead, status: data.status, ahead: data.ahead_by, behind: data.behind_by }).toEqual({
          basehead,
          status,
          ahead,
          behind,
        });
        expect(data.merge_base_commit.sha).toBe(mergeBase);
        expect(data.commits.length).toBe(Math.min(ahead, 1));
        expect(
          mismatches(responseSchema('GET', '/repos/{owner}/{repo}/compare/{basehead}', 200), data),
        ).toEqual([]);
      }
      expect(side).toBe(git(repo.origin, 'rev-parse', 'side').trim());
      for (const basehead of [`${'e'.repeat(40)}...main`, `${unrelated}...main`, `main...${unrelated}`]) {
        const err = await compare(basehead).catch((e: { status?: number }) => e);
        expect((err as { status?: number }).status, basehead).toBe(404);
      }
      // the branch route reports the origin's branches and their tips
      const { data: branch } = await github.rest.repos.getBranch({ ...o, branch: 'side' });
      expect(branch.commit.sha).toBe(side);
      expect(
        await github.rest.repos
          .getBranch({ ...o, branch: 'gone' })
          .catch((e: { status?: number }) => e.status),
      ).toBe(404);
    } finally {
      await fake.stop();
      repo.cleanup();
    }
  });
});

describe('the fake GitHub’s extension point', () => {
  it('serves routes given in extraRoutes and added later with addRoutes', async () => {
    const fake = await startFakeGitHub({
      extraRoutes: [
        [
          'GET',
          /^\/repos\/octo\/demo\/check-runs\/(\d+)$/,
          (q) => ({ status: 200, body: { id: Number(q.params[0]) } }),
        ],
      ],
    });
    try {
      fake.addRoutes([
        ['GET', /^\/meta$/, () => ({ status: 200, body: { verifiable_password_authentication: false } })],
      ]);
      const github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: fake.url, throttle: false });
      const run = await github.request('GET /repos/{owner}/{repo}/check-runs/{check_run_id}', {
        owner: 'octo',
        repo: 'demo',
        check_run_id: 7,
      });
      expect(run.data).toEqual({ id: 7 });
      expect((await github.request('GET /meta')).data).toEqual({ verifiable_password_authentication: false });
    } finally {
      await fake.stop();
    }
  });
});
