import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../../src/git/index.js';
import { deliverWork, type WorkPlan } from '../../src/github/delivery/delivery.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import { startFakeGitHub } from '../fakes/github-server.js';
import { git, makeRepo, writeFiles, type RepoFixture } from '../github/git-fixtures.js';

// deliverWork's git half: the commit, the left-out paths, the write-back and the time bound.
let repo: RepoFixture;
beforeAll(() => {
  repo = makeRepo();
});
afterAll(() => repo.cleanup());

const plan: WorkPlan = {
  mode: 'new-branch',
  branch: 'patchloop/issue-1',
  prBase: 'main',
  openPr: false,
  note: '',
} as WorkPlan;

const base = {
  plan,
  message: 'Fix #1',
  baselineUntracked: [],
  owner: 'octo',
  repo: 'demo',
  serverUrl: 'https://github.com',
  draft: false,
  prTitle: 'Fix #1',
  prBody: () => '',
};

describe('deliverWork', () => {
  it('commits, pushes, names what it left out, and leaves the checkout on the pushed commit', async () => {
    const work = repo.clone('deliver-ok');
    const checkout = new GitRepo({ dir: work, protectedPaths: ['.github/workflows/**'] });
    await checkout.startBranch(plan.branch);
    await checkout.isolate();
    writeFiles(work, { 'src/math.js': 'fixed\n', '.github/workflows/x.yml': 'on: push\n' });
    const d = await deliverWork({ ...base, checkout, push: true });
    expect(d.error).toBeUndefined();
    expect(d.commit?.files.map((f) => f.path)).toEqual(['src/math.js']);
    expect(d.leftOut).toEqual([
      { path: '.github/workflows/x.yml', reason: 'protected path', detail: '.github/workflows/**' },
    ]);
    expect(d.notices.join(' ')).toContain(
      'Not committed: `.github/workflows/x.yml` (protected by .github/workflows/**)',
    );
    expect(git(repo.origin, 'rev-parse', plan.branch)).toBe(d.commit!.sha);
    expect(git(work, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(plan.branch);
    expect(git(work, 'rev-parse', 'HEAD')).toBe(d.commit!.sha);
    expect(git(work, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .github/workflows/x.yml');
  });

  it('kills a push that outlives the time it was given, and says so', async () => {
    const held: Socket[] = [];
    const server: Server = createServer((s) => held.push(s)); // accepts, never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const work = repo.clone('deliver-slow');
      git(
        work,
        'remote',
        'set-url',
        'origin',
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.git`,
      );
      const checkout = new GitRepo({ dir: work });
      await checkout.isolate();
      writeFiles(work, { 'slow.txt': 'slow\n' });
      const started = Date.now();
      const d = await deliverWork({ ...base, checkout, push: true, timeoutMs: 1500 });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(d.commit).toBeDefined();
      expect(d.push).toBeUndefined();
      expect(d.error).toMatch(/The push was stopped: git push was stopped at its deadline/);
    } finally {
      for (const s of held) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  // The checkout's move onto the commit and the PR run together after the push: each one's failure
  // leaves the other done, and both are in the delivery.
  describe('the PR and the checkout’s move, side by side', () => {
    const prPlan: WorkPlan = { ...plan, openPr: true, fixes: 1 };

    it('a checkout that cannot be moved (its .git replaced during the run): the PR is still opened, the failure told', async () => {
      const gh = await startFakeGitHub();
      try {
        const github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false });
        const work = repo.clone('deliver-moved-fails');
        const checkout = new GitRepo({ dir: work });
        await checkout.startBranch('patchloop/issue-1-a');
        await checkout.isolate();
        writeFiles(work, { 'src/math.js': 'fixed a\n' });
        renameSync(join(work, '.git'), join(work, 'old-git'));
        execFileSync('git', ['init', '-q', '--initial-branch=trap', work]);
        const d = await deliverWork({
          ...base,
          plan: { ...prPlan, branch: 'patchloop/issue-1-a' },
          checkout,
          push: true,
          github,
        });
        expect(d.error).toBeUndefined();
        expect(git(repo.origin, 'rev-parse', 'patchloop/issue-1-a')).toBe(d.push!.sha);
        expect(d.pr).toMatchObject({ kind: 'created' });
        expect(gh.requestsTo('POST', /\/pulls$/)).toHaveLength(1);
        expect(d.notices.join(' ')).toMatch(
          /The checkout was not moved to the new commit: .*replaced during the run/,
        );
      } finally {
        await gh.stop();
      }
    });

    it('a PR GitHub refuses: the checkout is still moved onto the pushed commit, the refusal told', async () => {
      const gh = await startFakeGitHub();
      try {
        gh.forbidPullRequestCreation();
        const github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false });
        const work = repo.clone('deliver-pr-fails');
        const checkout = new GitRepo({ dir: work });
        await checkout.startBranch('patchloop/issue-1-b');
        await checkout.isolate();
        writeFiles(work, { 'src/math.js': 'fixed b\n' });
        const d = await deliverWork({
          ...base,
          plan: { ...prPlan, branch: 'patchloop/issue-1-b' },
          checkout,
          push: true,
          github,
        });
        expect(d.error).toBeUndefined();
        expect(d.pr).toMatchObject({ kind: 'forbidden' });
        expect(d.notices.join(' ')).toMatch(/not permitted to create pull requests.*Compare: /);
        expect(d.notices.join(' ')).not.toMatch(/not moved/);
        expect(git(work, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('patchloop/issue-1-b');
        expect(git(work, 'rev-parse', 'HEAD')).toBe(d.push!.sha);
      } finally {
        await gh.stop();
      }
    });
  });
});
