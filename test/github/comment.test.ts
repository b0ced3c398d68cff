import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, TrackingComment } from '../../src/github/comment.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import { TRACKING_MARKER } from '../../src/github/context/trigger.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';

let gh: FakeGitHub;
beforeAll(async () => {
  gh = await startFakeGitHub();
});
afterAll(() => gh.stop());

const github = () =>
  createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false, retryAfterBaseValue: 1 });

describe('the tracking comment', () => {
  it('is created with the marker, takes a burst of progress as few edits, and always ends with the final text', async () => {
    const issue = gh.addIssue({ title: 'x' });
    // An interval far longer than the burst: only the first progress edit may go out before finish.
    const comment = await TrackingComment.create(
      { github: github(), owner: 'octo', repo: 'demo', issueNumber: issue.number, minIntervalMs: 60_000 },
      'Working on it — [run](https://github.com/octo/demo/actions/runs/1)',
    );
    const created = gh.commentsOn(issue.number);
    expect(created).toHaveLength(1);
    expect(created[0]!.body).toContain(TRACKING_MARKER);
    expect(created[0]!.body).toContain('actions/runs/1');
    for (let i = 0; i < 50; i++) comment.update(`step ${i}`);
    expect(await comment.finish('Done: summary')).toBe(true);
    const edits = gh.requestsTo('PATCH', new RegExp(`/issues/comments/${comment.id}$`));
    expect(edits.length).toBeLessThanOrEqual(1);
    expect(gh.commentsOn(issue.number)).toHaveLength(1);
    expect(gh.commentsOn(issue.number)[0]!.body).toBe(`Done: summary\n\n${TRACKING_MARKER}`);
  });

  it('writes progress edits one at a time, the latest text winning, once the interval allows', async () => {
    const issue = gh.addIssue({ title: 'y' });
    const comment = await TrackingComment.create(
      { github: github(), owner: 'octo', repo: 'demo', issueNumber: issue.number, minIntervalMs: 0 },
      'start',
    );
    comment.update('a');
    comment.update('b');
    comment.update('c');
    await comment.finish('end');
    const bodies = gh
      .requestsTo('PATCH', new RegExp(`/issues/comments/${comment.id}$`))
      .map((r) => (r.body as { body: string }).body.replace(`\n\n${TRACKING_MARKER}`, ''));
    expect(bodies[bodies.length - 1]).toBe('end');
    expect(bodies.slice(0, -1).every((b) => ['a', 'c'].includes(b))).toBe(true);
  });

  it('redacts and cuts the body to GitHub’s limit', async () => {
    const issue = gh.addIssue({ title: 'z' });
    const comment = await TrackingComment.create(
      {
        github: github(),
        owner: 'octo',
        repo: 'demo',
        issueNumber: issue.number,
        redact: (t) => t.replaceAll('sk-secret', '***'),
      },
      'start',
    );
    expect(await comment.finish(`key sk-secret ${'x'.repeat(70_000)}`)).toBe(true);
    const body = gh.commentsOn(issue.number)[0]!.body;
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).not.toContain('sk-secret');
    expect(body).toContain('cut to fit');
    expect(body.endsWith(TRACKING_MARKER)).toBe(true);
  });

  it('posts the summary anew when the comment was deleted mid-run, and survives refused edits', async () => {
    const issue = gh.addIssue({ title: 'w' });
    const warnings: string[] = [];
    const comment = await TrackingComment.create(
      {
        github: github(),
        owner: 'octo',
        repo: 'demo',
        issueNumber: issue.number,
        minIntervalMs: 0,
        log: { debug() {}, info() {}, warning: (m) => warnings.push(m) },
      },
      'start',
    );
    gh.fail({
      method: 'PATCH',
      path: /\/issues\/comments\/\d+$/,
      status: 403,
      times: 1,
      body: { message: 'Resource not accessible by integration' },
    });
    comment.update('progress');
    const deleted = { id: comment.id, url: comment.url };
    gh.issueComments.splice(
      gh.issueComments.findIndex((c) => c.id === comment.id),
      1,
    );
    expect(await comment.finish('final summary')).toBe(true);
    expect(warnings.join('\n')).toMatch(/issues: write/);
    expect(gh.commentsOn(issue.number).map((c) => c.body)).toEqual([`final summary\n\n${TRACKING_MARKER}`]);
    // The comment now is the new one: its id and address, not the deleted one's.
    const posted = gh.commentsOn(issue.number)[0]!;
    expect(comment.id).toBe(posted.id);
    expect(comment.url).toBe(posted.html_url);
    expect(comment.id).not.toBe(deleted.id);
    expect(comment.url).not.toBe(deleted.url);
    // A later edit goes to the new comment.
    expect(await comment.finish('edited again')).toBe(true);
    expect(gh.commentsOn(issue.number).map((c) => c.body)).toEqual([`edited again\n\n${TRACKING_MARKER}`]);
  });

  it('explains a refused creation with the permission to add', async () => {
    const issue = gh.addIssue({ title: 'v' });
    gh.fail({
      method: 'POST',
      path: /\/comments$/,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    await expect(
      TrackingComment.create(
        { github: github(), owner: 'octo', repo: 'demo', issueNumber: issue.number },
        'start',
      ),
    ).rejects.toThrow(/issues: write/);
  });
});
