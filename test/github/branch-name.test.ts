import { describe, expect, it } from 'vitest';
import { chooseArtifactUploader } from '../../src/github/delivery/artifact.js';
import { commitMessage } from '../../src/github/delivery/commit-message.js';
import type { Task } from '../../src/github/context/task.js';

const base: Omit<Task, 'kind'> = {
  event: 'issue_comment',
  owner: 'octo',
  repo: 'demo',
  isPullRequest: false,
  trigger: { kind: 'prompt', createdAt: '2026-01-01T00:00:00Z' },
  request: 'do it',
};

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
    expect(run.split('\n')[0]).toBe('Fix failed run of CI (run 9)');
    expect(run).toContain('Pinned the flaky clock.');
    expect(run).not.toContain('Co-authored-by');
  });

  it('notify nobody from the subject or the agent summary, which become the PR title and body', () => {
    const msg = commitMessage({
      task: {
        ...base,
        kind: 'issue',
        number: 7,
        title: 'crash when @alice runs it',
        requester: { login: 'bob', type: 'User' },
      },
      runUrl: 'R',
      agentSummary: 'Fixed; cc @octo/team and `@carol`',
    });
    const [subject, , summary] = msg.split('\n');
    expect(subject).toBe('Fix #7: crash when @\u200balice runs it');
    expect(summary).toBe('Fixed; cc @\u200bocto/team and `@\u200bcarol`');
    expect(msg).toContain('Co-authored-by: bob <bob@users.noreply.github.com>');
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
