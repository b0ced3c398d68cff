// The review pieces against the fake GitHub, driven by Octokit: the fake's review routes answer
// in the shapes GitHub's description gives, and refuse a comment outside the diff as GitHub does
// (the whole review, 422); planning and posting a review moves such comments into the body.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../src/github/octokit.js';
import { gatherReviewContext, ownedBy, threadsOf } from '../../src/github/review/review-context.js';
import { parsePatch, placeComment, diffFileOf } from '../../src/github/review/review-diff.js';
import {
  commentText,
  planReview,
  postReview,
  reviewBody,
  type ReviewPlan,
} from '../../src/github/review/review-post.js';
import { neutralizeMentions } from '../../src/report/mentions.js';
import { renderReviewContext } from '../../src/github/review/review-render.js';
import { TRACKING_MARKER } from '../../src/github/context/trigger.js';
import type { DraftComment } from '../../src/tools/add-review-comment.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import { mismatches, responseSchema } from './fixtures/openapi.js';

const PATCH = [
  '@@ -1,3 +1,4 @@',
  ' export const div = (a, b) => {',
  '-  return a / b;',
  '+  if (b === 0) return 0;',
  '+  return a / b;',
  ' };',
  '@@ -10,2 +11,2 @@ export const mul',
  ' const x = 1;',
  '-const y = 2;',
  '+const y = 3;',
].join('\n');

let gh: FakeGitHub;
let github: GitHubClient;
const o = { owner: 'octo', repo: 'demo' };
beforeEach(async () => {
  gh = await startFakeGitHub();
  github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false });
});
afterEach(() => gh.stop());

function pullWithDiff() {
  const pull = gh.addPull({ title: 'guard div', head: 'guard', headSha: 'a'.repeat(40) });
  gh.setPullFiles(pull.number, [
    { filename: 'src/math.js', status: 'modified', additions: 3, deletions: 2, patch: PATCH },
    { filename: 'logo.png', status: 'added', additions: 0, deletions: 0 },
  ]);
  return pull;
}

const draft = (path: string, line: number, extra: Partial<DraftComment> = {}): DraftComment => ({
  path,
  line,
  body: `about ${path}:${line}`,
  inDiff: true,
  ...extra,
});

describe('the diff', () => {
  it('numbers both sides and places comments only on right-side lines of one hunk', () => {
    const hunks = parsePatch(PATCH);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]!.lines.map((l) => [l.kind, l.oldLine, l.newLine])).toEqual([
      ['context', 1, 1],
      ['del', 2, undefined],
      ['add', undefined, 2],
      ['add', undefined, 3],
      ['context', 3, 4],
    ]);
    const files = [
      diffFileOf({ filename: 'src/math.js', status: 'modified', additions: 3, deletions: 2, patch: PATCH }),
    ];
    expect(placeComment(files, 'src/math.js', 3)).toMatchObject({ ok: true });
    expect(placeComment(files, 'src/math.js', 4, 2)).toMatchObject({ ok: true });
    expect(placeComment(files, 'src/math.js', 7)).toMatchObject({
      ok: false,
      reason: 'line 7 of src/math.js is not in the diff (its lines in the diff: 1–4, 11–12)',
    });
    expect(placeComment(files, 'src/math.js', 11, 3)).toMatchObject({ ok: false });
    expect(placeComment(files, 'README.md', 1)).toMatchObject({ ok: false });
  });
});

describe('the fake GitHub’s review routes', () => {
  it('answer in the shapes of GitHub’s description', async () => {
    const pull = pullWithDiff();
    const n = { ...o, pull_number: pull.number };
    const review = await github.rest.pulls.createReview({
      ...n,
      event: 'COMMENT',
      body: 'looks fine',
      comments: [{ path: 'src/math.js', line: 3, side: 'RIGHT', body: 'why 0?' }],
    });
    const comments = await github.rest.pulls.listReviewComments(n);
    const reply = await github.rest.pulls.createReviewComment({
      ...n,
      body: 'answered',
      commit_id: comments.data[0]!.commit_id,
      path: comments.data[0]!.path,
      in_reply_to: comments.data[0]!.id,
    });
    // GitHub's description requires commit_id and path, in_reply_to or not: the fake says 422 as GitHub would
    const bare = await github.rest.pulls
      .createReviewComment({ ...n, body: 'answered', in_reply_to: comments.data[0]!.id } as Parameters<
        typeof github.rest.pulls.createReviewComment
      >[0])
      .catch((e: { status: number; message: string }) => e);
    expect(bare).toMatchObject({ status: 422 });
    expect((bare as { message: string }).message).toContain('$.commit_id: missing; $.path: missing');
    const checks: [string, string, number, unknown][] = [
      ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 200, review.data],
      [
        'GET',
        '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
        200,
        (await github.rest.pulls.listReviews(n)).data,
      ],
      ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 200, comments.data],
      ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 201, reply.data],
      [
        'GET',
        '/repos/{owner}/{repo}/pulls/{pull_number}/files',
        200,
        (await github.rest.pulls.listFiles(n)).data,
      ],
    ];
    const problems = checks.flatMap(([method, template, status, data]) =>
      mismatches(responseSchema(method, template, status), data).map((m) => `${method} ${template}: ${m}`),
    );
    expect(problems).toEqual([]);
    expect(reply.data.in_reply_to_id).toBe(comments.data[0]!.id);
  });

  it('refuse the whole review (422) when one comment is outside the diff, as GitHub does', async () => {
    const pull = pullWithDiff();
    const err = await github.rest.pulls
      .createReview({
        ...o,
        pull_number: pull.number,
        event: 'COMMENT',
        body: 'b',
        comments: [
          { path: 'src/math.js', line: 3, body: 'fine' },
          { path: 'src/math.js', line: 7, body: 'outside' },
        ],
      })
      .catch((e: { status: number; message: string }) => e);
    expect(err).toMatchObject({ status: 422 });
    expect((err as unknown as Error).message).toContain('Line could not be resolved');
    expect(gh.reviews).toHaveLength(0);
    expect(gh.reviewComments).toHaveLength(0);
  });
});

describe('posting a review', () => {
  const body = (p: ReviewPlan, refused?: string) =>
    reviewBody({
      finalText: 'Needs changes: div by zero.',
      checked: 'the tests were run 1 time(s); the last run passed (exit code 0).',
      usage: 'model · 2 turn(s)',
      runUrl: 'https://github.com/octo/demo/actions/runs/1',
      plan: p,
      ...(refused ? { refused } : {}),
      clean: (t) => t,
      redact: (t) => t,
    });

  it('posts inline comments with suggestion blocks and moves the rest into the body; event COMMENT', async () => {
    const pull = pullWithDiff();
    const plan = planReview(
      [
        draft('src/math.js', 2, {
          startLine: undefined,
          suggestion: '  if (b === 0) throw new RangeError("b is 0");',
        }),
        draft('src/math.js', 7, { inDiff: false, reason: 'line 7 of src/math.js is not in the diff' }),
      ],
      [],
    );
    const posted = await postReview({
      github,
      ...o,
      number: pull.number,
      plan,
      body,
      clean: (t) => t,
      redact: (t) => t,
    });
    expect(gh.reviews).toHaveLength(1);
    const request = gh.requestsTo('POST', /\/reviews$/)[0]!.body as {
      event: string;
      comments: { body: string }[];
    };
    expect(request.event).toBe('COMMENT');
    expect(request.comments[0]!.body).toContain(
      '```suggestion\n  if (b === 0) throw new RangeError("b is 0");\n```',
    );
    expect(gh.reviews[0]!.body).toContain('`src/math.js` line 7 (line 7 of src/math.js is not in the diff)');
    expect(gh.reviews[0]!.body).toContain(TRACKING_MARKER);
    expect(posted.url).toBe(gh.reviews[0]!.html_url);
  });

  it('when GitHub still refuses an inline comment (422), posts the review again with it in the body', async () => {
    const pull = pullWithDiff();
    // A comment the diff check let through (the diff changed between reading and posting).
    const plan = planReview([draft('src/math.js', 3), draft('src/math.js', 9)], []);
    const posted = await postReview({
      github,
      ...o,
      number: pull.number,
      plan,
      body,
      clean: (t) => t,
      redact: (t) => t,
    });
    expect(gh.requestsTo('POST', /\/reviews$/).map((r) => r.status)).toEqual([422, 200]);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.reviewComments).toHaveLength(0);
    expect(gh.reviews[0]!.body).toContain('about src/math.js:9');
    expect(gh.reviews[0]!.body).toContain('about src/math.js:3');
    expect(posted.refused).toContain('422');
  });

  it('a re-review repeats no standing remark of its own and answers its own outdated thread', async () => {
    const pull = pullWithDiff();
    const first = planReview([draft('src/math.js', 3), draft('src/math.js', 12)], []);
    await postReview({
      github,
      ...o,
      number: pull.number,
      plan: first,
      body,
      clean: (t) => t,
      redact: (t) => t,
    });
    // The author changes line 12; line 3 stays as it was.
    gh.setPullFiles(pull.number, [
      {
        filename: 'src/math.js',
        status: 'modified',
        additions: 3,
        deletions: 2,
        patch: PATCH.replace('+const y = 3;', '+const y = 4;'),
      },
    ]);
    const context = await gatherReviewContext(github, { ...o, number: pull.number }, ['github-actions[bot]']);
    expect(context.threads.map((t) => [t.line, t.comments[0]!.own])).toEqual([
      [3, true],
      [undefined, true],
    ]);
    expect(renderReviewContext(context)).toContain('outdated (the lines changed since; it was on line 12)');
    const second = planReview([draft('src/math.js', 3), draft('src/math.js', 1)], context.threads);
    expect(second.repeated).toHaveLength(1);
    expect(second.inline.map((c) => c.line)).toEqual([1]);
    const posted = await postReview({
      github,
      ...o,
      number: pull.number,
      plan: second,
      body,
      clean: (t) => t,
      redact: (t) => t,
    });
    expect(posted.replies).toBe(1);
    const replies = gh.reviewComments.filter((c) => c.in_reply_to_id !== undefined);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.in_reply_to_id).toBe(context.threads[1]!.id);
    const sent = gh.requestsTo('POST', /\/pulls\/\d+\/comments$/)[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      commit_id: 'a'.repeat(40),
      path: 'src/math.js',
      in_reply_to: context.threads[1]!.id,
    });
    expect(gh.requestsTo('POST', /\/comments\/\d+\/replies$/)).toHaveLength(0);
    // a third review answers that thread no more
    const again = await gatherReviewContext(github, { ...o, number: pull.number }, ['github-actions[bot]']);
    expect(planReview([], again.threads).resolved).toHaveLength(0);
  });
});

describe('a comment’s text: prose made safe, suggestion code kept as written', () => {
  // as the action cleans: the run's redaction, mentions and HTML comments in prose neutralised
  const redact = (t: string) => t.replaceAll('sk-secret-123', '***');
  const cleaners = {
    clean: (t: string) => neutralizeMentions(redact(t)).replace(/<!--/g, '&lt;!--'),
    redact,
  };

  it('code in a suggestion keeps @param and <!-- (a fence is code to GitHub); the prose above is neutralised', () => {
    const text = commentText(
      draft('a.js', 1, {
        body: 'Ask @alice <!-- hidden -->',
        suggestion: '/** @param x <!-- keep --> */\nconst k = "sk-secret-123";\n',
      }),
      cleaners,
    );
    expect(text).toBe(
      'Ask @\u200Balice &lt;!-- hidden -->\n\n```suggestion\n/** @param x <!-- keep --> */\nconst k = "***";\n```',
    );
  });

  it('a suggestion with a bidi override is no suggestion: its code written out under a warning', () => {
    const text = commentText(
      draft('a.js', 1, { body: 'Fix\u202E it', suggestion: 'ok = true;\u202E // \u2066x\u2069 ``` ' }),
      cleaners,
    );
    expect(text).not.toContain('suggestion\n');
    expect(text).not.toMatch(/[\u202E\u2066\u2069]/u);
    expect(text).toContain('Fix<U+202E> it');
    expect(text).toContain('(U+202E, U+2066, U+2069)');
    expect(text).toContain('````text\nok = true;<U+202E> // <U+2066>x<U+2069> ``` \n````');
  });

  it('prose cannot leave a fence or a raw HTML block open to swallow the suggestion', () => {
    const fenced = commentText(draft('a.js', 1, { body: 'see\n```js\nx', suggestion: 'y' }), cleaners);
    expect(fenced).toBe('see\n```js\nx\n```\n\n```suggestion\ny\n```');
    const pre = commentText(draft('a.js', 1, { body: '<pre>\nx', suggestion: '@y' }), cleaners);
    expect(pre).toBe('&lt;pre>\nx\n\n```suggestion\n@y\n```');
  });

  it('a comment moved into the review body keeps its suggestion code as written too', () => {
    const plan = planReview(
      [draft('a.js', 9, { inDiff: false, reason: 'not in the diff', suggestion: '// @param <!-- x -->' })],
      [],
    );
    const body = reviewBody({
      finalText: 'Verdict for @bob',
      checked: 'nothing',
      usage: 'u',
      runUrl: 'https://example.test/run',
      plan,
      ...cleaners,
    });
    expect(body).toContain('Verdict for @\u200Bbob');
    expect(body).toContain('  ```suggestion\n  // @param <!-- x -->\n  ```');
  });
});

describe('whose threads are patchloop’s own', () => {
  it('the marker by the identity the run posts as; a person quoting the marker is not patchloop', () => {
    const at = '2026-03-01T10:00:00Z';
    const raw = [
      {
        id: 1,
        body: `x ${TRACKING_MARKER}`,
        user: { login: 'my-app[bot]' },
        created_at: at,
        path: 'a',
        line: 1,
      },
      { id: 2, body: `y ${TRACKING_MARKER}`, user: { login: 'mallory' }, created_at: at, path: 'a', line: 2 },
      { id: 3, body: 'z', user: { login: 'github-actions[bot]' }, created_at: at, path: 'a', line: 3 },
    ];
    const threads = threadsOf(raw, ['github-actions[bot]']);
    expect(threads.map((t) => t.comments[0]!.own)).toEqual([false, false, false]);
    expect(ownedBy(threads, ['github-actions[bot]', 'my-app[bot]']).map((t) => t.comments[0]!.own)).toEqual([
      true,
      false,
      false,
    ]);
  });
});
