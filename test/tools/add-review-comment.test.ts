import { describe, expect, it } from 'vitest';
import { diffFileOf, placeComment } from '../../src/github/review/review-diff.js';
import { ToolRegistry } from '../../src/protocol/execute.js';
import { createAddReviewCommentTool, type DraftComment } from '../../src/tools/add-review-comment.js';

const files = [
  diffFileOf({
    filename: 'src/a.js',
    status: 'modified',
    additions: 2,
    deletions: 1,
    patch: '@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n+two and a half\n three\n',
  }),
];

function setUp() {
  const drafts: DraftComment[] = [];
  const registry = new ToolRegistry([
    createAddReviewCommentTool({
      place: (path, line, start) => placeComment(files, path, line, start),
      onComment: (c) => drafts.push(c),
    }),
  ]);
  let n = 0;
  const call = async (input: Record<string, unknown>) => {
    const r = await registry.execute(
      { type: 'toolCall', id: `c${++n}`, name: 'add_review_comment', input },
      new AbortController().signal,
    );
    return { isError: r.isError, text: r.content.map((c) => ('text' in c ? c.text : '')).join('') };
  };
  return { drafts, call };
}

describe('add_review_comment', () => {
  it('keeps a comment on diff lines for the review, with its range and suggestion', async () => {
    const { drafts, call } = setUp();
    const r = await call({
      path: 'src/a.js',
      line: 3,
      start_line: 2,
      body: 'Name it better.',
      suggestion: 'two',
    });
    expect(r).toEqual({
      isError: false,
      text: 'Comment added on src/a.js line 2–3; it is posted with the review when you finish.',
    });
    expect(drafts).toEqual([
      { path: 'src/a.js', line: 3, startLine: 2, body: 'Name it better.', suggestion: 'two', inDiff: true },
    ]);
  });

  it('a comment outside the diff is no error: it goes into the body and the model is told where the lines are', async () => {
    const { drafts, call } = setUp();
    const r = await call({ path: 'src/a.js', line: 9, body: 'Off the diff.' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(
      'Not on the diff: line 9 of src/a.js is not in the diff (its lines in the diff: 1–4)',
    );
    expect(r.text).toContain("goes into the review's body instead");
    expect(drafts[0]).toMatchObject({ inDiff: false, line: 9 });
    expect((await call({ path: 'src/b.js', line: 1, body: 'x' })).text).toContain(
      'src/b.js is not among the files',
    );
  });

  it('invalid arguments are an error result that says what is wrong', async () => {
    const { drafts, call } = setUp();
    const r = await call({ path: 'src/a.js', line: 0, body: '' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('"line" must be >= 1');
    expect(drafts).toEqual([]);
  });
});
