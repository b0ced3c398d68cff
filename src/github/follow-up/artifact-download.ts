// Fetching an earlier run's transcript artifact by REST, for following up on a session
// (CONTRACT §5): list the run's artifacts, pick patchloop's transcript, download its zip through the
// 302 to a signed URL, and take transcript.jsonl (and transcript.html) out of it. The workflow
// needs `actions: read` for these routes.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, inflateRaw, type ZlibOptions } from 'node:zlib';
import { TRANSCRIPT_ARTIFACT_PREFIX, TRANSCRIPT_HTML, TRANSCRIPT_JSONL } from '../delivery/artifact.js';
import type { GitHubClient } from '../octokit.js';
import { nodeFetch } from '../../providers/node-fetch.js';

export interface TranscriptArtifactRef {
  id: number;
  name: string;
  runId?: number;
  sizeInBytes: number;
  createdAt?: string;
  digest?: string;
}

export interface DownloadTranscriptOptions {
  owner: string;
  repo: string;
  runId: number | string;
  /** the artifact's id, when the earlier run's marker names it: then the listing is skipped */
  artifactId?: number;
  /** the artifact's exact name, when known (a run with several patchloop jobs) */
  name?: string;
  /** the folder transcript.jsonl (and transcript.html) are written to */
  dest: string;
  /** false: transcript.html is left in the zip (a follow-up reads only the JSONL) */
  html?: boolean;
  /** the largest zip accepted, in bytes (default 256 MiB) */
  maxBytes?: number;
  /**
   * how the signed URL is fetched (tests; by default through the proxy the environment names for
   * it, as Octokit's requests are); never given the GitHub token
   */
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

export type DownloadFailure = 'not-found' | 'expired' | 'forbidden' | 'failed';

export type TranscriptDownload =
  | {
      ok: true;
      artifact: TranscriptArtifactRef;
      jsonlPath: string;
      /** what was written to jsonlPath */
      jsonl: Buffer;
      htmlPath?: string;
    }
  | { ok: false; reason: DownloadFailure; message: string; artifact?: TranscriptArtifactRef };

interface RestArtifact {
  id: number;
  name: string;
  size_in_bytes: number;
  expired: boolean;
  created_at: string | null;
  digest?: string | null;
  workflow_run?: { id?: number } | null;
}

/** Finds and downloads the transcript of run `runId`. Never throws for GitHub's answers: says why instead. */
export async function downloadTranscriptArtifact(
  github: GitHubClient,
  o: DownloadTranscriptOptions,
): Promise<TranscriptDownload> {
  const runId = Number(o.runId);
  // "Gets a redirect URL to download an archive … This URL expires after 1 minute. Look for
  // Location: in the response header"; 410 Gone once the artifact has expired
  // (docs.github.com/en/rest/actions/artifacts#download-an-artifact). The redirect is not
  // followed by the client, so the token never goes to the storage host.
  const redirectOf = (id: number) =>
    github.request('GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', {
      owner: o.owner,
      repo: o.repo,
      artifact_id: id,
      archive_format: 'zip',
      request: { redirect: 'manual', signal: o.signal },
    });
  // An id the marker names: its redirect is asked for beside its description, and followed only
  // once the description shows it is the run's transcript.
  const early = o.artifactId !== undefined ? redirectOf(o.artifactId) : undefined;
  early?.catch(() => undefined);
  let chosen: RestArtifact;
  try {
    const found =
      o.artifactId !== undefined ? await byId(github, o, runId) : await byListing(github, o, runId);
    if (!found.ok) return found;
    chosen = found.artifact;
  } catch (err) {
    return fromRequestError(err, `the artifacts of run ${runId}`);
  }
  const ref = refOf(chosen);
  if (chosen.expired) {
    return {
      ok: false,
      reason: 'expired',
      message: `The transcript artifact ${chosen.name} has expired.`,
      artifact: ref,
    };
  }

  let location: string | undefined;
  try {
    const res = await (early && chosen.id === o.artifactId ? early : redirectOf(chosen.id));
    location = (res.headers as Record<string, string | undefined>).location;
    if ((res.status as number) !== 302 || !location) {
      return {
        ok: false,
        reason: 'failed',
        message: `Downloading ${chosen.name}: GitHub answered ${res.status} without a redirect.`,
        artifact: ref,
      };
    }
  } catch (err) {
    return { ...fromRequestError(err, `the zip of ${chosen.name}`), artifact: ref };
  }

  let zip: Buffer;
  try {
    zip = await fetchCapped(o.fetch ?? nodeFetch, location, o.maxBytes ?? 256 * 1024 * 1024, o.signal);
  } catch (err) {
    return {
      ok: false,
      reason: 'failed',
      message: `Downloading ${chosen.name}: ${(err as Error).message}`,
      artifact: ref,
    };
  }

  // `digest` is the sha256 of the zip as uploaded (FinalizeArtifact's hash; @actions/artifact
  // compares it with what it downloads the same way).
  if (chosen.digest?.startsWith('sha256:')) {
    const got = `sha256:${createHash('sha256').update(zip).digest('hex')}`;
    if (got !== chosen.digest) {
      return {
        ok: false,
        reason: 'failed',
        message: `The zip of ${chosen.name} does not match its digest (${got}, not ${chosen.digest}).`,
        artifact: ref,
      };
    }
  }

  let entries: Map<string, Buffer>;
  try {
    entries = await readZip(zip, {
      only: o.html === false ? [TRANSCRIPT_JSONL] : [TRANSCRIPT_JSONL, TRANSCRIPT_HTML],
      maxBytes: o.maxBytes ?? 256 * 1024 * 1024,
    });
  } catch (err) {
    return {
      ok: false,
      reason: 'failed',
      message: `The zip of ${chosen.name} could not be read: ${(err as Error).message}`,
      artifact: ref,
    };
  }
  const jsonl = entries.get(TRANSCRIPT_JSONL);
  if (!jsonl) {
    return {
      ok: false,
      reason: 'not-found',
      message: `The artifact ${chosen.name} holds no ${TRANSCRIPT_JSONL}.`,
      artifact: ref,
    };
  }
  mkdirSync(o.dest, { recursive: true });
  const jsonlPath = join(o.dest, TRANSCRIPT_JSONL);
  writeFileSync(jsonlPath, jsonl);
  const html = entries.get(TRANSCRIPT_HTML);
  let htmlPath: string | undefined;
  if (html) {
    htmlPath = join(o.dest, TRANSCRIPT_HTML);
    writeFileSync(htmlPath, html);
  }
  return { ok: true, artifact: ref, jsonlPath, jsonl, ...(htmlPath ? { htmlPath } : {}) };
}

type Found = { ok: true; artifact: RestArtifact } | Extract<TranscriptDownload, { ok: false }>;

async function byId(github: GitHubClient, o: DownloadTranscriptOptions, runId: number): Promise<Found> {
  const { data } = await github.rest.actions.getArtifact({
    owner: o.owner,
    repo: o.repo,
    artifact_id: o.artifactId!,
    request: { signal: o.signal },
  });
  // An id from a comment is only trusted for the run it claims to be from.
  if (data.workflow_run?.id !== undefined && data.workflow_run.id !== runId) {
    return { ok: false, reason: 'not-found', message: `Artifact ${data.id} is not from run ${runId}.` };
  }
  if (!data.name.startsWith(TRANSCRIPT_ARTIFACT_PREFIX)) {
    return { ok: false, reason: 'not-found', message: `Artifact ${data.id} is not a patchloop transcript.` };
  }
  return { ok: true, artifact: data };
}

async function byListing(github: GitHubClient, o: DownloadTranscriptOptions, runId: number): Promise<Found> {
  // `name` filters to that exact name (docs: "only artifacts with this name will be returned").
  const artifacts = (await github.paginate(github.rest.actions.listWorkflowRunArtifacts, {
    owner: o.owner,
    repo: o.repo,
    run_id: runId,
    per_page: 100,
    ...(o.name ? { name: o.name } : {}),
    request: { signal: o.signal },
  })) as RestArtifact[];
  const ours = artifacts
    .filter((a) => (o.name ? a.name === o.name : a.name.startsWith(`${TRANSCRIPT_ARTIFACT_PREFIX}-`)))
    .sort((a, b) => b.id - a.id);
  const live = ours.find((a) => !a.expired);
  if (live) return { ok: true, artifact: live };
  if (ours.length > 0) {
    return {
      ok: false,
      reason: 'expired',
      message: `The transcript artifact of run ${runId} has expired.`,
      artifact: refOf(ours[0]!),
    };
  }
  return { ok: false, reason: 'not-found', message: `Run ${runId} has no patchloop transcript artifact.` };
}

function refOf(a: RestArtifact): TranscriptArtifactRef {
  return {
    id: a.id,
    name: a.name,
    ...(a.workflow_run?.id !== undefined ? { runId: a.workflow_run.id } : {}),
    sizeInBytes: a.size_in_bytes,
    ...(a.created_at ? { createdAt: a.created_at } : {}),
    ...(a.digest ? { digest: a.digest } : {}),
  };
}

function fromRequestError(err: unknown, what: string): Extract<TranscriptDownload, { ok: false }> {
  const status = (err as { status?: number }).status;
  const message = (err as Error).message ?? String(err);
  if (status === 403 || status === 401) {
    return {
      ok: false,
      reason: 'forbidden',
      message: `GitHub refused access to ${what} (${status}: ${message}); the workflow needs \`permissions: actions: read\`.`,
    };
  }
  if (status === 404) return { ok: false, reason: 'not-found', message: `GitHub found no ${what} (404).` };
  if (status === 410) return { ok: false, reason: 'expired', message: `${what} has expired (410).` };
  return {
    ok: false,
    reason: 'failed',
    message: `Fetching ${what} failed: ${status ? `${status}: ` : ''}${message}`,
  };
}

async function fetchCapped(
  f: typeof fetch,
  url: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  // A signed URL carries its own authorisation; nothing else is sent with it.
  const res = await f(url, { signal, redirect: 'follow' });
  if (res.status !== 200) throw new Error(`the storage host answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes)
    throw new Error(`the zip is ${declared} bytes, more than the ${maxBytes} accepted`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body ?? []) {
    total += (chunk as Uint8Array).length;
    if (total > maxBytes) throw new Error(`the zip is more than the ${maxBytes} bytes accepted`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

const inflate = promisify<Buffer, ZlibOptions, Buffer>(inflateRaw);

/**
 * The entries of a zip archive named in `only` (by their full name: entries in folders, and names
 * with `..`, never match), read through the central directory, as the archive's local headers may
 * carry no sizes (general purpose flag bit 3, which archiver's streamed zips set). Stored (0) and
 * deflated (8) entries; ZIP64 sizes and offsets; CRC-32 checked. Inflating runs on libuv's thread
 * pool, into one chunk of the entry's size: the main thread, busy with the rest of the start-up,
 * only takes the result.
 */
export async function readZip(
  zip: Buffer,
  o: { only: string[]; maxBytes: number },
): Promise<Map<string, Buffer>> {
  const eocd = findEndOfCentralDirectory(zip);
  let count = zip.readUInt16LE(eocd + 10);
  let cdOffset = zip.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff) {
    // ZIP64 end of central directory locator, 20 bytes before the classic record.
    const locator = eocd - 20;
    if (locator < 0 || zip.readUInt32LE(locator) !== 0x07064b50) throw new Error('missing ZIP64 locator');
    const record = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(record) !== 0x06064b50) throw new Error('bad ZIP64 end of central directory');
    count = Number(zip.readBigUInt64LE(record + 32));
    cdOffset = Number(zip.readBigUInt64LE(record + 48));
  }
  const out = new Map<string, Buffer>();
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== 0x02014b50)
      throw new Error('bad central directory entry');
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    let compressed = zip.readUInt32LE(p + 20);
    let size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    let local = zip.readUInt32LE(p + 42);
    const name = zip.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
    // ZIP64 extended information (header id 1): the 64-bit values of the fields that are 0xffffffff, in order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = zip.readUInt16LE(e);
      const len = zip.readUInt16LE(e + 2);
      if (id === 1) {
        let q = e + 4;
        if (size === 0xffffffff) {
          size = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (compressed === 0xffffffff) {
          compressed = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    p = extraEnd + commentLength;
    if (!o.only.includes(name)) continue;
    if (flags & 0x1) throw new Error(`${name} is encrypted`);
    if (size > o.maxBytes) throw new Error(`${name} is ${size} bytes, more than the ${o.maxBytes} accepted`);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) {
      const out = Math.max(1, size);
      data = await inflate(raw, { maxOutputLength: out, chunkSize: Math.max(64, Math.min(out, 64 << 20)) });
    } else throw new Error(`${name} uses compression method ${method}`);
    if (data.length !== size)
      throw new Error(`${name} is ${data.length} bytes, not the ${size} its header says`);
    if (crc32(data) !== crc) throw new Error(`${name} fails its CRC-32 check`);
    out.set(name, data);
  }
  return out;
}

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) return i;
  }
  throw new Error('not a zip archive (no end of central directory)');
}

// ---- other artifacts of a run (the delivery artifact of stage: deliver) -------------------------

export interface RunArtifactOptions {
  owner: string;
  repo: string;
  runId: number | string;
  /** the artifacts considered: those whose name starts with this */
  prefix: string;
  /** the entries of the zip taken out of it */
  files: string[];
  maxBytes?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

export type RunArtifactDownload =
  | { ok: true; artifact: TranscriptArtifactRef; entries: Map<string, Buffer> }
  | { ok: false; reason: DownloadFailure | 'ambiguous'; message: string };

/**
 * The one live artifact of run `runId` whose name starts with `prefix`, listed by REST (so only
 * this run's artifacts are seen), its zip fetched through the signed URL, its digest checked and
 * the named entries read. More than one such artifact is an error: which to use is not guessed.
 */
export async function downloadRunArtifact(
  github: GitHubClient,
  o: RunArtifactOptions,
): Promise<RunArtifactDownload> {
  const runId = Number(o.runId);
  const maxBytes = o.maxBytes ?? 256 * 1024 * 1024;
  let chosen: RestArtifact;
  try {
    const all = (await github.paginate(github.rest.actions.listWorkflowRunArtifacts, {
      owner: o.owner,
      repo: o.repo,
      run_id: runId,
      per_page: 100,
      request: { signal: o.signal },
    })) as RestArtifact[];
    const live = all.filter((a) => a.name.startsWith(o.prefix) && !a.expired);
    if (live.length === 0)
      return { ok: false, reason: 'not-found', message: `Run ${runId} has no artifact named ${o.prefix}….` };
    if (live.length > 1)
      return {
        ok: false,
        reason: 'ambiguous',
        message: `Run ${runId} has ${live.length} artifacts named ${o.prefix}… (${live.map((a) => a.name).join(', ')}).`,
      };
    chosen = live[0]!;
    // An artifact of another run never answers this listing; its description is checked anyway.
    if (chosen.workflow_run?.id !== undefined && chosen.workflow_run.id !== runId)
      return { ok: false, reason: 'not-found', message: `Artifact ${chosen.id} is not from run ${runId}.` };
  } catch (err) {
    return fromRequestError(err, `the artifacts of run ${runId}`);
  }
  let zip: Buffer;
  try {
    const res = await github.request(
      'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}',
      {
        owner: o.owner,
        repo: o.repo,
        artifact_id: chosen.id,
        archive_format: 'zip',
        request: { redirect: 'manual', signal: o.signal },
      },
    );
    const location = (res.headers as Record<string, string | undefined>).location;
    if ((res.status as number) !== 302 || !location)
      return {
        ok: false,
        reason: 'failed',
        message: `Downloading ${chosen.name}: no redirect (${res.status}).`,
      };
    zip = await fetchCapped(o.fetch ?? nodeFetch, location, maxBytes, o.signal);
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status !== undefined) return fromRequestError(err, `the zip of ${chosen.name}`);
    return { ok: false, reason: 'failed', message: `Downloading ${chosen.name}: ${(err as Error).message}` };
  }
  if (chosen.digest?.startsWith('sha256:')) {
    const got = `sha256:${createHash('sha256').update(zip).digest('hex')}`;
    if (got !== chosen.digest)
      return { ok: false, reason: 'failed', message: `The zip of ${chosen.name} does not match its digest.` };
  }
  try {
    return { ok: true, artifact: refOf(chosen), entries: await readZip(zip, { only: o.files, maxBytes }) };
  } catch (err) {
    return {
      ok: false,
      reason: 'failed',
      message: `The zip of ${chosen.name} could not be read: ${(err as Error).message}`,
    };
  }
}
