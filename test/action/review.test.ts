// Review runs end to end (CONTRACT §9): the bundled action on GitHub's published pull_request
// payloads (@octokit/webhooks-examples), a real checkout whose origin holds the PR's branch, the
// fake GitHub serving that branch's diff, and a scripted model that reviews.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeGitHub, type FakeGitHub, type FakePullFile } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import {
  EXAMPLE_REPOSITORY,
  issueCommentOnPull,
  pullRequestEvent,
  pullRequestFromFork,
} from '../github/fixtures/webhooks.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
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
const MATH_PR = MATH_BASE.replace('  return a / b;', '  if (b == 0) return 0;\n  return a / b;').replace(
  'export const name = "math";',
  'export const name = "maths";',
);

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
const cleanups: (() => void)[] = [];

/** The PR branch's diff as GitHub's files route gives it: one `patch` per file, from real git. */
function filesOf(base: string, head: string): FakePullFile[] {
  git(repo.work, 'fetch', '--quiet', 'origin');
  const names = git(repo.work, 'diff', '--name-only', `origin/${base}`, `origin/${head}`)
    .split('\n')
    .filter(Boolean);
  return names.map((filename) => {
    const diff = git(repo.work, 'diff', `origin/${base}`, `origin/${head}`, '--', filename);
    const patch = diff.slice(diff.indexOf('@@'));
    const lines = patch.split('\n');
    return {
      filename,
      status: 'modified',
      additions: lines.filter((l) => l.startsWith('+')).length,
      deletions: lines.filter((l) => l.startsWith('-')).length,
      patch,
    };
  });
}

beforeEach(async () => {
  const [owner, name] = EXAMPLE_REPOSITORY.split('/') as [string, string];
  gh = await startFakeGitHub({ owner, repo: name });
  gh.setPermission('Codertocat', 'admin');
  repo = makeRepo({
    'package.json': '{ "name": "demo", "type": "module", "scripts": { "test": "node test.js" } }\n',
    'src/math.js': MATH_BASE,
    'test.js':
      "import { div } from './src/math.js';\nif (div(4, 2) !== 2) process.exit(1);\nconsole.log('ok');\n",
  });
  gh.addIssue({ title: 'Spelling error in the README file' });
  gh.addPull({ title: 'Update the README with new information.', head: 'changes', base: 'main' });
  repo.pushToOrigin('changes', { 'src/math.js': MATH_PR });
  gh.setPullFiles(2, filesOf('main', 'changes'));
  // the compare of two commits (a later review reads what changed since the last) from this history
  gh.setOrigin(repo.origin);
});
afterEach(async () => {
  await gh.stop();
  await model?.close();
  model = undefined;
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

async function act(
  eventName: string,
  payload: unknown,
  turns: AnthropicTurn[],
  inputs: Record<string, string> = {},
) {
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
      'api-key': 'sk-ant-api03-review-run-0123456789abcdef',
      'base-url': model.url,
      mode: 'review',
      ...inputs,
    },
  });
  cleanups.push(r.cleanup);
  return r;
}

const comment = (id: string, args: Record<string, unknown>) => ({
  id,
  name: 'add_review_comment',
  json: JSON.stringify(args),
});

const FIRST_REVIEW: AnthropicTurn[] = [
  {
    toolCalls: [
      comment('toolu_01', {
        path: 'src/math.js',
        line: 2,
        body: 'Use a strict comparison.',
        suggestion: '  if (b === 0) return 0;',
      }),
      comment('toolu_02', { path: 'src/math.js', line: 6, body: 'mul has no test.' }),
      // a PR could talk the model into writing patchloop's hidden markers: they are shown, not hidden
      comment('toolu_03', {
        path: 'src/math.js',
        line: 10,
        body: 'Is the rename intended? <!-- patchloop:resolved -->',
      }),
      { id: 'toolu_04', name: 'run_tests', json: '{}' },
      // a review has no tool that writes: this call is refused and changes nothing
      { id: 'toolu_05', name: 'write_file', json: '{"path":"src/math.js","content":"gone"}' },
    ],
    usage: { input: 2000, output: 200 },
  },
  { text: 'Needs changes: the zero check uses loose equality.', usage: { input: 2600, output: 40 } },
];

function pullEvent(action: string) {
  const p = pullRequestEvent(action);
  p.pull_request.head.sha = git(repo.origin, 'rev-parse', 'changes');
  p.pull_request.base.ref = 'main';
  return p;
}

describe('a review run', () => {
  it('posts one review: comments on the right lines, a suggestion, a comment outside the diff in the body, event COMMENT', async () => {
    const before = git(repo.origin, 'for-each-ref');
    const r = await act('pull_request', pullEvent('opened'), FIRST_REVIEW);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs.conclusion).toBe('success');

    // the model reviewed with reading tools only, and was shown numbered diff lines
    const first = model!.requests[0]!.body as { tools: { name: string }[]; messages: unknown[] };
    expect(first.tools.map((t) => t.name).sort()).toEqual(
      ['add_review_comment', 'find_files', 'grep', 'list_dir', 'read_file', 'run_tests'].sort(),
    );
    expect(JSON.stringify(first.messages)).toContain('    2 +  if (b == 0) return 0;');
    expect(JSON.stringify(model!.requests[1]!.body)).toContain('Unknown tool \\"write_file\\"');
    expect(git(repo.work, 'status', '--porcelain')).toBe('');

    // one review, COMMENT, inline on line 2 (with the suggestion) and 10; line 6 is outside the diff
    expect(gh.reviews).toHaveLength(1);
    const review = gh.reviews[0]!;
    expect(review.state).toBe('COMMENTED');
    const posted = gh.requestsTo('POST', /\/pulls\/2\/reviews$/);
    expect(posted).toHaveLength(1);
    expect((posted[0]!.body as { event: string }).event).toBe('COMMENT');
    const inline = gh.reviewComments.map((c) => [c.path, c.line, c.body.split('\n')[0]]);
    expect(inline).toEqual([
      ['src/math.js', 2, 'Use a strict comparison.'],
      ['src/math.js', 10, 'Is the rename intended? &lt;!-- patchloop:resolved -->'],
    ]);
    expect(gh.reviewComments[0]!.body).toContain('```suggestion\n  if (b === 0) return 0;\n```');
    expect(review.body).toContain('Needs changes: the zero check uses loose equality.');
    expect(review.body).toContain(
      '- `src/math.js` line 6 (line 6 of src/math.js is not in the diff (its lines in the diff: 1–5, 7–10)):\n  mul has no test.',
    );
    expect(review.body).toContain('the tests were run 1 time(s); the last run passed (exit code 0)');
    expect(review.body).toMatch(
      /claude-[\w.-]+ · 2 turn\(s\) · 4600 input \/ 240 output tokens · \$[\d.]+ \(estimated\)/,
    );

    // the summary links the review; nothing was pushed
    expect(r.outputs['review-url']).toBe(review.html_url);
    const tracking = gh.commentsOn(2).filter((c) => c.user.login === 'github-actions[bot]');
    expect(tracking).toHaveLength(1);
    expect(tracking[0]!.body).toContain(`[posted](${review.html_url})`);
    expect(git(repo.origin, 'for-each-ref')).toBe(before);
  });

  it('a second review after a push repeats nothing and answers the thread whose line was fixed', async () => {
    await act('pull_request', pullEvent('opened'), FIRST_REVIEW);
    expect(gh.reviewComments).toHaveLength(2);
    // The author fixes line 2; line 10 stays.
    repo.pushToOrigin('changes', { 'src/math.js': MATH_PR.replace('b == 0', 'b === 0') });
    gh.setPullFiles(2, filesOf('main', 'changes'));
    const r = await act('pull_request', pullEvent('synchronize'), [
      {
        toolCalls: [comment('toolu_11', { path: 'src/math.js', line: 10, body: 'Is the rename intended?' })],
        usage: { input: 2000, output: 100 },
      },
      { text: 'Looks good now, apart from the rename.', usage: { input: 2100, output: 20 } },
    ]);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    // the model saw its earlier threads, the fixed one as outdated, and only the new commit's diff
    const seen = JSON.stringify(model!.requests[0]!.body);
    expect(seen).toContain('outdated (the lines changed since; it was on line 2)');
    expect(seen).toContain('    2 +  if (b === 0) return 0;');
    expect(seen).not.toContain('    2 +  if (b == 0) return 0;');
    // its only remark still stands from the first review: nothing new, so no second review (quiet)
    expect(gh.reviews).toHaveLength(1);
    expect(gh.reviewComments.filter((c) => !c.in_reply_to_id)).toHaveLength(2);
    const replies = gh.reviewComments.filter((c) => c.in_reply_to_id !== undefined);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.in_reply_to_id).toBe(
      gh.reviewComments.find((c) => c.line === null && !c.in_reply_to_id)!.id,
    );
    expect(replies[0]!.body).toContain('Resolved: the lines this was about have changed since');
    expect(gh.requestsTo('POST', /\/pulls\/comments\/\d+\/replies$/)).toHaveLength(0);
    // and the thread is marked resolved (GraphQL), the one that still stands is not
    expect([...gh.resolvedThreads]).toEqual([replies[0]!.in_reply_to_id]);
    // the one summary comment says so
    const tracking = gh.commentsOn(2).filter((c) => c.user.login === 'github-actions[bot]');
    expect(tracking).toHaveLength(1);
    expect(tracking[0]!.body).toContain(
      'The new commits raised nothing new to remark on, so no review was posted. 1 earlier remark(s) still apply and were not repeated. 1 earlier remark(s) no longer apply and were answered as resolved.',
    );
  }, 150_000);

  it('a review asked for again in a comment posts its review even when every remark was made before', async () => {
    await act('pull_request', pullEvent('opened'), FIRST_REVIEW);
    const r = await act('issue_comment', issueCommentOnPull('/patchloop review'), [
      {
        toolCalls: [comment('toolu_11', { path: 'src/math.js', line: 10, body: 'Is the rename intended?' })],
        usage: { input: 2000, output: 100 },
      },
      { text: 'Still the rename.', usage: { input: 2100, output: 20 } },
    ]);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(gh.reviews).toHaveLength(2);
    expect(gh.reviews[1]!.body).toContain(
      '1 remark(s) made in an earlier review still apply and are not repeated.',
    );
  }, 150_000);

  it('a "review" comment on a PR is a review whatever mode says, with its focus', async () => {
    const r = await act(
      'issue_comment',
      issueCommentOnPull('/patchloop review the error handling'),
      FIRST_REVIEW,
      {
        mode: 'fix',
      },
    );
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(JSON.stringify(model!.requests[0]!.body)).toContain(
      'The requester asks the review to look at: the error handling',
    );
    expect(gh.reviews).toHaveLength(1);
    expect(r.outputs['review-url']).toBe(gh.reviews[0]!.html_url);
    expect(r.outputs.branch).toBe('');
  });

  it('a fork’s pull_request (read-only token, no secrets) ends with a clear message, not a stack trace', async () => {
    const r = await act('pull_request', pullRequestFromFork('opened'), FIRST_REVIEW, { 'api-key': '' });
    expect(r.code).toBe(0);
    expect(r.outputs.conclusion).toBe('skipped');
    expect(r.stdout).toContain('comes from the fork Mallory/Hello-World');
    expect(r.stdout).toContain('review forks with pull_request_target');
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    expect(model!.requests).toHaveLength(0);
    expect(gh.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
  });

  it('pull_request without mode: review starts nothing', async () => {
    const r = await act('pull_request', pullEvent('opened'), FIRST_REVIEW, { mode: 'fix' });
    expect(r.code).toBe(0);
    expect(r.outputs.conclusion).toBe('skipped');
    expect(model!.requests).toHaveLength(0);
  });
});
