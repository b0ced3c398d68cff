// Uploading the transcript as a workflow artifact (CONTRACT §5) through the official
// @actions/artifact client. The runner grants the upload through ACTIONS_RUNTIME_TOKEN and
// ACTIONS_RESULTS_URL; without them there is nothing to upload to.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The names the files have inside the artifact's zip, whatever they are called on the runner. */
export const TRANSCRIPT_JSONL = 'transcript.jsonl';
export const TRANSCRIPT_HTML = 'transcript.html';
/** Every transcript artifact's name starts with this; the download side looks for it. */
export const TRANSCRIPT_ARTIFACT_PREFIX = 'patchloop-transcript';

export interface UploadedArtifact {
  id?: number;
  size?: number;
  /** the artifact's page, when its id is known */
  url?: string;
}

export interface TranscriptFiles {
  jsonlPath: string;
  /** the HTML page, when one could be made */
  htmlPath?: string;
  /** the issue or PR the run worked on, for a name a person can place */
  taskNumber?: number;
}

export interface UploadedTranscript extends UploadedArtifact {
  name: string;
}

export interface UploadOptions {
  /**
   * Gives the upload up: the returned promise rejects at once. The client takes no signal, so
   * its requests are left to end with the process (a cancelled run exits right after).
   */
  signal?: AbortSignal;
}

export interface ArtifactUploader {
  /**
   * Starts loading the upload client (a large module, ~0.3 s to evaluate) so that a later upload
   * does not wait for it: called when the run knows an upload is coming and has time in hand.
   * Never throws; a failure to load is the upload's own to report.
   */
  preload(): void;
  upload(
    name: string,
    files: string[],
    rootDirectory: string,
    options?: UploadOptions,
  ): Promise<UploadedArtifact>;
  /**
   * Uploads the transcript under a name unique to this job, the files named `transcript.jsonl`
   * and `transcript.html` in the zip.
   */
  uploadTranscript(files: TranscriptFiles, options?: UploadOptions): Promise<UploadedTranscript>;
}

export type UploaderChoice = { uploader: ArtifactUploader } | { uploader: undefined; notice: string };

export interface ArtifactEnvironment {
  ACTIONS_RUNTIME_TOKEN?: string;
  ACTIONS_RESULTS_URL?: string;
  GITHUB_SERVER_URL?: string;
  GITHUB_REPOSITORY?: string;
  GITHUB_RUN_ID?: string;
  GITHUB_RUN_ATTEMPT?: string;
  GITHUB_JOB?: string;
}

/** The @actions/artifact uploader when the runner provides its runtime token, otherwise why not. */
export function chooseArtifactUploader(env: ArtifactEnvironment): UploaderChoice {
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) {
    return {
      uploader: undefined,
      notice:
        'The transcript was not uploaded as an artifact: the runner provided no ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL.',
    };
  }
  return { uploader: new ActionsArtifactUploader(env) };
}

/**
 * `patchloop-transcript[-<issue>]-<run id>-<attempt>-<job>-<job run>`: unique per job, since
 * artifact names are unique per workflow run and a second upload of a name fails with 409 "an
 * artifact with this name already exists on the workflow run" (as upload-artifact users report,
 * e.g. actions/upload-artifact#634). Of the runner's default variables
 * (docs.github.com/en/actions/reference/variables-reference) GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT and
 * GITHUB_JOB ("the job_id of the current job") place the job, but every leg of a matrix shares its
 * job_id, and no default variable carries the matrix context. What does tell the legs apart is the
 * job run's backend id in the runtime token's `Actions.Results:<run>:<job run>` scope (the claim
 * @actions/artifact itself reads, getBackendIdsFromToken), so a short hash of it ends the name.
 * Without it (a token of another shape) the name ends at the job.
 */
export function transcriptArtifactName(env: ArtifactEnvironment, taskNumber?: number): string {
  const parts = [
    TRANSCRIPT_ARTIFACT_PREFIX,
    ...(taskNumber !== undefined ? [String(taskNumber)] : []),
    env.GITHUB_RUN_ID || 'local',
    env.GITHUB_RUN_ATTEMPT || '1',
    jobKey(env),
  ];
  return parts.join('-');
}

/**
 * `<job>[-<job run>]`: this job among the jobs of its workflow run, a matrix's legs included (see
 * transcriptArtifactName). Also ends the branch of a prompt task, which every leg would share.
 */
export function jobKey(env: Pick<ArtifactEnvironment, 'GITHUB_JOB' | 'ACTIONS_RUNTIME_TOKEN'>): string {
  const job = (env.GITHUB_JOB || 'job').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40);
  const jobRun = jobRunBackendId(env.ACTIONS_RUNTIME_TOKEN);
  return jobRun ? `${job}-${createHash('sha256').update(jobRun).digest('hex').slice(0, 8)}` : job;
}

/** The artifact's page: `${server}/${repo}/actions/runs/${run}/artifacts/${id}`. */
export function artifactPageUrl(env: ArtifactEnvironment, id: number | undefined): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  if (id === undefined || !repo || !run) return undefined;
  return `${(server || 'https://github.com').replace(/\/+$/, '')}/${repo}/actions/runs/${run}/artifacts/${id}`;
}

/** The job run's backend id from the runtime token's `scp` claim, or undefined. Never verified: only read. */
function jobRunBackendId(token: string | undefined): string | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { scp?: unknown };
    if (typeof claims.scp !== 'string') return undefined;
    const scope = claims.scp.split(' ').find((s) => s.startsWith('Actions.Results:'));
    const parts = scope?.split(':');
    return parts?.length === 3 && parts[2] ? parts[2] : undefined;
  } catch {
    return undefined;
  }
}

/** The upload client's module, loaded once per process (see ArtifactUploader.preload). */
let clientModule: Promise<typeof import('@actions/artifact')> | undefined;
const loadClient = () =>
  (clientModule ??= import('@actions/artifact').catch((err: unknown) => {
    clientModule = undefined; // the next attempt tries again
    throw err;
  }));

class ActionsArtifactUploader implements ArtifactUploader {
  constructor(private readonly env: ArtifactEnvironment) {}

  preload(): void {
    loadClient().catch(() => undefined);
  }

  async upload(
    name: string,
    files: string[],
    rootDirectory: string,
    options: UploadOptions = {},
  ): Promise<UploadedArtifact> {
    // Loaded on demand (or ahead, through preload): the client is large and most of a run never
    // needs it. It reads ACTIONS_RUNTIME_TOKEN and ACTIONS_RESULTS_URL from process.env itself.
    const { DefaultArtifactClient } = await givenUpAt(loadClient(), options.signal);
    const res = await givenUpAt(
      new DefaultArtifactClient().uploadArtifact(name, files, rootDirectory),
      options.signal,
    );
    return { id: res.id, size: res.size, url: artifactPageUrl(this.env, res.id) };
  }

  async uploadTranscript(files: TranscriptFiles, options: UploadOptions = {}): Promise<UploadedTranscript> {
    const name = transcriptArtifactName(this.env, files.taskNumber);
    // The zip takes the files' names relative to the root folder, so they are staged under the
    // names the contract gives, beside the transcript (in patchloop's own folder, out of reach of
    // the agent's commands).
    const staging = mkdtempSync(join(dirname(files.jsonlPath), 'artifact-'));
    try {
      const staged = [join(staging, TRANSCRIPT_JSONL)];
      copyFileSync(files.jsonlPath, staged[0]!);
      if (files.htmlPath && existsSync(files.htmlPath)) {
        staged.push(join(staging, TRANSCRIPT_HTML));
        copyFileSync(files.htmlPath, staged[1]!);
      }
      return { name, ...(await this.upload(name, staged, staging, options)) };
    } finally {
      // An upload given up may still be reading its files: they stay in patchloop's own folder.
      if (!options.signal?.aborted) rmSync(staging, { recursive: true, force: true });
    }
  }
}

/** `work`, or a rejection that says why once `signal` aborts. */
function givenUpAt<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  const why = () => {
    const reason: unknown = signal.reason;
    return new Error(`the upload was given up (${reason instanceof Error ? reason.message : 'cancelled'})`);
  };
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(why());
  }
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(why());
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
