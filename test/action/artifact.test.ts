// The transcript artifact end to end: the bundled action runs as the runner runs it, with
// ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL pointing at the loopback artifact service, and the
// official @actions/artifact client inside the bundle uploads to it for real.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readZip } from '../../src/github/follow-up/artifact-download.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeArtifactService, type FakeArtifactService } from '../fakes/artifact-service.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-artifact-e2e-key-0123456789abcdef';

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let service: FakeArtifactService;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  service = await startFakeArtifactService();
  service.mountOn(gh);
  // A file the model reads that holds both secrets, as a careless commit might.
  repo = makeRepo({ 'README.md': '# demo\n', 'config.txt': `github=${TOKEN}\nanthropic=${API_KEY}\n` });
});
afterEach(async () => {
  await gh.stop();
  await service.stop();
  await model?.close();
  model = undefined;
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

/** Reads the file with the secrets, then ends with nothing to change (quoting one of them). */
const LOOK_SESSION: AnthropicTurn[] = [
  {
    text: 'Reading the configuration.',
    toolCalls: [{ id: 'toolu_a1', name: 'read_file', json: '{"path":"config.txt"}' }],
    usage: { input: 500, output: 20 },
  },
  { text: `Nothing to change; the key ${API_KEY} is configured.`, usage: { input: 600, output: 25 } },
];

async function runJob(o: {
  runId: number;
  job: string;
  issue: number;
  commentId: number;
  body: string;
  token?: string;
}) {
  const identity = service.job({ runId: o.runId, job: o.job });
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    runId: String(o.runId),
    payload: issueComment({
      issue: { number: o.issue, title: 'Check the configuration' },
      comment: { id: o.commentId, body: o.body },
    }),
    inputs: {
      'github-token': TOKEN,
      'api-key': API_KEY,
      'base-url': model!.url,
      'continue-session': 'false',
    },
    env: {
      ACTIONS_RUNTIME_TOKEN: o.token ?? identity.token,
      ACTIONS_RESULTS_URL: service.url,
      GITHUB_JOB: o.job,
    },
  });
  cleanups.push(r.cleanup);
  return { r, identity };
}

describe('the transcript artifact', () => {
  it('is uploaded with transcript.jsonl and transcript.html, linked from the summary and the output, with no secret in it', async () => {
    model = await startAnthropicServer((_req, i) => LOOK_SESSION[i]!);
    const issue = gh.addIssue({ title: 'Check the configuration' });
    const c = gh.addComment(issue.number, { body: '/patchloop check the config', author: 'alice' });
    const { r, identity } = await runJob({
      runId: 9001,
      job: 'patchloop',
      issue: issue.number,
      commentId: c.id,
      body: c.body,
    });
    expect(r.code, r.stderr.slice(-3000) + r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs.conclusion).toBe('no-changes');

    const uploaded = service.artifacts.filter((a) => a.finalized);
    expect(uploaded).toHaveLength(1);
    const artifact = uploaded[0]!;
    expect(artifact).toMatchObject({ runId: 9001, jobBackendId: identity.jobBackendId });
    expect(artifact.name).toMatch(/^patchloop-transcript-1-9001-1-patchloop(-[0-9a-f]{8})?$/);

    // The zip holds the contract's two names, and the JSONL is the run's transcript.
    const zip = service.zipOf(artifact.id);
    const entries = await readZip(zip, { only: ['transcript.jsonl', 'transcript.html'], maxBytes: 16 << 20 });
    expect([...entries.keys()].sort()).toEqual(['transcript.html', 'transcript.jsonl']);
    const jsonl = entries.get('transcript.jsonl')!.toString('utf8');
    const html = entries.get('transcript.html')!.toString('utf8');
    expect(jsonl).toBe(readFileSync(r.outputs['transcript-path']!, 'utf8'));
    expect(jsonl.split('\n')[0]).toContain('"type":"session"');
    // The file with the secrets was read into the transcript (so the check below means something).
    expect(jsonl).toContain('github=');
    expect(jsonl).toContain('anthropic=');
    expect(html).toContain('<html');
    // Neither secret, in the stored bytes or in what they unpack to (the runtime token neither).
    for (const text of [zip.toString('latin1'), jsonl, html]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(identity.token);
    }

    // artifact-url is the artifact's page, and the comment and the step summary link it.
    const url = `https://github.com/octo/demo/actions/runs/9001/artifacts/${artifact.id}`;
    expect(r.outputs['artifact-url']).toBe(url);
    const summary = gh.commentsOn(issue.number).find((x) => x.id !== c.id)!.body;
    expect(summary).toContain(`(${url})`);
    expect(r.stepSummary).toContain(`(${url})`);
  });

  it('is named apart for two jobs of one run, and both uploads succeed', async () => {
    model = await startAnthropicServer((_req, i) => LOOK_SESSION[i % LOOK_SESSION.length]!);
    const issue = gh.addIssue({ title: 'Check the configuration' });
    const c1 = gh.addComment(issue.number, { body: '/patchloop check the config', author: 'alice' });
    const first = await runJob({
      runId: 9002,
      job: 'check-linux',
      issue: issue.number,
      commentId: c1.id,
      body: c1.body,
    });
    const c2 = gh.addComment(issue.number, { body: '/patchloop check it again', author: 'alice' });
    const second = await runJob({
      runId: 9002,
      job: 'check-macos',
      issue: issue.number,
      commentId: c2.id,
      body: c2.body,
    });
    expect(first.r.code, first.r.stderr.slice(-2000)).toBe(0);
    expect(second.r.code, second.r.stderr.slice(-2000)).toBe(0);

    const names = service.artifacts.filter((a) => a.finalized && a.runId === 9002).map((a) => a.name);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    expect(names[0]).toContain('check-linux');
    expect(names[1]).toContain('check-macos');
    // No upload was refused for its name.
    expect(service.requests.filter((q) => q.kind === 'CreateArtifact').map((q) => q.status)).toEqual([
      200, 200,
    ]);
    expect(first.r.outputs['artifact-url']).not.toBe(second.r.outputs['artifact-url']);
  });

  it('keeps two legs of one matrix job apart: prompt tasks get their own branch, PR and artifact', async () => {
    // Each leg writes a note, so each has a commit to push and a PR to open.
    const legSession = (leg: string): AnthropicTurn[] => [
      {
        text: 'Writing the note.',
        toolCalls: [
          {
            id: 'toolu_w1',
            name: 'write_file',
            json: JSON.stringify({ path: `notes/${leg}.md`, content: `${leg}\n` }),
          },
        ],
        usage: { input: 400, output: 20 },
      },
      { text: `Wrote the ${leg} note.`, usage: { input: 500, output: 10 } },
    ];
    const outcomes = [];
    for (const leg of ['linux', 'macos']) {
      model = await startAnthropicServer((_req, i) => legSession(leg)[i]!);
      // Same run, same job id (GITHUB_JOB is shared by every leg of a matrix); only the job run,
      // which the runtime token names, differs.
      const identity = service.job({ runId: 9004, job: `batch-${leg}` });
      const r = await runAction({
        script: action.path,
        workspace: repo.work,
        apiUrl: gh.url,
        eventName: 'workflow_dispatch',
        runId: '9004',
        payload: { inputs: {}, ref: 'refs/heads/main', sender: { login: 'alice', type: 'User' } },
        inputs: {
          'github-token': TOKEN,
          'api-key': API_KEY,
          'base-url': model.url,
          prompt: `Write the ${leg} note`,
        },
        env: { ACTIONS_RUNTIME_TOKEN: identity.token, ACTIONS_RESULTS_URL: service.url, GITHUB_JOB: 'batch' },
      });
      cleanups.push(r.cleanup);
      await model.close();
      model = undefined;
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      outcomes.push(r.outputs);
    }
    const [a, b] = outcomes as [Record<string, string>, Record<string, string>];
    expect(a.branch).toMatch(/^patchloop\/task-9004-batch-[0-9a-f]{8}$/);
    expect(b.branch).toMatch(/^patchloop\/task-9004-batch-[0-9a-f]{8}$/);
    expect(a.branch).not.toBe(b.branch);
    expect(a['pr-number']).not.toBe(b['pr-number']);
    const prs = [...gh.pulls.values()].filter((p) => p.head.ref.startsWith('patchloop/task-9004-'));
    expect(prs.map((p) => p.head.ref).sort()).toEqual([a.branch, b.branch].sort());
    const names = service.artifacts.filter((x) => x.finalized && x.runId === 9004).map((x) => x.name);
    expect(new Set(names).size).toBe(2);
  });

  it('when the service refuses the upload, says so and leaves the conclusion as it was', async () => {
    model = await startAnthropicServer((_req, i) => LOOK_SESSION[i]!);
    const issue = gh.addIssue({ title: 'Check the configuration' });
    const c = gh.addComment(issue.number, { body: '/patchloop check the config', author: 'alice' });
    // A runtime token the service did not issue: CreateArtifact answers 401.
    const forged = `${service.job({ runId: 1, job: 'x' }).token.split('.').slice(0, 2).join('.')}.Zm9yZ2Vk`;
    const { r } = await runJob({
      runId: 9003,
      job: 'patchloop',
      issue: issue.number,
      commentId: c.id,
      body: c.body,
      token: forged,
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.outputs).toMatchObject({ conclusion: 'no-changes', 'artifact-url': '' });
    expect(service.requests.filter((q) => q.kind === 'CreateArtifact').map((q) => q.status)).toEqual([401]);
    expect(service.artifacts).toEqual([]);
    const summary = gh.commentsOn(issue.number).find((x) => x.id !== c.id)!.body;
    expect(summary).toMatch(/transcript artifact could not be uploaded/);
    expect(summary).toContain(r.outputs['transcript-path']!);
  });
});
