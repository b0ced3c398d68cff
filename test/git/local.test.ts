import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultBranchName, openCheckout, parseNumstat, parseStatus } from '../../src/git/index.js';
import { tempRepo, type TempRepo } from '../agent/helpers.js';

// The CLI's git: open a checkout, commit the run's work on a new local branch, and leave the
// checkout clean on it.
let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

const fallbackIdentity = { name: 'patchloop', email: 'patchloop@localhost' };

describe('local git for patchloop run', () => {
  it('commits every change on a new branch, reports a numstat per file, and leaves the checkout on it', async () => {
    repo = tempRepo({ 'a.txt': 'one\ntwo\n', 'b.bin': 'x' });
    const checkout = await openCheckout(join(repo.root, '.'), { identitySource: 'user', fallbackIdentity });
    expect(checkout.branch).toBe('main');
    expect(checkout.dirty).toEqual([]);
    await checkout.repo.isolate();
    writeFileSync(join(repo.root, 'a.txt'), 'one\nTWO\nthree\n');
    writeFileSync(join(repo.root, 'new.txt'), 'hello\n');
    writeFileSync(join(repo.root, 'b.bin'), Buffer.from([0, 1, 2, 0, 255]));
    expect((await checkout.repo.dirtyPaths()).sort()).toEqual(['a.txt', 'b.bin', 'new.txt']);

    const { commit, leftOut } = await checkout.repo.commitChanges('patchloop: test', {
      branch: 'patchloop/test-1',
    });
    expect(leftOut).toEqual([]);
    expect(commit!.files).toEqual([
      { path: 'a.txt', added: 2, removed: 1 },
      { path: 'b.bin', added: 0, removed: 0, binary: true },
      { path: 'new.txt', added: 1, removed: 0 },
    ]);
    await checkout.repo.writeBack();
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('patchloop/test-1');
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(commit!.sha);
    expect(repo.git('rev-parse', 'HEAD~1').trim()).toBe(checkout.head);
    expect(repo.git('status', '--porcelain').trim()).toBe('');
    expect(repo.git('fsck', '--no-dangling').trim()).toBe('');
    expect(await checkout.repo.unusedBranchName('patchloop/test-1')).toBe('patchloop/test-1-2');
  });

  it('isolates into a private git dir whose config holds only what patchloop wrote', async () => {
    repo = tempRepo({ 'a.txt': 'one\n' });
    repo.git('config', 'core.fsmonitor', 'false');
    repo.git('config', 'alias.x', '!true');
    const { repo: r } = await openCheckout(repo.root, { identitySource: 'user', fallbackIdentity });
    await r.isolate();
    const dir = r.privateGitDir!;
    expect(statSync(dirname(dir)).mode & 0o777).toBe(0o700);
    const keys = execFileSync('git', ['config', '--file', join(dir, 'config'), '--name-only', '--list'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    expect(keys.sort()).toEqual(
      [
        'core.bare',
        'core.filemode',
        'core.logallrefupdates',
        'core.repositoryformatversion',
        'user.email',
        'user.name',
      ].sort(),
    );
    expect(readFileSync(join(dir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    await r.dispose();
    expect(existsSync(dir)).toBe(false);
  });

  it('creates no branch when nothing changed', async () => {
    repo = tempRepo({ 'a.txt': 'one\n' });
    const { repo: r } = await openCheckout(repo.root);
    expect((await r.commitChanges('m', { branch: 'patchloop/x' })).commit).toBeNull();
    await r.writeBack();
    expect(repo.git('branch', '--list').trim()).toBe('* main');
  });

  it('commits as the user git knows, and as the fallback only when git knows none', async () => {
    repo = tempRepo({ 'a.txt': 'one\n' });
    const first = await openCheckout(repo.root, { identitySource: 'user', fallbackIdentity });
    writeFileSync(join(repo.root, 'a.txt'), 'two\n');
    const configured = (await first.repo.commitChanges('m', { branch: 'patchloop/x' })).commit!;
    await first.repo.writeBack();
    expect(repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>', configured.sha).trim()).toBe(
      'Test <test@example.invalid>|Test <test@example.invalid>',
    );

    repo.git('config', '--unset', 'user.email');
    repo.git('config', '--unset', 'user.name');
    writeFileSync(join(repo.root, 'a.txt'), 'three\n');
    const saved = { global: process.env.GIT_CONFIG_GLOBAL };
    process.env.GIT_CONFIG_GLOBAL = '/dev/null'; // hide the machine's own identity
    try {
      const second = await openCheckout(repo.root, { identitySource: 'user', fallbackIdentity });
      const commit = (await second.repo.commitChanges('m', { branch: 'patchloop/y' })).commit!;
      await second.repo.writeBack();
      expect(repo.git('log', '-1', '--format=%an <%ae>', commit.sha).trim()).toBe(
        'patchloop <patchloop@localhost>',
      );
    } finally {
      if (saved.global === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved.global;
    }
  });

  // git trusts an index entry whose file still has its recorded size and times, unless the entry
  // is no older than the index file itself ("racily clean"): then it reads the content. A copy of the
  // index with a newer mtime would make such an entry look settled, and an edit of the same size in
  // the same second as the checkout would not be committed. The private git dir keeps the mtime.
  it('commits an edit of the same size made in the same second as the index (racy git)', async () => {
    for (let attempt = 0; ; attempt++) {
      repo = tempRepo({ 'a.txt': 'one\n' });
      const index = join(repo.root, '.git', 'index');
      writeFileSync(join(repo.root, 'a.txt'), 'two\n');
      const second = (p: string) => Math.floor(statSync(p).mtimeMs / 1000);
      const { ctimeMs } = statSync(join(repo.root, 'a.txt'));
      // the index, the first content and the edit all in one second (else try again)
      if (
        second(index) !== Math.floor(ctimeMs / 1000) ||
        second(index) !== second(join(repo.root, 'a.txt'))
      ) {
        expect(attempt).toBeLessThan(20);
        repo.cleanup();
        continue;
      }
      // the private git dir is made in a later second
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
      const checkout = await openCheckout(repo.root, { fallbackIdentity });
      const { commit } = await checkout.repo.commitChanges('m', { branch: 'patchloop/racy' });
      expect(commit, 'the edit was taken for no change').not.toBeNull();
      await checkout.repo.writeBack();
      expect(repo.git('show', `${commit!.sha}:a.txt`)).toBe('two\n');
      return;
    }
  });

  it('refuses a folder that is not a checkout, and a checkout without commits', async () => {
    repo = tempRepo({ 'a.txt': 'a' }, { commit: false });
    await expect(openCheckout(tmpdir())).rejects.toThrow(/not inside a git checkout/);
    await expect(openCheckout(repo.root)).rejects.toThrow(/has no commits yet/);
  });

  it('names branches from the task and the time, and checks names with git', async () => {
    const date = new Date(Date.UTC(2026, 4, 12, 14, 30, 5));
    expect(defaultBranchName('Fix the divide-by-zero in src/math.js!', date)).toBe(
      'patchloop/fix-the-divide-by-zero-in-src-math-js-0512-143005',
    );
    expect(defaultBranchName('Fix the divide-by-zero in src/math.js: divide(1, 0) should throw', date)).toBe(
      'patchloop/fix-the-divide-by-zero-in-src-math-js-0512-143005',
    );
    expect(defaultBranchName('  ???  ', date)).toBe('patchloop/task-0512-143005');
    repo = tempRepo({ 'a.txt': 'a' });
    const { repo: r } = await openCheckout(repo.root);
    expect(await r.isValidBranchName(defaultBranchName('Ünïcödé ~^: task', date))).toBe(true);
    expect(defaultBranchName('Ünïcödé ~^: task', date)).toBe('patchloop/unicode-task-0512-143005');
    expect(await r.isValidBranchName('bad..name')).toBe(false);
    expect(await r.isValidBranchName('-x')).toBe(false);
    expect(await r.branchExists('main')).toBe(true);
    expect(await r.branchExists('nope')).toBe(false);
  });
});

describe('status and numstat parsing', () => {
  it('reads the HEAD, the branch and every kind of changed path', () => {
    const out = [
      '# branch.oid 1234abcd',
      '# branch.head feature/x',
      '1 .M N... 100644 100644 100644 aaaa bbbb src/a file.js',
      '2 R. N... 100644 100644 100644 aaaa bbbb R100 new name.js',
      'old name.js',
      'u UU N... 100644 100644 100644 100644 aaaa bbbb cccc conflict.js',
      '1 .M S.M. 160000 160000 160000 aaaa aaaa vendor/lib',
      '? untracked dir/',
      '',
    ].join('\0');
    const status = parseStatus(out);
    expect(status.head).toBe('1234abcd');
    expect(status.branch).toBe('feature/x');
    expect(status.entries.map((e) => [e.kind, e.path, e.from ?? null, e.gitlink])).toEqual([
      ['1', 'src/a file.js', null, false],
      ['2', 'new name.js', 'old name.js', false],
      ['u', 'conflict.js', null, false],
      ['1', 'vendor/lib', null, true],
      ['?', 'untracked dir/', null, false],
    ]);
    expect(parseStatus('# branch.oid (initial)\0# branch.head (detached)\0')).toEqual({ entries: [] });
  });

  it('gives binary files zero counts and a binary flag, and keeps tabs and newlines in names', () => {
    expect(parseNumstat('3\t1\ta.txt\0-\t-\timg.png\0' + '1\t0\tweird\tname\nx\0')).toEqual([
      { path: 'a.txt', added: 3, removed: 1 },
      { path: 'img.png', added: 0, removed: 0, binary: true },
      { path: 'weird\tname\nx', added: 1, removed: 0 },
    ]);
  });
});
