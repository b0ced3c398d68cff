// The action and the CLI run the same phases (src/run/phases.ts), so they cannot drift apart:
// their sources call the shared phases instead of restating them, and the two bundles, given the
// same run out of turns, record the same session fields and the same ending.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeGitHub } from '../fakes/github-server.js';
import { makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from '../action/harness.js';
import { buildCli, type BuiltCli } from '../cli/build-cli.js';

const FILES = {
  'package.json': '{ "name": "demo", "type": "module", "scripts": { "test": "node test.js" } }\n',
  'src/math.js': 'export const div = (a, b) => a / b;\n',
  'test.js': "console.log('all good');\n",
};
const API_KEY = 'sk-ant-api03-surfaces-test-0123456789abcdef';

/** Every turn reads a file: a run with max-turns 1 ends out of turns. */
const READING: AnthropicTurn[] = [1, 2].map((i) => ({
  text: 'Looking at the other callers of',
  toolCalls: [{ id: `toolu_0${i}`, name: 'read_file', json: '{"path":"src/math.js"}' }],
  usage: { input: 500, output: 20 },
}));

const source = (path: string) => readFileSync(join(process.cwd(), path), 'utf8');
const actionSources = readdirSync(join(process.cwd(), 'src/action'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ path: `src/action/${f}`, text: source(`src/action/${f}`) }));
const cliRun = { path: 'src/cli/run.ts', text: source('src/cli/run.ts') };

describe('the phases the action and the CLI share', () => {
  it('are called, not restated, by both surfaces', () => {
    const both = [...actionSources, cliRun];
    const joined = (files: typeof both) => files.map((f) => f.text).join('\n');
    for (const phase of ['startCommandWorkspace(', 'commandsOffered(', 'sessionLine(', 'runLoop(']) {
      expect(joined(actionSources), phase).toContain(phase);
      expect(cliRun.text, phase).toContain(phase);
    }
    for (const phase of ['awaitWorkspace(', 'concludeRun(', 'recordSummary(']) {
      expect(joined(actionSources), phase).toContain(phase);
      expect(cliRun.text, phase).toContain(phase);
    }
    // what the shared phases do is done nowhere else in either surface
    for (const f of both) {
      expect(f.text, f.path).not.toMatch(/\brunAgent\(/);
      expect(f.text, f.path).not.toMatch(/\bstartSandbox\(/);
      expect(f.text, f.path).not.toMatch(/\.summary\(\{/);
      expect(f.text, f.path).not.toMatch(/\.session\(\{/);
      expect(f.text, f.path).not.toMatch(/timeoutMs: [\w.]+ \* 60_000/);
    }
  });
});

describe('the same run out of turns through both bundles', () => {
  let action: BuiltAction;
  let cli: BuiltCli;
  const repos: RepoFixture[] = [];
  const cleanups: (() => void | Promise<void>)[] = [];
  beforeAll(async () => {
    [action, cli] = await Promise.all([buildAction(), buildCli()]);
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0)) await c();
    for (const r of repos) r.cleanup();
    action?.cleanup();
    cli?.cleanup();
  });

  async function actionTranscript(): Promise<ReturnType<typeof parseTranscript>> {
    const gh = await startFakeGitHub();
    cleanups.push(() => gh.stop());
    gh.setPermission('alice', 'write');
    const repo = makeRepo(FILES);
    repos.push(repo);
    const model = await startAnthropicServer(READING);
    cleanups.push(() => model.close());
    const issue = gh.addIssue({ title: 'div by zero', body: 'div(1, 0) should be 0' });
    const trigger = gh.addComment(issue.number, {
      body: '/patchloop guard div against zero',
      author: 'alice',
    });
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
        'github-token': 'ghs_faketoken',
        'api-key': API_KEY,
        'base-url': model.url,
        'test-command': 'node test.js',
        'max-turns': '1',
      },
    });
    cleanups.push(r.cleanup);
    expect(r.outputs.conclusion, r.stderr.slice(-2000)).toBe('budget-exceeded');
    return parseTranscript(readFileSync(r.outputs['transcript-path']!));
  }

  async function cliTranscript(): Promise<ReturnType<typeof parseTranscript>> {
    const repo = makeRepo(FILES);
    repos.push(repo);
    const model = await startAnthropicServer(READING);
    cleanups.push(() => model.close());
    // the transcript and the CLI's temp folder apart from the checkout's folders
    const tmp = mkdtempSync(join(tmpdir(), 'patchloop-surfaces-'));
    cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
    const path = join(tmp, 'transcript.jsonl');
    const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: API_KEY, TMPDIR: tmp };
    for (const k of ['ANTHROPIC_BASE_URL', 'NO_COLOR']) delete env[k];
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          cli.path,
          'run',
          '--repo',
          repo.work,
          '--base-url',
          model.url,
          '--test-command',
          'node test.js',
          '--max-turns',
          '1',
          '--transcript',
          path,
          'guard div against zero',
        ],
        { cwd: repo.work, env, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(1);
    return parseTranscript(readFileSync(path));
  }

  it('records the same session fields and the same ending, budget included', async () => {
    const [fromAction, fromCli] = await Promise.all([actionTranscript(), cliTranscript()]);
    const common = [
      'id',
      'startedAt',
      'repository',
      'trigger',
      'provider',
      'model',
      'baseCommit',
      'workspace',
      'allowBash',
      'isolated',
      'testCommand',
      'systemPrompt',
      'tools',
    ];
    for (const t of [fromAction, fromCli]) {
      expect(Object.keys(t.session ?? {})).toEqual(expect.arrayContaining(common));
      expect(t.session).toMatchObject({ provider: 'anthropic', testCommand: 'node test.js' });
    }
    const ending = (t: typeof fromAction) => ({
      conclusion: t.summary?.conclusion,
      budget: t.summary?.budget,
      turns: t.summary?.turns,
      error: t.summary?.error,
      keys: Object.keys(t.summary ?? {})
        .filter((k) => !['branch', 'commitSha', 'changedFiles'].includes(k))
        .sort(),
    });
    expect(ending(fromAction)).toEqual(ending(fromCli));
    expect(ending(fromCli)).toMatchObject({
      conclusion: 'budget-exceeded',
      budget: 'turns',
      turns: 1,
      error: expect.stringMatching(/max-turns budget \(1\)/),
    });
  });
});
