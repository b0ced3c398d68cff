// `output-schema` end to end (CONTRACT §9): the bundled action on an `issues` `opened` event with a
// triage prompt; the scripted model answers through submit_answer, invalid once and then valid.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { makeRepo, writeFiles, type RepoFixture } from '../github/git-fixtures.js';
import { issues } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const SCHEMA = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    labels: { type: 'array', items: { enum: ['bug', 'feature', 'question'] }, minItems: 1 },
    reason: { type: 'string' },
  },
  required: ['labels', 'reason'],
  additionalProperties: false,
});

const submit = (id: string, answer: unknown): AnthropicTurn => ({
  toolCalls: [{ id, name: 'submit_answer', json: JSON.stringify({ answer }) }],
  usage: { input: 700, output: 40 },
});

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'read');
  repo = makeRepo();
});
afterEach(async () => {
  await gh.stop();
  await model?.close();
  model = undefined;
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

async function triage(turns: AnthropicTurn[], inputs: Record<string, string> = {}) {
  model = await startAnthropicServer((_r, i) => turns[i]!);
  const issue = gh.addIssue({ title: 'Crash on start', body: 'It crashes when I start it.' });
  const r = await runAction({
    script: action.path,
    workspace: repo.work,
    apiUrl: gh.url,
    eventName: 'issues',
    payload: issues({
      action: 'opened',
      issue: { number: issue.number, title: issue.title, body: issue.body },
    }),
    inputs: {
      'github-token': 'ghs_faketoken',
      'api-key': 'sk-ant-api03-structured-output-0123456789',
      'base-url': model.url,
      prompt: 'Triage this issue: pick its labels.',
      'required-permission': 'read',
      'output-schema': SCHEMA,
      ...inputs,
    },
  });
  cleanups.push(r.cleanup);
  return { r, issue };
}

describe('output-schema', () => {
  it('an invalid answer is told what is wrong; the valid one is output structured-output and in the summary', async () => {
    const { r, issue } = await triage([
      submit('toolu_01', { labels: ['urgent'] }),
      submit('toolu_02', { labels: ['bug'], reason: 'a crash' }),
      { text: 'Labelled it a bug.', usage: { input: 800, output: 10 } },
    ]);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(JSON.parse(r.outputs['structured-output']!)).toEqual({ labels: ['bug'], reason: 'a crash' });
    // the model was shown the schema as submit_answer's parameters
    const tools = (model!.requests[0]!.body as { tools: { name: string; input_schema: unknown }[] }).tools;
    expect(tools.find((t) => t.name === 'submit_answer')?.input_schema).toMatchObject({
      properties: { answer: { required: ['labels', 'reason'] } },
    });
    // the first answer's error named each problem
    const second = JSON.stringify(model!.requests[1]!.body);
    expect(second).toContain('answer.labels[0]: must be one of \\"bug\\", \\"feature\\", \\"question\\"');
    expect(second).toContain('missing required property \\"reason\\"');
    const summary = gh.commentsOn(issue.number).at(-1)!.body;
    expect(summary).toContain('Structured answer');
    expect(summary).toContain('"reason": "a crash"');
    expect(r.stepSummary).toContain('Structured answer');
  });

  it('no valid answer within the budget is failure, said plainly', async () => {
    const { r } = await triage(
      [
        submit('toolu_01', { labels: [] }),
        { text: 'I could not decide.', usage: { input: 800, output: 10 } },
      ],
      { 'max-turns': '2' },
    );
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ conclusion: 'failure', 'structured-output': '' });
    expect(r.stdout).toContain(
      'No valid answer was given: all 1 answer(s) submitted failed the output schema',
    );
  });

  it('a bad schema is an input error before any model request', async () => {
    const { r } = await triage([{ text: 'never asked' }], { 'output-schema': '{"type": "nope"}' });
    expect(r.code).toBe(1);
    expect(r.outputs.conclusion).toBe('failure');
    expect(r.stdout).toContain('Input output-schema is not a usable JSON Schema: schema is invalid');
    expect(model!.requests).toHaveLength(0);
    expect(gh.requests).toHaveLength(0);
  });

  it('a schema file in the workspace is read from there', async () => {
    writeFiles(repo.work, { '.github/triage-schema.json': SCHEMA });
    const { r } = await triage(
      [submit('toolu_01', { labels: ['question'], reason: 'asks' }), { text: 'Done.' }],
      { 'output-schema': '.github/triage-schema.json' },
    );
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(JSON.parse(r.outputs['structured-output']!)).toEqual({ labels: ['question'], reason: 'asks' });
  });
});
