// Every event patchloop handles, run through the bundled action with GitHub's own published
// example payloads (@octokit/webhooks-examples, via test/github/fixtures/webhooks.ts). The
// examples are about Codertocat/Hello-World, so the fake GitHub plays that repository; the only
// changes to a payload are the ones its helper names (the comment's text, a label, a failure).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import {
  EXAMPLE_REPOSITORY,
  issueCommentOnIssue,
  issueCommentOnPull,
  issueLabeled,
  issueOpened,
  reviewCommentCreated,
  reviewSubmitted,
  workflowRunFailed,
} from '../github/fixtures/webhooks.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const SESSION: AnthropicTurn[] = [
  {
    toolCalls: [
      { id: 'toolu_01', name: 'write_file', json: '{"path":"README.md","content":"# Hello World\\n"}' },
    ],
    usage: { input: 500, output: 30 },
  },
  { text: 'Fixed the spelling in the README.', usage: { input: 600, output: 20 } },
];

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer;
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  const [owner, name] = EXAMPLE_REPOSITORY.split('/') as [string, string];
  gh = await startFakeGitHub({ owner, repo: name });
  gh.setPermission('Codertocat', 'admin');
  repo = makeRepo({ 'README.md': '# Hello Wrold\n' });
  model = await startAnthropicServer((_request, index) => SESSION[index]!);
  // The examples' issue is #1 and their pull request #2 (head `changes`, in the same repository).
  gh.addIssue({ title: 'Spelling error in the README file', body: 'It looks like you accidently spelled…' });
  gh.addPull({ title: 'Update the README with new information.', head: 'changes', base: 'main' });
  repo.pushToOrigin('changes', { 'CHANGES.md': 'new information\n' });
});
afterEach(async () => {
  await gh.stop();
  await model.close();
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

async function act(eventName: string, payload: unknown) {
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    repository: EXAMPLE_REPOSITORY,
    eventName,
    payload,
    inputs: {
      'github-token': 'ghs_faketoken',
      'api-key': 'sk-ant-api03-real-payloads-0123456789',
      'base-url': model.url,
    },
  });
  cleanups.push(r.cleanup);
  return r;
}

describe('the published example payloads, one run each', () => {
  it.each([
    [
      'issue_comment',
      1,
      'patchloop/issue-1-spelling-error-in-the-readme-file',
      () => issueCommentOnIssue('/patchloop fix the spelling'),
    ],
    ['issue_comment', 2, 'changes', () => issueCommentOnPull('/patchloop fix the spelling')],
    ['pull_request_review_comment', 2, 'changes', () => reviewCommentCreated('/patchloop fix the spelling')],
    ['pull_request_review', 2, 'changes', () => reviewSubmitted('/patchloop fix the spelling')],
    [
      'issues',
      1,
      'patchloop/issue-1-spelling-error-in-the-readme-file',
      () => issueOpened('It looks like you accidently spelled it.\n\n/patchloop'),
    ],
    ['issues', 1, 'patchloop/issue-1-spelling-error-in-the-readme-file', () => issueLabeled('patchloop')],
  ])('%s (case %#): works on #%i, commits to %s', async (event, number, branch, payload) => {
    const r = await act(event, payload());
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs).toMatchObject({ conclusion: 'success', branch });
    expect(git(repo.origin, 'show', `${branch}:README.md`)).toBe('# Hello World');
    const tracking = gh.commentsOn(number).filter((c) => c.user.login === 'github-actions[bot]');
    expect(tracking).toHaveLength(1);
    expect(tracking[0]!.body).toContain('Fixed the spelling in the README.');
  });

  it('workflow_run with an empty name: the branch and title come from the workflow, the fix from the failed commit', async () => {
    const p = workflowRunFailed();
    const failed = git(repo.work, 'rev-parse', 'HEAD');
    // The example's commit and branch are not in this repository; the failure is put on ours.
    p.workflow_run.head_sha = failed;
    p.workflow_run.head_branch = 'main';
    repo.pushToOrigin('main', { 'later.txt': 'pushed after the failure' });
    const r = await act('workflow_run', p);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs).toMatchObject({
      conclusion: 'success',
      branch: `patchloop/fix-run-${p.workflow_run.id}`,
    });
    const pr = [...gh.pulls.values()].find((x) => x.head.ref === `patchloop/fix-run-${p.workflow_run.id}`);
    expect(pr?.title).toContain('test');
    expect(pr?.title).not.toMatch(/of\s+\(/);
    expect(pr?.base.ref).toBe('main');
    // cut from the failed commit: the later push is not under the fix
    expect(git(repo.origin, 'rev-parse', `patchloop/fix-run-${p.workflow_run.id}~1`)).toBe(failed);
  });
});
