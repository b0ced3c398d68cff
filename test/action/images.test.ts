// Images end to end: the bundle runs as the runner runs it, against the fake GitHub (which
// renders `body_html` with signed attachment URLs and serves the attachments) and a fake model;
// what the first model request holds is what the model was given.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import { startOpenAIChatServer } from '../fakes/openai-chat-server.js';
import { pngOf } from '../fakes/png.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type ActionRunOptions, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-images-e2e-0123456789abcdef';

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

let gh: FakeGitHub;
let repo: RepoFixture;
let model: FakeProviderServer | undefined;
let other: { url: string; requests: IncomingMessage[]; server: Server };
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  repo = makeRepo({ 'README.md': '# demo\n' });
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(pngOf(2, 2));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  other = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
});
afterEach(async () => {
  await gh.stop();
  await model?.close();
  model = undefined;
  other.server.closeAllConnections();
  await new Promise<void>((resolve) => other.server.close(() => resolve()));
  repo.cleanup();
  for (const c of cleanups.splice(0)) c();
});

/** An issue whose body shows `body`, and a `/patchloop` comment on it; the run of the action on it. */
async function runOn(
  body: string,
  inputs: Record<string, string>,
  author = 'alice',
  request = '/patchloop please look',
) {
  const issue = gh.addIssue({ title: 'The chart is cut off', body });
  const trigger = gh.addComment(issue.number, { body: request, author });
  const o: ActionRunOptions = {
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
        author: { login: author, id: 4242 },
      },
    }),
    inputs: { 'github-token': TOKEN, 'api-key': API_KEY, 'base-url': model!.url, ...inputs },
  };
  const result = await runAction(o);
  cleanups.push(result.cleanup);
  return result;
}

interface Block {
  type: string;
  text?: string;
  source?: { type: string; media_type: string; data: string };
}

const imageRequests = () => gh.requests.filter((r) => r.path.startsWith('/_private-user-images/'));

describe('images of the issue, end to end', () => {
  it('gives the model the attachment after its [image 1], scales an oversized one and fetches nothing from elsewhere', async () => {
    model = await startAnthropicServer([{ text: 'The chart needs a wider canvas; nothing to change here.' }]);
    const chart = gh.images.attach(pngOf(64, 48, 7));
    // over the 8000 pixels on a side Anthropic accepts
    const wide = gh.images.attach(pngOf(8200, 4, 8));
    const r = await runOn(
      `It looks like this:\n\n![chart](${chart.markdownUrl})\n\nand the log view: ![wide](${wide.markdownUrl})\n\n<img src="${other.url}/pixel.png?who=alice">`,
      {},
    );
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const first = model.requests[0]!.body as { messages: { role: string; content: Block[] }[] };
    const content = first.messages[0]!.content;
    const at = content.findIndex(
      (b) => b.type === 'image' && b.source?.data === chart.bytes.toString('base64'),
    );
    expect(at).toBeGreaterThan(0);
    expect(content[at]!.source!.media_type).toBe('image/png');
    expect(content[at - 1]!.text).toMatch(/It looks like this:\n\n\[image 1\]$/);

    // the wide one: scaled down to fit, with a note saying so, after its mark
    const text = content.map((b) => b.text ?? '<IMAGE>').join('');
    expect(text).toMatch(/and the log view: \[image 2\][\s\S]*scaled down from 8200×4/);
    expect(content.filter((b) => b.type === 'image').map((b) => b.source!.media_type)).toEqual([
      'image/png',
      'image/jpeg',
    ]);

    // the image of the other host: marked, not fetched, by anyone
    expect(text).toContain(`[image 3] (not shown: it is not hosted on GitHub (${new URL(other.url).host}))`);
    expect(other.requests).toHaveLength(0);
    expect(imageRequests().every((q) => q.headers.authorization === undefined)).toBe(true);
  });

  it('gives a model without image input the placeholder and a note, and downloads nothing', async () => {
    model = await startOpenAIChatServer([{ text: 'Nothing to change.' }]);
    const chart = gh.images.attach(pngOf(16, 16, 9));
    const r = await runOn(`It looks like this: ![chart](${chart.markdownUrl})`, {
      provider: 'openai-compatible',
      model: 'local-text-model',
    });
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const raw = model.requests[0]!.raw;
    expect(raw).toContain('It looks like this: [image 1]');
    expect(raw).toContain('the model in use does not take images');
    expect(raw).not.toContain('image_url');
    expect(imageRequests()).toHaveLength(0);
  });

  it('sends no image with images: false', async () => {
    model = await startAnthropicServer([{ text: 'Nothing to change.' }]);
    const chart = gh.images.attach(pngOf(16, 16, 10));
    const r = await runOn(`It looks like this: ![chart](${chart.markdownUrl})`, { images: 'false' });
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const raw = model.requests[0]!.raw;
    expect(raw).toContain('It looks like this: [image]');
    expect(raw).not.toContain('"type":"image"');
    expect(imageRequests()).toHaveLength(0);
    expect(gh.requests.some((q) => q.headers.accept === 'application/vnd.github.full+json')).toBe(false);
  });

  it('downloads no image for a requester without permission, though the context is read beside the check', async () => {
    model = await startAnthropicServer([{ text: 'never asked' }]);
    gh.setPermission('mallory', 'read');
    const chart = gh.images.attach(pngOf(16, 16, 11));
    const mine = gh.images.attach(pngOf(8, 8, 12));
    const r = await runOn(
      `It looks like this: ![chart](${chart.markdownUrl})`,
      {},
      'mallory',
      `/patchloop look at ![mine](${mine.markdownUrl})`,
    );
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    expect(r.outputs.conclusion).toBe('unauthorized');
    expect(model.requests).toHaveLength(0);
    expect(imageRequests()).toHaveLength(0);
  });
});
