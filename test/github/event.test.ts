import { describe, expect, it } from 'vitest';
import { taskFromEvent, type EventOptions } from '../../src/github/context/event.js';
import { TRACKING_MARKER } from '../../src/github/context/trigger.js';
import {
  EXAMPLE_REPOSITORY,
  example,
  fromFork,
  issueCommentOnIssue,
  issueCommentOnPull,
  issueLabeled,
  issueOpened,
  reviewCommentCreated,
  reviewSubmitted,
  workflowRunFailed,
} from './fixtures/webhooks.js';
import { issueComment, issues, review, reviewComment, workflowRun } from './payloads.js';

const options: EventOptions = {
  triggerPhrase: '/patchloop',
  labelTrigger: 'patchloop',
  prompt: '',
  repository: 'octo/demo',
};

const run = (event: string, payload: unknown, extra: Partial<EventOptions> = {}) =>
  taskFromEvent(event, payload, { ...options, ...extra });

describe('events that start a run', () => {
  it('an issue comment with the phrase: kind issue, the comment is the request', () => {
    const d = run(
      'issue_comment',
      issueComment({
        issue: { number: 12, title: 'Crash', body: 'It crashes' },
        comment: { id: 77, body: '/patchloop fix the crash' },
      }),
    );
    expect(d).toMatchObject({
      run: true,
      task: {
        kind: 'issue',
        number: 12,
        isPullRequest: false,
        title: 'Crash',
        body: 'It crashes',
        request: '/patchloop fix the crash',
        trigger: { kind: 'issue-comment', id: 77, createdAt: '2026-03-02T12:00:00Z' },
        requester: { login: 'alice', type: 'User' },
      },
    });
  });

  it('a comment on a pull request: kind pr (branches are read later)', () => {
    const d = run(
      'issue_comment',
      issueComment({
        issue: { number: 3, title: 'Feature', isPullRequest: true },
        comment: { id: 1, body: 'please /patchloop add tests' },
      }),
    );
    expect(d).toMatchObject({ run: true, task: { kind: 'pr', isPullRequest: true, number: 3 } });
  });

  it('a review comment: carries the file, line and diff hunk, and the PR’s branches', () => {
    const d = run(
      'pull_request_review_comment',
      reviewComment({
        pull: { number: 4, title: 'Refactor', head: 'refactor', fork: 'mallory/demo' },
        comment: {
          id: 9,
          body: '/patchloop use a constant here',
          path: 'src/math.js',
          line: 3,
          diffHunk: '@@ -1,3 +1,3 @@\n-a\n+b',
          inReplyTo: 8,
        },
      }),
    );
    expect(d).toMatchObject({
      run: true,
      task: {
        kind: 'review-comment',
        review: { path: 'src/math.js', line: 3, diffHunk: '@@ -1,3 +1,3 @@\n-a\n+b', inReplyTo: 8 },
        pr: { headRef: 'refactor', baseRef: 'main', headRepo: 'mallory/demo', fork: true },
      },
    });
  });

  it('a submitted review with the phrase', () => {
    const d = run(
      'pull_request_review',
      review({
        pull: { number: 5, title: 'x', head: 'x' },
        review: { id: 3, body: '/patchloop address these' },
      }),
    );
    expect(d).toMatchObject({
      run: true,
      task: { kind: 'review', pr: { fork: false, headRef: 'x' }, trigger: { kind: 'review', id: 3 } },
    });
  });

  it('an issue labeled with label-trigger, and an issue opened with the phrase in its body', () => {
    const labeled = run(
      'issues',
      issues({
        action: 'labeled',
        issue: { number: 6, title: 'Bug' },
        label: 'PatchLoop',
        sender: { login: 'maintainer' },
      }),
    );
    expect(labeled).toMatchObject({
      run: true,
      task: { kind: 'issue', trigger: { kind: 'label' }, requester: { login: 'maintainer' } },
    });
    const opened = run(
      'issues',
      issues({ action: 'opened', issue: { number: 7, title: 'Bug', body: 'steps...\n/patchloop' } }),
    );
    expect(opened).toMatchObject({ run: true, task: { trigger: { kind: 'issue-body' } } });
  });

  it('a failed workflow run: carries the run, and the prompt when set', () => {
    const d = run('workflow_run', workflowRun({ id: 555, conclusion: 'failure' }));
    expect(d).toMatchObject({
      run: true,
      task: { kind: 'workflow-run', workflowRun: { id: 555, name: 'CI', conclusion: 'failure' } },
    });
    const withPrompt = run('workflow_run', workflowRun({ id: 556, conclusion: 'failure' }), {
      prompt: 'Fix the lint errors only',
    });
    expect(withPrompt).toMatchObject({ run: true, task: { request: 'Fix the lint errors only' } });
  });

  it('any other event with a prompt', () => {
    const d = run(
      'schedule',
      { schedule: '0 3 * * *' },
      { prompt: 'Update the changelog', actor: 'octo-admin' },
    );
    expect(d).toMatchObject({
      run: true,
      task: { kind: 'prompt', request: 'Update the changelog', requester: { login: 'octo-admin' } },
    });
  });
});

describe('events that do not', () => {
  it.each([
    [
      'issue_comment',
      issueComment({ issue: { number: 1, title: 't' }, comment: { id: 1, body: 'nice work' } }),
      /does not contain/,
    ],
    [
      'issue_comment',
      issueComment({
        issue: { number: 1, title: 't' },
        comment: { id: 1, body: '/patchloop fix' },
        action: 'edited',
      }),
      /not a new comment/,
    ],
    [
      'issue_comment',
      issueComment({
        issue: { number: 1, title: 't' },
        comment: {
          id: 1,
          body: `Working on /patchloop fix\n${TRACKING_MARKER}`,
          author: { login: 'someone' },
        },
      }),
      /own/,
    ],
    [
      'issue_comment',
      issueComment({
        issue: { number: 1, title: 't' },
        comment: { id: 1, body: '/patchloop', author: { login: 'github-actions[bot]' } },
      }),
      /own/,
    ],
    [
      'issues',
      issues({ action: 'labeled', issue: { number: 1, title: 't' }, label: 'bug' }),
      /not "patchloop"/,
    ],
    [
      'issues',
      issues({ action: 'edited', issue: { number: 1, title: 't', body: '/patchloop' } }),
      /neither opened nor labeled/,
    ],
    ['workflow_run', workflowRun({ id: 1, conclusion: 'success' }), /not "failure"/],
    [
      'pull_request_review',
      review({ pull: { number: 5, title: 'x', head: 'x' }, review: { id: 3, body: null } }),
      /does not contain/,
    ],
    ['workflow_dispatch', { inputs: {} }, /needs the prompt input/],
  ])('%s %#', (event, payload, reason) => {
    const d = run(event, payload);
    expect(d.run).toBe(false);
    expect(d.run ? '' : d.reason).toMatch(reason);
  });

  it.each([null, 42, 'text', [], { issue: 'no' }, { comment: {}, issue: { number: 'x' } }])(
    'a malformed payload %j is skipped, not thrown',
    (payload) => {
      for (const event of [
        'issue_comment',
        'pull_request_review_comment',
        'pull_request_review',
        'issues',
        'workflow_run',
      ]) {
        const d = run(event, payload);
        expect(d.run).toBe(false);
      }
    },
  );

  it('a bad GITHUB_REPOSITORY is reported', () => {
    const d = run('schedule', {}, { repository: 'nope', prompt: 'x' });
    expect(d).toEqual({ run: false, reason: expect.stringContaining('not owner/name') });
  });
});

describe('real webhook payloads (@octokit/webhooks-examples)', () => {
  const real = (event: string, payload: unknown, extra: Partial<EventOptions> = {}) =>
    taskFromEvent(event, payload, { ...options, repository: EXAMPLE_REPOSITORY, ...extra });

  it('issue_comment on an issue', () => {
    const p = issueCommentOnIssue('/patchloop fix the typo');
    expect(real('issue_comment', p)).toMatchObject({
      run: true,
      task: {
        kind: 'issue',
        number: p.issue.number,
        defaultBranch: 'master',
        trigger: { kind: 'issue-comment', id: p.comment.id, createdAt: p.comment.created_at },
        requester: { login: 'Codertocat', id: p.comment.user.id },
      },
    });
  });

  it('issue_comment on a pull request', () => {
    expect(real('issue_comment', issueCommentOnPull('/patchloop add a test'))).toMatchObject({
      run: true,
      task: { kind: 'pr', isPullRequest: true },
    });
  });

  it('pull_request_review_comment: no `line` in the payload, the head sha of the moment', () => {
    const p = reviewCommentCreated('/patchloop use more emoji here');
    const d = real('pull_request_review_comment', p);
    expect(d).toMatchObject({
      run: true,
      task: {
        kind: 'review-comment',
        review: { path: p.comment.path, line: undefined, diffHunk: p.comment.diff_hunk },
        pr: { headRef: 'changes', headSha: p.pull_request.head.sha, baseRef: 'master', fork: false },
      },
    });
    const forked = real(
      'pull_request_review_comment',
      fromFork(reviewCommentCreated('/patchloop x'), 'mallory'),
    );
    expect(forked).toMatchObject({
      run: true,
      task: { pr: { fork: true, headRepo: 'mallory/Hello-World' } },
    });
  });

  it('pull_request_review: null body is no request; a body with the phrase is', () => {
    expect(real('pull_request_review', reviewSubmitted(null))).toMatchObject({ run: false });
    const p = reviewSubmitted('/patchloop address these');
    expect(real('pull_request_review', p)).toMatchObject({
      run: true,
      task: {
        kind: 'review',
        trigger: { kind: 'review', id: p.review.id },
        pr: { headSha: p.pull_request.head.sha },
      },
    });
  });

  it('issues opened with the phrase, and labeled with label-trigger', () => {
    expect(real('issues', issueOpened('Steps…\n\n/patchloop'))).toMatchObject({
      run: true,
      task: { kind: 'issue', trigger: { kind: 'issue-body' } },
    });
    expect(real('issues', issueOpened(null))).toMatchObject({ run: false });
    expect(real('issues', issueLabeled('patchloop'))).toMatchObject({
      run: true,
      task: { kind: 'issue', trigger: { kind: 'label', label: 'patchloop' } },
    });
    expect(real('issues', issueLabeled('bug'))).toMatchObject({ run: false });
  });

  it('workflow_run with an empty name: named after the workflow, the failed commit in the request', () => {
    const p = workflowRunFailed();
    expect(p.workflow_run.name).toBe('');
    const d = real('workflow_run', p);
    expect(d).toMatchObject({
      run: true,
      task: {
        kind: 'workflow-run',
        title: 'test failed',
        workflowRun: { name: 'test', headSha: p.workflow_run.head_sha, headBranch: 'master' },
      },
    });
    const request = d.run ? d.task.request : '';
    expect(request).toContain(`on commit ${p.workflow_run.head_sha} of master`);
    expect(request).not.toContain('""');
    // Without the workflow object, the file's name is the next best name.
    delete p.workflow;
    expect(real('workflow_run', p)).toMatchObject({ task: { workflowRun: { name: 'test.yml' } } });
  });

  it('the edited and deleted examples do not start a run', () => {
    for (const action of ['edited', 'deleted']) {
      const p = example('issue_comment', (e) => e.action === action);
      p.comment.body = '/patchloop now';
      expect(real('issue_comment', p)).toMatchObject({ run: false });
    }
  });
});

describe('a prompt task with issue-number', () => {
  it('is a task about that issue: kind issue, its number, the prompt as the request', () => {
    const d = run('workflow_dispatch', { inputs: {} }, { prompt: 'Fix the flaky test', issueNumber: 42 });
    expect(d).toMatchObject({
      run: true,
      task: {
        kind: 'issue',
        number: 42,
        isPullRequest: false,
        issueFromInput: true,
        request: 'Fix the flaky test',
      },
    });
  });

  it('without a prompt, issue-number alone starts nothing', () => {
    expect(run('schedule', {}, { issueNumber: 42 })).toMatchObject({ run: false });
  });
});

describe('a failed run of a fork’s pull request', () => {
  it('is not fixed from the fork’s commit', () => {
    const p = workflowRunFailed();
    p.workflow_run.event = 'pull_request';
    p.workflow_run.head_repository = { ...p.workflow_run.head_repository, full_name: 'mallory/octo-repo' };
    const d = taskFromEvent('workflow_run', p, { ...options, repository: 'octo-org/octo-repo' });
    expect(d).toEqual({ run: false, reason: expect.stringContaining('fork mallory/octo-repo') });
    // The same payload from the repository itself runs.
    p.workflow_run.head_repository.full_name = 'octo-org/octo-repo';
    expect(taskFromEvent('workflow_run', p, { ...options, repository: 'octo-org/octo-repo' }).run).toBe(true);
  });
});

describe('plan and approve (CONTRACT §13)', () => {
  const onIssue = (body: string, extra: Partial<EventOptions> = {}) =>
    run(
      'issue_comment',
      issueComment({ issue: { number: 3, title: 'T', body: 'B' }, comment: { id: 5, body } }),
      extra,
    );
  const intentOf = (d: ReturnType<typeof run>) => (d.run ? d.task.intent : 'no run');

  it('a request that begins with "plan" is a plan, one that begins with "approve" an approval', () => {
    expect(intentOf(onIssue('/patchloop plan fix the crash'))).toBe('plan');
    expect(intentOf(onIssue('Please: /patchloop, Plan: the crash'))).toBe('plan');
    expect(intentOf(onIssue('/patchloop approve'))).toBe('approve');
    // words that merely start with them, or come later, are ordinary requests
    expect(intentOf(onIssue('/patchloop planet names are wrong'))).toBeUndefined();
    expect(intentOf(onIssue('/patchloop fix it as planned, approve later'))).toBeUndefined();
  });

  it('require-approval makes every write run a plan, but not an approval or a review', () => {
    const extra = { requireApproval: true };
    expect(intentOf(onIssue('/patchloop fix the crash', extra))).toBe('plan');
    expect(intentOf(onIssue('/patchloop approve', extra))).toBe('approve');
    const review = run(
      'issue_comment',
      issueComment({
        issue: { number: 4, title: 'T', body: 'B', isPullRequest: true },
        comment: { id: 6, body: '/patchloop review' },
      }),
      extra,
    );
    expect(review.run && review.task.mode).toBe('review');
    expect(intentOf(review)).toBeUndefined();
  });
});
