// Downloading an earlier run's transcript by REST (following up): artifacts uploaded by the real
// @actions/artifact client to the loopback artifact service, then found and fetched with
// patchloop's GitHub client through the fake GitHub's artifact routes and the signed zip URL.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseArtifactUploader, type ArtifactEnvironment } from '../../src/github/delivery/artifact.js';
import { downloadTranscriptArtifact, readZip } from '../../src/github/follow-up/artifact-download.js';
import { createGitHubClient, type GitHubClient } from '../../src/github/octokit.js';
import { startFakeArtifactService, type FakeArtifactService } from '../fakes/artifact-service.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';

let service: FakeArtifactService;
let gh: FakeGitHub;
let github: GitHubClient;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  service = await startFakeArtifactService();
  gh = await startFakeGitHub();
  service.mountOn(gh);
  github = createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false, retries: 0 });
});
afterAll(async () => {
  process.env = saved;
  await service.stop();
  await gh.stop();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'patchloop-artifact-dl-'));
  service.forbidRestAccess(false);
  return () => rmSync(dir, { recursive: true, force: true });
});

/** A finished job of run `runId` that uploaded its transcript with the real client. */
async function uploadedBy(runId: number, text: string, job = 'patchloop') {
  const identity = service.job({ runId, job });
  const env: ArtifactEnvironment = {
    ACTIONS_RUNTIME_TOKEN: identity.token,
    ACTIONS_RESULTS_URL: service.url,
    GITHUB_REPOSITORY: 'octo/demo',
    GITHUB_RUN_ID: String(runId),
    GITHUB_JOB: job,
  };
  Object.assign(process.env, env);
  const jsonlPath = join(dir, `t-${runId}-${job}.jsonl`);
  const htmlPath = join(dir, `t-${runId}-${job}.html`);
  writeFileSync(jsonlPath, text);
  writeFileSync(htmlPath, `<html>${runId}</html>`);
  const choice = chooseArtifactUploader(env);
  if (!choice.uploader) throw new Error(choice.notice);
  return choice.uploader.uploadTranscript({ jsonlPath, htmlPath, taskNumber: 3 });
}

const options = (runId: number, extra: Partial<Parameters<typeof downloadTranscriptArtifact>[1]> = {}) => ({
  owner: 'octo',
  repo: 'demo',
  runId,
  dest: join(dir, `out-${runId}`),
  ...extra,
});

describe('downloading an earlier run’s transcript', () => {
  it('finds it among the run’s artifacts and unzips transcript.jsonl and transcript.html', async () => {
    const up = await uploadedBy(6001, '{"type":"session","id":"s-6001"}\n');
    // Another artifact of the run that is not patchloop's is passed over.
    service.seed({ runId: 6001, name: 'coverage-report', zip: Buffer.from('not a transcript') });
    const before = service.requests.length;
    const got = await downloadTranscriptArtifact(github, options(6001));
    expect(got).toMatchObject({ ok: true, artifact: { id: up.id, name: up.name, runId: 6001 } });
    if (!got.ok) return;
    expect(readFileSync(got.jsonlPath, 'utf8')).toBe('{"type":"session","id":"s-6001"}\n');
    expect(readFileSync(got.htmlPath!, 'utf8')).toBe('<html>6001</html>');
    expect(got.artifact.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The REST calls carried the token; the storage GET did not.
    expect(gh.requestsTo('GET', /\/actions\/runs\/6001\/artifacts$/)[0]!.headers.authorization).toMatch(
      /ghs_faketoken/,
    );
    const blobGets = service.requests.slice(before).filter((r) => r.kind === 'blob');
    expect(blobGets.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200']);
    expect(blobGets[0]!.headers.authorization).toBeUndefined();
  });

  it('leaves transcript.html in the zip when asked to (a follow-up reads only the JSONL)', async () => {
    await uploadedBy(6011, '{"type":"session","id":"s-6011"}\n');
    const got = await downloadTranscriptArtifact(github, options(6011, { html: false }));
    expect(got).toMatchObject({ ok: true });
    if (!got.ok) return;
    expect(got.htmlPath).toBeUndefined();
    expect(readFileSync(got.jsonlPath, 'utf8')).toBe('{"type":"session","id":"s-6011"}\n');
    expect(got.jsonl.toString('utf8')).toBe('{"type":"session","id":"s-6011"}\n');
    expect(readdirSync(join(dir, 'out-6011'))).toEqual(['transcript.jsonl']);
  });

  it('takes the newest of several, or the one named, or the one whose id is given', async () => {
    const older = await uploadedBy(6002, '{"id":"older"}\n', 'fix-a');
    const newer = await uploadedBy(6002, '{"id":"newer"}\n', 'fix-b');
    const newest = await downloadTranscriptArtifact(github, options(6002));
    expect(newest.ok && newest.artifact.id).toBe(newer.id);
    const named = await downloadTranscriptArtifact(
      github,
      options(6002, { name: older.name, dest: join(dir, 'n') }),
    );
    expect(named.ok && readFileSync(named.jsonlPath, 'utf8')).toBe('{"id":"older"}\n');
    const byId = await downloadTranscriptArtifact(
      github,
      options(6002, { artifactId: older.id, dest: join(dir, 'i') }),
    );
    expect(byId.ok && readFileSync(byId.jsonlPath, 'utf8')).toBe('{"id":"older"}\n');
    expect(gh.requestsTo('GET', new RegExp(`/actions/artifacts/${older.id}$`))).toHaveLength(1);
  });

  it('does not take an id that belongs to another run', async () => {
    const other = await uploadedBy(6003, '{"id":"other"}\n');
    const blobs = () => service.requests.filter((r) => r.kind === 'blob' && r.method === 'GET').length;
    const before = blobs();
    const got = await downloadTranscriptArtifact(github, options(6004, { artifactId: other.id }));
    expect(got).toMatchObject({ ok: false, reason: 'not-found' });
    expect(got.ok === false && got.message).toContain('not from run 6004');
    // its redirect may be asked for beside its description; the zip itself is never fetched
    expect(blobs()).toBe(before);
    expect(gh.requestsTo('GET', new RegExp(`/actions/artifacts/${other.id}$`))).toHaveLength(1);
  });

  it('says the artifact expired, by listing and on the 410 of the zip route', async () => {
    const up = await uploadedBy(6005, '{"id":"old"}\n');
    service.expire(up.id!);
    const got = await downloadTranscriptArtifact(github, options(6005));
    expect(got).toMatchObject({ ok: false, reason: 'expired', artifact: { id: up.id } });
    // The route itself: 410 Gone (operations["actions/download-artifact"]).
    await expect(
      github.request('GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', {
        owner: 'octo',
        repo: 'demo',
        artifact_id: up.id!,
        archive_format: 'zip',
        request: { redirect: 'manual' },
      }),
    ).rejects.toMatchObject({ status: 410 });
  });

  it('says what permission is missing when GitHub refuses (403)', async () => {
    await uploadedBy(6006, '{"id":"private"}\n');
    service.forbidRestAccess();
    const got = await downloadTranscriptArtifact(github, options(6006));
    expect(got).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(got.ok === false && got.message).toMatch(/actions: read/);
  });

  it('says so when the run uploaded no transcript', async () => {
    const got = await downloadTranscriptArtifact(github, options(6007));
    expect(got).toMatchObject({ ok: false, reason: 'not-found' });
    expect(got.ok === false && got.message).toBe('Run 6007 has no patchloop transcript artifact.');
  });

  it('takes only transcript.jsonl at the top of the zip: an entry in a folder does not count', async () => {
    const identity = service.job({ runId: 6008, job: 'patchloop' });
    const env: ArtifactEnvironment = {
      ACTIONS_RUNTIME_TOKEN: identity.token,
      ACTIONS_RESULTS_URL: service.url,
      GITHUB_RUN_ID: '6008',
    };
    Object.assign(process.env, env);
    mkdirSync(join(dir, 'nested', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'nested', 'sub', 'transcript.jsonl'), '{"id":"nested"}\n');
    const choice = chooseArtifactUploader(env);
    if (!choice.uploader) throw new Error(choice.notice);
    await choice.uploader.upload(
      'patchloop-transcript-nested',
      [join(dir, 'nested', 'sub', 'transcript.jsonl')],
      join(dir, 'nested'),
    );
    const got = await downloadTranscriptArtifact(github, options(6008));
    expect(got).toMatchObject({ ok: false, reason: 'not-found' });
    expect(got.ok === false && got.message).toMatch(/holds no transcript\.jsonl/);
  });

  it('refuses a zip that does not match the artifact’s digest', async () => {
    const up = await uploadedBy(6010, '{"id":"tampered"}\n');
    const artifact = service.artifacts.find((a) => a.id === up.id)!;
    const blob = service.blobs.get(artifact.blobPath)!;
    blob.committed = Buffer.concat([blob.committed!, Buffer.from('trailing bytes')]);
    const got = await downloadTranscriptArtifact(github, options(6010));
    expect(got).toMatchObject({ ok: false, reason: 'failed' });
    expect(got.ok === false && got.message).toMatch(/does not match its digest/);
  });

  it('refuses a zip larger than the limit, and a damaged one', async () => {
    const up = await uploadedBy(6009, `${'{"pad":"x"}\n'.repeat(2000)}`);
    const small = await downloadTranscriptArtifact(github, options(6009, { maxBytes: 100 }));
    expect(small).toMatchObject({ ok: false, reason: 'failed' });
    expect(small.ok === false && small.message).toMatch(/more than the 100/);
    const zip = Buffer.from(service.zipOf(up.id!));
    const entries = await readZip(zip, { only: ['transcript.jsonl'], maxBytes: 1 << 20 });
    expect(entries.get('transcript.jsonl')!.length).toBe(2000 * 12);
    // Flip one byte in the middle of the entry's deflated data: the CRC (or inflate) catches it.
    const nameAt = (at: number) => zip.toString('utf8', at + 30, at + 30 + zip.readUInt16LE(at + 26));
    let local = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    while (nameAt(local) !== 'transcript.jsonl')
      local = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), local + 4);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const at = data + 20;
    zip[at] = zip[at]! ^ 0xff;
    await expect(readZip(zip, { only: ['transcript.jsonl'], maxBytes: 1 << 20 })).rejects.toThrow();
  });
});
