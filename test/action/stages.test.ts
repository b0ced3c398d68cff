// stage: agent and stage: deliver (CONTRACT §11) end to end: the bundled action runs twice as two
// jobs of one workflow run, sharing one artifact store (the official client uploads, the REST
// routes serve the zip), against the loopback GitHub and Anthropic servers, on real clones of a
// real bare origin. The agent job's token is read-only (the fake refuses and records any write but
// the tracking comment); the deliver job holds the write token and runs no agent.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readZip } from '../../src/github/follow-up/artifact-download.js';
import { planErrors, type DeliveryPlan } from '../../src/delivery/plan.js';
import { readSessionMarker, withoutMarkers } from '../../src/github/comment.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeArtifactService, type FakeArtifactService } from '../fakes/artifact-service.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { git, makeRepo, writeFiles, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { actionUnderTest } from '../hardening/attack-kit.js';
import { storedZip } from '../support/stored-zip.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const WRITE_TOKEN = 'ghs_faketoken';
const READ_TOKEN = 'ghs_readonly_agent_job';
const API_KEY = 'sk-ant-api03-stages-e2e-key-0123456789abcdef';
const RUN_ID = 8101;
const TITLE = 'div by zero returns Infinity';

const FIX: AnthropicTurn[] = [
  {
    toolCalls: [
      {
        id: 'toolu_edit',
        name: 'edit_file',
        json: JSON.stringify({ path: 'src/math.js', oldText: 'a / b', newText: '(b === 0 ? 0 : a / b)' }),
      },
    ],
    usage: { input: 600, output: 40 },
  },
  { text: 'Guarded div() against a zero divisor.', usage: { input: 700, output: 20 } },
];

let action: BuiltAction;
beforeAll(async () => {
  // PL_DEFENCE_OFF=delivery-… switches a check off in this bundle (test/hardening/attack-kit.ts)
  action = await actionUnderTest(buildAction);
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let service: FakeArtifactService;
let repo: RepoFixture;
const models: FakeProviderServer[] = [];
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  gh = await startFakeGitHub({ tokens: { [WRITE_TOKEN]: ACTIONS_BOT, [READ_TOKEN]: ACTIONS_BOT } });
  // contents: read, issues: write — the tracking comment is the one write the agent job may make
  gh.readOnlyToken(READ_TOKEN, [
    /^(POST \/repos\/octo\/demo\/issues\/\d+\/comments|PATCH \/repos\/octo\/demo\/issues\/comments\/\d+)$/,
  ]);
  gh.setPermission('alice', 'write');
  service = await startFakeArtifactService();
  service.mountOn(gh);
  repo = makeRepo({
    'package.json': '{ "name": "demo", "type": "module" }\n',
    'src/math.js': 'export const div = (a, b) => a / b;\n',
  });
  // As GitHub does, origin serves any commit it holds by its id (a fork PR's, a force-pushed
  // branch's), and the fake GitHub answers compare and branch requests from it with real git.
  git(repo.origin, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  gh.setOrigin(repo.origin);
});
afterEach(async () => {
  await gh.stop();
  await service.stop();
  for (const m of models.splice(0)) await m.close();
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

function originRefs(): string {
  return git(repo.origin, 'for-each-ref', '--format=%(refname) %(objectname)');
}

async function stageJob(o: {
  stage: 'agent' | 'deliver' | 'all';
  turns?: AnthropicTurn[];
  issue: { number: number; title: string; body: string | null; isPullRequest?: boolean };
  comment: { id: number; body: string };
  workspace: string;
  runId?: number;
  inputs?: Record<string, string>;
}) {
  const model = await startAnthropicServer((_req, i) => (o.turns ?? FIX)[i] ?? { text: 'Done.' });
  models.push(model);
  // a follow-up confirms the earlier run as one of this repository's workflow runs
  if (!gh.workflowRuns.has(o.runId ?? RUN_ID)) gh.addRun({ id: o.runId ?? RUN_ID });
  const identity = service.job({ runId: o.runId ?? RUN_ID, job: o.stage });
  const r = await runAction({
    script: action.path,
    workspace: o.workspace,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    runId: String(o.runId ?? RUN_ID),
    payload: issueComment({
      issue: o.issue,
      comment: { ...o.comment, author: { login: 'alice', id: 4242 } },
    }),
    inputs: {
      'github-token': o.stage === 'agent' ? READ_TOKEN : WRITE_TOKEN,
      // the deliver job is given no model key at all
      ...(o.stage !== 'deliver' ? { 'api-key': API_KEY, 'base-url': model.url } : {}),
      stage: o.stage,
      ...o.inputs,
    },
    env: { ACTIONS_RUNTIME_TOKEN: identity.token, ACTIONS_RESULTS_URL: service.url, GITHUB_JOB: o.stage },
  });
  cleanups.push(r.cleanup);
  return { r, model };
}

/** An issue with a trigger comment, and the agent job run on it. */
async function agentJob(o: { refusedComment?: boolean } = {}) {
  const issue = gh.addIssue({ title: TITLE, body: 'div(1, 0) should be 0' });
  const trigger = gh.addComment(issue.number, { body: '/patchloop please fix this', author: 'alice' });
  const refsBefore = originRefs();
  const ctx = {
    issue: { number: issue.number, title: TITLE, body: issue.body },
    comment: { id: trigger.id, body: trigger.body },
  };
  const agent = await stageJob({ stage: 'agent', ...ctx, workspace: repo.work });
  expect(agent.r.code, agent.r.stderr.slice(-3000)).toBe(0);
  // No write but the comment was even attempted with the read-only token; nothing reached origin.
  expect(gh.refusedWrites).toEqual(
    o.refusedComment ? [{ method: 'POST', path: `/repos/octo/demo/issues/${issue.number}/comments` }] : [],
  );
  expect(originRefs()).toBe(refsBefore);
  expect(gh.pulls.size).toBe(0);
  const name = agent.r.outputs['delivery-artifact']!;
  expect(name).toMatch(new RegExp(`^patchloop-delivery-${issue.number}-${RUN_ID}-1-agent`));
  return { issue, ctx, agent, name, refsBefore };
}

/** The follow-up's model: it makes NaN divisors give 0 too, on top of the first run's fix. */
const NAN_TURNS: AnthropicTurn[] = [
  {
    toolCalls: [
      {
        id: 'toolu_nan',
        name: 'edit_file',
        json: JSON.stringify({
          path: 'src/math.js',
          oldText: '(b === 0 ? 0 : a / b)',
          newText: '(b === 0 || Number.isNaN(b) ? 0 : a / b)',
        }),
      },
    ],
    usage: { input: 900, output: 40 },
  },
  { text: 'NaN divisors give 0 as well.', usage: { input: 1000, output: 20 } },
];

describe('stage: agent, then stage: deliver', () => {
  it('lands the fix as one job would: branch on origin, PR, the summary comment, outputs, a follow-up marker', async () => {
    const { issue, ctx, agent, name } = await agentJob();
    expect(agent.r.outputs.conclusion).toBe('success');
    // the agent stage's writes: only its tracking comment (created, then edited)
    const writes = gh.requests.filter(
      (q) => q.method !== 'GET' && String(q.headers.authorization ?? '').includes(READ_TOKEN),
    );
    expect(writes.map((q) => q.method).sort()).toEqual(expect.arrayContaining(['POST']));
    expect(writes.every((q) => /\/issues\/(\d+\/comments|comments\/\d+)$/.test(q.path))).toBe(true);
    expect(service.artifacts.some((a) => a.name === name && a.finalized)).toBe(true);

    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(0);
    expect(deliver.model.requests).toHaveLength(0);
    const out = deliver.r.outputs;
    expect(out).toMatchObject({ conclusion: 'success', 'pr-number': '2', model: agent.r.outputs.model });
    expect(out.branch).toMatch(/^patchloop\/issue-1-/);
    expect(out['commit-sha']).toBe(agent.r.outputs['commit-sha']);
    // the branch on origin holds exactly the agent's commit, on main
    expect(git(repo.origin, 'rev-parse', `refs/heads/${out.branch}`).trim()).toBe(out['commit-sha']);
    expect(git(repo.origin, 'rev-parse', `refs/heads/${out.branch}^`).trim()).toBe(
      git(repo.origin, 'rev-parse', 'refs/heads/main').trim(),
    );
    expect(git(repo.origin, 'show', `${out.branch}:src/math.js`)).toContain('b === 0 ? 0');
    const pr = gh.pulls.get(2)!;
    expect(pr).toMatchObject({ head: { ref: out.branch }, base: { ref: 'main' } });
    expect(pr.body).toContain(`Fixes #${issue.number}`);
    // one tracking comment: the agent stage's, edited by the deliver stage into the summary
    const bot = gh.issueComments.filter(
      (c) => c.issue_url.endsWith(`/issues/${issue.number}`) && c.user.login === ACTIONS_BOT.login,
    );
    expect(bot).toHaveLength(1);
    expect(out['comment-url']).toBe(bot[0]!.html_url);
    expect(bot[0]!.body).toContain('Guarded div() against a zero divisor.');
    expect(bot[0]!.body).toContain(`/pull/2`);
    // the marker a follow-up reads: this run, the agent's session, the branch, the transcript artifact
    const marker = readSessionMarker(bot[0]!.body);
    expect(marker).toMatchObject({ runId: String(RUN_ID), branch: out.branch });
    expect(marker!.artifactName).toMatch(/^patchloop-transcript-/);
    expect(service.artifacts.some((a) => a.name === marker!.artifactName && a.finalized)).toBe(true);
    expect(deliver.r.stepSummary).toContain('Guarded div()');
    // no secret of either job in the delivery artifact
    const zip = service.zipOf(service.artifacts.find((a) => a.name === name)!.id);
    const files = await readZip(zip, {
      only: ['manifest.json', 'commits.bundle', 'transcript.jsonl'],
      maxBytes: 64 << 20,
    });
    expect([...files.keys()].sort()).toEqual(['commits.bundle', 'manifest.json', 'transcript.jsonl']);
    for (const secret of [API_KEY, READ_TOKEN, WRITE_TOKEN]) {
      for (const [file, data] of files) expect(data.toString('latin1'), file).not.toContain(secret);
      expect(bot[0]!.body).not.toContain(secret);
      expect(pr.body ?? '').not.toContain(secret);
    }
  });

  it('a later run follows up on the two-stage session: its transcript, its branch, its PR', async () => {
    const { issue, ctx, agent } = await agentJob();
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stderr.slice(-3000)).toBe(0);
    const branch = deliver.r.outputs.branch!;
    const again = gh.addComment(issue.number, { body: '/patchloop also handle NaN', author: 'alice' });
    const next = await stageJob({
      stage: 'all',
      runId: RUN_ID + 1,
      issue: ctx.issue,
      comment: { id: again.id, body: again.body },
      workspace: repo.clone('next'),
      turns: NAN_TURNS,
    });
    expect(next.r.code, next.r.stderr.slice(-3000)).toBe(0);
    expect(next.r.outputs).toMatchObject({ conclusion: 'success', branch, 'pr-number': '2' });
    expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}^`)).toBe(agent.r.outputs['commit-sha']);
    // the first request carries the agent job's conversation
    const wire = JSON.stringify(next.model.requests[0]!.body);
    expect(wire).toContain('"tool_use_id":"toolu_edit"');
    expect(wire).toContain('Guarded div() against a zero divisor.');
    expect(gh.pulls.size).toBe(1);
  });

  it('without issues: write the agent job posts nothing, goes on, and the deliver job posts the summary', async () => {
    gh.readOnlyToken(READ_TOKEN, []);
    const { issue, ctx, agent } = await agentJob({ refusedComment: true });
    expect(agent.r.outputs.conclusion).toBe('success');
    expect(agent.r.stepSummary).toContain('Guarded div()');
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stderr.slice(-3000)).toBe(0);
    expect(deliver.r.outputs).toMatchObject({ conclusion: 'success', 'pr-number': '2' });
    const bot = gh.issueComments.filter(
      (c) => c.issue_url.endsWith(`/issues/${issue.number}`) && c.user.login === ACTIONS_BOT.login,
    );
    expect(bot).toHaveLength(1);
    expect(bot[0]!.body).toContain('/pull/2');
    expect(readSessionMarker(bot[0]!.body)).toMatchObject({ runId: String(RUN_ID) });
  });
});

// ---- altered artifacts ---------------------------------------------------------------------------

/** Replaces the delivery artifact between the jobs, as a compromised agent job could have uploaded it. */
async function alter(
  name: string,
  f: (manifest: Record<string, unknown>, entries: Map<string, Buffer>) => void,
) {
  const at = service.artifacts.findIndex((a) => a.name === name && a.finalized);
  const entries = await readZip(service.zipOf(service.artifacts[at]!.id), {
    only: ['manifest.json', 'commits.bundle', 'transcript.jsonl'],
    maxBytes: 64 << 20,
  });
  const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Record<string, unknown>;
  delete manifest.bundleSha256;
  f(manifest, entries);
  entries.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
  service.artifacts.splice(at, 1);
  service.seed({ runId: RUN_ID, job: 'agent', name, zip: storedZip(entries) });
}

/** A scratch clone of origin's main where `make` builds a commit; returns its bundle on `base` and its sha. */
function craft(make: (dir: string) => void, base?: string): { bundle: Buffer; head: string; base: string } {
  const dir = repo.clone(`craft-${Math.random().toString(36).slice(2)}`);
  const from = base ?? git(dir, 'rev-parse', 'HEAD').trim();
  make(dir);
  const head = git(dir, 'rev-parse', 'HEAD').trim();
  const tmp = mkdtempSync(join(tmpdir(), 'patchloop-bundle-'));
  git(dir, 'update-ref', 'refs/heads/crafted', head);
  git(dir, 'bundle', 'create', '--quiet', join(tmp, 'b'), `^${from}`, 'refs/heads/crafted');
  const bundle = readFileSync(join(tmp, 'b'));
  rmSync(tmp, { recursive: true, force: true });
  return { bundle, head, base: from };
}

function commitAll(dir: string, files: Record<string, string>): void {
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', 'crafted');
}

describe('a delivery artifact altered between the stages delivers nothing and says which check failed', () => {
  const cases: [string, string, (m: Record<string, unknown>, e: Map<string, Buffer>) => void][] = [
    [
      'a commit touching .github/workflows',
      'protected-paths',
      (m, e) => {
        const c = craft((d) => commitAll(d, { '.github/workflows/x.yml': 'on: push\njobs: {}\n' }));
        e.set('commits.bundle', c.bundle);
        m.headCommit = c.head;
      },
    ],
    [
      'a bundle on another base',
      'bundle on the recorded base',
      (m, e) => {
        // the bundle starts after the unpublished commit, which origin does not have
        const tmp = mkdtempSync(join(tmpdir(), 'patchloop-bundle-'));
        const dir = repo.clone(`other-${Math.random().toString(36).slice(2)}`);
        writeFiles(dir, { 'other.txt': 'an unpublished base\n' });
        git(dir, 'add', '-A');
        git(dir, 'commit', '--quiet', '-m', 'unpublished');
        const otherBase = git(dir, 'rev-parse', 'HEAD').trim();
        commitAll(dir, { 'src/math.js': 'export const div = () => 0;\n' });
        git(dir, 'update-ref', 'refs/heads/crafted', 'HEAD');
        git(dir, 'bundle', 'create', '--quiet', join(tmp, 'b'), `^${otherBase}`, 'refs/heads/crafted');
        e.set('commits.bundle', readFileSync(join(tmp, 'b')));
        m.headCommit = git(dir, 'rev-parse', 'HEAD').trim();
        rmSync(tmp, { recursive: true, force: true });
      },
    ],
    [
      'a manifest that names another run',
      'same run',
      (m) => {
        m.runId = '4242';
      },
    ],
    [
      'a path under .git',
      'no .git path',
      (m, e) => {
        const c = craft((d) => {
          // git add refuses such paths; a crafted tree does not
          const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
            cwd: d,
            input: '[core]\n\thooksPath = x\n',
          })
            .toString()
            .trim();
          const inner = execFileSync('git', ['mktree'], { cwd: d, input: `100644 blob ${blob}\tconfig\n` })
            .toString()
            .trim();
          const sub = execFileSync('git', ['mktree'], { cwd: d, input: `040000 tree ${inner}\t.GIT\n` })
            .toString()
            .trim();
          const root = `${git(d, 'ls-tree', 'HEAD')}\n040000 tree ${sub}\tvendor\n`;
          const tree = execFileSync('git', ['mktree'], { cwd: d, input: root }).toString().trim();
          const commit = execFileSync('git', ['commit-tree', tree, '-p', 'HEAD', '-m', 'crafted'], { cwd: d })
            .toString()
            .trim();
          git(d, 'reset', '--quiet', '--soft', commit);
        });
        e.set('commits.bundle', c.bundle);
        m.headCommit = c.head;
      },
    ],
    [
      'a symlink to /etc/passwd',
      'symlink inside the tree',
      (m, e) => {
        const c = craft((d) => {
          symlinkSync('/etc/passwd', join(d, 'leak'));
          git(d, 'add', '-A');
          git(d, 'commit', '--quiet', '-m', 'crafted');
        });
        e.set('commits.bundle', c.bundle);
        m.headCommit = c.head;
      },
    ],
  ];

  cases.push(
    [
      'a file over the size limit (11 MiB)',
      'size limit',
      (m, e) => {
        const c = craft((d) => commitAll(d, { 'assets/big.bin': 'x'.repeat(11 << 20) }));
        e.set('commits.bundle', c.bundle);
        m.headCommit = c.head;
      },
    ],
    [
      'a submodule entry added',
      'no submodule change',
      (m, e) => {
        const c = craft((d) => {
          const gitlink = git(d, 'rev-parse', 'HEAD').trim();
          git(d, 'update-index', '--add', '--cacheinfo', `160000,${gitlink},lib`);
          git(d, 'commit', '--quiet', '-m', 'crafted');
        });
        e.set('commits.bundle', c.bundle);
        m.headCommit = c.head;
      },
    ],
    [
      'a branch outside the branch prefix',
      'branch',
      (m) => {
        m.branch = 'release/1.0';
      },
    ],
    [
      'the default branch as the branch',
      'branch',
      (m) => {
        m.branch = 'main';
      },
    ],
  );

  for (const [what, check, change] of cases) {
    it(`${what} → check "${check}"`, async () => {
      const { issue, ctx, name, refsBefore } = await agentJob();
      await alter(name, change);
      const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
      expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(1);
      expect(deliver.r.outputs.conclusion).toBe('failure');
      expect(originRefs()).toBe(refsBefore);
      expect(gh.pulls.size).toBe(0);
      expect(deliver.r.stepSummary, deliver.r.stepSummary).toContain(
        `The delivery check **${check}** failed`,
      );
      expect(deliver.r.stdout).toContain(`delivery check "${check}" failed`);
      // the comment says it too
      const said = gh.issueComments.filter(
        (c) => c.issue_url.endsWith(`/issues/${issue.number}`) && c.body.includes(`**${check}**`),
      );
      expect(said.length).toBeGreaterThan(0);
    });
  }
});

describe('an artifact of another run', () => {
  it('this run has no delivery artifact, another run of the workflow has one: nothing is delivered, and the check says so', async () => {
    const { issue, ctx, name, refsBefore } = await agentJob();
    // the artifact, untouched, moved to run 4242 (as if that run had uploaded it)
    const at = service.artifacts.findIndex((a) => a.name === name && a.finalized);
    const zip = service.zipOf(service.artifacts[at]!.id);
    service.artifacts.splice(at, 1);
    service.seed({ runId: 4242, job: 'agent', name: name.replace(`-${RUN_ID}-`, '-4242-'), zip });
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(1);
    expect(originRefs()).toBe(refsBefore);
    expect(gh.pulls.size).toBe(0);
    expect(deliver.r.stepSummary).toContain('The delivery check **artifact of this run** failed');
    expect(
      gh.issueComments.some(
        (c) => c.issue_url.endsWith(`/issues/${issue.number}`) && c.body.includes('**artifact of this run**'),
      ),
    ).toBe(true);
  });
});

describe('a same-repository pull request across the stages', () => {
  async function onPull() {
    const headSha = repo.pushToOrigin('feature/div', { 'notes.md': 'feature work\n' });
    const pull = gh.addPull({ title: 'Add division', head: 'feature/div', headSha });
    const c = gh.addComment(pull.number, { body: '/patchloop fix the zero case', author: 'alice' });
    const ctx = {
      issue: { number: pull.number, title: pull.title, body: null, isPullRequest: true },
      comment: { id: c.id, body: c.body },
    };
    const refsBefore = originRefs();
    const agent = await stageJob({ stage: 'agent', ...ctx, workspace: repo.clone('agent') });
    expect(agent.r.code, agent.r.stderr.slice(-3000)).toBe(0);
    expect(gh.refusedWrites).toEqual([]);
    expect(originRefs()).toBe(refsBefore);
    return { headSha, ctx, refsBefore };
  }

  it('the deliver job commits onto the PR’s own head branch and opens no PR', async () => {
    const { headSha, ctx } = await onPull();
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stderr.slice(-3000)).toBe(0);
    expect(deliver.r.outputs).toMatchObject({
      conclusion: 'success',
      branch: 'feature/div',
      'pr-number': '',
    });
    expect(git(repo.origin, 'rev-parse', 'feature/div^')).toBe(headSha);
    expect(git(repo.origin, 'show', 'feature/div:src/math.js')).toContain('b === 0');
    expect(gh.requestsTo('POST', /\/pulls$/)).toHaveLength(0);
  });

  it('a head branch protected since the agent job ran is not pushed to', async () => {
    const { ctx, refsBefore } = await onPull();
    gh.protectedBranches.add('feature/div');
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code).toBe(1);
    expect(originRefs()).toBe(refsBefore);
    expect(deliver.r.stepSummary).toContain('The delivery check **branch** failed');
    expect(deliver.r.stepSummary).toContain('is protected');
  });
});

// ---- the recorded base, fetched from origin by the deliver job -----------------------------------

describe('the deliver job and the recorded base on origin', () => {
  /** A checkout as actions/checkout leaves it by default: one commit deep, of origin's main now. */
  function shallowClone(name: string): string {
    const dir = join(repo.root, name);
    git(repo.root, 'clone', '--quiet', '--depth', '1', `file://${repo.origin}`, dir);
    return dir;
  }

  it('main moved on origin since the agent job and the deliver checkout is shallow: the base is fetched from origin and the work lands on it, not on the new main', async () => {
    const base = git(repo.origin, 'rev-parse', 'refs/heads/main').trim();
    const { ctx, agent } = await agentJob();
    const moved = repo.pushToOrigin('main', { 'README.md': 'moved on after the agent job\n' });
    const work = shallowClone('deliver-shallow');
    // the deliver checkout lacks the recorded base: only a fetch from origin brings it
    expect(() => git(work, 'cat-file', '-e', `${base}^{commit}`)).toThrow();
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: work });
    expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(0);
    const branch = deliver.r.outputs.branch!;
    expect(deliver.r.outputs['commit-sha']).toBe(agent.r.outputs['commit-sha']);
    expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}^`).trim()).toBe(base);
    // origin's main is left as it moved; the PR proposes the work to it
    expect(git(repo.origin, 'rev-parse', 'refs/heads/main').trim()).toBe(moved);
    expect(gh.pulls.get(2)).toMatchObject({ head: { ref: branch }, base: { ref: 'main' } });
  });

  it('a recorded base that origin does not have (a bundle on an unpublished commit, the manifest naming it): nothing is pushed, and the check says the base is neither in the checkout nor on origin', async () => {
    const { issue, ctx, name, refsBefore } = await agentJob();
    await alter(name, (m, e) => {
      const dir = repo.clone(`unpublished-${Math.random().toString(36).slice(2)}`);
      commitAll(dir, { 'other.txt': 'an unpublished base\n' });
      const unpublished = git(dir, 'rev-parse', 'HEAD').trim();
      commitAll(dir, { 'src/math.js': 'export const div = () => 0;\n' });
      const tmp = mkdtempSync(join(tmpdir(), 'patchloop-bundle-'));
      git(dir, 'update-ref', 'refs/heads/crafted', 'HEAD');
      git(dir, 'bundle', 'create', '--quiet', join(tmp, 'b'), `^${unpublished}`, 'refs/heads/crafted');
      e.set('commits.bundle', readFileSync(join(tmp, 'b')));
      rmSync(tmp, { recursive: true, force: true });
      m.baseCommit = unpublished;
      m.headCommit = git(dir, 'rev-parse', 'HEAD').trim();
    });
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: shallowClone('deliver-missing') });
    expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(1);
    expect(originRefs()).toBe(refsBefore);
    expect(gh.pulls.size).toBe(0);
    expect(deliver.r.stepSummary).toContain('The delivery check **bundle on the recorded base** failed');
    expect(deliver.r.stepSummary).toMatch(
      /the base commit [0-9a-f]{40} is neither in this checkout nor on origin/,
    );
    expect(
      gh.issueComments.some(
        (c) =>
          c.issue_url.endsWith(`/issues/${issue.number}`) &&
          c.body.includes('neither in this checkout nor on origin'),
      ),
    ).toBe(true);
  });

  /** What every refused delivery shows: nothing pushed, no PR, the check named in the summary, the log and the comment. */
  function refusedBy(
    deliver: Awaited<ReturnType<typeof stageJob>>,
    issue: number,
    refsBefore: string,
    check: string,
  ) {
    expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(1);
    expect(deliver.r.outputs.conclusion).toBe('failure');
    expect(originRefs()).toBe(refsBefore);
    expect(gh.pulls.size).toBe(0);
    expect(deliver.r.stepSummary).toContain(`The delivery check **${check}** failed`);
    expect(deliver.r.stdout).toContain(`delivery check "${check}" failed`);
    expect(
      gh.issueComments.some(
        (c) => c.issue_url.endsWith(`/issues/${issue}`) && c.body.includes(`**${check}**`),
      ),
    ).toBe(true);
  }

  // The switch `delivery-base-on-branch` (PL_DEFENCE_OFF, attack-kit.ts) turns the check off; these
  // tests then fail: the deliver job pushes the history it was given and exits 0.
  it('main force-pushed to an unrelated history after the agent job: the recorded base is on no branch any more (origin still serves it by id); nothing is delivered and the check "base on a branch" says which commit and branches', async () => {
    const { issue, ctx, agent } = await agentJob();
    const base = git(repo.origin, 'rev-parse', 'refs/heads/main').trim();
    const lone = repo.clone('rewrite');
    git(lone, 'checkout', '--quiet', '--orphan', 'rewritten');
    writeFiles(lone, { 'README.md': 'a new history\n' });
    git(lone, 'add', '-A');
    git(lone, 'commit', '--quiet', '-m', 'rewritten');
    git(lone, 'push', '--quiet', '--force', 'origin', 'HEAD:refs/heads/main');
    const refsBefore = originRefs();
    // the old base is unreachable from every ref, yet served by its id
    expect(git(repo.origin, 'cat-file', '-t', base).trim()).toBe('commit');
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    refusedBy(deliver, issue.number, refsBefore, 'base on a branch');
    expect(deliver.r.stepSummary).toContain(
      `the recorded base ${base} is not a commit this run could have started from`,
    );
    expect(deliver.r.stepSummary).toContain('`main` (the branch a pull request would merge into)');
    expect(deliver.r.stepSummary).toMatch(/No common ancestor/);
    expect(agent.r.outputs['commit-sha']).toBeTruthy();
  });

  /** A base that carries `.github/workflows/x.yml`, with the agent's kind of change on top; `place` puts the base on origin. */
  function evilBase(place: (dir: string) => void) {
    return (m: Record<string, unknown>, e: Map<string, Buffer>) => {
      const dir = repo.clone(`evil-${Math.random().toString(36).slice(2)}`);
      commitAll(dir, {
        '.github/workflows/x.yml':
          'on: push\njobs: { steal: { runs-on: ubuntu-latest, steps: [ { run: env } ] } }\n',
      });
      const evil = git(dir, 'rev-parse', 'HEAD').trim();
      place(dir);
      commitAll(dir, { 'src/math.js': 'export const div = (a, b) => (b === 0 ? 0 : a / b);\n' });
      const tmp = mkdtempSync(join(tmpdir(), 'patchloop-bundle-'));
      git(dir, 'update-ref', 'refs/heads/crafted', 'HEAD');
      git(dir, 'bundle', 'create', '--quiet', join(tmp, 'b'), `^${evil}`, 'refs/heads/crafted');
      e.set('commits.bundle', readFileSync(join(tmp, 'b')));
      rmSync(tmp, { recursive: true, force: true });
      m.baseCommit = evil;
      m.headCommit = git(dir, 'rev-parse', 'HEAD').trim();
    };
  }

  const elsewhere: [string, (dir: string) => void][] = [
    // GitHub keeps a fork PR's commits under refs/pull/N/head and serves them by id
    [
      "a fork pull request's commit (refs/pull/77/head, on no branch)",
      (d) => git(d, 'push', '--quiet', 'origin', 'HEAD:refs/pull/77/head'),
    ],
    [
      'a commit of another branch of origin (`experiments`)',
      (d) => git(d, 'push', '--quiet', 'origin', 'HEAD:refs/heads/experiments'),
    ],
  ];
  for (const [what, place] of elsewhere) {
    it(`a recorded base that is ${what} carrying .github/workflows/x.yml, the commits after it clean: nothing is delivered (check "base on a branch")`, async () => {
      const { issue, ctx, name } = await agentJob();
      await alter(name, evilBase(place));
      const refsBefore = originRefs();
      const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: shallowClone('deliver-evil') });
      refusedBy(deliver, issue.number, refsBefore, 'base on a branch');
      expect(deliver.r.stepSummary).toMatch(
        /`main` \(the branch a pull request would merge into\) at [0-9a-f]{12}: behind/,
      );
      expect(deliver.r.stepSummary).toMatch(
        /`patchloop\/issue-\d+-[^`]*` \(the branch the commits go to\): no such branch on origin/,
      );
      // no branch of origin carries the workflow
      for (const ref of originRefs()
        .split('\n')
        .filter((l) => l.startsWith('refs/heads/') && !l.startsWith('refs/heads/experiments ')))
        expect(() =>
          git(repo.origin, 'cat-file', '-e', `${ref.split(' ')[1]}:.github/workflows/x.yml`),
        ).toThrow();
    });
  }

  it('GitHub refusing the compare (403): nothing is delivered, and the refusal names the permission to add', async () => {
    const { issue, ctx } = await agentJob();
    // main moved on: the base is its parent, which only the compare can show
    repo.pushToOrigin('main', { 'README.md': 'moved on\n' });
    gh.fail({
      method: 'GET',
      path: /\/compare\//,
      status: 403,
      times: Infinity,
      body: { message: 'Resource not accessible by integration' },
    });
    const refsBefore = originRefs();
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    refusedBy(deliver, issue.number, refsBefore, 'base on a branch');
    expect(deliver.r.stepSummary).toContain('GitHub answered 403 (Resource not accessible by integration)');
    expect(deliver.r.stepSummary).toContain('`contents: read`');
  });
});

describe('a follow-up through both stages', () => {
  it('the second agent job starts from the first run’s branch (ahead of main): its base is accepted on that branch, and the deliver job lands the follow-up there', async () => {
    const { issue, ctx } = await agentJob();
    const first = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(first.r.code, first.r.stdout.slice(-3000)).toBe(0);
    const branch = first.r.outputs.branch!;
    const tip = git(repo.origin, 'rev-parse', `refs/heads/${branch}`).trim();
    const again = gh.addComment(issue.number, { body: '/patchloop also handle NaN', author: 'alice' });
    const next = {
      issue: ctx.issue,
      comment: { id: again.id, body: again.body },
      runId: RUN_ID + 1,
      turns: NAN_TURNS,
    };
    const agent2 = await stageJob({ stage: 'agent', ...next, workspace: repo.clone('agent-2') });
    expect(agent2.r.code, agent2.r.stderr.slice(-3000)).toBe(0);
    const deliver2 = await stageJob({ stage: 'deliver', ...next, workspace: repo.clone('deliver-2') });
    expect(deliver2.r.code, deliver2.r.stdout.slice(-3000)).toBe(0);
    expect(deliver2.r.outputs).toMatchObject({ conclusion: 'success', branch, 'pr-number': '2' });
    expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}^`).trim()).toBe(tip);
    expect(git(repo.origin, 'show', `${branch}:src/math.js`)).toContain('Number.isNaN(b)');
    expect(deliver2.r.stdout).toContain(
      `the recorded base ${tip.slice(0, 12)} is on \`${branch}\` (the branch the commits go to)`,
    );
  });
});

// ---- every ending delivers what it kept; reviews and answers through both stages (issue 37) ----

describe('every ending of the agent job is delivered', () => {
  it('a two-stage run stopped by its budget delivers: the agent job fails after its upload, the example’s deliver job still runs, and pushes the commit', async () => {
    // the example runs the deliver job after any ending of the agent job but a skip
    const example = readFileSync(join(import.meta.dirname, '../../examples/workflows/two-stage.yml'), 'utf8');
    const deliverJob = example.slice(example.indexOf('\n  deliver:'));
    expect(deliverJob).toMatch(/\n {4}if: always\(\) && needs\.agent\.result != 'skipped'\n/);

    const issue = gh.addIssue({ title: TITLE, body: 'div(1, 0) should be 0' });
    const trigger = gh.addComment(issue.number, { body: '/patchloop please fix this', author: 'alice' });
    const ctx = {
      issue: { number: issue.number, title: TITLE, body: issue.body },
      comment: { id: trigger.id, body: trigger.body },
    };
    // one turn: the edit is made, then the turn budget ends the run before the model's answer
    const agent = await stageJob({
      stage: 'agent',
      ...ctx,
      workspace: repo.work,
      inputs: { 'max-turns': '1' },
    });
    expect(agent.r.outputs.conclusion).toBe('budget-exceeded');
    expect(agent.r.code).toBe(1);
    expect(agent.r.outputs['delivery-artifact']).toMatch(/^patchloop-delivery-/);
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    const out = deliver.r.outputs;
    expect(out.conclusion).toBe('budget-exceeded');
    expect(out.branch).toMatch(/^patchloop\/issue-1-/);
    expect(git(repo.origin, 'rev-parse', `refs/heads/${out.branch}`).trim()).toBe(
      agent.r.outputs['commit-sha'],
    );
    expect(git(repo.origin, 'show', `${out.branch}:src/math.js`)).toContain('b === 0 ? 0');
    const bot = gh.issueComments.filter((c) => c.user.login === ACTIONS_BOT.login);
    expect(bot).toHaveLength(1);
    expect(bot[0]!.body).toContain(out.branch!);
  });
});

describe('a review and a structured answer through both stages', () => {
  it('a review in two stages is posted by the deliver job, with review-url set; the agent job posts none', async () => {
    repo.pushToOrigin('feature/div', {
      'src/math.js': 'export const div = (a, b) => (b == 0 ? 0 : a / b);\n',
    });
    const headSha = git(repo.origin, 'rev-parse', 'refs/heads/feature/div').trim();
    const pull = gh.addPull({ title: 'Guard div', head: 'feature/div', headSha });
    const patch =
      '@@ -1 +1 @@\n-export const div = (a, b) => a / b;\n+export const div = (a, b) => (b == 0 ? 0 : a / b);';
    gh.setPullFiles(pull.number, [
      { filename: 'src/math.js', status: 'modified', additions: 1, deletions: 1, patch },
    ]);
    const c = gh.addComment(pull.number, { body: '/patchloop review this please', author: 'alice' });
    const ctx = {
      issue: { number: pull.number, title: pull.title, body: null, isPullRequest: true },
      comment: { id: c.id, body: c.body },
    };
    const turns: AnthropicTurn[] = [
      {
        toolCalls: [
          {
            id: 'toolu_rc',
            name: 'add_review_comment',
            json: JSON.stringify({ path: 'src/math.js', line: 1, body: 'Use a strict comparison.' }),
          },
        ],
      },
      { text: 'Looks right; one nit.' },
    ];
    const agent = await stageJob({ stage: 'agent', ...ctx, workspace: repo.clone('agent'), turns });
    expect(agent.r.code, agent.r.stdout.slice(-2000)).toBe(0);
    expect(gh.refusedWrites).toEqual([]);
    expect(gh.reviews.filter((x) => x.pull_request_url.endsWith(`/pulls/${pull.number}`))).toHaveLength(0);
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stdout.slice(-2000)).toBe(0);
    const reviews = gh.reviews.filter((x) => x.pull_request_url.endsWith(`/pulls/${pull.number}`));
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.body).toContain('Looks right; one nit.');
    expect(deliver.r.outputs['review-url']).toBe(reviews[0]!.html_url);
    expect(gh.reviewComments.filter((x) => x.body.includes('Use a strict comparison.'))).toHaveLength(1);
    expect(deliver.r.outputs.branch).toBe('');
  });

  it('a structured answer in two stages sets structured-output in the deliver job', async () => {
    const issue = gh.addIssue({ title: 'triage me', body: 'What kind of issue is this?' });
    const c = gh.addComment(issue.number, { body: '/patchloop triage', author: 'alice' });
    const ctx = {
      issue: { number: issue.number, title: issue.title, body: issue.body },
      comment: { id: c.id, body: c.body },
    };
    const schema = JSON.stringify({
      type: 'object',
      properties: { kind: { enum: ['bug', 'feature'] } },
      required: ['kind'],
    });
    const turns: AnthropicTurn[] = [
      {
        toolCalls: [
          { id: 'toolu_a', name: 'submit_answer', json: JSON.stringify({ answer: { kind: 'bug' } }) },
        ],
      },
      { text: 'It is a bug.' },
    ];
    const agent = await stageJob({
      stage: 'agent',
      ...ctx,
      workspace: repo.work,
      turns,
      inputs: { 'output-schema': schema },
    });
    expect(agent.r.code, agent.r.stdout.slice(-2000)).toBe(0);
    const deliver = await stageJob({
      stage: 'deliver',
      ...ctx,
      workspace: repo.clone('deliver'),
      inputs: { 'output-schema': schema },
    });
    expect(deliver.r.code, deliver.r.stdout.slice(-2000)).toBe(0);
    expect(JSON.parse(deliver.r.outputs['structured-output']!)).toEqual({ kind: 'bug' });
  });
});

describe('green only when delivered', () => {
  it('GitHub accepts the PR but reports another head: the deliver job fails and says which part did not land, and what was pushed', async () => {
    const { ctx } = await agentJob();
    gh.override('GET', /\/pulls\/\d+$/, () => ({
      status: 200,
      body: {
        number: 2,
        head: { ref: 'someone/else', sha: 'f'.repeat(40), repo: { full_name: 'octo/demo' } },
      },
    }));
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code).toBe(1);
    expect(deliver.r.outputs.conclusion).toBe('failure');
    const bot = gh.issueComments.filter((c) => c.user.login === ACTIONS_BOT.login);
    expect(bot[0]!.body).toContain('pull request #2 points at');
    expect(bot[0]!.body).toMatch(/was pushed to/);
    expect(bot[0]!.body).not.toContain('delivered nothing');
  });

  it('the push is lost on origin (a hook puts the branch back): the deliver job fails and names the branch', async () => {
    const { ctx } = await agentJob();
    // origin accepts the push, then deletes the branch again
    const hook = join(repo.origin, 'hooks', 'post-receive');
    writeFileSync(hook, '#!/bin/sh\nwhile read old new ref; do git update-ref -d "$ref"; done\n');
    chmodSync(hook, 0o755);
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code).toBe(1);
    expect(deliver.r.outputs.conclusion).toBe('failure');
    expect(deliver.r.stepSummary).toMatch(/is not on origin although the push reported it/);
  });
});

// ---- one publishing path; follow-ups across the stages (issue 37) --------------------------------

/** The lines of the transcript in the finalized artifact whose name starts with `prefix`. */
async function transcriptOf(prefix: string): Promise<Record<string, unknown>[]> {
  const a = service.artifacts.find((x) => x.name.startsWith(prefix) && x.finalized);
  expect(a, `no artifact ${prefix}… among ${service.artifacts.map((x) => x.name).join(', ')}`).toBeDefined();
  const files = await readZip(service.zipOf(a!.id), { only: ['transcript.jsonl'], maxBytes: 64 << 20 });
  return files
    .get('transcript.jsonl')!
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('stage: all ends in the same delivery plan and applies it', () => {
  it('the plan recorded in the transcript is a valid plan, and what landed on GitHub is what it says: the commit, the PR’s title, body and draft, the outputs', async () => {
    const issue = gh.addIssue({ title: TITLE, body: 'div(1, 0) should be 0' });
    const c = gh.addComment(issue.number, { body: '/patchloop please fix this', author: 'alice' });
    const all = await stageJob({
      stage: 'all',
      issue: { number: issue.number, title: TITLE, body: issue.body },
      comment: { id: c.id, body: c.body },
      workspace: repo.work,
    });
    expect(all.r.code, all.r.stdout.slice(-3000)).toBe(0);
    const lines = await transcriptOf(`patchloop-transcript-${issue.number}-`);
    const recorded = lines.filter((l) => l.type === 'event' && l.event === 'delivery-plan');
    expect(recorded).toHaveLength(1);
    const plan = recorded[0]!.plan as DeliveryPlan;
    // the value stage: deliver would read, valid against the same schema
    expect(planErrors(plan)).toBeUndefined();
    // the events of its apply follow it: the push, then the PR
    const at = (e: string) => lines.findIndex((l) => l.event === e);
    expect(at('delivery-plan')).toBeGreaterThan(at('commit'));
    expect(at('push')).toBeGreaterThan(at('delivery-plan'));
    expect(at('pull-request')).toBeGreaterThan(at('push'));
    const out = all.r.outputs;
    expect(out['commit-sha']).toBe(plan.headCommit);
    expect(git(repo.origin, 'rev-parse', `refs/heads/${plan.branch}`).trim()).toBe(plan.headCommit);
    expect(git(repo.origin, 'rev-parse', `refs/heads/${plan.branch}^`).trim()).toBe(plan.baseCommit);
    const pr = gh.pulls.get(Number(out['pr-number']))!;
    expect(pr.title).toBe(plan.prTitle);
    expect(Boolean(pr.draft)).toBe(plan.draft);
    expect(pr.base.ref).toBe(plan.prBase);
    expect(withoutMarkers(pr.body ?? '')).toBe(withoutMarkers(plan.prBody));
    expect(out.conclusion).toBe(plan.outputs.conclusion);
    expect(out.model).toBe(plan.outputs.model);
    // the summary comment is the plan's tracking comment, carrying the marker of the plan's session
    const bot = gh.issueComments.filter((x) => x.user.login === ACTIONS_BOT.login);
    expect(bot.map((x) => x.id)).toEqual([plan.commentId]);
    expect(readSessionMarker(bot[0]!.body)).toMatchObject({
      sessionId: plan.marker.sessionId,
      branch: plan.branch,
    });
  });
});

describe('follow-ups across the stages continue the session (issue 37)', () => {
  it('a follow-up comment on the PR the deliver job opened continues the agent job’s session, in two stages again: the PR body names the deliver job’s transcript, which records that PR', async () => {
    const { ctx, agent } = await agentJob();
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(0);
    const branch = deliver.r.outputs.branch!;
    const pr = gh.pulls.get(2)!;
    expect(pr.user.login).toBe(ACTIONS_BOT.login);
    const marker = readSessionMarker(pr.body)!;
    expect(marker).toMatchObject({ runId: String(RUN_ID), branch });
    // the deliver job's own transcript artifact: the agent job's conversation and the PR it opened
    expect(marker.artifactName).toMatch(new RegExp(`^patchloop-transcript-1-${RUN_ID}-1-deliver`));
    const lines = await transcriptOf(marker.artifactName!);
    expect(lines.some((l) => l.event === 'pull-request' && l.number === 2)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', conclusion: 'success', branch });

    const again = gh.addComment(2, { body: '/patchloop also handle NaN', author: 'alice' });
    const next = {
      issue: { number: 2, title: pr.title, body: pr.body, isPullRequest: true },
      comment: { id: again.id, body: again.body },
      runId: RUN_ID + 1,
      turns: NAN_TURNS,
    };
    const agent2 = await stageJob({ stage: 'agent', ...next, workspace: repo.clone('agent-2') });
    expect(agent2.r.code, agent2.r.stdout.slice(-3000)).toBe(0);
    // the first request carries the first agent job's conversation, not its summary
    const wire = JSON.stringify(agent2.model.requests[0]!.body);
    expect(wire).toContain('"tool_use_id":"toolu_edit"');
    expect(wire).toContain('Guarded div() against a zero divisor.');
    expect(agent2.r.stdout).not.toMatch(/could not be had|was not used/);
    const deliver2 = await stageJob({ stage: 'deliver', ...next, workspace: repo.clone('deliver-2') });
    expect(deliver2.r.code, deliver2.r.stdout.slice(-3000)).toBe(0);
    expect(deliver2.r.outputs).toMatchObject({ conclusion: 'success', branch });
    expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}^`).trim()).toBe(agent.r.outputs['commit-sha']);
    expect(git(repo.origin, 'show', `${branch}:src/math.js`)).toContain('Number.isNaN(b)');
    expect(gh.pulls.size).toBe(1);
  }, 300_000);

  it('agent jobs without issues: write: the deliver job posts the summary comment with the marker first, its transcript names it, and the next two-stage run continues the session on the same branch and PR', async () => {
    gh.readOnlyToken(READ_TOKEN, []);
    const { issue, ctx, agent } = await agentJob({ refusedComment: true });
    const deliver = await stageJob({ stage: 'deliver', ...ctx, workspace: repo.clone('deliver') });
    expect(deliver.r.code, deliver.r.stdout.slice(-3000)).toBe(0);
    const branch = deliver.r.outputs.branch!;
    const bot = gh.issueComments.filter(
      (c) => c.issue_url.endsWith(`/issues/${issue.number}`) && c.user.login === ACTIONS_BOT.login,
    );
    expect(bot).toHaveLength(1);
    const marker = readSessionMarker(bot[0]!.body)!;
    expect(marker).toMatchObject({ runId: String(RUN_ID), branch });
    const lines = await transcriptOf(marker.artifactName!);
    expect(lines.some((l) => l.event === 'comment' && l.id === bot[0]!.id)).toBe(true);

    const again = gh.addComment(issue.number, { body: '/patchloop also handle NaN', author: 'alice' });
    const next = {
      issue: ctx.issue,
      comment: { id: again.id, body: again.body },
      runId: RUN_ID + 1,
      turns: NAN_TURNS,
    };
    const agent2 = await stageJob({ stage: 'agent', ...next, workspace: repo.clone('agent-2') });
    expect(agent2.r.code, agent2.r.stdout.slice(-3000)).toBe(0);
    const wire = JSON.stringify(agent2.model.requests[0]!.body);
    expect(wire).toContain('"tool_use_id":"toolu_edit"');
    expect(wire).toContain('Guarded div() against a zero divisor.');
    expect(agent2.r.stdout).not.toMatch(/could not be had|was not used/);
    const deliver2 = await stageJob({ stage: 'deliver', ...next, workspace: repo.clone('deliver-2') });
    expect(deliver2.r.code, deliver2.r.stdout.slice(-3000)).toBe(0);
    expect(deliver2.r.outputs).toMatchObject({ conclusion: 'success', branch, 'pr-number': '2' });
    expect(git(repo.origin, 'rev-parse', `refs/heads/${branch}^`).trim()).toBe(agent.r.outputs['commit-sha']);
    expect(gh.pulls.size).toBe(1);
    // each run still posts its own summary
    expect(
      gh.issueComments.filter(
        (c) => c.issue_url.endsWith(`/issues/${issue.number}`) && c.user.login === ACTIONS_BOT.login,
      ),
    ).toHaveLength(2);
  }, 300_000);
});
