import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { chooseArtifactUploader } from '../../src/github/artifact.js';
import { branchNameFor, cleanPrefix, slugify, uniqueName } from '../../src/github/branch-name.js';
import { commitMessage } from '../../src/github/commit-message.js';
import type { Task } from '../../src/github/task.js';

const base: Omit<Task, 'kind'> = {
  event: 'issue_comment',
  owner: 'octo',
  repo: 'demo',
  isPullRequest: false,
  trigger: { kind: 'prompt', createdAt: '2026-01-01T00:00:00Z' },
  request: 'do it',
};

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
    expect(branchNameFor({ ...base, kind: 'issue', number: 5, title: '🙂🙂' }, 'patchloop/', '1')).toBe(
      'patchloop/issue-5',
    );
  });

  it('cut long titles at a word and make any prefix a legal ref', () => {
    expect(slugify('a'.repeat(30) + ' ' + 'b'.repeat(30))).toBe('a'.repeat(30));
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

describe('commit messages', () => {
  it('name the task, the PR or workflow, and the run, and credit a human requester only', () => {
    const pr = commitMessage({
      task: {
        ...base,
        kind: 'review-comment',
        number: 4,
        isPullRequest: true,
        request: '/patchloop use a constant',
        requester: { login: 'bob', type: 'User' },
      },
      runUrl: 'R',
    });
    expect(pr.split('\n')[0]).toBe('Address request on #4: use a constant');
    expect(pr).toContain('Co-authored-by: bob <bob@users.noreply.github.com>');
    const run = commitMessage({
      task: {
        ...base,
        kind: 'workflow-run',
        workflowRun: { id: 9, name: 'CI', conclusion: 'failure' },
        requester: { login: 'dependabot[bot]', type: 'Bot' },
      },
      runUrl: 'R',
      agentSummary: 'Pinned the flaky clock.',
    });
    expect(run.split('\n')[0]).toBe('Fix failed run of CI (#9)');
    expect(run).toContain('Pinned the flaky clock.');
    expect(run).not.toContain('Co-authored-by');
  });
});

describe('the artifact uploader', () => {
  it('is skipped, with a notice, without the runner’s runtime token', () => {
    const choice = chooseArtifactUploader({ GITHUB_REPOSITORY: 'o/r' });
    expect(choice.uploader).toBeUndefined();
    expect(choice.uploader ? '' : choice.notice).toMatch(/ACTIONS_RUNTIME_TOKEN/);
    expect(
      chooseArtifactUploader({ ACTIONS_RUNTIME_TOKEN: 't', ACTIONS_RESULTS_URL: 'https://results.test/' })
        .uploader,
    ).toBeDefined();
  });
});
