// Images of the issue and its comments reach the model where they stood (CONTRACT §5), fetched
// over real HTTP from the fake GitHub (its `body_html` and signed attachment URLs) by the real
// Octokit, and never from anywhere else.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  gatherContext,
  renderTaskMessage,
  renderTaskPrompt,
  type ContextOptions,
} from '../../src/github/context/context.js';
import { taskFromEvent } from '../../src/github/context/event.js';
import {
  downloadImages,
  imageHostCheck,
  imageRefs,
  sniffImageType,
} from '../../src/github/context/images.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import type { Task } from '../../src/github/context/task.js';
import type { ImageContent, UserContent, UserMessage } from '../../src/protocol/types.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import { pngOf } from '../fakes/png.js';
import { issueComment } from './payloads.js';

/** A server that is not GitHub: it records every request it gets. */
async function startOtherHost(): Promise<{
  url: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(pngOf(2, 2));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let gh: FakeGitHub;
let other: Awaited<ReturnType<typeof startOtherHost>>;
beforeAll(async () => {
  gh = await startFakeGitHub();
  other = await startOtherHost();
});
afterAll(async () => {
  await gh.stop();
  await other.close();
});
beforeEach(() => {
  gh.requests.length = 0;
  other.requests.length = 0;
});

const github = () =>
  createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false, retryAfterBaseValue: 1 });
const opts = { triggerPhrase: '/patchloop', labelTrigger: 'patchloop', prompt: '', repository: 'octo/demo' };

/** An issue with `body`, earlier `comments`, and the triggering comment `request`. */
function scenario(body: string, request: string, comments: string[] = []): Task {
  const issue = gh.addIssue({ title: 'The chart is cut off', body, createdAt: '2026-03-02T10:00:00Z' });
  comments.forEach((text, i) =>
    gh.addComment(issue.number, { body: text, author: 'carol', createdAt: `2026-03-02T11:0${i}:00Z` }),
  );
  const trigger = gh.addComment(issue.number, {
    body: request,
    author: 'alice',
    createdAt: '2026-03-02T12:00:00Z',
  });
  const d = taskFromEvent(
    'issue_comment',
    issueComment({
      issue: { number: issue.number, title: issue.title, body: issue.body },
      comment: { id: trigger.id, body: trigger.body, createdAt: trigger.created_at },
    }),
    opts,
  );
  if (!d.run) throw new Error(d.reason);
  return d.task;
}

const fetching = (more: Partial<{ maxBytes: number; maxImages: number }> = {}): ContextOptions => ({
  botLogins: ['github-actions[bot]'],
  images: { mode: 'fetch', fetch: { serverUrl: 'https://github.com', apiUrl: gh.url, ...more } },
});

const imageRequests = () => gh.requests.filter((r) => r.path.startsWith('/_private-user-images/'));
const blocks = (m: UserMessage): UserContent[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
const textOf = (content: UserContent[]) =>
  content.map((c) => (c.type === 'text' ? c.text : '<IMAGE>')).join('');

describe('images of the issue and its comments', () => {
  it('gives each attachment as an image block with exactly its bytes, right after its [image n]', async () => {
    const chart = gh.images.attach(pngOf(40, 30, 1));
    const log = gh.images.attach(pngOf(20, 10, 2));
    const task = scenario(
      `The chart is cut off:\n\n![chart](${chart.markdownUrl})\n\nSee the legend.`,
      `/patchloop fix it, this is what I get now: <img width="300" alt="now" src="${log.markdownUrl}" />`,
      [`Same here ![mine](${chart.markdownUrl})`],
    );
    const ctx = await gatherContext(github(), task, fetching());
    const message = renderTaskMessage(task, ctx);
    expect(message.role).toBe('user');
    const content = blocks(message);

    const images = content.filter((c): c is ImageContent => c.type === 'image');
    // the request comes first in the message, then the body; the comment's copy is the same image
    expect(images.map((i) => i.data)).toEqual([log.bytes.toString('base64'), chart.bytes.toString('base64')]);
    expect(images.every((i) => i.mimeType === 'image/png')).toBe(true);
    const at = (img: ImageContent) => content.indexOf(img);
    const before = (img: ImageContent) => content[at(img) - 1]!;
    expect(before(images[0]!)).toMatchObject({ type: 'text' });
    expect((before(images[0]!) as { text: string }).text).toMatch(/this is what I get now: \[image 1\]$/);
    expect((before(images[1]!) as { text: string }).text).toMatch(/The chart is cut off:\n\n\[image 2\]$/);
    const text = textOf(content);
    expect(text).toContain('See the legend.');
    expect(text).toContain('Same here [image 2]');
    expect(text).toContain('the image itself follows the mark');

    // one download each, without the token; the rendering asked for as full+json
    expect(imageRequests()).toHaveLength(2);
    expect(imageRequests().every((r) => r.headers.authorization === undefined)).toBe(true);
    const full = gh.requests.filter((r) => r.headers.accept === 'application/vnd.github.full+json');
    expect(full.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        `/repos/octo/demo/issues/${task.number}`,
        `/repos/octo/demo/issues/${task.number}/comments`,
      ]),
    );
  });

  it('never fetches an image of another host, directly, through GitHub’s proxy or by a redirect', async () => {
    gh.images.raw.set('/_raw/moved.png', { status: 302, headers: { location: `${other.url}/moved.png` } });
    const task = scenario(
      `Broken: ![outside](${other.url}/tracker.png?user=alice)`,
      `/patchloop fix <img src="${gh.url}/_raw/moved.png">`,
    );
    const ctx = await gatherContext(github(), task, fetching());
    const content = blocks(renderTaskMessage(task, ctx));
    expect(content.some((c) => c.type === 'image')).toBe(false);
    const text = textOf(content);
    expect(text).toContain(
      `[image 1] (not shown: its address redirects to another host (${new URL(other.url).host}))`,
    );
    expect(text).toContain(
      `Broken: [image 2] (not shown: it is not hosted on GitHub (${new URL(other.url).host}))`,
    );

    const direct = await downloadImages([`${other.url}/direct.png`], {
      serverUrl: 'https://github.com',
      apiUrl: gh.url,
    });
    expect(direct[0]).toMatchObject({ ok: false, reason: expect.stringContaining('not hosted on GitHub') });
    // the proxy was not asked either (it would have asked the other host)
    expect(gh.requests.filter((r) => r.path.startsWith('/_camo/'))).toHaveLength(0);
    expect(other.requests).toHaveLength(0);
  });

  it('leaves out, each with a note, what is not an image, what is too large and what comes after the tenth', async () => {
    gh.images.raw.set('/_raw/fake.png', {
      status: 200,
      headers: { 'content-type': 'image/png' },
      body: '<html>not an image</html>',
    });
    const big = gh.images.attach(pngOf(200, 200, 3));
    const many = Array.from({ length: 11 }, (_, i) => gh.images.attach(pngOf(4, 4, 10 + i)));
    const task = scenario(
      [
        `![fake](${gh.url}/_raw/fake.png)`,
        `![big](${big.markdownUrl})`,
        ...many.map((a) => `![s](${a.markdownUrl})`),
      ].join('\n\n'),
      '/patchloop fix it',
    );
    const ctx = await gatherContext(github(), task, fetching({ maxBytes: 64 * 1024 }));
    const content = blocks(renderTaskMessage(task, ctx));
    const text = textOf(content);
    expect(text).toContain('[image 1] (not shown: it is not a PNG, JPEG, GIF or WebP image)');
    expect(text).toContain('[image 2] (not shown: it is larger than');
    // ten downloads: the fake file, the big one and eight small ones; the last three not tried
    expect(content.filter((c) => c.type === 'image')).toHaveLength(8);
    expect(text.match(/not shown: only the first 10 images are given/g)).toHaveLength(3);
    expect(imageRequests().length + gh.requests.filter((r) => r.path === '/_raw/fake.png').length).toBe(10);
  });

  it('gives a model without image input the places only, with a note, and reads nothing more for it', async () => {
    const chart = gh.images.attach(pngOf(8, 8, 4));
    const task = scenario(
      `Look: ![chart](${chart.markdownUrl}) and ![again](${chart.markdownUrl})`,
      '/patchloop fix it',
    );
    const ctx = await gatherContext(github(), task, { botLogins: [], images: { mode: 'placeholders' } });
    const content = blocks(renderTaskMessage(task, ctx));
    expect(content).toHaveLength(1);
    const text = textOf(content);
    expect(text).toContain('Look: [image 1] and [image 1]');
    expect(text).toContain('an image, marked [image 1]; the model in use does not take images');
    expect(gh.requests.some((r) => r.headers.accept === 'application/vnd.github.full+json')).toBe(false);
    expect(imageRequests()).toHaveLength(0);
  });

  it('sends no image for one in code or in a hidden comment, and leaves the text as before when off', async () => {
    const inCode = gh.images.attach(pngOf(4, 4, 5));
    const hidden = gh.images.attach(pngOf(4, 4, 6));
    const body = `Repro:\n\n\`\`\`md\n![x](${inCode.markdownUrl})\n\`\`\`\n\n<!-- ![y](${hidden.markdownUrl}) -->\nText [image 1] typed by hand.`;
    const task = scenario(body, '/patchloop fix it');
    const ctx = await gatherContext(github(), task, fetching());
    const content = blocks(renderTaskMessage(task, ctx));
    expect(content.some((c) => c.type === 'image')).toBe(false);
    expect(imageRequests()).toHaveLength(0);
    expect(textOf(content)).not.toContain(hidden.uuid);

    // images off: no option, no rendering asked for, the same text as renderTaskPrompt
    gh.requests.length = 0;
    const off = await gatherContext(github(), task, { botLogins: [] });
    expect(off.images).toBeUndefined();
    expect(renderTaskMessage(task, off).content).toBe(renderTaskPrompt(task, off));
    expect(gh.requests.some((r) => r.headers.accept === 'application/vnd.github.full+json')).toBe(false);
  });

  it('costs an issue without images no request more', async () => {
    const task = scenario('Nothing to see, just words.', '/patchloop fix it', ['a comment without pictures']);
    await gatherContext(github(), task, { botLogins: [] });
    const without = gh.requests.map((r) => `${r.method} ${r.path}`);
    gh.requests.length = 0;
    const ctx = await gatherContext(github(), task, fetching());
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual(without);
    expect(renderTaskMessage(task, ctx).content).toBe(renderTaskPrompt(task, ctx));
  });
});

describe('the rules of a download', () => {
  it('allows https on GitHub’s hosts and the configured origins only (plain http only where configured on loopback)', () => {
    const allowed = imageHostCheck('https://github.com', 'http://127.0.0.1:4000');
    const ok = (u: string) => allowed(new URL(u));
    expect(ok('https://private-user-images.githubusercontent.com/1/2-x.png?jwt=a')).toBe(true);
    expect(ok('https://user-images.githubusercontent.com/1/2.png')).toBe(true);
    expect(ok('https://github.com/user-attachments/assets/x')).toBe(true);
    expect(ok('http://127.0.0.1:4000/_private-user-images/x')).toBe(true);
    expect(ok('http://127.0.0.1:4001/x.png')).toBe(false);
    expect(ok('http://github.com/x.png')).toBe(false);
    expect(ok('http://user-images.githubusercontent.com/1.png')).toBe(false);
    expect(ok('https://camo.githubusercontent.com/abc/def')).toBe(false);
    expect(ok('https://githubusercontent.com.evil.example/x.png')).toBe(false);
    expect(ok('https://evil.example/x.png')).toBe(false);
    expect(ok('https://user:pw@github.com/x.png')).toBe(false);
    // an http server URL off loopback allows nothing over http
    expect(
      imageHostCheck(
        'http://ghe.example',
        'http://ghe.example/api/v3',
      )(new URL('http://ghe.example/storage/x')),
    ).toBe(false);
    expect(
      imageHostCheck(
        'https://ghe.example',
        'https://ghe.example/api/v3',
      )(new URL('https://ghe.example/storage/user/5/files/x')),
    ).toBe(true);
  });

  it('tells the four image formats by their first bytes', () => {
    expect(sniffImageType(pngOf(1, 1))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });

  it('finds images written as markdown, by reference and as <img>, in order', () => {
    const refs = imageRefs(
      'a ![x](https://a/1.png "t") b <img alt="y" src=\'https://a/2.png\'> c ![z][r]\n\n[r]: <https://a/3.png>\n',
    );
    expect(refs.map((r) => r.url)).toEqual(['https://a/1.png', 'https://a/2.png', 'https://a/3.png']);
  });
});
