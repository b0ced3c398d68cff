// The transcript upload through the official @actions/artifact client, unchanged, against the
// loopback artifact service: Twirp calls with the runtime token, the block-blob upload to the signed
// URL, FinalizeArtifact; then the same client lists and downloads what was uploaded, within the run
// (Twirp) and from another run by REST with a token.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chooseArtifactUploader,
  transcriptArtifactName,
  type ArtifactEnvironment,
} from '../../src/github/delivery/artifact.js';
import { readZip } from '../../src/github/follow-up/artifact-download.js';
import {
  startFakeArtifactService,
  type FakeArtifactService,
  type FakeJobIdentity,
} from '../fakes/artifact-service.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';

let service: FakeArtifactService;
let gh: FakeGitHub;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  service = await startFakeArtifactService();
  gh = await startFakeGitHub();
  service.mountOn(gh);
  // @actions/github fixes its base URL when first loaded: set before the artifact client loads.
  process.env.GITHUB_API_URL = gh.url;
  process.env.GITHUB_SERVER_URL = 'https://github.com';
  process.env.ACTIONS_RESULTS_URL = service.url;
});
afterAll(async () => {
  process.env = saved;
  await service.stop();
  await gh.stop();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'patchloop-artifact-'));
  return () => rmSync(dir, { recursive: true, force: true });
});

/** The runner's environment for one job, also put into process.env, which the client reads. */
function asJob(identity: FakeJobIdentity): ArtifactEnvironment {
  const env: ArtifactEnvironment = {
    ACTIONS_RUNTIME_TOKEN: identity.token,
    ACTIONS_RESULTS_URL: service.url,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'octo/demo',
    GITHUB_RUN_ID: String(identity.runId),
    GITHUB_RUN_ATTEMPT: String(identity.runAttempt),
    GITHUB_JOB: identity.job,
  };
  Object.assign(process.env, env);
  return env;
}

function transcriptFiles(text = '{"type":"session","version":1}\n'): { jsonlPath: string; htmlPath: string } {
  const jsonlPath = join(dir, 'transcript-7.jsonl');
  const htmlPath = join(dir, 'transcript-7.html');
  writeFileSync(jsonlPath, text);
  writeFileSync(htmlPath, '<!doctype html><html><body>run</body></html>\n');
  return { jsonlPath, htmlPath };
}

async function upload(identity: FakeJobIdentity, text?: string) {
  const env = asJob(identity);
  const choice = chooseArtifactUploader(env);
  if (!choice.uploader) throw new Error(choice.notice);
  return choice.uploader.uploadTranscript({ ...transcriptFiles(text), taskNumber: 7 });
}

describe('the transcript upload', () => {
  it('goes through CreateArtifact, the block-blob PUTs and FinalizeArtifact, and gives the id and page', async () => {
    const job = service.job({ runId: 5001, job: 'patchloop' });
    const jsonl = `${JSON.stringify({ type: 'session', version: 1, id: 'x'.repeat(5000) })}\n`;
    const before = service.requests.length;
    const uploaded = await upload(job, jsonl);
    const wire = service.requests.slice(before);

    const artifact = service.artifacts.find((a) => a.name === uploaded.name)!;
    expect(artifact).toMatchObject({ finalized: true, runId: 5001, mimeType: 'application/zip', version: 7 });
    expect(uploaded.id).toBe(artifact.id);
    expect(uploaded.url).toBe(`https://github.com/octo/demo/actions/runs/5001/artifacts/${artifact.id}`);
    expect(uploaded.name).toMatch(/^patchloop-transcript-7-5001-1-patchloop-[0-9a-f]{8}$/);

    // The wire, in order: Twirp with the runtime token, then the blob with no token at all.
    expect(wire.map((r) => `${r.kind} ${r.status}`)).toEqual([
      'CreateArtifact 200',
      'blob 201',
      'blob 201',
      'FinalizeArtifact 200',
    ]);
    const [create, stage, commit] = wire;
    expect(create!.headers.authorization).toBe(`Bearer ${job.token}`);
    expect(stage!.query.get('comp')).toBe('block');
    expect(commit!.query.get('comp')).toBe('blocklist');
    expect(stage!.headers.authorization).toBeUndefined();

    // The zip, read by the system's unzip as well as by patchloop's reader: the contract's names.
    const zip = service.zipOf(artifact.id);
    expect(artifact.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const zipPath = join(dir, 'a.zip');
    writeFileSync(zipPath, zip);
    const listing = tryUnzipList(zipPath);
    if (listing !== undefined) expect(listing.sort()).toEqual(['transcript.html', 'transcript.jsonl']);
    const entries = await readZip(zip, { only: ['transcript.jsonl', 'transcript.html'], maxBytes: 1 << 20 });
    expect(entries.get('transcript.jsonl')!.toString('utf8')).toBe(jsonl);
    expect(entries.get('transcript.html')!.toString('utf8')).toContain('<html>');
  });

  it('names each job apart: two matrix legs (same run and GITHUB_JOB) both upload', async () => {
    const a = service.job({ runId: 5002, job: 'patchloop' });
    const b = service.job({ runId: 5002, job: 'patchloop' });
    const first = await upload(a);
    const second = await upload(b);
    expect(first.name).not.toBe(second.name);
    expect(first.id).not.toBe(second.id);
    // Different job ids give different names even without the token's help.
    expect(transcriptArtifactName({ GITHUB_RUN_ID: '1', GITHUB_JOB: 'fix' }, 3)).toBe(
      'patchloop-transcript-3-1-1-fix',
    );
    expect(transcriptArtifactName({ GITHUB_RUN_ID: '1', GITHUB_JOB: 'fix-2' }, 3)).toBe(
      'patchloop-transcript-3-1-1-fix-2',
    );
    expect(transcriptArtifactName({ GITHUB_RUN_ID: '1', GITHUB_JOB: 'a/b:c' })).toBe(
      'patchloop-transcript-1-1-a-b-c',
    );
  });

  it('fails as the service does when a name is taken on the run (409 already_exists)', async () => {
    const job = service.job({ runId: 5003, job: 'patchloop' });
    await upload(job);
    await expect(upload(job)).rejects.toThrow(
      /\(409\) Conflict: an artifact with this name already exists on the workflow run/,
    );
  });

  it('is refused with a token the service did not issue', async () => {
    const job = service.job({ runId: 5004, job: 'patchloop' });
    const [h, p] = job.token.split('.');
    await expect(
      upload({ ...job, token: `${h}.${p}.${Buffer.from('forged').toString('base64url')}` }),
    ).rejects.toThrow(/\(401\) Unauthorized: invalid or missing runtime token/);
    expect(service.artifacts.filter((a) => a.runId === 5004)).toEqual([]);
  });

  it('is skipped with a notice when the runner gives no runtime token', () => {
    const choice = chooseArtifactUploader({ ACTIONS_RESULTS_URL: service.url });
    expect(choice.uploader).toBeUndefined();
    expect(choice.uploader === undefined && choice.notice).toMatch(/no ACTIONS_RUNTIME_TOKEN/);
  });
});

describe('the same client reading back', () => {
  it('lists and downloads within the run, over Twirp and the signed URL', async () => {
    const job = service.job({ runId: 5101, job: 'patchloop' });
    const uploaded = await upload(job, '{"type":"session","version":1,"id":"within"}\n');
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const client = new DefaultArtifactClient();
    const { artifacts } = await client.listArtifacts();
    expect(artifacts.map((a) => a.name)).toEqual([uploaded.name]);
    expect(artifacts[0]!.digest).toMatch(/^sha256:/);
    const { artifact } = await client.getArtifact(uploaded.name);
    expect(artifact.id).toBe(uploaded.id);
    const out = join(dir, 'internal');
    const res = await client.downloadArtifact(uploaded.id!, { path: out, expectedHash: artifact.digest });
    expect(res.digestMismatch).toBe(false);
    expect(readFileSync(join(out, 'transcript.jsonl'), 'utf8')).toContain('"within"');
    const { id } = await client.deleteArtifact(uploaded.name);
    expect(id).toBe(uploaded.id);
    expect((await client.listArtifacts()).artifacts).toEqual([]);
  });

  it('lists and downloads another run by REST with a token (the 302 to the signed zip)', async () => {
    const earlier = service.job({ runId: 5201, job: 'patchloop' });
    const uploaded = await upload(earlier, '{"type":"session","version":1,"id":"earlier"}\n');
    asJob(service.job({ runId: 5202, job: 'patchloop' }));
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const client = new DefaultArtifactClient();
    const findBy = {
      token: 'ghs_faketoken',
      workflowRunId: 5201,
      repositoryOwner: 'octo',
      repositoryName: 'demo',
    };
    const { artifacts } = await client.listArtifacts({ findBy });
    expect(artifacts).toEqual([
      expect.objectContaining({ id: uploaded.id, name: uploaded.name, size: expect.any(Number) }),
    ]);
    const out = join(dir, 'public');
    await client.downloadArtifact(uploaded.id!, { path: out, findBy });
    expect(readFileSync(join(out, 'transcript.jsonl'), 'utf8')).toContain('"earlier"');
    const zipRequest = gh.requestsTo('GET', new RegExp(`/actions/artifacts/${uploaded.id}/zip$`));
    expect(zipRequest.map((r) => r.status)).toEqual([302]);
    // The current run's own listing does not show the other run's artifact.
    expect((await client.listArtifacts()).artifacts).toEqual([]);
  });
});

/** `unzip -Z1` when the system has it: an independent reading of the archive. */
function tryUnzipList(path: string): string[] | undefined {
  try {
    return execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).trim().split('\n');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
