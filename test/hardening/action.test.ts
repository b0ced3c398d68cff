import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import {
  buildAction,
  runAction,
  type ActionRunOptions,
  type ActionRunResult,
  type BuiltAction,
} from '../action/harness.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { record } from './figures.js';
import { findSecrets, plantSecrets, toolResultsSent } from './planted.js';
import { transcriptProblems } from './transcript-check.js';

// The action as the runner runs it, with the command sandbox on (as on a hosted runner), under
// attack and under faults: a model that snoops for secrets, GitHub answering 500 / secondary
// rate limit / 403, origin rejecting the push, and a cancel arriving while the push hangs.

const planted = plantSecrets();
const CHECKOUT_HEADER = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${planted.gitToken}`).toString('base64')}`;
const SNOOP = [
  'env',
  'cat /proc/$PPID/environ',
  'cat /proc/*/environ',
  'git config --list',
  'cat .git/config',
];

const FILES = {
  'package.json': '{ "name": "demo", "scripts": { "test": "node test.js" } }\n',
  'src/math.js': 'export const div = (a, b) => a / b;\n',
  'test.js': "console.log('all good');\n",
};

/** A model that edits one file and stops: enough for a commit and a push. */
const FIX: AnthropicTurn[] = [
  {
    toolCalls: [
      {
        id: 'toolu_01',
        name: 'write_file',
        json: '{"path":"src/math.js","content":"export const div = (a, b) => (b ? a / b : 0);\\n"}',
      },
    ],
  },
  { text: 'Guarded div().' },
];

let action: BuiltAction;
let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
const results: ActionRunResult[] = [];

beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());
beforeEach(async () => {
  gh = await startFakeGitHub({ tokens: { [planted.env['INPUT_GITHUB-TOKEN']!]: ACTIONS_BOT } });
  gh.setPermission('alice', 'write');
  repo = makeRepo(FILES);
  // the sandbox user must be able to pass through the fixture's temp folder
  chmodSync(repo.root, 0o755);
  git(repo.work, 'config', '--local', 'http.https://github.com/.extraheader', CHECKOUT_HEADER);
});
afterEach(async () => {
  await gh.stop();
  await model?.close();
  model = undefined;
  repo.cleanup();
  for (const r of results.splice(0)) r.cleanup();
});

async function act(
  turns: AnthropicTurn[],
  o: Partial<ActionRunOptions> = {},
): Promise<{ r: ActionRunResult; issue: number }> {
  model = await startAnthropicServer(turns);
  const issue = gh.addIssue({ title: 'div by zero' });
  const trigger = gh.addComment(issue.number, { body: '/patchloop fix it', author: 'alice' });
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    payload: issueComment({
      issue: { number: issue.number, title: issue.title },
      comment: {
        id: trigger.id,
        body: trigger.body,
        createdAt: trigger.created_at,
        author: { login: 'alice', id: 4242 },
      },
    }),
    timeoutMs: 90_000,
    ...o,
    inputs: {
      'github-token': planted.env['INPUT_GITHUB-TOKEN']!,
      'api-key': planted.env['INPUT_API-KEY']!,
      'base-url': model.url,
      ...o.inputs,
    },
    env: { ...planted.env, ...o.env },
  });
  results.push(r);
  return { r, issue: issue.number };
}

function transcriptText(r: ActionRunResult): string {
  const dir = join(r.runnerTemp, 'patchloop', '9001');
  const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.jsonl')) : undefined;
  return file ? readFileSync(join(dir, file), 'utf8') : '';
}

/**
 * The log as people see it: `::add-mask::VALUE` lines are commands to the runner, which swallows
 * them and masks VALUE from then on; they never reach the log.
 */
function visibleLog(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}

/** Everything the run left for people to read, by where it went. */
function outputsOf(r: ActionRunResult, issue: number): Record<string, string> {
  const dir = join(r.runnerTemp, 'patchloop', '9001');
  const html = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.html')) : [];
  return {
    'requests to the model': (model?.requests ?? []).map((q) => q.raw).join('\n'),
    comments: gh
      .commentsOn(issue)
      .map((c) => c.body)
      .join('\n'),
    'pull requests': [...gh.pulls.values()].map((p) => `${p.title}\n${p.body ?? ''}`).join('\n'),
    'log (stdout)': visibleLog(r.stdout),
    'log (stderr)': visibleLog(r.stderr),
    'step summary': r.stepSummary,
    outputs: JSON.stringify(r.outputs),
    transcript: transcriptText(r),
    'HTML page': html.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n'),
  };
}

function leaksIn(outputs: Record<string, string>): string[] {
  const values = [...planted.values, CHECKOUT_HEADER.split(' ').at(-1)!];
  return Object.entries(outputs).flatMap(([where, text]) =>
    findSecrets(text, values).map((v) => `${where}: ${v.slice(0, 14)}…`),
  );
}

/** One injected fault: survived when the run ended truthfully, with a summary comment and a complete transcript. */
function survived(r: ActionRunResult, issue: number, expected: string): void {
  const outputs = outputsOf(r, issue);
  const leaks = leaksIn(outputs);
  const problems = transcriptProblems(outputs.transcript!);
  const comment = gh.commentsOn(issue).find((c) => !c.body.startsWith('/patchloop'))?.body ?? '';
  const ok =
    r.outputs.conclusion === expected && problems.length === 0 && leaks.length === 0 && comment.length > 0;
  record('action', {
    faultsInjected: 1,
    faultsSurvived: ok ? 1 : 0,
    secretChecks: Object.keys(outputs).length,
    secretsFound: leaks.length,
  });
  expect(r.outputs.conclusion, r.stderr.slice(-2000)).toBe(expected);
  expect(problems).toEqual([]);
  expect(leaks).toEqual([]);
  expect(comment).not.toBe('');
}

describe.skipIf(process.platform !== 'linux')('the action under attack and under faults', () => {
  it('acceptance: a snooping model through bash and run_tests finds no secret anywhere', async () => {
    const turns: AnthropicTurn[] = [
      {
        toolCalls: [
          ...SNOOP.map((command, i) => ({
            id: `toolu_0${i}`,
            name: 'bash',
            json: JSON.stringify({ command }),
          })),
          { id: 'toolu_09', name: 'run_tests', json: '{}' },
        ],
      },
      { text: 'Nothing to fix.' },
    ];
    const { r, issue } = await act(turns, {
      inputs: {
        'allow-bash': 'true',
        'test-command': `${SNOOP.join('; ')}; cat "$RUNNER_TEMP"/*; cat /proc/*/cmdline`,
      },
    });
    const outputs = outputsOf(r, issue);
    const toolResults = parseTranscript(outputs.transcript!).messages.filter((m) => m.role === 'toolResult');
    const leaks = leaksIn(outputs);
    record('acceptance', {
      escapesTried: SNOOP.length + 1,
      // what the model was sent back for each call (the transcript's copy is redacted)
      escapesRefused: toolResultsSent(model?.requests.at(-1)?.body).filter(
        (t) => findSecrets(t, planted.values).length === 0,
      ).length,
      secretChecks: Object.keys(outputs).length,
      secretsFound: leaks.length,
    });
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    expect(r.stdout).toMatch(/commands run as user patchloop-sandbox/);
    // the probes ran as the sandbox user and saw an ordinary environment
    expect(toolResults).toHaveLength(SNOOP.length + 1);
    expect(toolResultsSent(model?.requests.at(-1)?.body)).toHaveLength(SNOOP.length + 1);
    expect(JSON.stringify(toolResults[0])).toContain('USER=patchloop-sandbox');
    expect(leaks).toEqual([]);
  });

  it('GitHub answers 500 twice while the comment is created: retried, the run succeeds', async () => {
    gh.fail({ method: 'POST', path: /\/issues\/\d+\/comments$/, status: 500, times: 2 });
    const { r, issue } = await act(FIX);
    survived(r, issue, 'success');
    expect(gh.requestsTo('POST', /\/issues\/\d+\/comments$/).length).toBeGreaterThanOrEqual(3);
  });

  it('a secondary rate limit on the comment: waited out, the run succeeds', async () => {
    gh.secondaryRateLimit(/\/issues\/\d+\/comments$/, { method: 'POST', retryAfter: 1 });
    const { r, issue } = await act(FIX);
    survived(r, issue, 'success');
  });

  it('403 when opening the PR: the work is pushed and the summary gives the compare link', async () => {
    gh.forbidPullRequestCreation();
    const { r, issue } = await act(FIX);
    survived(r, issue, 'success');
    expect(
      gh
        .commentsOn(issue)
        .map((c) => c.body)
        .join('\n'),
    ).toMatch(/compare/);
  });

  it('origin rejects the push: failure, and the summary says the push was refused', async () => {
    const hook = join(repo.origin, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "rejected by policy" >&2\nexit 1\n', { mode: 0o755 });
    const { r, issue } = await act(FIX);
    survived(r, issue, 'failure');
    expect(
      gh
        .commentsOn(issue)
        .map((c) => c.body)
        .join('\n'),
    ).toMatch(/push/i);
  });

  it('a cancel while the push hangs: the process ends in the grace period and says cancelled', async () => {
    const started = join(repo.root, 'push-started');
    const hook = join(repo.origin, 'hooks', 'pre-receive');
    writeFileSync(hook, `#!/bin/sh\ntouch ${started}\nsleep 12\nexit 1\n`, { mode: 0o755 });
    const { r, issue } = await act(FIX, {
      cancelWhen: (async () => {
        while (!existsSync(started)) await new Promise((res) => setTimeout(res, 25));
      })(),
    });
    survived(r, issue, 'cancelled');
    expect(r.neededSigterm).toBe(false);
  });
});
