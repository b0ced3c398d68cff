// A runner behind a proxy: every request patchloop's own process makes (GitHub's REST API, the
// model, the artifact store, image downloads) goes through HTTPS_PROXY / HTTP_PROXY unless
// NO_PROXY names its host. The fakes have host names only the loopback proxy resolves, so a
// request that bypassed it would fail instead of quietly reaching them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getIDToken } from '../../src/action/runner-commands.js';
import { downloadImage } from '../../src/github/context/images.js';
import { nodeFetch } from '../../src/providers/node-fetch.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { startFakeArtifactService, type FakeArtifactService } from '../fakes/artifact-service.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';
import { pngOf } from '../fakes/png.js';
import { startFakeProxy, type FakeProxy } from '../fakes/proxy.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';
import { issueComment } from '../github/payloads.js';
import { buildAction, runAction, type BuiltAction } from './harness.js';

const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-api03-proxy-e2e-key-0123456789abcdef';
const GITHUB_HOST = 'api.github.test';
const MODEL_HOST = 'models.test';
const ARTIFACT_HOST = 'artifacts.test';
const IMAGE_HOST = 'images.test';
// An address of this machine that the toolkit's proxy rules do not treat as loopback (they skip
// localhost, 127.* and [::1] whatever NO_PROXY says), so only NO_PROXY can keep it off the proxy.
const MAPPED_LOOPBACK = '[::ffff:7f00:1]';
const OIDC_HOST = 'token.actions.test';

const onHost = (url: string, host: string) => url.replace('127.0.0.1', host);

describe('patchloop fetch behind a proxy (in process)', () => {
  let proxy: FakeProxy;
  let server: Server;
  let port: number;
  const saved = { ...process.env };
  beforeEach(async () => {
    proxy = await startFakeProxy([MODEL_HOST, IMAGE_HOST, 'other.test', OIDC_HOST]);
    server = createServer((req, res) => {
      if (req.url === '/image.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(pngOf(2, 2));
      } else if (req.url?.startsWith('/oidc?')) {
        const audience = new URL(req.url, 'http://x').searchParams.get('audience');
        const ok = req.headers.authorization === 'Bearer oidc-request-token';
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ value: `jwt-for-${audience}` }));
      } else if (req.url === '/elsewhere.png') {
        res.writeHead(302, { location: `http://other.test:${port}/image.png` });
        res.end();
      } else res.end(`hello from ${req.headers.host}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    process.env.HTTP_PROXY = proxy.url;
    process.env.HTTPS_PROXY = proxy.url;
  });
  afterEach(async () => {
    process.env = { ...saved };
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await proxy.close();
  });

  it('sends a request through HTTP_PROXY, with activity reported as before', async () => {
    let activity = 0;
    const res = await nodeFetch(`http://${MODEL_HOST}:${port}/v1/messages`, undefined, () => activity++);
    expect(await res.text()).toBe(`hello from ${MODEL_HOST}:${port}`);
    expect(activity).toBeGreaterThanOrEqual(2);
    expect(proxy.seen).toEqual([{ via: 'connect', host: MODEL_HOST, port }]);
  });

  it('sends the credentials of the proxy URL as Proxy-Authorization', async () => {
    process.env.HTTP_PROXY = proxy.url.replace('http://', 'http://runner:s%3Acret@');
    const res = await nodeFetch(`http://${MODEL_HOST}:${port}/`);
    expect(res.status).toBe(200);
    await res.text();
    const expected = `Basic ${Buffer.from('runner:s:cret').toString('base64')}`;
    expect(proxy.seen).toEqual([{ via: 'connect', host: MODEL_HOST, port, proxyAuthorization: expected }]);
  });

  it('goes direct to a host NO_PROXY names, and to loopback', async () => {
    process.env.NO_PROXY = `example.org, ${MAPPED_LOOPBACK}`;
    const mapped = await nodeFetch(`http://${MAPPED_LOOPBACK}:${port}/`);
    expect(await mapped.text()).toBe(`hello from ${MAPPED_LOOPBACK}:${port}`);
    const loopback = await nodeFetch(`http://127.0.0.1:${port}/`);
    expect(loopback.status).toBe(200);
    await loopback.text();
    expect(proxy.seen).toEqual([]);
    // and without NO_PROXY the same address goes through the proxy
    delete process.env.NO_PROXY;
    const proxied = await nodeFetch(`http://${MAPPED_LOOPBACK}:${port}/`);
    await proxied.text();
    expect(proxy.seen).toEqual([{ via: 'connect', host: MAPPED_LOOPBACK, port }]);
  });

  it("gets the job's OIDC token (the toolkit's getIDToken) through the proxy, and masks it", async () => {
    process.env.ACTIONS_ID_TOKEN_REQUEST_URL = `http://${OIDC_HOST}:${port}/oidc?api-version=2.0`;
    process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = 'oidc-request-token';
    const written: string[] = [];
    const original = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    let token: string;
    try {
      token = await getIDToken('sts.amazonaws.com');
    } finally {
      process.stdout.write = original;
    }
    expect(token).toBe('jwt-for-sts.amazonaws.com');
    expect(written.join('')).toContain('::add-mask::jwt-for-sts.amazonaws.com');
    expect(proxy.hostsSeen()).toEqual(new Set([OIDC_HOST]));
  });

  it('downloads an image through the proxy, and still refuses a redirect to another host', async () => {
    const allowed = (u: URL) => u.hostname === IMAGE_HOST || u.hostname === 'other.test';
    const ok = await downloadImage(`http://${IMAGE_HOST}:${port}/image.png`, allowed);
    expect(ok).toMatchObject({ ok: true, image: { mimeType: 'image/png' } });
    const moved = await downloadImage(`http://${IMAGE_HOST}:${port}/elsewhere.png`, allowed);
    expect(moved).toEqual({
      ok: false,
      reason: `its address redirects to another host (other.test:${port})`,
    });
    expect(proxy.hostsSeen()).toEqual(new Set([IMAGE_HOST]));
  });
});

/** Run 1 edits and reports; run 2 follows it up, downloading run 1's transcript artifact. */
const FIRST: AnthropicTurn[] = [
  {
    toolCalls: [
      {
        id: 'toolu_p1',
        name: 'write_file',
        json: JSON.stringify({ path: 'NOTES.md', content: 'through the proxy\n' }),
      },
    ],
    usage: { input: 400, output: 20 },
  },
  { text: 'Wrote the note.', usage: { input: 500, output: 10 } },
];
const SECOND: AnthropicTurn[] = [{ text: 'Nothing more to do.', usage: { input: 900, output: 10 } }];

describe('the action behind a proxy', () => {
  let action: BuiltAction;
  beforeAll(async () => {
    action = await buildAction();
  });
  afterAll(() => action.cleanup());

  let gh: FakeGitHub;
  let service: FakeArtifactService;
  let proxy: FakeProxy;
  let repo: RepoFixture;
  const models: FakeProviderServer[] = [];
  const cleanups: (() => void)[] = [];
  beforeEach(async () => {
    gh = await startFakeGitHub();
    gh.setPermission('alice', 'write');
    service = await startFakeArtifactService();
    service.mountOn(gh);
    // Every URL the fakes hand out names them by host names only the proxy resolves.
    gh.url = onHost(gh.url, GITHUB_HOST);
    service.url = onHost(service.url, ARTIFACT_HOST);
    proxy = await startFakeProxy([GITHUB_HOST, MODEL_HOST, ARTIFACT_HOST]);
    repo = makeRepo({ 'README.md': '# demo\n' });
  });
  afterEach(async () => {
    await gh.stop();
    await service.stop();
    await proxy.close();
    for (const m of models.splice(0)) await m.close();
    repo.cleanup();
    for (const c of cleanups.splice(0)) c();
  });

  async function job(o: {
    runId: number;
    issue: { number: number; title: string };
    comment: { id: number; body: string };
    turns: AnthropicTurn[];
    workspace: string;
    modelHost: string;
    env?: Record<string, string>;
  }) {
    const model = await startAnthropicServer((_req, i) => o.turns[i]!);
    models.push(model);
    // a follow-up confirms the earlier run as one of this repository's workflow runs
    gh.addRun({ id: o.runId });
    const identity = service.job({ runId: o.runId, job: 'patchloop' });
    const r = await runAction({
      script: action.path,
      workspace: o.workspace,
      apiUrl: gh.url,
      eventName: 'issue_comment',
      runId: String(o.runId),
      payload: issueComment({
        issue: o.issue,
        comment: { ...o.comment, author: { login: 'alice', id: 4242 } },
      }),
      inputs: { 'github-token': TOKEN, 'api-key': API_KEY, 'base-url': onHost(model.url, o.modelHost) },
      env: {
        ACTIONS_RUNTIME_TOKEN: identity.token,
        ACTIONS_RESULTS_URL: service.url,
        GITHUB_JOB: 'patchloop',
        HTTP_PROXY: proxy.url,
        HTTPS_PROXY: proxy.url,
        ...o.env,
      },
      timeoutMs: 90_000,
    });
    cleanups.push(r.cleanup);
    return { r, model };
  }

  it('reaches GitHub, the model and the artifact store only through it, and leaves NO_PROXY hosts alone', async () => {
    const title = 'Add a note';
    const issue = gh.addIssue({ title });
    const trigger = gh.addComment(issue.number, { body: '/patchloop add a note', author: 'alice' });
    const one = await job({
      runId: 8101,
      issue: { number: issue.number, title },
      comment: { id: trigger.id, body: trigger.body },
      turns: FIRST,
      workspace: repo.work,
      modelHost: MODEL_HOST,
    });
    expect(one.r.code, one.r.stderr.slice(-3000) + one.r.stdout.slice(-3000)).toBe(0);
    expect(one.r.outputs).toMatchObject({ conclusion: 'success' });
    expect(git(repo.origin, 'show', `${one.r.outputs.branch}:NOTES.md`)).toContain('through the proxy');
    expect(one.model.requests).toHaveLength(2);
    expect(service.artifacts.filter((a) => a.finalized)).toHaveLength(1);
    expect(
      gh.commentsOn(issue.number).some((c) => c.id !== trigger.id && /Wrote the note/.test(c.body)),
    ).toBe(true);
    // GitHub, the model, and the artifact service (its API and its blob store) all went through it.
    expect(proxy.hostsSeen()).toEqual(new Set([GITHUB_HOST, MODEL_HOST, ARTIFACT_HOST]));
    expect(proxy.refused).toEqual([]);

    // Run 2 follows up: it downloads run 1's transcript (the REST redirect to the signed URL on
    // the artifact host) through the proxy; the model is on an address NO_PROXY names.
    const seenBefore = proxy.seen.length;
    const again = gh.addComment(issue.number, { body: '/patchloop anything else?', author: 'alice' });
    const blobReads = () => service.requests.filter((q) => q.kind === 'blob' && q.method === 'GET').length;
    const downloadsBefore = blobReads();
    const two = await job({
      runId: 8102,
      issue: { number: issue.number, title },
      comment: { id: again.id, body: again.body },
      turns: SECOND,
      workspace: repo.clone('second'),
      modelHost: MAPPED_LOOPBACK,
      env: { NO_PROXY: `${MAPPED_LOOPBACK},example.org` },
    });
    expect(two.r.code, two.r.stderr.slice(-3000) + two.r.stdout.slice(-3000)).toBe(0);
    expect(two.model.requests).toHaveLength(1);
    // run 1's conversation reached the model: the artifact was downloaded
    expect(JSON.stringify(two.model.requests[0]!.body)).toContain('toolu_p1');
    expect(blobReads()).toBeGreaterThan(downloadsBefore);
    const second = new Set(proxy.seen.slice(seenBefore).map((s) => s.host));
    expect(second).toEqual(new Set([GITHUB_HOST, ARTIFACT_HOST]));
    expect(proxy.refused).toEqual([]);
  });
});
