// max-cost-usd-per-day (CONTRACT §13) end to end: the bundle runs as the runner runs it against the
// loopback GitHub and Anthropic servers. A run's final summary records its cost and requester in
// the session marker; a later request counts what patchloop's own summaries of the last 24 hours
// say, and one over a budget gets a comment and no model request.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readSessionMarker, sessionMarkerText } from '../../src/github/comment.js';
import { TRACKING_MARKER } from '../../src/github/context/trigger.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-budget-test-key-0123456789abcdef';

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer;
let requests: number;
beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  gh.setPermission('bob', 'write');
  repo = makeRepo({ 'README.md': '# demo\n', 'a.txt': 'one\n' });
  requests = 0;
  model = await startAnthropicServer(() => {
    requests++;
    return requests === 1
      ? {
          toolCalls: [{ id: 'toolu_1', name: 'write_file', json: '{"path":"a.txt","content":"two\\n"}' }],
          usage: { input: 200_000, output: 20_000 },
        }
      : { text: 'Changed a.txt.', usage: { input: 200_000, output: 20_000 } };
  });
});
afterEach(async () => {
  await gh.stop();
  await model.close();
  repo.cleanup();
});

/** A final summary of an earlier run, as patchloop leaves it: the marker, with cost and requester, last. */
function earlierSummary(
  issue: number,
  o: { costUsd: number; requester: string; hoursAgo: number; author?: string; runId?: string },
) {
  const at = new Date(Date.now() - o.hoursAgo * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const marker = sessionMarkerText({
    runId: o.runId ?? '77',
    sessionId: `${o.runId ?? '77'}-1-abc`,
    costUsd: o.costUsd,
    requester: o.requester,
  });
  return gh.addComment(issue, {
    body: `✅ **patchloop: success**\n\n${TRACKING_MARKER}\n${marker}`,
    author: o.author ?? ACTIONS_BOT.login,
    createdAt: at,
    updatedAt: at,
  });
}

async function ask(issueNumber: number, author: string, budget: string) {
  const trigger = gh.addComment(issueNumber, { body: '/patchloop change a.txt', author });
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    payload: issueComment({
      issue: { number: issueNumber, title: 'a.txt', body: 'change it' },
      comment: {
        id: trigger.id,
        body: trigger.body,
        createdAt: trigger.created_at,
        author: { login: author, id: 7 },
      },
    }),
    inputs: {
      'github-token': TOKEN,
      'api-key': API_KEY,
      'base-url': model.url,
      model: 'claude-sonnet-4-5',
      'max-cost-usd-per-day': budget,
    },
  });
  return r;
}

describe('max-cost-usd-per-day', () => {
  it('records each run’s cost and requester in its summary’s marker, and counts it for the next request', async () => {
    const issue = gh.addIssue({ title: 'a.txt', body: 'change it' });
    const first = await ask(issue.number, 'alice', '100,1');
    try {
      expect(first.code, first.stderr.slice(-2000)).toBe(0);
      expect(requests).toBe(2);
      const summary = gh.issueComments.find(
        (c) => c.user.login === ACTIONS_BOT.login && /success/.test(c.body),
      );
      const marker = readSessionMarker(summary?.body);
      // 400k input and 40k output tokens of a priced model: more than the requester's $1
      expect(marker?.costUsd).toBeGreaterThan(1);
      expect(marker?.requester).toBe('alice');
      expect(first.stdout).toMatch(/spent in the last 24 hours: \$0\.00 in this repository/);
    } finally {
      first.cleanup();
    }
    // the same requester again: over the $1 requester budget, no model request
    const second = await ask(issue.number, 'alice', '100,1');
    try {
      expect(second.code).toBe(1);
      expect(second.outputs.conclusion).toBe('budget-exceeded');
      expect(requests).toBe(2);
      const refusal = gh.issueComments.at(-1)!;
      expect(refusal.user.login).toBe(ACTIONS_BOT.login);
      expect(refusal.body).toMatch(/daily budget reached/);
      expect(refusal.body).toMatch(/for @alice is \$1\.00/);
      expect(refusal.body).toMatch(/It frees up at \d{4}-\d\d-\d\dT/);
      // the refusal is marked as patchloop's own, so it never triggers a run
      expect(refusal.body).toContain(TRACKING_MARKER);
    } finally {
      second.cleanup();
    }
    // another requester is under both budgets and runs
    const third = await ask(issue.number, 'bob', '100,1');
    try {
      expect(third.code, third.stderr.slice(-2000)).toBe(0);
      expect(requests).toBeGreaterThan(2);
    } finally {
      third.cleanup();
    }
  }, 150_000);

  it('counts only patchloop’s own summaries of the last 24 hours, repository-wide, and says when it frees up', async () => {
    const issue = gh.addIssue({ title: 'a.txt', body: 'change it' });
    const other = gh.addIssue({ title: 'elsewhere', body: 'x' });
    // counted: two summaries by the bot, on two issues
    earlierSummary(other.number, { costUsd: 3, requester: 'bob', hoursAgo: 20, runId: '70' });
    earlierSummary(issue.number, { costUsd: 2.5, requester: 'carol', hoursAgo: 2, runId: '71' });
    // not counted: older than a day, and a marker pasted by someone else
    earlierSummary(other.number, { costUsd: 50, requester: 'bob', hoursAgo: 30, runId: '72' });
    earlierSummary(other.number, {
      costUsd: 50,
      requester: 'bob',
      hoursAgo: 1,
      author: 'mallory',
      runId: '73',
    });
    const r = await ask(issue.number, 'alice', '5');
    try {
      expect(r.outputs.conclusion).toBe('budget-exceeded');
      expect(requests).toBe(0);
      const refusal = gh.issueComments.at(-1)!;
      expect(refusal.body).toMatch(/budget for this repository is \$5\.00/);
      expect(refusal.body).toMatch(/report \$5\.50 spent/);
      // once the $3 of 20 hours ago leaves the window, $2.50 is under $5: 4 hours from now
      const frees = Date.parse(/It frees up at (\S+),/.exec(refusal.body)![1]!);
      expect(Math.abs(frees - (Date.now() + 4 * 3600_000))).toBeLessThan(120_000);
    } finally {
      r.cleanup();
    }
    // a budget above what was spent lets the run go on
    const ok = await ask(issue.number, 'alice', '6');
    try {
      expect(ok.code, ok.stderr.slice(-2000)).toBe(0);
      expect(requests).toBe(2);
    } finally {
      ok.cleanup();
    }
  }, 150_000);

  it('refuses a malformed budget with a clear input error', async () => {
    const issue = gh.addIssue({ title: 'a.txt', body: 'change it' });
    const r = await ask(issue.number, 'alice', 'ten dollars');
    try {
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/max-cost-usd-per-day must be REPO or REPO,REQUESTER/);
      expect(requests).toBe(0);
    } finally {
      r.cleanup();
    }
  });
});
