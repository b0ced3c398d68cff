import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitToNewBranch,
  defaultBranchName,
  dirtyPaths,
  isValidBranchName,
  openCheckout,
  parseStatus,
  unusedBranchName,
} from '../../src/git/local.js';
import { tempRepo, type TempRepo } from '../agent/helpers.js';

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

describe('local git for patchloop run', () => {
  it('commits every change on a new branch and reports a numstat per file', async () => {
    repo = tempRepo({ 'a.txt': 'one\ntwo\n', 'b.bin': 'x' });
    const checkout = await openCheckout(join(repo.root, '.'));
    expect(checkout.branch).toBe('main');
    writeFileSync(join(repo.root, 'a.txt'), 'one\nTWO\nthree\n');
    writeFileSync(join(repo.root, 'new.txt'), 'hello\n');
    writeFileSync(join(repo.root, 'b.bin'), Buffer.from([0, 1, 2, 0, 255]));
    expect((await dirtyPaths(repo.root)).sort()).toEqual(['a.txt', 'b.bin', 'new.txt']);

    const commit = await commitToNewBranch(repo.root, {
      branch: 'patchloop/test-1',
      message: 'patchloop: test',
    });
    expect(commit).toBeDefined();
    expect(commit!.files).toEqual([
      { path: 'a.txt', added: 2, removed: 1 },
      { path: 'b.bin', added: 0, removed: 0, binary: true },
      { path: 'new.txt', added: 1, removed: 0 },
    ]);
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('patchloop/test-1');
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(commit!.sha);
    expect(repo.git('rev-parse', 'HEAD~1').trim()).toBe(checkout.head);
    expect(await dirtyPaths(repo.root)).toEqual([]);
    expect(await unusedBranchName(repo.root, 'patchloop/test-1')).toBe('patchloop/test-1-2');
  });

  it('creates no branch when nothing changed', async () => {
    repo = tempRepo({ 'a.txt': 'one\n' });
    expect(await commitToNewBranch(repo.root, { branch: 'patchloop/x', message: 'm' })).toBeUndefined();
    expect(repo.git('branch', '--list').trim()).toBe('* main');
  });

  it('uses the fallback author only when git has none', async () => {
    repo = tempRepo({ 'a.txt': 'one\n' });
    const fallbackAuthor = { name: 'patchloop', email: 'patchloop@localhost' };
    writeFileSync(join(repo.root, 'a.txt'), 'two\n');
    const configured = await commitToNewBranch(repo.root, {
      branch: 'patchloop/x',
      message: 'm',
      fallbackAuthor,
    });
    expect(repo.git('log', '-1', '--format=%an <%ae>', configured!.sha).trim()).toBe(
      'Test <test@example.invalid>',
    );

    repo.git('config', '--unset', 'user.email');
    repo.git('config', '--unset', 'user.name');
    writeFileSync(join(repo.root, 'a.txt'), 'three\n');
    const saved = { global: process.env.GIT_CONFIG_GLOBAL, system: process.env.GIT_CONFIG_NOSYSTEM };
    process.env.GIT_CONFIG_GLOBAL = '/dev/null'; // hide the machine's own identity
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    try {
      const commit = await commitToNewBranch(repo.root, {
        branch: 'patchloop/y',
        message: 'm',
        fallbackAuthor,
      });
      expect(repo.git('log', '-1', '--format=%an <%ae>', commit!.sha).trim()).toBe(
        'patchloop <patchloop@localhost>',
      );
    } finally {
      if (saved.global === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved.global;
      if (saved.system === undefined) delete process.env.GIT_CONFIG_NOSYSTEM;
      else process.env.GIT_CONFIG_NOSYSTEM = saved.system;
    }
  });

  it('refuses a folder that is not a checkout, and a checkout without commits', async () => {
    repo = tempRepo({ 'a.txt': 'a' }, { commit: false });
    await expect(openCheckout(tmpdir())).rejects.toThrow(/not inside a git checkout/);
    await expect(openCheckout(repo.root)).rejects.toThrow(/has no commits yet/);
  });

  it('names branches from the task and the time', async () => {
    const date = new Date(Date.UTC(2026, 4, 12, 14, 30, 5));
    expect(defaultBranchName('Fix the divide-by-zero in src/math.js!', date)).toBe(
      'patchloop/fix-the-divide-by-zero-in-src-math-js-0512-143005',
    );
    expect(defaultBranchName('Fix the divide-by-zero in src/math.js: divide(1, 0) should throw', date)).toBe(
      'patchloop/fix-the-divide-by-zero-in-src-math-js-0512-143005',
    );
    expect(defaultBranchName('  ???  ', date)).toBe('patchloop/task-0512-143005');
    repo = tempRepo({ 'a.txt': 'a' });
    expect(await isValidBranchName(repo.root, defaultBranchName('Ünïcödé ~^: task', date))).toBe(true);
    expect(await isValidBranchName(repo.root, 'bad..name')).toBe(false);
  });
});

describe('git status parsing', () => {
  it('reads the HEAD, the branch and every kind of changed path', () => {
    const out = [
      '# branch.oid 1234abcd',
      '# branch.head feature/x',
      '1 .M N... 100644 100644 100644 aaaa bbbb src/a file.js',
      '2 R. N... 100644 100644 100644 aaaa bbbb R100 new name.js',
      'old name.js',
      'u UU N... 100644 100644 100644 100644 aaaa bbbb cccc conflict.js',
      '? untracked dir/',
      '',
    ].join('\0');
    expect(parseStatus(out)).toEqual({
      head: '1234abcd',
      branch: 'feature/x',
      dirty: ['src/a file.js', 'new name.js', 'conflict.js', 'untracked dir/'],
    });
    expect(parseStatus('# branch.oid (initial)\0# branch.head (detached)\0')).toEqual({ dirty: [] });
  });
});
