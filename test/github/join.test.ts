// Joining's tie-break (CONTRACT §13): the order both of two runs started at the same moment
// compute, the hand-over marker the loser leaves, and the winner's reading of it (lateRequests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentBody, sessionMarkerText, type SessionMarker } from '../../src/github/comment.js';
import {
  earlierWorkingComments,
  handedMarkerText,
  lateRequests,
  precedes,
  readHandedMarker,
  writtenAfter,
} from '../../src/github/follow-up/join.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import { ACTIONS_BOT_LOGIN } from '../../src/github/context/trigger.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';

const BOT = 'github-actions[bot]';

function tracking(id: number, marker: Partial<SessionMarker> & { runId: string }, login = BOT) {
  const m: SessionMarker = { sessionId: `${marker.runId}-1-1`, loop: 'working', ...marker };
  return {
    id,
    html_url: `https://github.com/octo/demo/issues/1#issuecomment-${id}`,
    body: commentBody('👀 **patchloop is working on this**', undefined, m),
    user: { login },
  };
}

/** Whether the run of `own` yields, given the listing it made after its own post. */
function yields(listing: ReturnType<typeof tracking>[], own: { id: number; runId: string }): boolean {
  return (
    earlierWorkingComments(listing, { botLogin: BOT, ownRunId: own.runId, ownCommentId: own.id }).length > 0
  );
}

describe('the tie-break of two runs started at the same moment', () => {
  const a = tracking(2001, { runId: '11' });
  const b = tracking(2005, { runId: '12' });

  it('is one order both compute alike: the comment posted first goes first', () => {
    expect(precedes(a.id, b.id)).toBe(true);
    expect(precedes(b.id, a.id)).toBe(false);
    expect(precedes(a.id, a.id)).toBe(false);
  });

  it('makes exactly one of the two yield, whichever listing saw which comment', () => {
    // Each lists after its own post, so the second poster (b) always sees the first (a); whether
    // a's listing saw b depends on the timing. Either way, and in either listing order, b yields.
    for (const aSaw of [[a], [a, b], [b, a]])
      for (const bSaw of [
        [a, b],
        [b, a],
      ]) {
        const aYields = yields(aSaw, { id: a.id, runId: '11' });
        const bYields = yields(bSaw, { id: b.id, runId: '12' });
        expect([aYields, bYields]).toEqual([false, true]);
      }
  });

  it('yields to the first of several that works, so that every loser yields to the same run', () => {
    const c = tracking(2009, { runId: '13' });
    const found = earlierWorkingComments([c, b, a], { botLogin: BOT, ownRunId: '13', ownCommentId: c.id });
    expect(found.map((w) => w.marker.runId)).toEqual(['11', '12']);
  });

  it('never yields to itself, an earlier attempt of its own run, a finished loop or another identity', () => {
    const own = tracking(2010, { runId: '20' });
    const earlierAttempt = tracking(2002, { runId: '20', sessionId: '20-1-1' });
    const done = tracking(2003, { runId: '21', loop: 'done' });
    const summary = tracking(2004, { runId: '22', loop: undefined });
    const someoneElse = tracking(2006, { runId: '23' }, 'mallory');
    const pasted = {
      ...tracking(2007, { runId: '24' }),
      body: `quoted\n${sessionMarkerText({ runId: '24', sessionId: 'x' })}`,
    };
    const listing = [
      earlierAttempt,
      done,
      summary,
      someoneElse,
      { ...pasted, user: { login: 'mallory' } },
      own,
    ];
    expect(earlierWorkingComments(listing, { botLogin: BOT, ownRunId: '20', ownCommentId: own.id })).toEqual(
      [],
    );
    // a later comment of another run never counts
    const later = tracking(2011, { runId: '25' });
    expect(yields([own, later], { id: own.id, runId: '20' })).toBe(false);
  });
});

describe('written after the trigger', () => {
  const trigger = { kind: 'issue-comment', id: 500, createdAt: '2026-12-06T16:50:00Z' };
  it('tells two requests of the same second apart by their ids', () => {
    expect(writtenAfter({ kind: 'issue-comment', id: 501, createdAt: trigger.createdAt }, trigger)).toBe(
      true,
    );
    expect(writtenAfter({ kind: 'issue-comment', id: 499, createdAt: trigger.createdAt }, trigger)).toBe(
      false,
    );
    expect(writtenAfter({ kind: 'issue-comment', id: 500, createdAt: trigger.createdAt }, trigger)).toBe(
      false,
    );
  });
  it('goes by time otherwise, and takes a comment of the other kind of the same second', () => {
    expect(writtenAfter({ kind: 'issue-comment', id: 400, createdAt: '2026-12-06T16:50:01Z' }, trigger)).toBe(
      true,
    );
    expect(writtenAfter({ kind: 'issue-comment', id: 900, createdAt: '2026-12-06T16:49:59Z' }, trigger)).toBe(
      false,
    );
    expect(writtenAfter({ kind: 'review-comment', id: 10, createdAt: trigger.createdAt }, trigger)).toBe(
      true,
    );
    expect(
      writtenAfter(
        { kind: 'issue-comment', id: 1, createdAt: trigger.createdAt },
        { kind: 'label', createdAt: trigger.createdAt },
      ),
    ).toBe(true);
  });
});

describe('the hand-over marker', () => {
  it('is read back from the end of patchloop’s note, and only in its own shape', () => {
    const m = { runId: '12', to: '11', kind: 'issue-comment' as const, id: 1001 };
    const body = commentBody('Handed to the run already working on this: …', undefined, undefined, {
      hidden: handedMarkerText(m),
    });
    expect(readHandedMarker(body)).toEqual(m);
    expect(readHandedMarker(`${body}\nmore text`)).toBeUndefined();
    const forged = (v: unknown) =>
      `x\n<!-- patchloop:handed ${Buffer.from(JSON.stringify(v)).toString('base64url')} -->`;
    expect(readHandedMarker(forged({ ...m, kind: 'review' }))).toBeUndefined();
    expect(readHandedMarker(forged({ ...m, to: 'main' }))).toBeUndefined();
    expect(readHandedMarker(forged({ ...m, id: -1 }))).toBeUndefined();
    expect(readHandedMarker(forged(m))).toEqual(m);
  });
});

describe('lateRequests with a hand-over', () => {
  let gh: FakeGitHub;
  beforeAll(async () => {
    gh = await startFakeGitHub({ tokens: { ghs_faketoken: ACTIONS_BOT } });
  });
  afterAll(() => gh.stop());
  const github = () =>
    createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false, retryAfterBaseValue: 1 });

  it('takes the request a yielding run names for this run, even one written before its trigger', async () => {
    const issue = gh.addIssue({ title: 'x' });
    // another issue whose number ends with this one's (11 and 1)
    let other = gh.addIssue({ title: 'y' });
    while (!String(other.number).endsWith(String(issue.number))) other = gh.addIssue({ title: 'y' });
    const at = '2026-12-06T16:50:00Z';
    const before = gh.addComment(issue.number, {
      body: '/patchloop please fix this',
      author: 'alice',
      createdAt: '2026-12-06T16:49:58Z',
    });
    const sameSecond = gh.addComment(issue.number, {
      body: '/patchloop and the docs',
      author: 'carol',
      createdAt: at,
    });
    const trigger = gh.addComment(issue.number, {
      body: '/patchloop also NaN',
      author: 'bob',
      createdAt: at,
    });
    const elsewhere = gh.addComment(other.number, {
      body: '/patchloop on another issue',
      author: 'dave',
      createdAt: '2026-12-06T16:49:00Z',
    });
    const note = (m: { runId: string; to: string; id: number }, author = BOT) =>
      gh.addComment(issue.number, {
        author,
        createdAt: '2026-12-06T16:50:02Z',
        body: commentBody('Handed to the run already working on this', undefined, undefined, {
          hidden: handedMarkerText({ ...m, kind: 'issue-comment' }),
        }),
      });
    note({ runId: '12', to: '11', id: before.id });
    note({ runId: '13', to: '11', id: sameSecond.id });
    note({ runId: '14', to: '99', id: before.id + 1_000 }); // handed to another run
    note({ runId: '15', to: '11', id: elsewhere.id }); // not a comment of this issue
    note({ runId: '16', to: '11', id: before.id + 5 }, 'mallory'); // not patchloop's note
    const found = await lateRequests(github(), {
      owner: 'octo',
      repo: 'demo',
      number: issue.number,
      isPullRequest: false,
      trigger: { kind: 'issue-comment', id: trigger.id, createdAt: trigger.created_at },
      triggerPhrase: '/patchloop',
      ownLogins: [ACTIONS_BOT_LOGIN],
      runId: '11',
    });
    expect(found.map((r) => [r.id, r.author.login])).toEqual([
      [before.id, 'alice'],
      [sameSecond.id, 'carol'],
    ]);
    // without the run's id, none of them
    const plain = await lateRequests(github(), {
      owner: 'octo',
      repo: 'demo',
      number: issue.number,
      isPullRequest: false,
      trigger: { kind: 'issue-comment', id: trigger.id, createdAt: trigger.created_at },
      triggerPhrase: '/patchloop',
      ownLogins: [ACTIONS_BOT_LOGIN],
    });
    expect(plain).toEqual([]);
  });
});
