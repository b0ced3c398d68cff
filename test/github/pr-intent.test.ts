// What a run's PR claims: finished work closes its issue ("Fix #N" in the title, "Fixes #N" in the
// body); unfinished work (tests still failing, a budget used up, an error) is a draft whose title,
// commit and body claim no fix, so merging it closes nothing.
import { describe, expect, it } from 'vitest';
import { commitMessage } from '../../src/github/delivery/commit-message.js';
import { issueReference, proposalFields } from '../../src/github/delivery/pr.js';
import type { Task } from '../../src/github/context/task.js';

const RUN = 'https://github.com/octo/demo/actions/runs/99';

const task = (over: Partial<Task> = {}): Task => ({
  kind: 'issue',
  event: 'issue_comment',
  owner: 'octo',
  repo: 'demo',
  number: 12,
  isPullRequest: false,
  title: 'Division by zero in math.js',
  trigger: { kind: 'issue-comment', id: 1, body: '/patchloop fix it', createdAt: '2026-01-01T00:00:00Z' },
  requester: { login: 'alice', type: 'User', id: 4242 },
  request: '/patchloop fix it',
  ...over,
});

// GitHub's closing keywords, in a commit message that reaches the default branch or a PR's body
const CLOSES = /\b(close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved) #12\b/i;

describe('the pull request of finished work', () => {
  it('is titled as a fix, a draft only when draft-pr says so, and closes the issue', () => {
    expect(proposalFields({ task: task(), runUrl: RUN, draft: false })).toEqual({
      prTitle: 'Fix #12: Division by zero in math.js',
      draft: false,
    });
    expect(proposalFields({ task: task(), runUrl: RUN, draft: true }).draft).toBe(true);
    expect(issueReference({ fixes: 12 })).toBe('Fixes #12');
    expect(issueReference({ pullNumber: 5 })).toBe('Follows up #5');
    expect(issueReference({})).toBeUndefined();
  });
});

describe('the pull request of unfinished work', () => {
  it('is a draft whatever draft-pr says, titled as an attempt with the reason, and only refers to the issue', () => {
    const fields = proposalFields({
      task: task(),
      runUrl: RUN,
      draft: false,
      unfinished: 'tests still failing',
    });
    expect(fields).toEqual({
      prTitle: 'Attempt at #12 (tests still failing): Division by zero in math.js',
      draft: true,
    });
    expect(fields.prTitle).not.toMatch(CLOSES);
    expect(issueReference({ fixes: 12 }, 'tests still failing')).toBe('Refs #12');
    expect(issueReference({ pullNumber: 5 }, 'turns budget used up')).toBe('Follows up #5');
  });

  it('says so in the commit, which claims no fix either', () => {
    const msg = commitMessage({
      task: task(),
      runUrl: RUN,
      agentSummary: 'Tried a guard.',
      unfinished: 'turns budget used up',
    });
    expect(msg.split('\n')[0]).toBe('Attempt at #12 (turns budget used up): Division by zero in math.js');
    expect(msg).toContain('Unfinished: turns budget used up.');
    expect(msg).not.toMatch(CLOSES);
  });

  it('is titled as unfinished for every kind of task', () => {
    const subject = (t: Task) =>
      commitMessage({ task: t, runUrl: RUN, unfinished: 'tests still failing' }).split('\n')[0];
    expect(subject(task({ kind: 'pr', isPullRequest: true, request: '/patchloop add a test' }))).toBe(
      'Attempt at request on #12 (tests still failing): add a test',
    );
    expect(
      subject(
        task({
          kind: 'workflow-run',
          number: undefined,
          workflowRun: { id: 77, name: 'CI', conclusion: 'failure' },
        }),
      ),
    ).toBe('Attempt to fix failed run of CI (run 77) (tests still failing)');
    expect(subject(task({ kind: 'prompt', number: undefined, request: 'Bump the version' }))).toBe(
      'patchloop (tests still failing): Bump the version',
    );
  });
});
