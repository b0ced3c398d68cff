// Which events are reviews (CONTRACT §4, §9), on GitHub's published payloads.
import { describe, expect, it } from 'vitest';
import { reviewFocusOf, taskFromEvent, type EventOptions } from '../../src/github/context/event.js';
import {
  EXAMPLE_REPOSITORY,
  issueCommentOnIssue,
  issueCommentOnPull,
  issueOpened,
  pullRequestEvent,
  pullRequestFromFork,
  reviewCommentCreated,
} from './fixtures/webhooks.js';

const options: EventOptions = {
  triggerPhrase: '/patchloop',
  labelTrigger: 'patchloop',
  prompt: '',
  repository: EXAMPLE_REPOSITORY,
};
const run = (event: string, payload: unknown, extra: Partial<EventOptions> = {}) =>
  taskFromEvent(event, payload, { ...options, ...extra });

describe('review events', () => {
  it.each(['opened', 'synchronize', 'reopened', 'ready_for_review'])(
    'pull_request %s with mode review is a review of the PR at the event’s head',
    (action) => {
      const p = pullRequestEvent(action);
      for (const event of ['pull_request', 'pull_request_target']) {
        expect(run(event, p, { mode: 'review' })).toMatchObject({
          run: true,
          task: {
            kind: 'pr',
            number: 2,
            mode: 'review',
            isPullRequest: true,
            trigger: { kind: 'pull-request', action },
            pr: { headRef: 'changes', headSha: p.pull_request.head.sha, fork: false },
            requester: { login: 'Codertocat' },
          },
        });
      }
    },
  );

  it('other pull_request actions, and any without mode review, start nothing', () => {
    expect(run('pull_request', pullRequestEvent('labeled'), { mode: 'review' })).toMatchObject({
      run: false,
    });
    expect(run('pull_request', pullRequestEvent('opened'), { mode: 'fix' })).toMatchObject({
      run: false,
      reason: 'pull_request events start a run only with mode: review',
    });
  });

  it('a fork’s pull_request is skipped with the reason; its pull_request_target is reviewed', () => {
    const skipped = run('pull_request', pullRequestFromFork('opened'), { mode: 'review' });
    expect(skipped).toMatchObject({ run: false });
    expect(!skipped.run && skipped.reason).toContain('review forks with pull_request_target');
    expect(run('pull_request_target', pullRequestFromFork('opened'), { mode: 'review' })).toMatchObject({
      run: true,
      task: { mode: 'review', pr: { fork: true, headRepo: 'Mallory/Hello-World' } },
    });
  });

  it('a request on a PR that begins with "review" is a review with its focus, whatever mode says', () => {
    expect(run('issue_comment', issueCommentOnPull('/patchloop review the error handling'))).toMatchObject({
      run: true,
      task: { mode: 'review', reviewFocus: 'the error handling' },
    });
    expect(run('pull_request_review_comment', reviewCommentCreated('/patchloop Review'))).toMatchObject({
      run: true,
      task: { mode: 'review' },
    });
    const fix = run('issue_comment', issueCommentOnPull('/patchloop fix the review findings'));
    expect(fix.run && fix.task.mode).toBeUndefined();
    // on an issue there is nothing to review: it stays a fix
    const issue = run('issue_comment', issueCommentOnIssue('/patchloop review this'));
    expect(issue.run && issue.task.mode).toBeUndefined();
    // mode review changes nothing: a request on an issue is not run
    expect(
      run('issue_comment', issueCommentOnIssue('/patchloop fix this'), { mode: 'review' }),
    ).toMatchObject({
      run: false,
      reason: 'mode: review reviews pull requests, and this issue_comment is not about one',
    });
    // mode review makes any request on a PR a review
    expect(
      run('issue_comment', issueCommentOnPull('/patchloop look at it'), { mode: 'review' }),
    ).toMatchObject({
      task: { mode: 'review' },
    });
  });

  it('reviewFocusOf reads the words after the phrase', () => {
    expect(reviewFocusOf('/patchloop review: the SQL, please', '/patchloop')).toBe('the SQL, please');
    expect(reviewFocusOf('Hi! /PATCHLOOP review', '/patchloop')).toBe('');
    expect(reviewFocusOf('/patchloop reviewer wanted', '/patchloop')).toBeUndefined();
    expect(reviewFocusOf('/patchloop fix it', '/patchloop')).toBeUndefined();
  });

  it('issues opened with a prompt and no phrase is the prompt’s task about that issue', () => {
    const d = run('issues', issueOpened('It crashes.'), { prompt: 'Triage this issue.' });
    expect(d).toMatchObject({
      run: true,
      task: {
        kind: 'issue',
        number: 1,
        request: 'Triage this issue.',
        body: 'It crashes.',
        trigger: { kind: 'prompt' },
      },
    });
    expect(run('issues', issueOpened('It crashes.'))).toMatchObject({ run: false });
  });
});
