// Quiet reviews end to end (CONTRACT §9): the bundled action on GitHub's published pull_request
// payloads, pushes to the PR's branch as real git commits in the origin, the fake GitHub answering
// the PR's files and the compare of two commits from that same git history, and a scripted model
// whose requests show what it was given to review.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { EXAMPLE_REPOSITORY, issueCommentOnPull, pullRequestEvent } from '../github/fixtures/webhooks.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { readReviewSummaryMarker } from '../../src/github/review/review-history.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const MATH_BASE = [
  'export function div(a, b) {',
  '  return a / b;',
  '}',
  '',
  'export function mul(a, b) {',
  '  return a * b;',
  '}',
  '',
  'export const name = "math";',
  '',
].join('\n');
const MATH_PR = MATH_BASE.replace('  return a / b;', '  if (b == 0) return 0;\n  return a / b;');
const OTHER = 'export function sub(a, b) {\n  return a - b;\n}\n';

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  const [owner, name] = EXAMPLE_REPOSITORY.split('/') as [string, string];
  gh = await startFakeGitHub({ owner, repo: name });
  gh.setPermission('Codertocat', 'admin');
  repo = makeRepo({
    'package.json': '{ "name": "demo", "type": "module", "scripts": { "test": "node test.js" } }\n',
    'src/math.js': MATH_BASE,
    'test.js': "import { div } from './src/math.js';\nif (div(4, 2) !== 2) process.exit(1);\n",
  });
  gh.setOrigin(repo.origin);
  gh.addIssue({ title: 'Spelling error in the README file' });
  gh.addPull({ title: 'Update the README with new information.', head: 'changes', base: 'main' });
});
afterEach(async () => {
  await gh.stop();
  await model?.close();
  model = undefined;
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

/** The PR's author pushes `changes` to its branch: a real commit; GitHub's view of the PR follows. */
async function push(changes: Record<string, string>): Promise<string> {
  const sha = repo.pushToOrigin('changes', changes, 'more work');
  gh.pushToPull(2, { sha });
  await gh.syncPullFiles(2, 'main', 'changes');
  return sha;
}

/** The author rewrites the branch: a new history from main, pushed with --force. */
async function forcePush(changes: Record<string, string>): Promise<string> {
  const dir = repo.clone(`rewrite-${Math.random().toString(36).slice(2)}`);
  git(dir, 'checkout', '--quiet', '-B', 'changes', 'origin/main');
  for (const [path, text] of Object.entries(changes)) writeFileSync(join(dir, path), text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', 'rewritten');
  git(dir, 'push', '--quiet', '--force', 'origin', 'HEAD:refs/heads/changes');
  const sha = git(dir, 'rev-parse', 'HEAD');
  gh.pushToPull(2, { sha, force: true });
  await gh.syncPullFiles(2, 'main', 'changes');
  return sha;
}

function pullEvent(action: string, head: string) {
  const p = pullRequestEvent(action);
  p.pull_request.head.sha = head;
  p.pull_request.base.ref = 'main';
  return p;
}

async function act(
  eventName: string,
  payload: unknown,
  turns: AnthropicTurn[],
  inputs: Record<string, string> = {},
) {
  await model?.close();
  model = await startAnthropicServer((_r, i) => turns[i] ?? { text: 'Done.' });
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    repository: EXAMPLE_REPOSITORY,
    eventName,
    payload,
    inputs: {
      'github-token': 'ghs_faketoken',
      'api-key': 'sk-ant-api03-quiet-review-0123456789abcdef',
      'base-url': model.url,
      mode: 'review',
      ...inputs,
    },
    timeoutMs: 90_000,
  });
  cleanups.push(r.cleanup);
  return r;
}

const comment = (id: string, args: Record<string, unknown>) => ({
  id,
  name: 'add_review_comment',
  json: JSON.stringify(args),
});

/** What the model was given in its first request of the latest run. */
function firstRequest(): string {
  return JSON.stringify(model!.requests[0]!.body);
}

const botComments = () => gh.commentsOn(2).filter((c) => c.user.login === 'github-actions[bot]');

describe('quiet reviews', () => {
  it('three pushes: one summary comment, edited; the second and third runs see only the new commits; nothing new posts no review', async () => {
    // push 1: the PR is opened
    const sha1 = await push({ 'src/math.js': MATH_PR });
    const r1 = await act('pull_request', pullEvent('opened', sha1), [
      {
        toolCalls: [comment('toolu_01', { path: 'src/math.js', line: 2, body: 'Use a strict comparison.' })],
        usage: { input: 2000, output: 100 },
      },
      { text: 'Needs a strict comparison.', usage: { input: 2100, output: 20 } },
    ]);
    expect(r1.code, r1.stdout.slice(-3000)).toBe(0);
    expect(firstRequest()).toContain('    2 +  if (b == 0) return 0;');
    expect(gh.reviews).toHaveLength(1);
    expect(botComments()).toHaveLength(1);

    // push 2: a new file
    const sha2 = await push({ 'src/other.js': OTHER });
    const r2 = await act('pull_request', pullEvent('synchronize', sha2), [
      {
        toolCalls: [comment('toolu_11', { path: 'src/other.js', line: 2, body: 'sub has no test.' })],
        usage: { input: 2000, output: 100 },
      },
      { text: 'The new sub needs a test.', usage: { input: 2100, output: 20 } },
    ]);
    expect(r2.code, r2.stdout.slice(-3000)).toBe(0);
    const seen2 = firstRequest();
    expect(seen2).toContain(`You reviewed this pull request before, at commit ${sha1}`);
    expect(seen2).toContain('the 1 new commit(s), whose diff below covers 1 of the 2 file(s)');
    expect(seen2).toContain('    2 +  return a - b;');
    // the earlier diff is not shown again: math.js is not among the diffs
    expect(seen2).not.toContain('if (b == 0) return 0;');
    expect(seen2).not.toContain('### `src/math.js` (');
    expect(gh.reviews).toHaveLength(2);
    // the review records the head it read, for the next one
    expect(gh.reviews[1]!.body).toContain(`<!-- patchloop:reviewed ${sha2} -->`);
    expect(gh.reviews[1]!.body).toContain(
      `**What was reviewed:** the 1 commit(s) since the last review (${sha1.slice(0, 7)})`,
    );

    // push 3: a change to math.js only; the model finds nothing new
    const sha3 = await push({ 'src/math.js': MATH_PR.replace('"math"', '"maths"') });
    const r3 = await act('pull_request', pullEvent('synchronize', sha3), [
      { text: 'The rename is fine; nothing new to remark.', usage: { input: 2000, output: 20 } },
    ]);
    expect(r3.code, r3.stdout.slice(-3000)).toBe(0);
    expect(r3.outputs.conclusion).toBe('success');
    const seen3 = firstRequest();
    expect(seen3).toContain(`You reviewed this pull request before, at commit ${sha2}`);
    expect(seen3).toContain('+export const name = \\"maths\\";');
    expect(seen3).not.toContain('return a - b;');
    expect(seen3).not.toContain('if (b == 0) return 0;');
    // nothing new to say: no third review
    expect(gh.reviews).toHaveLength(2);
    expect(r3.outputs['review-url']).toBe('');

    // one summary comment for the three pushes: created once, edited since
    const sticky = botComments();
    expect(sticky).toHaveLength(1);
    expect(gh.requestsTo('POST', /\/issues\/2\/comments$/)).toHaveLength(1);
    expect(r1.outputs['comment-url']).toBe(sticky[0]!.html_url);
    expect(r3.outputs['comment-url']).toBe(sticky[0]!.html_url);
    const body = sticky[0]!.body;
    expect(body).toContain('nothing new to remark on, so no review was posted');
    const history = readReviewSummaryMarker(body)!;
    expect(history.pushes.map((p) => [p.head, p.scope, p.from])).toEqual([
      [sha1, 'whole', undefined],
      [sha2, 'since', sha1],
      [sha3, 'since', sha2],
    ]);
    expect(history.pushes.map((p) => p.reviewUrl)).toEqual([
      gh.reviews[0]!.html_url,
      gh.reviews[1]!.html_url,
      undefined,
    ]);
    const lines = body.split('\n').filter((l) => l.startsWith('- ') && l.includes('[run]('));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain(`[\`${sha1.slice(0, 7)}\`]`);
    expect(lines[0]).toContain(`[review](${gh.reviews[0]!.html_url}) with 1 comment(s)`);
    expect(lines[1]).toContain(`the commits since [\`${sha1.slice(0, 7)}\`]`);
    expect(lines[2]).toContain('nothing new to remark: no review posted');

    // an automatic review has nothing to react on, and says nothing about it
    for (const r of [r1, r2, r3]) {
      expect(r.stdout + r.stderr).not.toContain('nothing to react on');
      expect(r.stdout).not.toMatch(/::warning::.*react/);
    }
    expect(gh.reactions).toHaveLength(0);
  }, 240_000);

  it('a force-push falls back to reviewing the whole pull request, and says so', async () => {
    const sha1 = await push({ 'src/math.js': MATH_PR });
    const r1 = await act('pull_request', pullEvent('opened', sha1), [
      { text: 'Fine.', usage: { input: 1000, output: 10 } },
    ]);
    expect(r1.code, r1.stdout.slice(-3000)).toBe(0);
    const sha2 = await forcePush({
      'src/math.js': MATH_PR.replace('b == 0', 'b === 0'),
      'src/other.js': OTHER,
    });
    const r2 = await act('pull_request', pullEvent('synchronize', sha2), [
      { text: 'Fine.', usage: { input: 1000, output: 10 } },
    ]);
    expect(r2.code, r2.stdout.slice(-3000)).toBe(0);
    const seen = firstRequest();
    const why = `the commit reviewed last, ${sha1.slice(0, 7)}, is no longer in its history (a force-push)`;
    expect(seen).toContain(`The whole pull request is reviewed: ${why}.`);
    expect(seen).not.toContain('You reviewed this pull request before');
    // the whole diff: both files
    expect(seen).toContain('if (b === 0) return 0;');
    expect(seen).toContain('return a - b;');
    const sticky = botComments();
    expect(sticky).toHaveLength(1);
    expect(sticky[0]!.body).toContain(`Reviewed the whole pull request: ${why}.`);
    const history = readReviewSummaryMarker(sticky[0]!.body)!;
    expect(history.pushes.map((p) => [p.head, p.scope, p.why])).toEqual([
      [sha1, 'whole', undefined],
      [sha2, 'whole', why],
    ]);
  }, 180_000);

  it('a review asked for in a comment keeps its own tracking comment, and the next push reviews only what came after it', async () => {
    const sha1 = await push({ 'src/math.js': MATH_PR });
    const asked = issueCommentOnPull('/patchloop review');
    const r1 = await act('issue_comment', asked, [
      {
        toolCalls: [comment('toolu_01', { path: 'src/math.js', line: 2, body: 'Use a strict comparison.' })],
        usage: { input: 1000, output: 10 },
      },
      { text: 'Needs a strict comparison.', usage: { input: 1000, output: 10 } },
    ]);
    expect(r1.code, r1.stdout.slice(-3000)).toBe(0);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.reviews[0]!.body).toContain(`<!-- patchloop:reviewed ${sha1} -->`);
    const sha2 = await push({ 'src/other.js': OTHER });
    const r2 = await act('pull_request', pullEvent('synchronize', sha2), [
      { text: 'Fine.', usage: { input: 1000, output: 10 } },
    ]);
    expect(r2.code, r2.stdout.slice(-3000)).toBe(0);
    expect(firstRequest()).toContain(`You reviewed this pull request before, at commit ${sha1}`);
    // the comment's run has its own tracking comment; the automatic one started the sticky summary
    const mine = botComments();
    expect(mine).toHaveLength(2);
    expect(readReviewSummaryMarker(mine[0]!.body)).toBeUndefined();
    expect(readReviewSummaryMarker(mine[1]!.body)!.pushes).toHaveLength(1);
  }, 180_000);
});

describe('a pull request too large to read whole', () => {
  /** `n` new files of 12 lines each under src/gen/. */
  function manyFiles(n: number): Record<string, string> {
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) {
      const name = `src/gen/f${String(i).padStart(3, '0')}.js`;
      files[name] =
        Array.from(
          { length: 12 },
          (_, k) => `export const v${k} = ${i * 100 + k}; // generated value ${k}`,
        ).join('\n') + '\n';
    }
    return files;
  }

  it('is paged by file: the model reads the diffs it was not shown with read_diff, and the summary lists what was not reviewed', async () => {
    const sha = await push(manyFiles(300));
    const r = await act('pull_request', pullEvent('opened', sha), [
      {
        toolCalls: [
          { id: 'toolu_01', name: 'read_diff', json: JSON.stringify({ path: 'src/gen/f250.js' }) },
          { id: 'toolu_02', name: 'read_diff', json: JSON.stringify({ path: 'src/gen/missing.js' }) },
        ],
        usage: { input: 30000, output: 100 },
      },
      {
        toolCalls: [comment('toolu_03', { path: 'src/gen/f250.js', line: 3, body: 'A magic number.' })],
        usage: { input: 31000, output: 100 },
      },
      { text: 'Generated code; one remark.', usage: { input: 31000, output: 20 } },
    ]);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs.conclusion).toBe('success');
    const first = model!.requests[0]!.body as { tools: { name: string }[] };
    expect(first.tools.map((t) => t.name)).toContain('read_diff');
    const seen = firstRequest();
    expect(seen).toContain('300 file(s) changed.');
    expect(seen).toContain('## Diffs to read page by page (200 file(s))');
    expect(seen).toContain('- `src/gen/f250.js` (added, +12 −0), 1 page(s)');
    // the first 100 diffs are shown; f250's is not
    expect(seen).toContain('### `src/gen/f099.js`');
    expect(seen).not.toContain('25003; // generated value 3');
    // read_diff gave it, numbered as add_review_comment takes them
    const second = JSON.stringify(model!.requests[1]!.body);
    expect(second).toContain('    3 +export const v2 = 25002; // generated value 2');
    expect(second).toContain('src/gen/missing.js is not among the files under review');
    // the review and the summary say what was not reviewed
    expect(gh.reviews).toHaveLength(1);
    const review = gh.reviews[0]!.body;
    expect(review).toContain('**Not reviewed:** 199 of 300 file(s) (101 reviewed):');
    expect(review).toContain('- `src/gen/f100.js` — its diff was not read (too large to show whole)');
    expect(review).not.toContain('`src/gen/f250.js` —');
    expect(review).toContain('- … and 174 more');
    expect(gh.reviewComments.map((c) => [c.path, c.line])).toEqual([['src/gen/f250.js', 3]]);
    const summary = botComments()[0]!.body;
    expect(summary).toContain(
      'Not reviewed: 199 of 300 file(s) (101 reviewed): `src/gen/f100.js` (its diff was not read (too large to show whole))',
    );
    expect(readReviewSummaryMarker(summary)!.pushes[0]!.notReviewed).toBe(199);
    expect(summary).toContain('199 file(s) not reviewed');
  }, 180_000);

  it('a review that could read nothing is not a success', async () => {
    // binary files: GitHub shows no diff of them, and the model reads none
    const sha = await push({ 'assets/a.bin': 'PNG\u0000\u0001\u0002', 'assets/b.bin': '\u0000\u0000\u0003' });
    const r = await act('pull_request', pullEvent('opened', sha), [
      { text: 'Looks fine.', usage: { input: 1000, output: 10 } },
    ]);
    expect(r.code).toBe(1);
    expect(r.outputs.conclusion).toBe('failure');
    const summary = botComments()[0]!.body;
    expect(summary).toContain("Nothing of the pull request's 2 file(s) was reviewed");
    expect(summary).toContain(
      '`assets/a.bin` (GitHub shows no diff (binary, or too large) and the file was not read)',
    );
  }, 120_000);
});
