import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/octokit.js';
import { openPullRequest, type PullRequestInput } from '../../src/github/pr.js';
import { acknowledge } from '../../src/github/reaction.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { Task } from '../../src/github/task.js';

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await startFakeGitHub();
});
afterEach(() => gh.stop());

const github = () =>
  createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false, retryAfterBaseValue: 1 });
const input: PullRequestInput = {
  owner: 'octo',
  repo: 'demo',
  head: 'patchloop/issue-3-crash',
  base: 'main',
  title: 'Fix #3: crash',
  body: 'Summary\n\nFixes #3',
  draft: true,
  serverUrl: 'https://github.com',
};

describe('pull requests', () => {
  it('opens a draft PR whose body says Fixes #n', async () => {
    const out = await openPullRequest(github(), input);
    expect(out).toMatchObject({ kind: 'created', number: 1, url: 'https://github.com/octo/demo/pull/1' });
    const pull = gh.pulls.get(1)!;
    expect(pull).toMatchObject({
      draft: true,
      body: 'Summary\n\nFixes #3',
      head: { ref: 'patchloop/issue-3-crash' },
      base: { ref: 'main' },
    });
  });

  it('finds the PR that already exists for the branch', async () => {
    await openPullRequest(github(), input);
    expect(await openPullRequest(github(), input)).toMatchObject({ kind: 'existing', number: 1 });
  });

  it('gives the compare link when Actions may not create PRs', async () => {
    gh.forbidPullRequestCreation();
    const out = await openPullRequest(github(), input);
    expect(out).toMatchObject({
      kind: 'forbidden',
      compareUrl: 'https://github.com/octo/demo/compare/main...patchloop/issue-3-crash?expand=1',
    });
    expect(out.kind === 'forbidden' && out.message).toMatch(
      /Allow GitHub Actions to create and approve pull requests/,
    );
  });

  it('falls back to an ordinary PR where drafts are not available', async () => {
    gh.fail({
      method: 'POST',
      path: /\/pulls$/,
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ message: 'Draft pull requests are not supported in this repository.' }],
      },
    });
    expect(await openPullRequest(github(), input)).toMatchObject({ kind: 'created' });
    expect(gh.pulls.get(1)!.draft).toBe(false);
  });
});

describe('the eyes reaction', () => {
  const base = { event: 'x', owner: 'octo', repo: 'demo', isPullRequest: false, request: 'r' } as const;
  it('goes on the triggering issue comment, review comment, or the issue itself', async () => {
    const issue = gh.addIssue({ title: 'i' });
    const c = gh.addComment(issue.number, { body: '/patchloop' });
    const pull = gh.addPull({ title: 'p', head: 'f' });
    const rc = gh.addReviewComment(pull.number, { body: '/patchloop', path: 'a', diffHunk: '@@' });
    const t = (trigger: Task['trigger'], number = issue.number): Task => ({
      ...base,
      kind: 'issue',
      number,
      trigger,
    });
    expect(
      await acknowledge(github(), t({ kind: 'issue-comment', id: c.id, body: '', createdAt: '' })),
    ).toMatchObject({ ok: true });
    expect(
      await acknowledge(
        github(),
        t({ kind: 'review-comment', id: rc.id, body: '', createdAt: '' }, pull.number),
      ),
    ).toMatchObject({ ok: true });
    expect(
      await acknowledge(github(), t({ kind: 'label', label: 'patchloop', createdAt: '' })),
    ).toMatchObject({ ok: true });
    expect(await acknowledge(github(), t({ kind: 'review', id: 1, body: '', createdAt: '' }))).toMatchObject({
      ok: false,
    });
    expect(gh.reactions.map((r) => [r.subject, r.content])).toEqual([
      ['issue-comment', 'eyes'],
      ['review-comment', 'eyes'],
      ['issue', 'eyes'],
    ]);
  });

  it('reports a refused reaction instead of throwing', async () => {
    const issue = gh.addIssue({ title: 'i' });
    const c = gh.addComment(issue.number, { body: '/patchloop' });
    gh.fail({ path: /reactions$/, status: 403, body: { message: 'Resource not accessible by integration' } });
    const out = await acknowledge(github(), {
      ...base,
      kind: 'issue',
      number: issue.number,
      trigger: { kind: 'issue-comment', id: c.id, body: '', createdAt: '' },
    });
    expect(out).toMatchObject({ ok: false, message: expect.stringMatching(/issues: write/) });
  });
});
