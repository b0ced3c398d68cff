// Plan → approve → execute (CONTRACT §13) end to end: the bundled action runs as the runner runs it,
// against the loopback GitHub, the loopback artifact service and the loopback Anthropic server, on
// real clones of a real origin. A plan run has read-only tools, delivers nothing and ends
// `planned`; `approve` continues that session with the write tools, records the approval in the
// transcript and the summary, and delivers; anything else said after a plan amends it.
// (Each test runs the bundle two or three times, so each has a timeout of its own above the default.)
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readSessionMarker } from '../../src/github/comment.js';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeArtifactService, type FakeArtifactService } from '../fakes/artifact-service.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment, type IssueLike } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-plan-approve-e2e-key-0123456789abcdef';
const TITLE = 'div by zero returns Infinity';
const PLAN = 'Plan: guard div() in src/math.js so a zero divisor gives 0; add no dependency.';

/** The plan run: reads, then answers with the plan. It also tries to write, which it cannot. */
const PLANNING: AnthropicTurn[] = [
  {
    toolCalls: [
      { id: 'toolu_plan_read', name: 'read_file', json: '{"path":"src/math.js"}' },
      { id: 'toolu_plan_write', name: 'write_file', json: '{"path":"src/math.js","content":"x"}' },
    ],
    usage: { input: 500, output: 20 },
  },
  { text: PLAN, usage: { input: 600, output: 30 } },
];

/** The approved run: the edit, then the report. */
const EXECUTING: AnthropicTurn[] = [
  {
    toolCalls: [
      {
        id: 'toolu_exec_edit',
        name: 'edit_file',
        json: JSON.stringify({ path: 'src/math.js', oldText: 'a / b', newText: '(b === 0 ? 0 : a / b)' }),
      },
    ],
    usage: { input: 900, output: 40 },
  },
  { text: 'Guarded div() as planned.', usage: { input: 1000, output: 20 } },
];

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let service: FakeArtifactService;
let repo: RepoFixture;
const models: FakeProviderServer[] = [];
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  gh.setPermission('maria', 'maintain');
  gh.setPermission('rick', 'read');
  service = await startFakeArtifactService();
  service.mountOn(gh);
  repo = makeRepo({
    'package.json': '{ "name": "demo", "type": "module" }\n',
    'src/math.js': 'export const div = (a, b) => a / b;\n',
  });
});
afterEach(async () => {
  await gh.stop();
  await service.stop();
  for (const m of models.splice(0)) await m.close();
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

async function job(o: {
  runId: number;
  issue: IssueLike;
  body: string;
  author: string;
  turns: AnthropicTurn[];
  inputs?: Record<string, string>;
}) {
  const trigger = gh.addComment(o.issue.number, { body: o.body, author: o.author });
  const model = await startAnthropicServer((_req, i) => o.turns[i]!);
  models.push(model);
  gh.addRun({ id: o.runId });
  const identity = service.job({ runId: o.runId, job: 'patchloop' });
  // each run gets a fresh checkout of main, as actions/checkout gives it
  git(repo.work, 'checkout', '-q', 'main');
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    runId: String(o.runId),
    payload: issueComment({
      issue: o.issue,
      comment: {
        id: trigger.id,
        body: trigger.body,
        createdAt: trigger.created_at,
        author: { login: o.author, id: 7 },
      },
    }),
    inputs: { 'github-token': TOKEN, 'api-key': API_KEY, 'base-url': model.url, ...o.inputs },
    env: { ACTIONS_RUNTIME_TOKEN: identity.token, ACTIONS_RESULTS_URL: service.url, GITHUB_JOB: 'patchloop' },
  });
  cleanups.push(r.cleanup);
  const transcript = r.outputs['transcript-path']
    ? parseTranscript(readFileSync(r.outputs['transcript-path'], 'utf8'))
    : undefined;
  return { r, model, transcript, trigger };
}

type WireBody = {
  tools?: { name: string }[];
  system?: unknown;
  messages: { role: string; content: unknown }[];
};
const toolNames = (model: FakeProviderServer) =>
  ((model.requests[0]!.body as WireBody).tools ?? []).map((t) => t.name).sort();
const summaryOf = (runId: number) =>
  gh.issueComments.find(
    (c) => c.user.login === ACTIONS_BOT.login && readSessionMarker(c.body)?.runId === String(runId),
  );

async function planRun(issue: IssueLike, o: { body?: string; inputs?: Record<string, string> } = {}) {
  const plan = await job({
    runId: 8001,
    issue,
    body: o.body ?? '/patchloop plan fix the division by zero',
    author: 'alice',
    turns: PLANNING,
    ...(o.inputs ? { inputs: o.inputs } : {}),
  });
  expect(plan.r.code, plan.r.stderr.slice(-3000)).toBe(0);
  expect(plan.r.outputs.conclusion).toBe('planned');
  return plan;
}

function newIssue(): IssueLike {
  const i = gh.addIssue({ title: TITLE, body: 'div(1, 0) should be 0' });
  return { number: i.number, title: TITLE, body: i.body };
}

describe('plan → approve → execute', () => {
  it('plans with read-only tools, delivers nothing, and an approval by a maintainer carries the plan out and is recorded', async () => {
    const issue = newIssue();
    const plan = await planRun(issue);
    // read-only tools only; the write the model tried is refused as an unknown tool
    expect(toolNames(plan.model)).toEqual(['find_files', 'grep', 'list_dir', 'read_file']);
    const refused = plan.transcript!.messages.find(
      (m) => m.role === 'toolResult' && m.toolCallId === 'toolu_plan_write',
    );
    expect(refused).toMatchObject({ isError: true });
    // nothing pushed, no PR, no branch output; the summary is the plan, with how to approve it
    expect(plan.r.outputs.branch ?? '').toBe('');
    expect(plan.r.outputs['pr-number'] ?? '').toBe('');
    expect(git(repo.origin, 'branch', '--list', 'patchloop/*')).toBe('');
    const planComment = summaryOf(8001)!;
    expect(planComment.body).toContain('📋 **patchloop: plan ready**');
    expect(planComment.body).toContain(PLAN);
    expect(planComment.body).toContain('/patchloop approve');
    expect(readSessionMarker(planComment.body)).toMatchObject({ planned: true });
    expect(readFileSync(`${repo.work}/src/math.js`, 'utf8')).toBe('export const div = (a, b) => a / b;\n');

    const approve = await job({
      runId: 8002,
      issue,
      body: '/patchloop approve',
      author: 'maria',
      turns: EXECUTING,
    });
    expect(approve.r.code, approve.r.stderr.slice(-3000)).toBe(0);
    expect(approve.r.outputs.conclusion).toBe('success');
    // the same session, now with the write tools; the model is told who approved
    expect(toolNames(approve.model)).toEqual(expect.arrayContaining(['edit_file', 'write_file']));
    const sent = JSON.stringify((approve.model.requests[0]!.body as WireBody).messages);
    expect(sent).toContain(PLAN);
    expect(sent).toContain('@maria approved the plan above');
    // delivered: the branch on origin holds the change, a PR is open
    const branch = approve.r.outputs.branch!;
    expect(git(repo.origin, 'show', `${branch}:src/math.js`)).toContain('b === 0 ? 0 : a / b');
    expect(approve.r.outputs['pr-number']).toMatch(/^\d+$/);
    // the approval is in the transcript (who, when, which plan) and in the summary
    const approval = approve.transcript!.events.find((e) => e.event === 'approval') as Record<
      string,
      unknown
    >;
    expect(approval).toMatchObject({
      by: 'maria',
      plan: { runId: '8001', sessionId: expect.stringMatching(/^8001-/), commentUrl: planComment.html_url },
    });
    expect(typeof approval.at).toBe('string');
    // (a mention in a summary is defused so that it notifies nobody)
    expect(summaryOf(8002)!.body).toMatch(/Plan approved by @\S*maria at /);
  }, 150_000);

  it('anything else said after a plan amends it: still read-only, still planned', async () => {
    const issue = newIssue();
    await planRun(issue);
    const amend = await job({
      runId: 8003,
      issue,
      body: '/patchloop also handle NaN',
      author: 'alice',
      turns: PLANNING,
    });
    expect(amend.r.code, amend.r.stderr.slice(-3000)).toBe(0);
    expect(amend.r.outputs.conclusion).toBe('planned');
    expect(toolNames(amend.model)).toEqual(['find_files', 'grep', 'list_dir', 'read_file']);
    // it continued the plan's session
    expect(JSON.stringify((amend.model.requests[0]!.body as WireBody).messages)).toContain(PLAN);
  }, 150_000);

  it('require-approval makes every write run a plan, and approve with no plan asks for one, with no model call', async () => {
    const issue = newIssue();
    const lone = await job({
      runId: 8004,
      issue,
      body: '/patchloop approve',
      author: 'alice',
      turns: EXECUTING,
    });
    expect(lone.r.outputs.conclusion).toBe('failure');
    expect(lone.model.requests).toHaveLength(0);
    expect(summaryOf(8004)!.body).toMatch(/no plan to approve here/);

    const plan = await planRun(issue, { body: '/patchloop fix it', inputs: { 'require-approval': 'true' } });
    expect(toolNames(plan.model)).toEqual(['find_files', 'grep', 'list_dir', 'read_file']);
  }, 150_000);

  it('an approval needs the required permission like any trigger', async () => {
    const issue = newIssue();
    await planRun(issue);
    const denied = await job({
      runId: 8005,
      issue,
      body: '/patchloop approve',
      author: 'rick',
      turns: EXECUTING,
    });
    expect(denied.r.outputs.conclusion).toBe('unauthorized');
    expect(denied.model.requests).toHaveLength(0);
    expect(git(repo.origin, 'branch', '--list', 'patchloop/*')).toBe('');
  }, 150_000);
});
