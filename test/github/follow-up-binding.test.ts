// A follow-up's marker is followed only once the run it names is confirmed (issue 23): a run of this
// repository's own workflow file, whose transcript names the comment the marker was read from and
// the branch the marker names; without the transcript, a comment written while that run ran.
// Through the loopback GitHub (its runs route checked against GitHub's REST description) and the
// loopback artifact service, with transcripts uploaded by the real @actions/artifact client.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseArtifactUploader, type ArtifactEnvironment } from '../../src/github/delivery/artifact.js';
import { sessionMarkerText, type SessionMarker } from '../../src/github/comment.js';
import {
  findEarlierComment,
  loadEarlierSession,
  workflowPathOf,
  type EarlierComment,
} from '../../src/github/follow-up/follow-up.js';
import { tokenLogin } from '../../src/github/identity.js';
import { createGitHubClient, type GitHubClient } from '../../src/github/octokit.js';
import { startFakeArtifactService, type FakeArtifactService } from '../fakes/artifact-service.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import { mismatches, responseSchema } from './fixtures/openapi.js';

const APP_BOT = { login: 'patchloop-app[bot]', id: 900001, type: 'Bot' as const };
const WORKFLOW = '.github/workflows/patchloop.yml';

let service: FakeArtifactService;
let gh: FakeGitHub;
let github: GitHubClient;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  service = await startFakeArtifactService();
  gh = await startFakeGitHub({ tokens: { ghs_faketoken: ACTIONS_BOT, ghs_apptoken: APP_BOT } });
  service.mountOn(gh);
  github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false, retries: 0 });
});
afterAll(async () => {
  process.env = saved;
  await service.stop();
  await gh.stop();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'patchloop-binding-'));
  return () => rmSync(dir, { recursive: true, force: true });
});

/** Run `runId` of this workflow: it posted `commentId` and worked on `branch`, and uploaded its transcript. */
async function earlierRun(runId: number, o: { commentId: number; branch: string; path?: string }) {
  gh.addRun({ id: runId, path: o.path ?? WORKFLOW });
  const lines = [
    { type: 'session', version: 1, id: `${runId}-1`, repository: 'octo/demo', branch: o.branch },
    {
      type: 'event',
      event: 'comment',
      timestamp: 1,
      id: o.commentId,
      url: `https://github.com/c/${o.commentId}`,
    },
    { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'fix it' }], timestamp: 1 } },
  ];
  const identity = service.job({ runId, job: 'patchloop' });
  const env: ArtifactEnvironment = {
    ACTIONS_RUNTIME_TOKEN: identity.token,
    ACTIONS_RESULTS_URL: service.url,
    GITHUB_REPOSITORY: 'octo/demo',
    GITHUB_RUN_ID: String(runId),
    GITHUB_JOB: 'patchloop',
  };
  Object.assign(process.env, env);
  const jsonlPath = join(dir, `t-${runId}.jsonl`);
  writeFileSync(jsonlPath, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const choice = chooseArtifactUploader(env);
  if (!choice.uploader) throw new Error(choice.notice);
  return choice.uploader.uploadTranscript({ jsonlPath, taskNumber: 1 });
}

function marked(id: number, marker: SessionMarker, createdAt = new Date().toISOString()): EarlierComment {
  return {
    id,
    url: `https://github.com/octo/demo/issues/1#issuecomment-${id}`,
    marker,
    body: `summary\n\n${sessionMarkerText(marker)}`,
    source: 'comment',
    issueNumber: 1,
    createdAt: createdAt.replace(/\.\d{3}Z$/, 'Z'),
  };
}

const load = (comment: EarlierComment, workflowPath: string | null = WORKFLOW) =>
  loadEarlierSession(github, comment, {
    owner: 'octo',
    repo: 'demo',
    serverUrl: 'https://github.com',
    workflowPath: workflowPath ?? undefined,
    dest: join(dir, 'earlier'),
  });

describe('the earlier run a marker names', () => {
  it('the fake’s GET …/actions/runs/{run_id} has the shape GitHub describes', async () => {
    gh.addRun({ id: 5001 });
    const { data } = await github.rest.actions.getWorkflowRun({ owner: 'octo', repo: 'demo', run_id: 5001 });
    expect(
      mismatches(responseSchema('GET', '/repos/{owner}/{repo}/actions/runs/{run_id}', 200), data),
    ).toEqual([]);
  });

  it('is followed, with its branch, when its transcript names the comment and the branch', async () => {
    await earlierRun(5101, { commentId: 41, branch: 'patchloop/issue-1-x' });
    const got = await load(marked(41, { runId: '5101', sessionId: '5101-1', branch: 'patchloop/issue-1-x' }));
    expect(got.unconfirmed).toBeUndefined();
    expect(got.fallback).toBeUndefined();
    expect(got.branch).toBe('patchloop/issue-1-x');
    expect(got.transcript?.messages).toHaveLength(1);
  });

  it('is not followed when its transcript names another comment (a marker copied from elsewhere)', async () => {
    await earlierRun(5201, { commentId: 51, branch: 'patchloop/issue-2-other' });
    const got = await load(
      marked(52, { runId: '5201', sessionId: '5201-1', branch: 'patchloop/issue-2-other' }),
    );
    expect(got.branch).toBeUndefined();
    expect(got.transcript).toBeUndefined();
    expect(got.unconfirmed).toMatch(/run 5201 did not write the comment/);
  });

  it('is not followed to a branch its transcript does not name', async () => {
    await earlierRun(5301, { commentId: 61, branch: 'patchloop/issue-3-own' });
    const got = await load(
      marked(61, { runId: '5301', sessionId: '5301-1', branch: 'patchloop/issue-9-victim' }),
    );
    expect(got.branch).toBeUndefined();
    expect(got.transcript).toBeUndefined();
    expect(got.unconfirmed).toMatch(/another branch than `patchloop\/issue-9-victim`/);
  });

  it('is not followed when the run is another workflow’s, not this repository’s, or not known', async () => {
    await earlierRun(5401, {
      commentId: 71,
      branch: 'patchloop/issue-4',
      path: '.github/workflows/other.yml',
    });
    const other = await load(marked(71, { runId: '5401', sessionId: '5401-1', branch: 'patchloop/issue-4' }));
    expect(other.branch).toBeUndefined();
    expect(other.unconfirmed).toMatch(/is a run of `\.github\/workflows\/other\.yml`, not of this workflow/);
    const missing = await load(
      marked(72, { runId: '5499', sessionId: '5499-1', branch: 'patchloop/issue-4' }),
    );
    expect(missing.branch).toBeUndefined();
    expect(missing.unconfirmed).toMatch(/could not be confirmed/);
    const unknown = await load(
      marked(71, { runId: '5401', sessionId: '5401-1', branch: 'patchloop/issue-4' }),
      null,
    );
    expect(unknown.branch).toBeUndefined();
    expect(unknown.unconfirmed).toMatch(/GITHUB_WORKFLOW_REF is not set/);
  });

  it('without its transcript: followed only for a comment written while that run ran', async () => {
    gh.addRun({ id: 5501, startedAt: '2026-01-05T10:00:00Z', updatedAt: '2026-01-05T10:04:00Z' });
    const marker = { runId: '5501', sessionId: '5501-1', branch: 'patchloop/issue-5' };
    const during = await load(marked(81, marker, '2026-01-05T10:00:07Z'));
    expect(during.branch).toBe('patchloop/issue-5');
    expect(during.fallback?.reason).toBeTruthy();
    const later = await load(marked(82, marker, '2026-03-01T08:00:00Z'));
    expect(later.branch).toBeUndefined();
    expect(later.fallback?.summary).toContain('summary');
    expect(later.unconfirmed).toMatch(/the comment was not written while run 5501 ran/);
  });

  it('GITHUB_WORKFLOW_REF gives the workflow file of this repository only', () => {
    expect(workflowPathOf('octo/demo/.github/workflows/pl.yml@refs/heads/main', 'octo/demo')).toBe(
      '.github/workflows/pl.yml',
    );
    expect(workflowPathOf('Octo/Demo/.github/workflows/pl.yml@refs/pull/3/merge', 'octo/demo')).toBe(
      '.github/workflows/pl.yml',
    );
    expect(workflowPathOf('other/repo/.github/workflows/pl.yml@main', 'octo/demo')).toBeUndefined();
    expect(workflowPathOf(undefined, 'octo/demo')).toBeUndefined();
  });
});

describe('whose markers count without this run’s own comment', () => {
  it('the token names its identity through GraphQL `viewer`: the Actions bot, or an App’s own bot', async () => {
    expect(await tokenLogin(github)).toBe('github-actions[bot]');
    const app = createGitHubClient({ token: 'ghs_apptoken', baseUrl: gh.url, throttle: false, retries: 0 });
    expect(await tokenLogin(app)).toBe('patchloop-app[bot]');
  });

  it('only that identity’s marked comments are found', async () => {
    const issue = gh.addIssue({ title: 'identity' });
    const mine = { runId: '5601', sessionId: '5601-1' };
    const theirs = { runId: '5602', sessionId: '5602-1' };
    gh.addComment(issue.number, { body: `app\n\n${sessionMarkerText(mine)}`, author: APP_BOT.login });
    gh.addComment(issue.number, {
      body: `actions\n\n${sessionMarkerText(theirs)}`,
      author: ACTIONS_BOT.login,
    });
    const app = createGitHubClient({ token: 'ghs_apptoken', baseUrl: gh.url, throttle: false, retries: 0 });
    const found = await findEarlierComment(app, {
      owner: 'octo',
      repo: 'demo',
      issueNumber: issue.number,
      botLogin: await tokenLogin(app),
      ownSessionId: 'now-1',
    });
    expect(found?.marker).toEqual(mine);
  });
});
