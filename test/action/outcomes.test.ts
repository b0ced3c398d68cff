// Outcomes that tell the truth, through the bundle: the conclusion follows the evidence (the last
// test run's exit code, the budget, the provider's answer), unfinished work is kept but proposed
// as a draft that claims no fix, and each mode's summary says what it did and what started it.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { EXAMPLE_REPOSITORY, pullRequestEvent } from '../github/fixtures/webhooks.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-outcomes-test-key-0123456789abcdef';

const REPO_FILES = {
  'package.json': '{ "name": "demo", "type": "module", "scripts": { "test": "node test.js" } }\n',
  'src/math.js': 'export const div = (a, b) => a / b;\n',
  'test.js':
    "import { div } from './src/math.js';\nif (div(1, 0) !== 0) { console.error('div(1, 0) should be 0'); process.exit(1); }\nconsole.log('all good');\n",
};

const edit = (id: string, newText: string): AnthropicTurn => ({
  toolCalls: [
    {
      id,
      name: 'edit_file',
      json: JSON.stringify({ path: 'src/math.js', oldText: 'a / b', newText }),
    },
  ],
  usage: { input: 1000, output: 60 },
});
const runTests = (id: string): AnthropicTurn => ({
  toolCalls: [{ id, name: 'run_tests', json: '{}' }],
  usage: { input: 1100, output: 20 },
});

/** A wrong fix, a red test run, and a model that says so. */
const RED_SESSION: AnthropicTurn[] = [
  edit('toolu_01', '(b === 0 ? NaN : a / b)'),
  runTests('toolu_02'),
  { text: 'I could not make the test pass: div(1, 0) is still not 0.', usage: { input: 1200, output: 30 } },
];

/** The same, then a right fix and a green run: the last run decides. */
const RED_THEN_GREEN: AnthropicTurn[] = [
  ...RED_SESSION.slice(0, 2),
  {
    toolCalls: [
      {
        id: 'toolu_03',
        name: 'edit_file',
        json: JSON.stringify({ path: 'src/math.js', oldText: 'NaN', newText: '0' }),
      },
    ],
    usage: { input: 1200, output: 40 },
  },
  runTests('toolu_04'),
  { text: 'Guarded div() against a zero divisor; the tests pass.', usage: { input: 1300, output: 30 } },
];

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
const cleanups: (() => void)[] = [];

afterEach(async () => {
  await gh.stop();
  await model?.close();
  model = undefined;
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

describe('a fix run', () => {
  beforeEach(async () => {
    gh = await startFakeGitHub();
    gh.setPermission('alice', 'write');
    repo = makeRepo(REPO_FILES);
  }, 180_000);

  async function fix(
    turns: AnthropicTurn[] | ((i: number) => AnthropicTurn),
    inputs: Record<string, string> = {},
    timeoutMs = 90_000,
  ) {
    model = await startAnthropicServer((_r, i) =>
      typeof turns === 'function' ? turns(i) : (turns[i] ?? { text: 'Done.' }),
    );
    const issue = gh.addIssue({ title: 'div by zero returns Infinity' });
    const c = gh.addComment(issue.number, { body: '/patchloop fix the division', author: 'alice' });
    const r = await runAction({
      script: action.path,
      workspace: repo.work,
      apiUrl: gh.url,
      eventName: 'issue_comment',
      payload: issueComment({
        issue: { number: issue.number, title: issue.title },
        comment: { id: c.id, body: c.body, createdAt: c.created_at, author: { login: 'alice', id: 4242 } },
      }),
      inputs: {
        'github-token': TOKEN,
        'api-key': API_KEY,
        'base-url': model.url,
        'test-command': 'node test.js',
        // the user asked for ready PRs: unfinished work is a draft all the same
        'draft-pr': 'false',
        'continue-session': 'false',
        ...inputs,
      },
      timeoutMs,
    });
    cleanups.push(r.cleanup);
    const summary = gh.commentsOn(issue.number).find((x) => x.id !== c.id)?.body ?? '';
    return { r, summary };
  }

  it('whose last test run is red is a failure: exit 1, the work pushed, a draft PR that does not say Fixes #1', async () => {
    const { r, summary } = await fix(RED_SESSION);
    expect(r.code, r.stdout.slice(-3000)).toBe(1);
    expect(r.outputs.conclusion).toBe('failure');
    // nothing is lost: the commit is on origin's branch and in the outputs
    const branch = r.outputs.branch!;
    expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}`)).toBe(r.outputs['commit-sha']);
    expect(git(repo.origin, 'show', `${branch}:src/math.js`)).toContain('NaN');
    const subject = git(repo.origin, 'log', '-1', '--format=%s', branch);
    expect(subject).toBe('Attempt at #1 (tests still failing): div by zero returns Infinity');
    expect(git(repo.origin, 'log', '-1', '--format=%B', branch)).not.toMatch(/\bfix(es|ed)? #1\b/i);

    const pull = gh.pulls.get(Number(r.outputs['pr-number']))!;
    expect(pull.draft).toBe(true);
    expect(pull.title).toBe('Attempt at #1 (tests still failing): div by zero returns Infinity');
    expect(pull.body).not.toMatch(/\b(fix|fixes|fixed|close|closes|closed|resolve|resolves|resolved) #1\b/i);
    expect(pull.body).toContain('Refs #1');
    expect(pull.body).toContain('❌ **patchloop: failure** (tests still failing)');
    expect(pull.body).not.toContain('patchloop: success');

    // the summary says why, everywhere
    for (const text of [summary, r.stepSummary]) {
      expect(text).toContain('❌ **patchloop: failure** (tests still failing)');
      expect(text).toContain('The tests still fail at the end (last run_tests exit 1).');
      expect(text).toContain('- Tests: failed at the end (last run_tests exit 1)');
      expect(text).toMatch(
        /\*\*What next:\*\* The tests still fail; the work so far is kept on its branch\./,
      );
    }
    expect(r.stdout).toContain('patchloop: failure: The tests still fail at the end');
  }, 180_000);

  it('whose red test run was followed by a green one succeeds and closes the issue', async () => {
    const { r, summary } = await fix(RED_THEN_GREEN);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs.conclusion).toBe('success');
    const pull = gh.pulls.get(Number(r.outputs['pr-number']))!;
    expect(pull.draft).toBe(false);
    expect(pull.title).toBe('Fix #1: div by zero returns Infinity');
    expect(pull.body).toContain('Fixes #1');
    expect(summary).toContain('✅ **patchloop: success**');
    expect(summary).toContain('- Tests: passed at the end (last run_tests exit 0)');
  }, 180_000);

  it('stopped by its budget keeps the work in a draft PR that says it is unfinished and closes nothing', async () => {
    // every turn edits or tests; the turn budget ends it before the model is done
    const { r, summary } = await fix(
      (i) => (i === 0 ? edit('toolu_01', '(b === 0 ? 0 : a / b)') : runTests(`toolu_1${i}`)),
      { 'max-turns': '2' },
    );
    expect(r.code, r.stdout.slice(-3000)).toBe(1);
    expect(r.outputs.conclusion).toBe('budget-exceeded');
    const branch = r.outputs.branch!;
    expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}`)).toBe(r.outputs['commit-sha']);
    const pull = gh.pulls.get(Number(r.outputs['pr-number']))!;
    expect(pull.draft).toBe(true);
    expect(pull.title).toBe('Attempt at #1 (turns budget used up): div by zero returns Infinity');
    expect(pull.body).not.toMatch(/\b(fix|fixes|fixed|close|closes|closed|resolve|resolves|resolved) #1\b/i);
    expect(pull.body).toContain('Refs #1');
    expect(pull.body).toContain('⚠️ **patchloop: budget exceeded** (turns)');
    expect(summary).toContain('⚠️ **patchloop: budget exceeded** (turns)');
  }, 180_000);

  it('ended by a provider outage names the outage and says to re-run, not to fix a secret', async () => {
    const { r, summary } = await fix(
      () => ({ http: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }),
      {},
      150_000,
    );
    expect(r.code, r.stdout.slice(-3000)).toBe(1);
    expect(r.outputs.conclusion).toBe('failure');
    for (const text of [summary, r.stepSummary]) {
      expect(text).toContain('❌ **patchloop: failure** (provider outage)');
      expect(text).toMatch(
        /\*\*What next:\*\* Anthropic answered HTTP 529 \(overloaded\) after patchloop's retries: an outage on the provider's side, nothing to fix in the workflow or its secrets\. Wait a few minutes, then re-run the job from the workflow run page\./,
      );
      expect(text).not.toContain('Fix what the error names');
    }
  }, 240_000);
});

describe('an automatic review', () => {
  const MATH_BASE = 'export function div(a, b) {\n  return a / b;\n}\n';
  const MATH_PR = MATH_BASE.replace('  return a / b;', '  if (b == 0) return 0;\n  return a / b;');

  beforeEach(async () => {
    const [owner, name] = EXAMPLE_REPOSITORY.split('/') as [string, string];
    gh = await startFakeGitHub({ owner, repo: name });
    gh.setPermission('Codertocat', 'admin');
    repo = makeRepo({ ...REPO_FILES, 'src/math.js': MATH_BASE });
    gh.addIssue({ title: 'Spelling error in the README file' });
    gh.addPull({ title: 'Update the README with new information.', head: 'changes', base: 'main' });
    repo.pushToOrigin('changes', { 'src/math.js': MATH_PR });
    git(repo.work, 'fetch', '--quiet', 'origin');
    const diff = git(repo.work, 'diff', 'origin/main', 'origin/changes', '--', 'src/math.js');
    gh.setPullFiles(2, [
      {
        filename: 'src/math.js',
        status: 'modified',
        additions: 1,
        deletions: 0,
        patch: diff.slice(diff.indexOf('@@')),
      },
    ]);
  }, 180_000);

  it('headlines the review it posted with its comments and verdict, and says what started it instead of who asked', async () => {
    model = await startAnthropicServer(
      (_r, i) =>
        [
          {
            toolCalls: [
              {
                id: 'toolu_01',
                name: 'add_review_comment',
                json: JSON.stringify({ path: 'src/math.js', line: 2, body: 'Use a strict comparison.' }),
              },
            ],
            usage: { input: 2000, output: 100 },
          },
          { text: 'Needs changes: the zero check uses loose equality.', usage: { input: 2100, output: 20 } },
        ][i] ?? { text: 'Done.' },
    );
    const p = pullRequestEvent('opened');
    p.pull_request.head.sha = git(repo.origin, 'rev-parse', 'changes');
    p.pull_request.base.ref = 'main';
    const r = await runAction({
      script: action.path,
      workspace: repo.work,
      apiUrl: gh.url,
      repository: EXAMPLE_REPOSITORY,
      eventName: 'pull_request',
      payload: p,
      inputs: { 'github-token': TOKEN, 'api-key': API_KEY, 'base-url': model.url, mode: 'review' },
    });
    cleanups.push(r.cleanup);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs.conclusion).toBe('success');
    expect(gh.reviews).toHaveLength(1);
    const tracking = gh.commentsOn(2).filter((c) => c.user.login === 'github-actions[bot]');
    expect(tracking).toHaveLength(1);
    for (const text of [tracking[0]!.body, r.stepSummary]) {
      expect(text.split('\n')[0]).toMatch(
        /^💬 \*\*patchloop: review posted\*\* — 1 comment \(Needs changes: the zero check uses loose equality\.\) · \[review\]\(/,
      );
      expect(text).not.toContain('patchloop: success');
      expect(text).not.toMatch(/asked:/);
      expect(text).not.toContain('Review this pull request');
      expect(text).toContain(
        '**Started by** the `pull_request` event (`opened`) of pull request #2, automatically.',
      );
      expect(text).toContain('**Review**');
    }
  }, 180_000);
});
