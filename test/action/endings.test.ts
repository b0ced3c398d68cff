// Every ending keeps the work and the record: the bundled action, run as the runner runs it against
// the loopback GitHub, Anthropic and artifact fakes and a real clone with a bare origin, is
// cancelled the way the runner cancels (SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after that),
// or meets an error after the agent ran; the branch, the artifact and the summary survive.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readZip } from '../../src/github/follow-up/artifact-download.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeArtifactService, type FakeArtifactService } from '../fakes/artifact-service.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type ActionRunOptions, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-endings-test-key-0123456789abcdef';
const CHECKOUT_TOKEN = 'ghs_checkoutCredentialEndings0123456789ab';
const CHECKOUT_HEADER = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${CHECKOUT_TOKEN}`).toString('base64')}`;
const BRANCH = 'patchloop/issue-1-div-by-zero';

const REPO_FILES = {
  'package.json': '{ "name": "demo", "type": "module" }\n',
  'src/math.js': 'export const div = (a, b) => a / b;\n',
};

/** The first turn edits the file; the second one never ends (the run is cancelled in it). */
const EDIT_THEN_HANG: AnthropicTurn[] = [
  {
    text: 'Guarding the division.',
    toolCalls: [
      {
        id: 'toolu_e1',
        name: 'edit_file',
        json: '{"path":"src/math.js","oldText":"a / b","newText":"(b === 0 ? 0 : a / b)"}',
      },
    ],
    usage: { input: 1000, output: 60 },
  },
  { text: 'Now let me check the tests', hangAfter: 3 },
];

const FIX_SESSION: AnthropicTurn[] = [
  EDIT_THEN_HANG[0]!,
  { text: 'Guarded div() against a zero divisor.', usage: { input: 1200, output: 30 } },
];

let action: BuiltAction;
let brokenRenderer: BuiltAction;
beforeAll(async () => {
  [action, brokenRenderer] = await Promise.all([buildAction(), buildAction()]);
  breakSummaryRenderer(dirname(brokenRenderer.path));
});
afterAll(() => {
  action.cleanup();
  brokenRenderer.cleanup();
});

let gh: FakeGitHub;
let service: FakeArtifactService;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
let modelAt: number[];
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  service = await startFakeArtifactService();
  service.mountOn(gh);
  repo = makeRepo(REPO_FILES);
  // What actions/checkout leaves behind (v4 style).
  git(repo.work, 'config', '--local', 'http.https://github.com/.extraheader', CHECKOUT_HEADER);
  modelAt = [];
});
afterEach(async () => {
  await gh.stop();
  await service.stop();
  await model?.close();
  model = undefined;
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

async function startModel(turns: AnthropicTurn[]): Promise<void> {
  model = await startAnthropicServer((_request, index) => {
    modelAt.push(Date.now());
    return turns[index]!;
  });
}

/** Resolves once the model has been asked `n` times. */
async function modelAsked(n: number): Promise<void> {
  while (modelAt.length < n) await new Promise((res) => setTimeout(res, 20));
}

async function act(o: Partial<ActionRunOptions> & { script?: string }) {
  const issue = gh.addIssue({ title: 'div by zero' });
  const c = gh.addComment(issue.number, { body: '/patchloop fix the division', author: 'alice' });
  const identity = service.job({ runId: 9001, job: 'patchloop' });
  const r = await runAction({
    script: o.script ?? action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    payload: issueComment({
      issue: { number: issue.number, title: issue.title },
      comment: { id: c.id, body: c.body, createdAt: c.created_at, author: { login: 'alice', id: 4242 } },
    }),
    ...o,
    inputs: {
      'github-token': TOKEN,
      'api-key': API_KEY,
      'base-url': model?.url ?? 'http://127.0.0.1:9',
      'continue-session': 'false',
      ...o.inputs,
    },
    env: { ACTIONS_RUNTIME_TOKEN: identity.token, ACTIONS_RESULTS_URL: service.url, ...o.env },
  });
  cleanups.push(r.cleanup);
  const summary = gh.commentsOn(issue.number).find((x) => x.id !== c.id)?.body ?? '';
  return { r, summary, issue };
}

/** The file as origin's branch holds it, or undefined when origin has no such branch. */
function onOrigin(branch: string, path: string): string | undefined {
  try {
    return git(repo.origin, 'show', `refs/heads/${branch}:${path}`);
  } catch {
    return undefined;
  }
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? jsFiles(p) : p.endsWith('.js') ? [p] : [];
  });
}

/**
 * A test-only switch on the bundle (as attack-kit.ts switches defences off): the summary
 * renderer throws. The bundle keeps function names (`keepNames`), so the minified name is found
 * through its name registration and the function is replaced by one that throws.
 */
function breakSummaryRenderer(dir: string): void {
  let hits = 0;
  for (const file of jsFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const named = /[\w$]+\(([\w$]+),"renderSummaryMarkdown"\)/.exec(text);
    if (!named) continue;
    const fn = named[1]!.replace(/\$/g, '\\$');
    const decl = new RegExp(`function ${fn}\\(`);
    if (!decl.test(text)) continue;
    hits++;
    writeFileSync(
      file,
      text.replace(
        decl,
        `function ${named[1]}(){throw new Error("injected: the summary renderer failed")}function __pl_unused_renderer(`,
      ),
    );
  }
  if (hits === 0) throw new Error('renderSummaryMarkdown was not found in the bundle');
}

describe('a cancelled run keeps its work', () => {
  it('SIGINT in the second turn: the edit is pushed to the branch, the transcript uploaded, the comment a summary with turns and cost', async () => {
    await startModel(EDIT_THEN_HANG);
    const { r, summary } = await act({ cancelWhen: modelAsked(2) });
    const log = r.stdout.slice(-4000) + r.stderr.slice(-2000);

    expect(r.neededSigterm, log).toBe(false);
    expect(r.outputs.conclusion).toBe('cancelled');
    expect(r.code).toBe(1);
    // The branch on origin holds the edit.
    expect(r.outputs.branch).toBe(BRANCH);
    expect(onOrigin(BRANCH, 'src/math.js')).toContain('(b === 0 ? 0 : a / b)');
    expect(r.outputs['commit-sha']).toBe(git(repo.origin, 'rev-parse', `refs/heads/${BRANCH}`).trim());
    // The transcript was uploaded, whole: it ends with the cancelled summary line.
    const uploaded = service.artifacts.filter((a) => a.finalized);
    expect(uploaded, log).toHaveLength(1);
    const entries = await readZip(service.zipOf(uploaded[0]!.id), {
      only: ['transcript.jsonl'],
      maxBytes: 16 << 20,
    });
    const jsonl = entries.get('transcript.jsonl')!.toString('utf8').trim().split('\n');
    expect(JSON.parse(jsonl.at(-1)!)).toMatchObject({ type: 'summary', conclusion: 'cancelled' });
    expect(jsonl.some((l) => l.includes('"event":"push"'))).toBe(true);
    expect(r.outputs['artifact-url']).toContain(`/artifacts/${uploaded[0]!.id}`);
    // The comment is the summary: cancelled, with the turns, the tokens, the cost and the branch.
    expect(summary).toMatch(/cancelled/i);
    expect(summary).not.toMatch(/patchloop is working on this/);
    expect(summary).toContain(`- Turns: ${r.outputs.turns}\n`);
    expect(Number(r.outputs.turns)).toBeGreaterThanOrEqual(1);
    expect(summary).toMatch(/- Cost: \$\d/);
    expect(summary).toContain('input 1000');
    expect(summary).toContain(BRANCH);
    expect(summary).toContain(r.outputs['artifact-url']!);
    // No PR for a cancelled run, and the checkout's credential is back for later steps.
    expect(gh.requestsTo('POST', /\/pulls$/)).toHaveLength(0);
    expect(readFileSync(join(repo.work, '.git', 'config'), 'utf8')).toContain(CHECKOUT_HEADER);
  });

  it('SIGTERM 7.5 s after SIGINT while the artifact store hangs: the push lands first, and the summary is written before the runner kills', async () => {
    await startModel(EDIT_THEN_HANG);
    service.holdUploads();
    const { r, summary } = await act({ cancelWhen: modelAsked(2), killAfterSigterm: true });
    const log = r.stdout.slice(-4000) + r.stderr.slice(-2000);

    // The upload never ends: the run was still there at SIGTERM, and ended by itself after it.
    expect(r.neededSigterm, log).toBe(true);
    expect(r.neededSigkill, log).toBe(false);
    expect(r.signal).toBeNull();
    expect(r.outputs.conclusion).toBe('cancelled');
    // The push happened before the upload was tried.
    expect(onOrigin(BRANCH, 'src/math.js')).toContain('(b === 0 ? 0 : a / b)');
    expect(service.artifacts.filter((a) => a.finalized)).toHaveLength(0);
    expect(summary).toMatch(/cancelled/i);
    expect(summary).toContain(`- Turns: ${r.outputs.turns}\n`);
    expect(summary).toMatch(/- Cost: \$\d/);
    expect(summary).toContain(BRANCH);
    expect(summary).toMatch(/transcript artifact could not be uploaded \(the upload was given up/);
    expect(readFileSync(join(repo.work, '.git', 'config'), 'utf8')).toContain(CHECKOUT_HEADER);
  });
});

describe('a run that ends early without a cancel keeps its work', () => {
  it('budget exceeded after an edit: the edit is pushed and the transcript uploaded', async () => {
    await startModel(EDIT_THEN_HANG);
    const { r, summary } = await act({ inputs: { 'max-turns': '1' } });
    expect(r.outputs.conclusion, r.stdout.slice(-3000)).toBe('budget-exceeded');
    expect(r.code).toBe(1);
    expect(onOrigin(BRANCH, 'src/math.js')).toContain('(b === 0 ? 0 : a / b)');
    expect(service.artifacts.filter((a) => a.finalized)).toHaveLength(1);
    expect(summary).toContain('- Turns: 1\n');
    expect(summary).toContain(BRANCH);
  });

  it('the model failing after an edit: failure, and the edit is pushed', async () => {
    await startModel([
      EDIT_THEN_HANG[0]!,
      { http: { status: 400, type: 'invalid_request_error', message: 'the request is malformed' } },
    ]);
    const { r, summary } = await act({});
    expect(r.outputs.conclusion, r.stdout.slice(-3000)).toBe('failure');
    expect(onOrigin(BRANCH, 'src/math.js')).toContain('(b === 0 ? 0 : a / b)');
    expect(service.artifacts.filter((a) => a.finalized)).toHaveLength(1);
    expect(summary).toMatch(/the request is malformed/);
    expect(summary).toContain('- Turns: 2\n');
    expect(summary).toContain(BRANCH);
  });
});

describe('an error after the agent ran', () => {
  it('a summary renderer that throws: the comment still ends in a summary with the usage and the branch', async () => {
    await startModel(FIX_SESSION);
    const { r, summary } = await act({ script: brokenRenderer.path });
    const log = r.stdout.slice(-4000) + r.stderr.slice(-2000);
    expect(log).toContain('injected: the summary renderer failed');
    expect(r.outputs.conclusion, log).toBe('success');
    expect(r.outputs.branch).toBe(BRANCH);
    expect(r.outputs.turns).toBe('2');
    expect(r.outputs['input-tokens']).toBe('2200');
    expect(onOrigin(BRANCH, 'src/math.js')).toContain('(b === 0 ? 0 : a / b)');
    expect(summary).not.toMatch(/patchloop is working on this/);
    expect(summary).toContain('patchloop: success');
    expect(summary).toContain('- Turns: 2');
    expect(summary).toContain('input 2200');
    expect(summary).toMatch(/- Cost: \$\d/);
    expect(summary).toContain(`- Branch: \`${BRANCH}\``);
    // The PR was opened (its body fell back to the short summary too).
    expect(r.outputs['pr-number']).not.toBe('');
  });
});

describe('start-up honours a cancel', () => {
  it('SIGINT while GitHub has not answered the permission check: the credential is back in .git/config', async () => {
    let reached!: () => void;
    const asked = new Promise<void>((resolve) => (reached = resolve));
    gh.override('GET', /\/collaborators\/[^/]+\/permission$/, () => {
      reached();
      return new Promise(() => undefined);
    });
    // Cancelled once the check is waiting and the credential has been taken out of the checkout.
    const taken = asked.then(async () => {
      const config = join(repo.work, '.git', 'config');
      while (readFileSync(config, 'utf8').includes(CHECKOUT_HEADER))
        await new Promise((res) => setTimeout(res, 20));
    });
    const { r, summary } = await act({ cancelWhen: taken });
    expect(readFileSync(join(repo.work, '.git', 'config'), 'utf8')).toContain(CHECKOUT_HEADER);
    expect(r.neededSigterm, r.stdout.slice(-3000)).toBe(false);
    expect(r.outputs.conclusion).toBe('cancelled');
    expect(r.code).toBe(1);
    // Nothing was posted for a run that never began.
    expect(summary).toBe('');
  });
});
