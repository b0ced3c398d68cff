// The sticky review summary's record (quiet reviews): its hidden review-summary marker written and
// read back beside the session marker, kept when the text is cut, refused when it is not
// patchloop's own trailer or is malformed; and paging a large diff by file with what was read.
import { describe, expect, it } from 'vitest';
import { commentBody, COMMENT_LIMIT, readSessionMarker } from '../../src/github/comment.js';
import type { DiffFile } from '../../src/github/review/review-diff.js';
import { parsePatch } from '../../src/github/review/review-diff.js';
import {
  costOfLastDay,
  findStickySummary,
  HISTORY_KEPT,
  readReviewSummaryMarker,
  reviewSummaryMarkerText,
  withPush,
  type ReviewHistory,
  type ReviewPush,
} from '../../src/github/review/review-history.js';
import { coverageOf, diffPages, emptyReads, planDiffs } from '../../src/github/review/review-pages.js';
import { TRACKING_MARKER } from '../../src/github/context/trigger.js';

const sha = (c: string) => c.repeat(40);
const push = (head: string, at: string, costUsd?: number): ReviewPush => ({
  head,
  scope: 'whole',
  at,
  runUrl: 'https://github.com/o/r/actions/runs/1',
  conclusion: 'success',
  comments: 0,
  ...(costUsd !== undefined ? { costUsd } : {}),
});

describe('the review-summary marker', () => {
  const history: ReviewHistory = { pushes: [push(sha('a'), '2026-12-01T10:00:00Z', 0.5)], dropped: 0 };

  it('round-trips beside the session marker, which stays the last line, and survives a cut', () => {
    const session = { runId: '7', sessionId: '7-1-2' };
    const body = commentBody('x'.repeat(COMMENT_LIMIT), undefined, session, {
      footer: '### Reviews of this pull request',
      hidden: reviewSummaryMarkerText(history),
    });
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).toContain('[… cut to fit GitHub’s comment limit]\n\n### Reviews of this pull request');
    expect(readReviewSummaryMarker(body)).toEqual(history);
    expect(readSessionMarker(body)).toEqual(session);
  });

  it('counts only in patchloop’s trailer: text above the tracking marker, and malformed records, are no record', () => {
    const above = `${reviewSummaryMarkerText(history)}\n\nhello\n\n${TRACKING_MARKER}`;
    expect(readReviewSummaryMarker(above)).toBeUndefined();
    const bad = (v: unknown) =>
      `${TRACKING_MARKER}\n<!-- patchloop:review-summary ${Buffer.from(JSON.stringify(v)).toString('base64url')} -->`;
    expect(readReviewSummaryMarker(bad({ pushes: [{ ...push('main', 'x') }], dropped: 0 }))).toBeUndefined();
    expect(readReviewSummaryMarker(bad({ pushes: 'no', dropped: 0 }))).toBeUndefined();
    expect(
      readReviewSummaryMarker(
        bad({ pushes: [{ ...push(sha('b'), '2026-12-01T10:00:00Z'), runUrl: 'javascript:x' }], dropped: 0 }),
      ),
    ).toBeUndefined();
  });

  it('is found on patchloop’s own comment only, the earliest first', () => {
    const body = `summary\n\n${TRACKING_MARKER}\n${reviewSummaryMarkerText(history)}`;
    const c = (id: number, login: string) => ({ id, html_url: `u${id}`, body, user: { login } });
    const list = [c(1, 'mallory'), c(2, 'github-actions[bot]'), c(3, 'github-actions[bot]')] as never;
    expect(findStickySummary(list, 'github-actions[bot]')?.id).toBe(2);
    expect(findStickySummary([c(1, 'mallory')] as never, 'github-actions[bot]')).toBeUndefined();
  });

  it('keeps the latest pushes and counts the others; the daily cost is that of the last 24 hours', () => {
    let h: ReviewHistory | undefined;
    for (let i = 0; i < HISTORY_KEPT + 5; i++)
      h = withPush(h, push(sha('c'), new Date(Date.UTC(2026, 11, 1, i)).toISOString(), 1));
    expect(h!.pushes).toHaveLength(HISTORY_KEPT);
    expect(h!.dropped).toBe(5);
    expect(readReviewSummaryMarker(`${TRACKING_MARKER}\n${reviewSummaryMarkerText(h!)}`)).toEqual(h);
    // pushes at hours 0..34 of Dec 1; "now" is hour 34: those at hours 10..34 are within a day
    expect(costOfLastDay(h!, Date.UTC(2026, 11, 1, 34))).toBe(25);
  });
});

describe('paging a large diff by file', () => {
  const file = (path: string, lines: number): DiffFile => {
    const patch = `@@ -0,0 +1,${lines} @@\n${Array.from({ length: lines }, (_, i) => `+line ${i + 1} of ${path}`).join('\n')}`;
    return {
      path,
      status: 'added',
      additions: lines,
      deletions: 0,
      hunks: parsePatch(patch),
      noPatch: false,
    };
  };

  it('shows what fits, pages the rest, and counts a file reviewed only when all its pages were read', () => {
    const files = [file('a.js', 10), file('b.js', 2000), file('c.js', 10)];
    const plan = planDiffs(files, { chars: 5000, files: 100 });
    expect(plan.inline.map((f) => f.path)).toEqual(['a.js']);
    // once one is paged, the rest are too: the model reads them in the PR's order
    expect(plan.paged.map((f) => f.path)).toEqual(['b.js', 'c.js']);
    const pages = diffPages(files[1]!, 20_000);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.join('\n').split('\n')).toHaveLength(2001);
    const reads = emptyReads();
    reads.diffPages.set('b.js', new Set([1]));
    reads.diffPages.set('c.js', new Set([1]));
    const c = coverageOf(plan, reads);
    expect(c).toEqual({
      total: 3,
      reviewed: 2,
      notReviewed: [{ path: 'b.js', why: `only 1 of its ${pages.length} diff pages were read` }],
    });
  });
});
