import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACTIONS_BOT_IDENTITY, GitRepo } from '../../src/git/index.js';
import { commitMessage } from '../../src/github/commit-message.js';
import type { Task } from '../../src/github/task.js';
import { git, makeRepo, writeFiles, type RepoFixture } from '../github/git-fixtures.js';

// One origin for the file; each test works in a fresh clone, on branches of its own.
let repo: RepoFixture;
let work: string;
let n = 0;
beforeAll(() => {
  repo = makeRepo();
});
afterAll(() => repo.cleanup());
beforeEach(() => {
  work = repo.clone(`work-${++n}`);
});

const task: Task = {
  kind: 'issue',
  event: 'issue_comment',
  owner: 'octo',
  repo: 'demo',
  number: 12,
  isPullRequest: false,
  title: 'Division by zero in math.js',
  body: 'crash',
  trigger: { kind: 'issue-comment', id: 5, body: '/patchloop fix it', createdAt: '2026-01-01T00:00:00Z' },
  requester: { login: 'alice', type: 'User', id: 4242 },
  request: '/patchloop fix it',
};

describe('commits', () => {
  it('commits as github-actions[bot] with the requester as co-author and a message naming task, issue and run', async () => {
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    const baseline = await co.untracked();
    await co.startBranch('patchloop/issue-12-division-by-zero-in-math-js');
    writeFiles(work, {
      'src/math.js': 'export const div = (a, b) => (b === 0 ? NaN : a / b);\n',
      'test/math.test.js': 'ok\n',
    });
    const msg = commitMessage({ task, runUrl: 'https://github.com/octo/demo/actions/runs/99' });
    const { commit: result } = await co.commitChanges(msg, { baselineUntracked: baseline });
    await co.writeBack();
    expect(result?.files.map((f) => f.path).sort()).toEqual(['src/math.js', 'test/math.test.js']);
    expect(result?.files.find((f) => f.path === 'src/math.js')).toMatchObject({ added: 1, removed: 1 });
    expect(git(work, 'log', '-1', '--format=%an <%ae>|%cn <%ce>')).toBe(
      `${ACTIONS_BOT_IDENTITY.name} <${ACTIONS_BOT_IDENTITY.email}>|${ACTIONS_BOT_IDENTITY.name} <${ACTIONS_BOT_IDENTITY.email}>`,
    );
    const body = git(work, 'log', '-1', '--format=%B');
    expect(body).toMatch(/^Fix #12: Division by zero in math\.js/);
    expect(body).toContain('Run: https://github.com/octo/demo/actions/runs/99');
    expect(body).toContain('Requested by @alice on issue #12.');
    expect(git(work, 'log', '-1', '--format=%(trailers:key=Co-authored-by,valueonly)')).toBe(
      'alice <4242+alice@users.noreply.github.com>',
    );
  });

  it('uses the identity the workflow configured in the repository', async () => {
    git(work, 'config', '--local', 'user.name', 'Release Bot');
    git(work, 'config', '--local', 'user.email', 'release@example.com');
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    writeFiles(work, { 'a.txt': 'a\n' });
    const { commit } = await co.commitChanges('a');
    await co.writeBack();
    expect(git(work, 'log', '-1', '--format=%an <%ae>', commit!.sha)).toBe(
      'Release Bot <release@example.com>',
    );
  });

  it('makes no commit when nothing changed, and leaves out files that were untracked before the run', async () => {
    writeFiles(work, { 'setup-leftover.log': 'from an earlier workflow step\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    const baseline = await co.untracked();
    const head = git(work, 'rev-parse', 'HEAD');
    expect((await co.commitChanges('nothing', { baselineUntracked: baseline })).commit).toBeNull();
    expect(git(work, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('does not run hooks the checkout carries', async () => {
    writeFiles(work, { '.git/hooks/pre-commit': '#!/bin/sh\necho ran > hook-ran.txt\nexit 1\n' });
    const { chmodSync, existsSync } = await import('node:fs');
    chmodSync(`${work}/.git/hooks/pre-commit`, 0o755);
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    writeFiles(work, { 'b.txt': 'b\n' });
    expect((await co.commitChanges('b')).commit).not.toBeNull();
    expect(existsSync(`${work}/hook-ran.txt`)).toBe(false);
  });
});

describe('branches and pushes', () => {
  it('gives a unique name when the branch exists locally or on origin', async () => {
    repo.pushToOrigin('patchloop/issue-12', { 'x.txt': 'x\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    expect(await co.freeBranchName('patchloop/issue-12')).toBe('patchloop/issue-12-2');
    await co.startBranch('patchloop/issue-12-2');
    expect(await co.freeBranchName('patchloop/issue-12')).toBe('patchloop/issue-12-3');
    expect(await co.freeBranchName('patchloop/issue-13')).toBe('patchloop/issue-13');
  });

  it('rebases onto a branch that moved and pushes again, without force', async () => {
    repo.pushToOrigin('moving', { 'start.txt': 'start\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch('moving');
    writeFiles(work, { 'ours.txt': 'ours\n' });
    await co.isolate();
    await co.commitChanges('ours');
    const theirs = repo.pushToOrigin('moving', { 'theirs.txt': 'theirs\n' });
    const pushed = await co.push('moving');
    expect(pushed).toMatchObject({ ok: true, branch: 'moving', rebased: true });
    expect(git(repo.origin, 'rev-parse', 'moving^')).toBe(theirs);
    expect(git(repo.origin, 'show', 'moving:ours.txt')).toBe('ours');
  });

  it('moves the work to a new branch when the rebase conflicts, leaving origin’s branch as it was', async () => {
    repo.pushToOrigin('contested', { 'start.txt': 'start\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch('contested');
    writeFiles(work, { 'src/math.js': 'ours\n' });
    await co.isolate();
    await co.commitChanges('ours');
    const theirs = repo.pushToOrigin('contested', { 'src/math.js': 'theirs\n' });
    const pushed = await co.push('contested');
    expect(pushed).toMatchObject({ ok: true, branch: 'contested-2', movedFrom: 'contested', rebased: false });
    expect(git(repo.origin, 'rev-parse', 'contested')).toBe(theirs);
    expect(git(repo.origin, 'show', 'contested-2:src/math.js')).toBe('ours');
    await co.writeBack(pushed.ok ? pushed : undefined);
    expect(git(work, 'status', '--porcelain')).toBe('');
    expect(git(work, 'rev-parse', 'HEAD')).toBe(git(repo.origin, 'rev-parse', 'contested-2'));
  });

  it('checks out a same-repo PR head branch and a fork PR head from refs/pull', async () => {
    const head = repo.pushToOrigin('feature', { 'feature.txt': 'f\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    expect(await co.checkoutRemoteBranch('feature')).toBe(head);
    expect(await co.currentBranch()).toBe('feature');

    const forkSha = repo.pushToOrigin('fork-work', { 'fork.txt': 'from a fork\n' });
    git(repo.origin, 'update-ref', 'refs/pull/7/head', forkSha);
    git(repo.origin, 'update-ref', '-d', 'refs/heads/fork-work');
    expect(await co.checkoutPullHead(7, 'patchloop/pr-7')).toBe(forkSha);
    expect(await co.currentBranch()).toBe('patchloop/pr-7');
    expect(await co.remoteHasBranch('patchloop/pr-7')).toBe(false);
  });
});

describe('fetching one commit', () => {
  it('fetches a commit the checkout lacks, so a branch can start there', async () => {
    const sha = repo.pushToOrigin('later', { 'later.txt': 'later\n' });
    const co = new GitRepo({ dir: work });
    await expect(co.startBranch('patchloop/at-later', sha)).rejects.toThrow();
    await co.fetchCommit(sha);
    await co.startBranch('patchloop/at-later', sha);
    expect(await co.headSha()).toBe(sha);
    await expect(co.fetchCommit('HEAD; rm -rf /')).rejects.toThrow(/Not a commit id/);
  });
});
