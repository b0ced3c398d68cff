import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, describeGitHubError } from '../../src/github/octokit.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';

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
