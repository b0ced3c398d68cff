// The hidden session marker of the tracking comment (following up): written, read back, and
// refused when malformed; the tracking marker stays, so the comment still triggers nothing.
import { describe, expect, it } from 'vitest';
import {
  commentBody,
  COMMENT_LIMIT,
  readSessionMarker,
  sessionMarkerText,
  withoutMarkers,
} from '../../src/github/comment.js';
import { TRACKING_MARKER } from '../../src/github/trigger.js';

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

  it('refuses markers that are not well-formed', () => {
    const encoded = (v: unknown) =>
      `<!-- patchloop:session ${Buffer.from(JSON.stringify(v)).toString('base64url')} -->`;
    expect(readSessionMarker('<!-- patchloop:session !!! -->')).toBeUndefined();
    expect(readSessionMarker('<!-- patchloop:session bm90IGpzb24 -->')).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: 'abc', sessionId: 's' }))).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: '1' }))).toBeUndefined();
    expect(readSessionMarker(encoded({ runId: '1', sessionId: 's', artifactId: -4, branch: 7 }))).toEqual({
      runId: '1',
      sessionId: 's',
    });
    expect(readSessionMarker(sessionMarkerText({ runId: '5', sessionId: '5-1' }))).toEqual({
      runId: '5',
      sessionId: '5-1',
    });
  });
});
