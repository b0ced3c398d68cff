import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/octokit.js';
import { openPullRequest, type PullRequestInput } from '../../src/github/delivery/pr.js';
import { acknowledge } from '../../src/github/reaction.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { PullRequestRefs, Task } from '../../src/github/context/task.js';
import { prepareWork } from '../../src/github/delivery/delivery.js';
import { GitRepo } from '../../src/git/index.js';
import { git, makeRepo, type RepoFixture } from './git-fixtures.js';

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

describe('where the work goes (prepareWork)', () => {
  let repo: RepoFixture;
  beforeEach(() => {
    repo = makeRepo();
  });
  afterEach(() => repo.cleanup());

  const prTask = (number: number, pr: PullRequestRefs, extra: Partial<Task> = {}): Task => ({
    kind: 'pr',
    event: 'issue_comment',
    owner: 'octo',
    repo: 'demo',
    defaultBranch: 'main',
    number,
    isPullRequest: true,
    title: 'Add a feature',
    trigger: { kind: 'issue-comment', id: 1, body: '/patchloop', createdAt: '2026-03-01T00:00:00Z' },
    request: '/patchloop',
    pr,
    ...extra,
  });
  const plan = (task: Task, pr?: PullRequestRefs) =>
    prepareWork(new GitRepo({ dir: repo.work }), task, {
      prefix: 'patchloop/',
      runId: '77',
      openPr: true,
      pr: pr ?? task.pr,
      github: github(),
    });
  const refs = (over: Partial<PullRequestRefs>): PullRequestRefs => ({
    headRef: 'feature',
    headSha: '',
    headRepo: 'octo/demo',
    baseRef: 'main',
    fork: false,
    ...over,
  });

  it('a same-repository branch that is neither default nor protected takes the commits itself', async () => {
    const sha = repo.pushToOrigin('feature', { 'a.txt': 'a' });
    gh.addPull({ title: 'f', head: 'feature', headSha: sha });
    const p = await plan(prTask(1, refs({ headSha: sha })));
    expect(p).toMatchObject({ mode: 'pr-head', branch: 'feature', openPr: false, startedFrom: sha });
  });

  it('a protected head branch gets a new branch and a PR into it', async () => {
    const sha = repo.pushToOrigin('release', { 'a.txt': 'a' });
    gh.addPull({ title: 'r', head: 'release', headSha: sha });
    git(repo.origin, 'update-ref', 'refs/pull/1/head', sha);
    gh.protectBranch('release');
    const p = await plan(prTask(1, refs({ headRef: 'release', headSha: sha })));
    expect(p).toMatchObject({ mode: 'new-branch', prBase: 'release', openPr: true, startedFrom: sha });
    expect(p.branch).toMatch(/^patchloop\/pr-1-/);
    expect(p.notices?.join(' ')).toContain('its head branch `release` is protected');
    expect(gh.requestsTo('GET', /\/branches\/release$/)).toHaveLength(1);
  });

  it('a PR whose head is the default branch is not pushed to', async () => {
    const sha = git(repo.work, 'rev-parse', 'HEAD');
    git(repo.origin, 'update-ref', 'refs/pull/2/head', sha);
    const p = await plan(prTask(2, refs({ headRef: 'main', baseRef: 'stable', headSha: sha })));
    expect(p).toMatchObject({ mode: 'new-branch', prBase: 'main' });
    expect(p.notices?.join(' ')).toContain('its head is the default branch `main`');
  });

  it('a fork’s head is checked out at the commit of the request, and proposed into the base', async () => {
    const sha = repo.pushToOrigin('scratch', { 'fork.txt': 'contributor' });
    git(repo.origin, 'update-ref', 'refs/pull/3/head', sha);
    const p = await plan(
      prTask(3, refs({ headRef: 'patch-1', headRepo: 'mallory/demo', fork: true, headSha: sha })),
    );
    expect(p).toMatchObject({ mode: 'new-branch', prBase: 'main', startedFrom: sha });
    expect(git(repo.work, 'rev-parse', 'HEAD')).toBe(sha);
    expect(p.notices?.join(' ')).toContain(`mallory/demo:patch-1 at ${sha.slice(0, 12)}`);
  });

  it('a fork’s head that moved after the request is refused', async () => {
    const seen = repo.pushToOrigin('scratch', { 'fork.txt': 'what the maintainer read' });
    const later = repo.pushToOrigin('scratch', { 'fork.txt': 'pushed after the comment' });
    git(repo.origin, 'update-ref', 'refs/pull/4/head', later);
    await expect(
      plan(prTask(4, refs({ headRef: 'patch-1', headRepo: 'mallory/demo', fork: true, headSha: seen }))),
    ).rejects.toThrow(`is now ${later.slice(0, 12)}, not ${seen.slice(0, 12)}`);
  });

  it('a failed run is fixed from its own commit on its own branch, fetched when the checkout lacks it', async () => {
    const failed = repo.pushToOrigin('topic', { 'src/math.js': 'export const div = (a, b) => a / b / 0;\n' });
    repo.pushToOrigin('topic', { 'later.txt': 'after the failure' });
    const task: Task = {
      kind: 'workflow-run',
      event: 'workflow_run',
      owner: 'octo',
      repo: 'demo',
      defaultBranch: 'main',
      isPullRequest: false,
      title: 'CI failed',
      trigger: { kind: 'workflow-run', createdAt: '2026-03-01T00:00:00Z' },
      request: 'fix',
      workflowRun: { id: 555, name: 'CI', conclusion: 'failure', headBranch: 'topic', headSha: failed },
    };
    const p = await plan(task);
    expect(p).toMatchObject({ branch: 'patchloop/fix-run-555', prBase: 'topic', startedFrom: failed });
    expect(git(repo.work, 'rev-parse', 'HEAD')).toBe(failed);
    expect(git(repo.work, 'symbolic-ref', '--short', 'HEAD')).toBe('patchloop/fix-run-555');
  });

  it('a failed commit that cannot be fetched: the fix starts from the branch’s tip, and says so', async () => {
    const tip = repo.pushToOrigin('topic', { 'b.txt': 'b' });
    const task: Task = {
      kind: 'workflow-run',
      event: 'workflow_run',
      owner: 'octo',
      repo: 'demo',
      isPullRequest: false,
      trigger: { kind: 'workflow-run', createdAt: '2026-03-01T00:00:00Z' },
      request: 'fix',
      workflowRun: {
        id: 556,
        name: 'CI',
        conclusion: 'failure',
        headBranch: 'topic',
        headSha: 'c'.repeat(40),
      },
    };
    const p = await plan(task);
    expect(p).toMatchObject({ branch: 'patchloop/fix-run-556', prBase: 'topic', startedFrom: tip });
    expect(p.notices?.join(' ')).toContain(
      `The failed commit cccccccccccc could not be fetched; the fix started from commit ${tip.slice(0, 12)}`,
    );
    expect(p.note).toContain('check that the failure still shows there');
  });

  it('a prompt task about an issue names its branch after the issue, read from GitHub', async () => {
    const issue = gh.addIssue({ title: 'Date parsing breaks at midnight' });
    const task: Task = {
      kind: 'issue',
      event: 'schedule',
      owner: 'octo',
      repo: 'demo',
      number: issue.number,
      isPullRequest: false,
      issueFromInput: true,
      trigger: { kind: 'prompt', createdAt: '2026-03-01T00:00:00Z' },
      request: 'Fix it',
    };
    const p = await plan(task);
    expect(p).toMatchObject({
      branch: `patchloop/issue-${issue.number}-date-parsing-breaks-at-midnight`,
      fixes: issue.number,
      prBase: 'main',
    });
  });
});
