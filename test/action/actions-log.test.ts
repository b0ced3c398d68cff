// The Actions log and the step summary as the runner shows them: the bundle run as `node
// index.js`, against a loopback GitHub and a loopback Anthropic server. The log opens with the
// settings; an error is written once plus its one annotation; no group is open while the work is
// delivered; the step summary leads with the answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-actions-log-test-0123456789abcdef';
const FILES = {
  'package.json': '{ "name": "demo", "type": "module", "scripts": { "test": "node test.js" } }\n',
  'src/math.js': 'export const div = (a, b) => a / b;\n',
  'test.js': "console.log('all good');\n",
};

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await gh?.stop();
  await model?.close();
  repo?.cleanup();
  for (const c of cleanups.splice(0)) c();
});

async function run(turns: AnthropicTurn[], inputs: Record<string, string> = {}) {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  repo = makeRepo(FILES);
  model = await startAnthropicServer(turns);
  const issue = gh.addIssue({ title: 'div by zero', body: 'div(1, 0) should be 0' });
  const trigger = gh.addComment(issue.number, { body: '/patchloop guard div against zero', author: 'alice' });
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issue_comment',
    payload: issueComment({
      issue: { number: issue.number, title: issue.title, body: issue.body },
      comment: {
        id: trigger.id,
        body: trigger.body,
        createdAt: trigger.created_at,
        author: { login: 'alice', id: 4242 },
      },
    }),
    inputs: {
      'github-token': TOKEN,
      'api-key': API_KEY,
      'base-url': model.url,
      'test-command': 'node test.js',
      'max-turns': '12',
      ...inputs,
    },
  });
  cleanups.push(r.cleanup);
  const comment = gh.commentsOn(issue.number).find((c) => c.id !== trigger.id)?.body ?? '';
  // What the runner shows: the lines it does not hide (debug lines show only with step debugging).
  const shown = r.stdout
    .split('\n')
    .filter((l) => !l.startsWith('::debug::') && !l.startsWith('::add-mask::'));
  return { r, comment, shown };
}

describe('the Actions log through node dist/index.js', () => {
  it('starts with the settings, closes the last group before delivery, and ends with one outcome line', async () => {
    const { r, comment, shown } = await run([
      {
        text: 'Looking.',
        toolCalls: [{ id: 'toolu_01', name: 'read_file', json: '{"path":"src/math.js"}' }],
        usage: { input: 900, output: 40 },
      },
      {
        toolCalls: [
          {
            id: 'toolu_02',
            name: 'edit_file',
            json: '{"path":"src/math.js","oldText":"a / b","newText":"(b === 0 ? 0 : a / b)"}',
          },
        ],
        usage: { input: 1000, output: 60 },
      },
      { text: 'Guarded div() against a zero divisor.', usage: { input: 12000, output: 30 } },
    ]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    // The settings block is the first thing shown.
    expect(shown.slice(0, 7)).toEqual([
      'patchloop settings',
      '  task: fix on issue #1, asked by alice: “/patchloop guard div against zero”',
      expect.stringMatching(
        /^ {2}provider: anthropic · model claude-sonnet-5-5 \(the provider's default\) · endpoint 127\.0\.0\.1:\d+$/,
      ),
      '  budgets: 12 turns · no cost limit · 30 min',
      expect.stringMatching(/^ {2}commands: run_tests \(test-command: node test\.js\) · bash off · isolated/),
      '  network: command-network none (each command has its own loopback only)',
      '  delivery: branch prefix patchloop/ · draft PR',
    ]);
    expect(shown.join('\n')).not.toContain(API_KEY);

    // No group is open while the PR is made and the comment edited: the last turn's group is
    // closed before the first request of the delivery.
    const lines = r.stdout.split('\n');
    const lastEnd = lines.lastIndexOf('::endgroup::');
    const lastStart = lines.findLastIndex((l) => l.startsWith('::group::'));
    const prCreated = lines.findIndex((l) => /^::debug::POST \/repos\/octo\/demo\/pulls /.test(l));
    const commentEdited = lines.findLastIndex((l) =>
      /^::debug::PATCH \/repos\/octo\/demo\/issues\/comments\//.test(l),
    );
    expect(lastStart).toBeGreaterThan(0);
    expect(prCreated).toBeGreaterThan(0);
    expect(lastEnd).toBeGreaterThan(lastStart);
    expect(lastEnd).toBeLessThan(prCreated);
    expect(lastEnd).toBeLessThan(commentEdited);
    expect(lines.filter((l) => l.startsWith('::group::')).length).toBe(
      lines.filter((l) => l === '::endgroup::').length,
    );
    // One number style in the log and the comment.
    expect(r.stdout).toContain('input 13900 · output 130 tokens');
    expect(shown.filter(Boolean).at(-1)).toMatch(
      /^patchloop: success · 3 turns · .* · PR https:\/\/github\.com\/octo\/demo\/pull\/2/,
    );

    // The step summary and the comment lead with the answer.
    for (const text of [r.stepSummary, comment]) {
      expect(text.split('\n')[0]).toMatch(
        /^✅ \*\*patchloop: success\*\* · \[PR #2\]\(https:\/\/github\.com\/octo\/demo\/pull\/2\) · (?:\d+ ms|[\d.]+ s) · \$0\.\d+ \(estimated\) · \[workflow run\]\(https:\/\/github\.com\/octo\/demo\/actions\/runs\/9001\)$/,
      );
      expect(text).toContain('> /patchloop guard div against zero');
      expect(text).toContain('**Answer**\n\n> Guarded div() against a zero divisor.');
      expect(text).toContain('- Tokens: input 13900 · output 130');
    }
  });

  it('a refused key: the error once in the log plus one annotation, said for GitHub, with the next step', async () => {
    const refused: AnthropicTurn = {
      http: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
    };
    const { r, comment, shown } = await run([refused, refused, refused]);
    expect(r.code).toBe(1);
    expect(r.outputs.conclusion).toBe('failure');
    const mentions = shown.filter((l) => l.includes('invalid x-api-key'));
    // one log line in the turn's group, one annotation
    expect(mentions).toHaveLength(2);
    expect(mentions.filter((l) => l.startsWith('::error::'))).toHaveLength(1);
    expect(mentions.filter((l) => l.startsWith('  ✗ '))).toHaveLength(1);
    expect(shown.find((l) => l.startsWith('patchloop: failure'))).toMatch(/the error is above \(turn 1\)$/);
    // said for GitHub: the repository secret and the step's input, not the CLI's flag
    for (const text of [mentions[0]!, comment]) {
      expect(text).toContain('the repository secret given as the api-key input');
      expect(text).not.toContain('--api-key');
    }
    expect(comment.split('\n')[0]).toMatch(/^❌ \*\*patchloop: failure\*\* · /);
    expect(comment).toContain(
      '**What next:** Fix what the error names (a repository secret, or an input of the patchloop step in the workflow), then re-run the job from the workflow run page.',
    );
    expect(comment).not.toMatch(/^\|/m);
  });

  it('a run out of turns: the next step is the comment that continues it, or a larger max-turns', async () => {
    const look: AnthropicTurn = {
      text: 'Looking at the other callers of',
      toolCalls: [{ id: 'toolu_0', name: 'read_file', json: '{"path":"src/math.js"}' }],
      usage: { input: 500, output: 20 },
    };
    const turns = [1, 2].map((i) => ({
      ...look,
      toolCalls: [{ ...look.toolCalls![0]!, id: `toolu_0${i}` }],
    }));
    const { r, comment } = await run(turns, { 'max-turns': '2' });
    expect(r.outputs.conclusion).toBe('budget-exceeded');
    expect(comment.split('\n')[0]).toMatch(/^⚠️ \*\*patchloop: budget exceeded\*\* \(turns\) · /);
    expect(comment).toContain(
      '**What next:** Comment `/patchloop continue` to go on from where it stopped (same branch, same conversation), or raise the `max-turns` input (2 now) in the workflow.',
    );
    expect(comment).toContain('**Last message before the run stopped** (unfinished');
  });
});
