import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { branchNameFor as nameFor, cleanPrefix, slugify, uniqueName } from '../../src/git/index.js';
import type { Task } from '../../src/github/context/task.js';
import { isPlainBranchName } from '../../src/git/repo.js';

const base: Omit<Task, 'kind'> = {
  event: 'issue_comment',
  owner: 'octo',
  repo: 'demo',
  isPullRequest: false,
  trigger: { kind: 'prompt', createdAt: '2026-01-01T00:00:00Z' },
  request: 'do it',
};

// The action's Task is one kind of BranchTask.
const branchNameFor = (task: Task, prefix: string, runId: string, job?: string) =>
  nameFor(task, prefix, runId, job);

const validRef = (name: string) => {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('branch names', () => {
  it('follow CONTRACT §4 for each kind of task', () => {
    expect(
      branchNameFor(
        { ...base, kind: 'issue', number: 12, title: 'Crash on “empty” input!' },
        'patchloop/',
        '99',
      ),
    ).toBe('patchloop/issue-12-crash-on-empty-input');
    expect(
      branchNameFor({ ...base, kind: 'pr', number: 3, title: 'Ünïcode façade' }, 'patchloop/', '99'),
    ).toBe('patchloop/pr-3-unicode-facade');
    expect(
      branchNameFor(
        { ...base, kind: 'workflow-run', workflowRun: { id: 555, name: 'CI', conclusion: 'failure' } },
        'patchloop/',
        '99',
      ),
    ).toBe('patchloop/fix-run-555');
    expect(branchNameFor({ ...base, kind: 'prompt' }, 'bots/', '99')).toBe('bots/task-99');
    // the jobs of one run (a matrix) each get their own
    expect(branchNameFor({ ...base, kind: 'prompt' }, 'bots/', '99', 'batch-1a2b3c4d')).toBe(
      'bots/task-99-batch-1a2b3c4d',
    );
    expect(branchNameFor({ ...base, kind: 'issue', number: 5, title: '🙂🙂' }, 'patchloop/', '1')).toBe(
      'patchloop/issue-5',
    );
  });

  it('cut long titles at a word and make any prefix a legal ref', () => {
    expect(slugify('a'.repeat(30) + ' ' + 'b'.repeat(30))).toBe('a'.repeat(30));
    // a cut that falls right before a hyphen keeps the whole last word
    expect(slugify('a'.repeat(20) + ' ' + 'b'.repeat(19) + ' c')).toBe(`${'a'.repeat(20)}-${'b'.repeat(19)}`);
    for (const prefix of [
      'patch loop/',
      '../x/',
      'a..b/',
      'x.lock/',
      'we~ird^:?*[/',
      '@{now}/',
      '.hidden/',
    ]) {
      const name = branchNameFor({ ...base, kind: 'prompt' }, prefix, '7');
      expect(validRef(name), `${prefix} → ${name}`).toBe(true);
    }
    expect(cleanPrefix('patchloop/')).toBe('patchloop/');
  });

  it('add -2, -3 … when taken', () => {
    const taken = new Set(['b', 'b-2']);
    expect(uniqueName('b', (c) => taken.has(c))).toBe('b-3');
    expect(uniqueName('c', (c) => taken.has(c))).toBe('c');
  });
});

describe('a branch name judged without git', () => {
  it('says yes to plain names git accepts, and leaves every other form to git', () => {
    // each name with what is said of it without git
    const names: [string, boolean][] = [
      ['patchloop/issue-1-div-by-zero', true],
      ['a/b.c/d_e-f', true],
      ['a/HEAD', true],
      ['x.lock/y', false],
      ['a..b', false],
      ['a/.b', false],
      ['.a', false],
      ['a/', false],
      ['/a', false],
      ['a//b', false],
      ['a.', false],
      ['a.lock', false],
      ['a/b.lock', false],
      ['-a', false],
      ['HEAD', false],
      // git takes these; they are left to it
      ['patchloop/issue-2-naïve', false],
      ['a+b', false],
      // git refuses these
      ['a b', false],
      ['a~1', false],
      ['a@{1}', false],
      ['@', false],
    ];
    for (const [name, plain] of names) {
      expect({ name, plain: isPlainBranchName(name) }).toEqual({ name, plain });
      if (plain) expect({ name, git: validRef(name) }).toEqual({ name, git: true });
    }
    expect(validRef('patchloop/issue-2-naïve') && validRef('a+b')).toBe(true);
  });

  it('never says yes where git says no (random names of the characters it judges)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', 'Z', '0', '.', '_', '-', '/', 'l', 'o', 'c', 'k'),
          maxLength: 14,
        }),
        (name) => !isPlainBranchName(name) || validRef(name),
      ),
      { numRuns: 300 },
    );
  });
});
