import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACTIONS_BOT_IDENTITY, GitRepo } from '../../src/git/index.js';
import { commitMessage } from '../../src/github/delivery/commit-message.js';
import type { Task } from '../../src/github/context/task.js';
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

describe('merging a commit into the branch', () => {
  /** origin's `earlier` (our side) and a head commit that is on no branch, as a fork's head is on GitHub. */
  function sides(ours: Record<string, string>, theirs: Record<string, string>) {
    const earlier = repo.pushToOrigin(`earlier-${n}`, ours);
    const head = repo.pushToOrigin(`head-${n}`, theirs);
    git(repo.origin, 'update-ref', '-d', `refs/heads/head-${n}`);
    return { branch: `earlier-${n}`, earlier, head };
  }

  it('makes a merge commit of the run’s identity on the branch, the head as its second parent', async () => {
    const { branch, earlier, head } = sides({ 'ours.txt': 'ours\n' }, { 'theirs.txt': 'theirs\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch(branch);
    await co.fetchCommit(head);
    const result = await co.mergeCommit(head, 'Merge the fork’s head into the branch');
    expect(result).toMatchObject({ merged: true });
    const sha = (result as { sha: string }).sha;
    expect(await co.headSha()).toBe(sha);
    expect(await co.currentBranch()).toBe(branch);
    await co.writeBack();
    expect(git(work, 'rev-parse', 'HEAD')).toBe(sha);
    expect(git(work, 'log', '-1', '--format=%P', sha)).toBe(`${earlier} ${head}`);
    expect(git(work, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%B', sha)).toBe(
      `${ACTIONS_BOT_IDENTITY.name} <${ACTIONS_BOT_IDENTITY.email}>|${ACTIONS_BOT_IDENTITY.name} <${ACTIONS_BOT_IDENTITY.email}>|Merge the fork’s head into the branch`,
    );
    expect(git(work, 'show', `${sha}:theirs.txt`)).toBe('theirs');
    expect(git(work, 'show', `${sha}:ours.txt`)).toBe('ours');
    expect(git(work, 'status', '--porcelain')).toBe('');
    // A head the branch holds already merges to nothing.
    expect(await co.mergeCommit(head, 'again')).toEqual({ merged: true, sha });
    await expect(co.mergeCommit('HEAD; touch x', 'm')).rejects.toThrow(/Not a commit id/);
  });

  it('uses the identity the workflow configured for the merge commit', async () => {
    const { branch, head } = sides({ 'ours.txt': 'ours\n' }, { 'theirs.txt': 'theirs\n' });
    git(work, 'config', '--local', 'user.name', 'Release Bot');
    git(work, 'config', '--local', 'user.email', 'release@example.com');
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch(branch);
    await co.fetchCommit(head);
    const result = await co.mergeCommit(head, 'merge');
    expect(result.merged).toBe(true);
    await co.writeBack();
    expect(git(work, 'log', '-1', '--format=%an <%ae>|%cn <%ce>')).toBe(
      'Release Bot <release@example.com>|Release Bot <release@example.com>',
    );
  });

  it('aborts on conflicts: branch, index and tree as before, the conflicting paths returned', async () => {
    const { branch, earlier, head } = sides(
      { 'src/math.js': 'ours\n', 'ours.txt': 'ours\n' },
      { 'src/math.js': 'theirs\n', 'theirs.txt': 'theirs\n' },
    );
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch(branch);
    await co.fetchCommit(head);
    expect(await co.mergeCommit(head, 'merge')).toEqual({ merged: false, conflicts: ['src/math.js'] });
    expect(await co.headSha()).toBe(earlier);
    expect(await co.currentBranch()).toBe(branch);
    expect(await co.dirtyPaths()).toEqual([]);
    const { existsSync, readFileSync } = await import('node:fs');
    expect(readFileSync(`${work}/src/math.js`, 'utf8')).toBe('ours\n');
    expect(existsSync(`${work}/theirs.txt`)).toBe(false);
    expect(existsSync(`${co.privateGitDir}/MERGE_HEAD`)).toBe(false);
    await co.writeBack();
    expect(git(work, 'rev-parse', 'HEAD')).toBe(earlier);
    expect(git(work, 'status', '--porcelain')).toBe('');
  });

  it('throws when git refuses the merge (an untracked file in the way), leaving the checkout as it was', async () => {
    const { branch, earlier, head } = sides({ 'ours.txt': 'ours\n' }, { 'theirs.txt': 'theirs\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch(branch);
    await co.fetchCommit(head);
    writeFiles(work, { 'theirs.txt': 'a setup step left this\n' });
    await expect(co.mergeCommit(head, 'merge')).rejects.toThrow(/git merge failed .*theirs\.txt/);
    expect(await co.headSha()).toBe(earlier);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(`${work}/theirs.txt`, 'utf8')).toBe('a setup step left this\n');
  });

  it('runs no merge driver that the merged content’s .gitattributes names, even one the checkout’s config defines', async () => {
    const { existsSync } = await import('node:fs');
    const marker = `${repo.root}/merge-driver-ran-${n}`;
    // Both sides change the same file in different places: a three-way merge of its content,
    // which is where git calls a file's merge driver.
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i}`);
    const edited = (at: number, text: string) => lines.map((l, i) => (i === at ? text : l)).join('\n');
    const base = repo.pushToOrigin(`base-${n}`, {
      '.gitattributes': '* merge=evil\n',
      'list.txt': `${lines.join('\n')}\n`,
    });
    const earlier = repo.pushToOrigin(`base-${n}`, { 'list.txt': `${edited(1, 'ours')}\n` });
    git(repo.origin, 'update-ref', `refs/heads/earlier-${n}`, earlier);
    git(repo.origin, 'update-ref', `refs/heads/base-${n}`, base);
    const head = repo.pushToOrigin(`base-${n}`, { 'list.txt': `${edited(10, 'theirs')}\n` });
    git(repo.origin, 'update-ref', '-d', `refs/heads/base-${n}`);
    // The driver is defined only by config: here the checkout's own, and its info/attributes names it too.
    const plant = (dir: string) => {
      git(dir, 'config', '--local', 'merge.evil.name', 'evil');
      git(dir, 'config', '--local', 'merge.evil.driver', `touch ${marker}`);
      writeFiles(dir, { '.git/info/attributes': '* merge=evil\n' });
    };
    plant(work);
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch(`earlier-${n}`);
    await co.fetchCommit(head);
    const result = await co.mergeCommit(head, 'merge');
    expect(existsSync(marker)).toBe(false);
    expect(result.merged).toBe(true);
    await co.writeBack();
    // git's own text merge: both sides' lines are there.
    const merged = git(work, 'show', 'HEAD:list.txt');
    expect(merged).toContain('ours');
    expect(merged).toContain('theirs');

    // The same merge by a git that reads the checkout's config does run the driver.
    const control = repo.clone(`control-${n}`);
    plant(control);
    git(control, 'checkout', '--quiet', `earlier-${n}`);
    git(control, 'fetch', '--quiet', 'origin', head);
    git(control, 'merge', '--no-ff', '--no-edit', head);
    expect(existsSync(marker)).toBe(true);
  });
});

describe('the private git dir', () => {
  it('holds every loose object of the checkout, hundreds of them in a few fan-out folders', async () => {
    // 400 loose blobs: many share a fan-out folder, so links into one race its mkdir.
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`many/f${i}.txt`] = `content ${i}\n`;
    writeFiles(work, files);
    git(work, 'add', 'many');
    git(work, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'many files');
    const loose = git(work, 'count-objects', '-v').match(/^count: (\d+)$/m)?.[1];
    expect(Number(loose)).toBeGreaterThan(400);
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.isolate();
    const objects = git(work, 'rev-list', '--objects', '--all')
      .split('\n')
      .map((l) => l.split(' ')[0]!)
      .filter(Boolean);
    // every object reachable in the checkout is readable through the private git dir alone
    const check = execFileSync('git', ['--git-dir', co.privateGitDir!, 'cat-file', '--batch-check'], {
      input: objects.join('\n') + '\n',
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    expect(check.split('\n').filter((l) => l.endsWith(' missing'))).toEqual([]);
    expect(check.trim().split('\n')).toHaveLength(objects.length);
  });
});

describe('recovery after a killed git', () => {
  function sides(ours: Record<string, string>, theirs: Record<string, string>) {
    const earlier = repo.pushToOrigin(`rec-earlier-${n}`, ours);
    const head = repo.pushToOrigin(`rec-head-${n}`, theirs);
    git(repo.origin, 'update-ref', '-d', `refs/heads/rec-head-${n}`);
    return { branch: `rec-earlier-${n}`, earlier, head };
  }

  it('removes a stale lock from the private git dir before a merge, never one in the checkout’s .git', async () => {
    const { writeFileSync, existsSync } = await import('node:fs');
    const { branch, head } = sides({ 'ours.txt': 'ours\n' }, { 'theirs.txt': 'theirs\n' });
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.checkoutRemoteBranch(branch);
    await co.fetchCommit(head);
    await co.isolate();
    // What a git killed with SIGKILL during a commit leaves, in both git dirs.
    writeFileSync(`${co.privateGitDir}/index.lock`, '');
    writeFileSync(`${work}/.git/index.lock`, '');
    const result = await co.mergeCommit(head, 'merge');
    expect(result.merged).toBe(true);
    expect(existsSync(`${co.privateGitDir}/index.lock`)).toBe(false);
    // The checkout's own lock may belong to another program: left alone.
    expect(existsSync(`${work}/.git/index.lock`)).toBe(true);
  });

  it('removes a stale lock from the private git dir before a commit', async () => {
    const { writeFileSync } = await import('node:fs');
    const co = new GitRepo({ dir: work, identitySource: 'local' });
    await co.startBranch(`patchloop/lock-${n}`);
    await co.isolate();
    writeFileSync(`${co.privateGitDir}/index.lock`, '');
    writeFiles(work, { 'fixed.txt': 'fixed\n' });
    const outcome = await co.commitChanges('a commit after a killed one');
    expect(outcome.commit?.files.map((f) => f.path)).toEqual(['fixed.txt']);
  });

  it('stops with a clear error when a failed merge cannot be undone, instead of leaving half-merged files unsaid', async () => {
    const { chmodSync, mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { branch, head } = sides({ 'src/math.js': 'ours\n' }, { 'src/math.js': 'theirs\n' });
    // A real git, except that `merge --abort` fails as it does on a lock it cannot take.
    const bin = mkdtempSync(`${tmpdir()}/pl-git-wrapper-`);
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(
      `${bin}/git`,
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = "--abort" ] && { echo "fatal: Unable to create 'index.lock': File exists." >&2; exit 128; }; done\nexec ${real} "$@"\n`,
    );
    chmodSync(`${bin}/git`, 0o755);
    const co = new GitRepo({ dir: work, identitySource: 'local', git: `${bin}/git` });
    await co.checkoutRemoteBranch(branch);
    await co.fetchCommit(head);
    const failed = co.mergeCommit(head, 'merge');
    await expect(failed).rejects.toMatchObject({ name: 'MergeRecoveryError' });
    await expect(failed).rejects.toThrow(/could not be undone .*Unable to create 'index\.lock'.*half-merged/);
    // (what it protects against: the conflict markers are in the work tree)
    expect(readFileSync(`${work}/src/math.js`, 'utf8')).toContain('<<<<<<<');
  });
});
