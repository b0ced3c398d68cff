// The hidden session marker of the tracking comment (following up): written, read back, and
// refused when malformed; the tracking marker stays, so the comment still triggers nothing.
import { describe, expect, it } from 'vitest';
import {
  commentBody,
  COMMENT_LIMIT,
  MAX_JOINED_IDS,
  readSessionMarker,
  sessionMarkerText,
  withoutMarkers,
} from '../../src/github/comment.js';
import { TRACKING_MARKER } from '../../src/github/context/trigger.js';

describe('the session marker', () => {
  it('round-trips through a comment body, even with a branch name that would end an HTML comment', () => {
    const marker = {
      runId: '7001',
      sessionId: '7001-1-3',
      branch: 'patchloop/a-->b',
      artifactId: 12,
      artifactName: 'patchloop-transcript-3',
    };
    const body = commentBody('## Summary', undefined, marker);
    expect(body).toContain(TRACKING_MARKER);
    expect(body.match(/-->/g)).toHaveLength(2);
    expect(readSessionMarker(body)).toEqual(marker);
    expect(withoutMarkers(body)).toBe('## Summary');
  });

  it('keeps both markers when the text is cut to GitHub’s limit', () => {
    const marker = { runId: '1', sessionId: '1-1' };
    const body = commentBody('x'.repeat(COMMENT_LIMIT), undefined, marker);
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(readSessionMarker(body)).toEqual(marker);
    expect(body).toContain(TRACKING_MARKER);
  });

  it('carries the loop phase and the joined requests (joining), and refuses odd ones', () => {
    const full = {
      runId: '7001',
      sessionId: '7001-1-1',
      loop: 'working' as const,
      joined: [1003, 1004],
      joinedReview: [55],
    };
    expect(readSessionMarker(commentBody('working', undefined, full))).toEqual(full);
    // the most ids a marker may list still fit the marker's bound
    const many = { ...full, joined: Array.from({ length: MAX_JOINED_IDS }, (_, i) => 4_000_000_000 + i) };
    many.joinedReview = many.joined;
    expect(readSessionMarker(commentBody('x', undefined, many))).toEqual(many);
    const odd = (extra: Record<string, unknown>) =>
      readSessionMarker(`x\n${sessionMarkerText({ runId: '1', sessionId: '1-1', ...extra } as never)}`);
    expect(odd({ loop: 'sleeping' })).toBeUndefined();
    expect(odd({ joined: ['1003'] })).toBeUndefined();
    expect(odd({ joined: [-1] })).toBeUndefined();
    expect(odd({ joinedReview: 5 })).toBeUndefined();
    expect(odd({ joined: Array.from({ length: MAX_JOINED_IDS + 1 }, (_, i) => i + 1) })).toBeUndefined();
  });

  it('refuses markers that are not well-formed', () => {
    const encoded = (v: unknown) =>
      `<!-- patchloop:session ${Buffer.from(JSON.stringify(v)).toString('base64url')} -->`;
    expect(readSessionMarker('<!-- patchloop:session !!! -->')).toBeUndefined();
    expect(readSessionMarker('<!-- patchloop:session bm90IGpzb24 -->')).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: 'abc', sessionId: 's' }))).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: '1' }))).toBeUndefined();
    // parsed strictly: a field of the wrong type or one patchloop never writes refuses the marker
    expect(readSessionMarker(encoded({ runId: '1', sessionId: 's', artifactId: -4 }))).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: '1', sessionId: 's', branch: 7 }))).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: '1', sessionId: 's', extra: 'x' }))).toBeUndefined();
    expect(readSessionMarker(encoded(['1', 's']))).toBeUndefined();
    // the daily budgets' fields: a cost is a finite number of dollars, not below zero
    expect(readSessionMarker(encoded({ runId: '1', sessionId: 's', costUsd: -1 }))).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: '1', sessionId: 's', costUsd: '9' }))).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: '1', sessionId: 's', requester: '' }))).toBeUndefined();
    expect(
      readSessionMarker(sessionMarkerText({ runId: '5', sessionId: '5-1', costUsd: 0.25, requester: 'al' })),
    ).toEqual({ runId: '5', sessionId: '5-1', costUsd: 0.25, requester: 'al' });
    expect(readSessionMarker(sessionMarkerText({ runId: '5', sessionId: '5-1' }))).toEqual({
      runId: '5',
      sessionId: '5-1',
    });
  });

  it('is read only from the trailer: a marker anywhere above the last line is ignored', () => {
    const real = { runId: '7001', sessionId: '7001-1', branch: 'patchloop/issue-1' };
    const planted = sessionMarkerText({ runId: '6001', sessionId: '6001-1', branch: 'patchloop/victim' });
    // as the summary echoes a file named like a marker: before the real one, so first in the body
    const body = commentBody(`**Changed files**\n\n- \`${planted}\` +0 −0`, undefined, real);
    expect(readSessionMarker(body)).toEqual(real);
    // and the text above the trailer holds no opening of an HTML comment at all
    expect(body.slice(0, body.indexOf(TRACKING_MARKER))).not.toContain('<!--');
    // a body whose last line is not the marker has none, even when it holds one
    expect(readSessionMarker(`${planted}\n\nsome text after it`)).toBeUndefined();
    expect(readSessionMarker(`text ${planted}`)).toBeUndefined();
    expect(readSessionMarker(`${TRACKING_MARKER}\n${planted} trailing words`)).toBeUndefined();
    // line endings GitHub may store, and trailing blank lines, are no reason to miss it
    expect(readSessionMarker(`summary\r\n\r\n${sessionMarkerText(real)}\r\n\n`)).toEqual(real);
  });

  it('a comment without a session marker has none, whatever its text says', () => {
    const planted = sessionMarkerText({ runId: '6001', sessionId: '6001-1', branch: 'patchloop/victim' });
    const body = commentBody(`final message:\n${planted}`, undefined, undefined);
    expect(body.endsWith(TRACKING_MARKER)).toBe(true);
    expect(readSessionMarker(body)).toBeUndefined();
  });
});
