// A loopback stand-in for GitHub Actions' artifact storage, for the official `@actions/artifact`
// client unchanged:
//
//   - the results service: Twirp JSON at `${ACTIONS_RESULTS_URL}/twirp/github.actions.results.api.v1.ArtifactService/<Method>`
//     (CreateArtifact, FinalizeArtifact, ListArtifacts, GetSignedArtifactURL, DeleteArtifact),
//     authenticated by the ACTIONS_RUNTIME_TOKEN it issues (a JWT whose `scp` claim names the run's
//     and the job's backend ids);
//   - the blob storage its signed URLs point to, with Azure block-blob semantics (Put Block,
//     Put Block List, Put Blob, Get Blob) and a SAS-style signature on every URL;
//   - the public REST routes for artifacts of any run (list a run's artifacts, get one, download its
//     zip by a 302 to a signed URL), as routes a FakeGitHub serves (`mountOn`, through its
//     `addRoutes` extension point; a test's own `override` still wins over them).
//
//   const service = await startFakeArtifactService();
//   service.mountOn(gh);                                   // REST routes on the fake GitHub
//   const job = service.job({ runId: 9001, job: 'patchloop' });
//   env: ACTIONS_RUNTIME_TOKEN=job.token, ACTIONS_RESULTS_URL=service.url
//   service.artifacts / service.zipOf(id) / service.expire(id)  // for assertions and faults
//
// Sources of the wire facts are cited where they are used: the client's own code in
// node_modules/@actions/artifact/lib (v6.2.1) and @azure/storage-blob, GitHub's REST reference for
// artifacts (https://docs.github.com/en/rest/actions/artifacts, and the OpenAPI description shipped
// as @octokit/openapi-types), Azure's Blob REST reference (learn.microsoft.com/rest/api/storageservices)
// and the Twirp spec (https://twitchtv.github.io/twirp/docs/spec_v7.html).
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeGitHub, ParsedRequest, Reply, Route } from './github-server.js';

export interface FakeArtifact {
  /** The REST id (the Twirp `database_id`). */
  id: number;
  name: string;
  runId: number;
  runAttempt: number;
  /** GITHUB_JOB of the job that uploaded it */
  job: string;
  runBackendId: string;
  jobBackendId: string;
  /** `blobs` key */
  blobPath: string;
  mimeType?: string;
  version?: number;
  size: number;
  /** `sha256:<hex>`, as FinalizeArtifact reported it */
  digest?: string;
  finalized: boolean;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

export interface FakeJobIdentity {
  runId: number;
  runAttempt: number;
  job: string;
  runBackendId: string;
  jobBackendId: string;
  /** the ACTIONS_RUNTIME_TOKEN the runner would give this job */
  token: string;
}

export interface LoggedServiceRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  status: number;
  /** Twirp method name, or `blob` */
  kind: string;
}

interface Blob {
  committed?: Buffer;
  contentType?: string;
  /** Put Block: staged, not yet part of the blob */
  uncommitted: Map<string, Buffer>;
  etag?: string;
  lastModified?: Date;
}

export interface FakeArtifactServiceOptions {
  /** Retention given to artifacts created without `expires_at` (the default is 90 days). */
  retentionDays?: number;
  now?: () => Date;
}

const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/';
const ACCOUNT = 'fakeresultssa';
const CONTAINER = 'actions-results';

export class FakeArtifactService {
  readonly artifacts: FakeArtifact[] = [];
  readonly requests: LoggedServiceRequest[] = [];
  readonly blobs = new Map<string, Blob>();
  private readonly jobs = new Map<string, FakeJobIdentity>();
  private readonly runBackendIds = new Map<number, string>();
  private readonly secret = randomBytes(32);
  private readonly now: () => Date;
  private readonly retentionDays: number;
  private nextId = 4_100_000_000;
  private server?: Server;
  private gitHub?: FakeGitHub;
  private restForbidden = false;
  /** the results service's origin, for ACTIONS_RESULTS_URL */
  url = '';
  /** How long blob storage takes to answer a download (a slow store; 0 by default). */
  downloadDelayMs = 0;
  /** A store that takes uploads but never answers them (holdUploads). */
  private uploadsHeld = false;
  private uploadArrived?: () => void;
  /** Resolves when the first blob upload reaches the store. */
  readonly uploadReached = new Promise<void>((resolve) => (this.uploadArrived = resolve));

  /** Blob uploads are read and then left unanswered, as by a store that stopped responding. */
  holdUploads(): void {
    this.uploadsHeld = true;
  }

  constructor(options: FakeArtifactServiceOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.retentionDays = options.retentionDays ?? 90;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'internal', msg: `fake artifact service: ${String(err)}` }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  // ---- set-up --------------------------------------------------------------------------------

  /**
   * A job of a workflow run and the runtime token the runner hands it. The run's backend id is
   * one per run id; the job's is new for every call (each job, and each matrix leg, is its own
   * job run).
   */
  job(o: { runId: number; runAttempt?: number; job?: string }): FakeJobIdentity {
    let runBackendId = this.runBackendIds.get(o.runId);
    if (!runBackendId) {
      runBackendId = randomUUID();
      this.runBackendIds.set(o.runId, runBackendId);
    }
    const jobBackendId = randomUUID();
    const identity: FakeJobIdentity = {
      runId: o.runId,
      runAttempt: o.runAttempt ?? 1,
      job: o.job ?? 'build',
      runBackendId,
      jobBackendId,
      token: this.issueToken(runBackendId, jobBackendId),
    };
    this.jobs.set(jobBackendId, identity);
    return identity;
  }

  /** The REST routes answer 403, as for a GITHUB_TOKEN without `actions: read`. */
  forbidRestAccess(forbidden = true): void {
    this.restForbidden = forbidden;
  }

  /** Marks an artifact expired (its retention is over): REST shows `expired: true`, the zip is 410. */
  expire(id: number): void {
    const a = this.artifacts.find((x) => x.id === id);
    if (!a) throw new Error(`no artifact ${id}`);
    a.expiresAt = new Date(this.now().getTime() - 1000);
  }

  /** The committed zip of an artifact. */
  zipOf(id: number): Buffer {
    const a = this.artifacts.find((x) => x.id === id && x.finalized);
    const data = a && this.blobs.get(a.blobPath)?.committed;
    if (!data) throw new Error(`no finalized artifact ${id}`);
    return data;
  }

  /** Uploads an artifact as a finished job would have (for tests of downloads from an earlier run). */
  seed(o: { runId: number; job?: string; name: string; zip: Buffer; createdAt?: Date }): FakeArtifact {
    const identity = this.job({ runId: o.runId, job: o.job });
    const artifact = this.newArtifact(identity, o.name, undefined);
    const at = o.createdAt ?? this.now();
    artifact.createdAt = at;
    artifact.updatedAt = at;
    this.blobs.set(artifact.blobPath, {
      committed: o.zip,
      contentType: 'application/zip',
      uncommitted: new Map(),
      etag: etagOf(o.zip),
      lastModified: at,
    });
    artifact.size = o.zip.length;
    artifact.digest = `sha256:${createHash('sha256').update(o.zip).digest('hex')}`;
    artifact.finalized = true;
    return artifact;
  }

  // ---- the runtime token -----------------------------------------------------------------------

  private issueToken(runBackendId: string, jobBackendId: string): string {
    // The client reads only `scp`: it splits it on spaces and takes the scope
    // `Actions.Results:<workflowRunBackendId>:<workflowJobRunBackendId>` (getBackendIdsFromToken in
    // @actions/artifact lib/internal/shared/util.js, whose example claim also holds another scope
    // before it). The token is otherwise opaque to it; this fake signs it to tell its own tokens
    // from anything else.
    const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
    const nowS = Math.floor(this.now().getTime() / 1000);
    const payload = b64url(
      JSON.stringify({
        nameid: 'dddddddd-dddd-dddd-dddd-dddddddddddd',
        scp: `Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:${runBackendId}:${jobBackendId}`,
        iat: nowS,
        nbf: nowS,
        exp: nowS + 6 * 3600,
        iss: 'vstoken.actions.githubusercontent.com',
        aud: 'vso:00000000-0000-0000-0000-000000000000',
      }),
    );
    const sig = createHmac('sha256', this.secret).update(`${header}.${payload}`).digest('base64url');
    return `${header}.${payload}.${sig}`;
  }

  private verifyToken(authorization: string | undefined): FakeJobIdentity | undefined {
    const m = /^Bearer (.+)$/.exec(authorization ?? '');
    if (!m) return undefined;
    const [header, payload, sig] = m[1]!.split('.');
    if (!header || !payload || !sig) return undefined;
    const want = createHmac('sha256', this.secret).update(`${header}.${payload}`).digest();
    const got = Buffer.from(sig, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      scp?: string;
      exp?: number;
    };
    if (!claims.exp || claims.exp * 1000 < this.now().getTime()) return undefined;
    const scope = (claims.scp ?? '').split(' ').find((s) => s.startsWith('Actions.Results:'));
    const jobBackendId = scope?.split(':')[2];
    return jobBackendId ? this.jobs.get(jobBackendId) : undefined;
  }

  // ---- the wire ------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const log = (kind: string, status: number): void => {
      this.requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        status,
        kind,
      });
    };
    if (url.pathname.startsWith(TWIRP_PREFIX)) {
      const method = url.pathname.slice(TWIRP_PREFIX.length);
      const reply = this.twirp(req, method, body);
      log(method, reply.status);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    }
    if (url.pathname.startsWith(`/${ACCOUNT}/${CONTAINER}/`)) {
      if (req.method === 'GET' && this.downloadDelayMs > 0)
        await new Promise((resolve) => setTimeout(resolve, this.downloadDelayMs));
      if (req.method === 'PUT') {
        this.uploadArrived?.();
        // (stop() closes the connection)
        if (this.uploadsHeld) return;
      }
      const reply = this.blob(req, url, body);
      log('blob', reply.status);
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
      return;
    }
    log('unknown', 404);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }

  // ---- results service (Twirp) ----------------------------------------------------------------

  private twirp(req: IncomingMessage, method: string, raw: Buffer): { status: number; body: unknown } {
    // Twirp: every call is a POST of the request message; a wrong method, an unknown route or a
    // content type other than application/json / application/protobuf is `bad_route` (404).
    // Errors are JSON `{code, msg}` with the code's HTTP status. The client sends JSON
    // (ArtifactServiceClientJSON) and, on a non-2xx answer, puts `msg` into its error text and
    // retries only 429/500/502/503/504 (artifact-twirp-client.js).
    if (req.method !== 'POST' || !(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return twirpError('bad_route', `no handler for ${req.method} ${TWIRP_PREFIX}${method}`);
    }
    const identity = this.verifyToken(req.headers.authorization);
    if (!identity) return twirpError('unauthenticated', 'invalid or missing runtime token');
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return twirpError('malformed', 'the request body is not JSON');
    }
    // The client serialises with proto field names (toJson useProtoFieldName: true in
    // generated/results/api/v1/artifact.twirp-client.js), so requests carry snake_case keys; the
    // service answers in the same names (the client masks `signed_upload_url` / `signed_url` in the
    // raw body it gets back, maskSecretUrls in shared/util.js). int64 fields travel as strings and
    // wrapper types (StringValue, Int64Value) as bare values, as protobuf's JSON mapping says.
    const runId = msg.workflow_run_backend_id;
    const jobId = msg.workflow_job_run_backend_id;
    if (runId !== identity.runBackendId || jobId !== identity.jobBackendId) {
      return twirpError('permission_denied', 'the token does not grant access to this workflow job run');
    }
    switch (method) {
      case 'CreateArtifact':
        return this.createArtifact(identity, msg);
      case 'FinalizeArtifact':
        return this.finalizeArtifact(identity, msg);
      case 'ListArtifacts':
        return this.listArtifacts(identity, msg);
      case 'GetSignedArtifactURL':
        return this.signedArtifactUrl(identity, msg);
      case 'DeleteArtifact':
        return this.deleteArtifact(identity, msg);
      default:
        return twirpError('bad_route', `no handler for POST ${TWIRP_PREFIX}${method}`);
    }
  }

  private newArtifact(identity: FakeJobIdentity, name: string, expiresAt: Date | undefined): FakeArtifact {
    const at = this.now();
    const artifact: FakeArtifact = {
      id: this.nextId++,
      name,
      runId: identity.runId,
      runAttempt: identity.runAttempt,
      job: identity.job,
      runBackendId: identity.runBackendId,
      jobBackendId: identity.jobBackendId,
      blobPath: `/${ACCOUNT}/${CONTAINER}/${identity.runBackendId}/workflow-job-run-${identity.jobBackendId}/artifacts/${createHash('sha256').update(`${identity.runBackendId}/${name}`).digest('hex')}.zip`,
      size: 0,
      finalized: false,
      createdAt: at,
      updatedAt: at,
      expiresAt: expiresAt ?? new Date(at.getTime() + this.retentionDays * 86_400_000),
    };
    this.artifacts.push(artifact);
    return artifact;
  }

  private createArtifact(identity: FakeJobIdentity, msg: Record<string, unknown>): TwirpReply {
    const name = msg.name;
    if (typeof name !== 'string' || name === '') return twirpError('invalid_argument', 'name is required');
    // Names are unique per workflow run, across its jobs: the second CreateArtifact of a name fails
    // with 409 and this message, which upload-artifact users meet as "Failed to CreateArtifact:
    // Received non-retryable error: Failed request: (409) Conflict: an artifact with this name
    // already exists on the workflow run" (e.g. actions/upload-artifact#634).
    if (this.artifacts.some((a) => a.runBackendId === identity.runBackendId && a.name === name)) {
      return twirpError('already_exists', 'an artifact with this name already exists on the workflow run');
    }
    const expiresAt = typeof msg.expires_at === 'string' ? new Date(msg.expires_at) : undefined;
    const artifact = this.newArtifact(identity, name, expiresAt);
    artifact.version = typeof msg.version === 'number' ? msg.version : undefined;
    artifact.mimeType = typeof msg.mime_type === 'string' ? msg.mime_type : undefined;
    this.blobs.set(artifact.blobPath, { uncommitted: new Map() });
    return {
      status: 200,
      body: { ok: true, signed_upload_url: this.sign(artifact.blobPath, 'cw', 6 * 3600_000) },
    };
  }

  private finalizeArtifact(identity: FakeJobIdentity, msg: Record<string, unknown>): TwirpReply {
    const artifact = this.artifacts.find(
      (a) => a.jobBackendId === identity.jobBackendId && a.name === msg.name && !a.finalized,
    );
    if (!artifact) return twirpError('not_found', `no artifact ${String(msg.name)} is being uploaded`);
    const data = this.blobs.get(artifact.blobPath)?.committed;
    if (!data) return twirpError('failed_precondition', 'the artifact has no committed content');
    // The client reports the bytes its blob upload counted and their sha256 (blob-upload.js).
    if (String(msg.size) !== String(data.length)) {
      return twirpError(
        'invalid_argument',
        `size ${String(msg.size)} does not match the upload (${data.length})`,
      );
    }
    const digest = `sha256:${createHash('sha256').update(data).digest('hex')}`;
    if (msg.hash !== undefined && msg.hash !== digest) {
      return twirpError('invalid_argument', `hash ${String(msg.hash)} does not match the upload`);
    }
    artifact.size = data.length;
    artifact.digest = digest;
    artifact.finalized = true;
    artifact.updatedAt = this.now();
    return { status: 200, body: { ok: true, artifact_id: String(artifact.id) } };
  }

  private listArtifacts(identity: FakeJobIdentity, msg: Record<string, unknown>): TwirpReply {
    const list = this.artifacts.filter(
      (a) =>
        a.finalized &&
        a.runBackendId === identity.runBackendId &&
        a.expiresAt > this.now() &&
        (msg.name_filter === undefined || a.name === msg.name_filter) &&
        (msg.id_filter === undefined || String(a.id) === String(msg.id_filter)),
    );
    return {
      status: 200,
      body: {
        artifacts: list.map((a) => ({
          workflow_run_backend_id: a.runBackendId,
          workflow_job_run_backend_id: a.jobBackendId,
          database_id: String(a.id),
          name: a.name,
          size: String(a.size),
          created_at: a.createdAt.toISOString(),
          ...(a.digest ? { digest: a.digest } : {}),
        })),
      },
    };
  }

  private signedArtifactUrl(identity: FakeJobIdentity, msg: Record<string, unknown>): TwirpReply {
    const artifact = this.artifacts.find(
      (a) => a.finalized && a.runBackendId === identity.runBackendId && a.name === msg.name,
    );
    if (!artifact) return twirpError('not_found', `artifact ${String(msg.name)} not found`);
    return { status: 200, body: { signed_url: this.sign(artifact.blobPath, 'r', 3600_000) } };
  }

  private deleteArtifact(identity: FakeJobIdentity, msg: Record<string, unknown>): TwirpReply {
    const i = this.artifacts.findIndex(
      (a) => a.finalized && a.runBackendId === identity.runBackendId && a.name === msg.name,
    );
    if (i < 0) return twirpError('not_found', `artifact ${String(msg.name)} not found`);
    const [gone] = this.artifacts.splice(i, 1);
    this.blobs.delete(gone!.blobPath);
    return { status: 200, body: { ok: true, artifact_id: String(gone!.id) } };
  }

  // ---- blob storage --------------------------------------------------------------------------

  /**
   * A URL that grants `permissions` (Azure SAS letters: r read, c create, w write) on one blob
   * until `ttlMs` from now. The host is an IP, so the Azure client takes the first path segment for
   * the account, as it does for the storage emulator ("http://127.0.0.1:10000/devstoreaccount1/
   * mycontainer/myblob", learn.microsoft.com/rest/api/storageservices/put-block-list;
   * isIpEndpointStyle in @azure/storage-blob).
   */
  private sign(blobPath: string, permissions: string, ttlMs: number): string {
    const se = new Date(this.now().getTime() + ttlMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const params = new URLSearchParams({ sv: '2023-11-03', sr: 'b', sp: permissions, se });
    params.set('sig', this.signature(blobPath, permissions, se));
    return `${this.url.replace(/\/$/, '')}${blobPath}?${params.toString()}`;
  }

  private signature(blobPath: string, permissions: string, se: string): string {
    return createHmac('sha256', this.secret).update(`${permissions}\n${se}\n${blobPath}`).digest('base64');
  }

  private blob(req: IncomingMessage, url: URL, body: Buffer): BlobReply {
    const q = url.searchParams;
    const path = url.pathname;
    const sp = q.get('sp') ?? '';
    const se = q.get('se') ?? '';
    const sig = q.get('sig') ?? '';
    const want = Buffer.from(this.signature(path, sp, se));
    const got = Buffer.from(sig);
    if (got.length !== want.length || !timingSafeEqual(got, want) || new Date(se) < this.now()) {
      return storageError(
        403,
        'AuthenticationFailed',
        'Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.',
      );
    }
    const blob = this.blobs.get(path);
    const comp = q.get('comp');
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (!sp.includes('r'))
        return storageError(
          403,
          'AuthorizationPermissionMismatch',
          'This request is not authorized to perform this operation using this permission.',
        );
      if (!blob?.committed) return storageError(404, 'BlobNotFound', 'The specified blob does not exist.');
      return {
        status: 200,
        headers: {
          ...storageHeaders(),
          'content-type': blob.contentType ?? 'application/octet-stream',
          'content-length': String(blob.committed.length),
          etag: blob.etag!,
          'last-modified': blob.lastModified!.toUTCString(),
          'x-ms-blob-type': 'BlockBlob',
        },
        body: req.method === 'HEAD' ? Buffer.alloc(0) : blob.committed,
      };
    }
    if (req.method !== 'PUT')
      return storageError(405, 'UnsupportedHttpVerb', "The resource doesn't support specified Http Verb.");
    if (!sp.includes('w') && !sp.includes('c')) {
      return storageError(
        403,
        'AuthorizationPermissionMismatch',
        'This request is not authorized to perform this operation using this permission.',
      );
    }
    if (!blob) return storageError(404, 'ContainerNotFound', 'The specified container does not exist.');
    if (comp === 'block') {
      // Put Block: the block id is base64 of at most 64 bytes, and every block of one blob has an
      // id of the same length (learn.microsoft.com/rest/api/storageservices/put-block).
      const blockId = q.get('blockid') ?? '';
      const decoded = Buffer.from(blockId, 'base64');
      if (!blockId || decoded.length === 0 || decoded.length > 64 || decoded.toString('base64') !== blockId) {
        return storageError(
          400,
          'InvalidQueryParameterValue',
          'Value for one of the query parameters specified in the request URI is invalid.',
        );
      }
      const other = blob.uncommitted.keys().next().value;
      if (other !== undefined && Buffer.from(other, 'base64').length !== decoded.length) {
        return storageError(400, 'InvalidBlobOrBlock', 'The specified blob or block content is invalid.');
      }
      blob.uncommitted.set(blockId, body);
      return {
        status: 201,
        headers: {
          ...storageHeaders(),
          'content-md5': createHash('md5').update(body).digest('base64'),
          'x-ms-request-server-encrypted': 'true',
        },
        body: Buffer.alloc(0),
      };
    }
    if (comp === 'blocklist') {
      // Put Block List: <BlockList> of <Latest>/<Uncommitted>/<Committed> ids, in blob order; a
      // block that was never staged makes the list invalid; blocks left out are dropped
      // (learn.microsoft.com/rest/api/storageservices/put-block-list).
      const xml = body.toString('utf8');
      const ids = [...xml.matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g)].map((m) => m[2]!);
      if (!/<BlockList>/.test(xml)) {
        return storageError(400, 'InvalidXmlDocument', 'XML specified is not syntactically valid.');
      }
      const parts: Buffer[] = [];
      for (const id of ids) {
        const part = blob.uncommitted.get(id);
        if (!part) return storageError(400, 'InvalidBlockList', 'The specified block list is invalid.');
        parts.push(part);
      }
      return this.commit(blob, Buffer.concat(parts), req);
    }
    if (comp === null && req.headers['x-ms-blob-type'] === 'BlockBlob') return this.commit(blob, body, req);
    return storageError(
      400,
      'InvalidQueryParameterValue',
      'Value for one of the query parameters specified in the request URI is invalid.',
    );
  }

  private commit(blob: Blob, data: Buffer, req: IncomingMessage): BlobReply {
    blob.committed = data;
    blob.uncommitted.clear();
    // The client sets the content type with blobHTTPHeaders.blobContentType (blob-upload.js), sent
    // as x-ms-blob-content-type on the commit.
    const type = req.headers['x-ms-blob-content-type'];
    blob.contentType = typeof type === 'string' ? type : (blob.contentType ?? 'application/octet-stream');
    blob.etag = etagOf(data);
    blob.lastModified = this.now();
    return {
      status: 201,
      headers: {
        ...storageHeaders(),
        etag: blob.etag,
        'last-modified': blob.lastModified.toUTCString(),
        'x-ms-request-server-encrypted': 'true',
      },
      body: Buffer.alloc(0),
    };
  }

  // ---- public REST routes --------------------------------------------------------------------

  /**
   * Puts the REST routes for artifacts on a fake GitHub, for `owner/repo` (its own by default):
   *   GET /repos/{o}/{r}/actions/runs/{run_id}/artifacts[?name=&per_page=&page=]
   *   GET /repos/{o}/{r}/actions/artifacts/{artifact_id}
   *   GET /repos/{o}/{r}/actions/artifacts/{artifact_id}/{archive_format}  → 302 to a signed URL
   */
  mountOn(gh: FakeGitHub, repository = gh.fullName): void {
    gh.addRoutes(this.restRoutes(gh, repository));
  }

  /** The routes `mountOn` adds, for `gh` (whose URL the answers link to). */
  restRoutes(gh: FakeGitHub, repository = gh.fullName): Route[] {
    this.gitHub = gh;
    const [owner, repo] = repository.split('/').map(escapeRe) as [string, string];
    const base = `^/repos/${owner}/${repo}/actions`;
    return [
      ['GET', new RegExp(`${base}/runs/(\\d+)/artifacts$`, 'i'), (q) => this.restList(q)],
      ['GET', new RegExp(`${base}/artifacts/(\\d+)$`, 'i'), (q) => this.restGet(q)],
      ['GET', new RegExp(`${base}/artifacts/(\\d+)/([^/]+)$`, 'i'), (q) => this.restZip(q)],
    ];
  }

  private restArtifact(a: FakeArtifact, q: ParsedRequest): Record<string, unknown> {
    // The `artifact` schema of GitHub's REST description (@octokit/openapi-types components
    // .schemas.artifact): id, node_id, name, size_in_bytes, url, archive_download_url, expired,
    // created_at, expires_at, updated_at, digest ("sha256:…", set for uploads of
    // upload-artifact v4 and later) and workflow_run.
    const api = `${this.gitHub!.url}${q.path.replace(/\/actions\/.*$/, '')}/actions/artifacts/${a.id}`;
    const stamp = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      id: a.id,
      node_id: `MDg6QXJ0aWZhY3Q${Buffer.from(String(a.id)).toString('base64')}`,
      name: a.name,
      size_in_bytes: a.size,
      url: api,
      archive_download_url: `${api}/zip`,
      expired: a.expiresAt <= this.now(),
      created_at: stamp(a.createdAt),
      expires_at: stamp(a.expiresAt),
      updated_at: stamp(a.updatedAt),
      digest: a.digest ?? null,
      workflow_run: {
        id: a.runId,
        repository_id: 1296269,
        head_repository_id: 1296269,
        head_branch: 'main',
        head_sha: '0'.repeat(40),
      },
    };
  }

  private forbidden(): Reply {
    // What a GITHUB_TOKEN without the permission a route needs gets.
    return {
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/actions/artifacts',
        status: '403',
      },
    };
  }

  private restList(q: ParsedRequest): Reply {
    if (this.restForbidden) return this.forbidden();
    const runId = Number(q.params[0]);
    // `name`: "When specified, only artifacts with this name will be returned"; per_page at most
    // 100; the answer is {total_count, artifacts} with a Link header for more pages
    // (operations["actions/list-workflow-run-artifacts"]). Finalized artifacts only: an upload in
    // progress is not listed.
    const name = q.query.get('name');
    const all = this.artifacts.filter(
      (a) => a.finalized && a.runId === runId && (name === null || a.name === name),
    );
    const perPage = Math.min(100, Number(q.query.get('per_page') ?? 30) || 30);
    const page = Math.max(1, Number(q.query.get('page') ?? 1) || 1);
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = {};
    const last = Math.max(1, Math.ceil(all.length / perPage));
    if (page < last) {
      const link = (p: number): string => {
        const u = new URL(`${this.gitHub!.url}${q.path}`);
        q.query.forEach((v, k) => u.searchParams.set(k, v));
        u.searchParams.set('per_page', String(perPage));
        u.searchParams.set('page', String(p));
        return u.toString();
      };
      headers.link = `<${link(page + 1)}>; rel="next", <${link(last)}>; rel="last"`;
    }
    return {
      status: 200,
      headers,
      body: { total_count: all.length, artifacts: slice.map((a) => this.restArtifact(a, q)) },
    };
  }

  private restGet(q: ParsedRequest): Reply {
    if (this.restForbidden) return this.forbidden();
    const a = this.artifacts.find((x) => x.finalized && x.id === Number(q.params[0]));
    return a ? { status: 200, body: this.restArtifact(a, q) } : restNotFound();
  }

  private restZip(q: ParsedRequest): Reply {
    if (this.restForbidden) return this.forbidden();
    const a = this.artifacts.find((x) => x.finalized && x.id === Number(q.params[0]));
    // "The :archive_format must be zip"; the answer is a 302 whose Location "expires after 1
    // minute", or 410 Gone for an expired artifact (operations["actions/download-artifact"]).
    if (!a || q.params[1] !== 'zip') return restNotFound();
    if (a.expiresAt <= this.now()) {
      return {
        status: 410,
        body: {
          message: 'Artifact has expired',
          documentation_url: 'https://docs.github.com/rest/actions/artifacts#download-an-artifact',
          status: '410',
        },
      };
    }
    return { status: 302, headers: { location: this.sign(a.blobPath, 'r', 60_000) } };
  }
}

type TwirpReply = { status: number; body: unknown };

interface BlobReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

// Twirp's error codes and their HTTP statuses (spec v7, "Error Codes").
const TWIRP_STATUS: Record<string, number> = {
  bad_route: 404,
  malformed: 400,
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  failed_precondition: 412,
  internal: 500,
};

function twirpError(code: string, msg: string): TwirpReply {
  return { status: TWIRP_STATUS[code] ?? 500, body: { code, msg } };
}

function storageHeaders(): Record<string, string> {
  return { 'x-ms-request-id': randomUUID(), 'x-ms-version': '2023-11-03', date: new Date().toUTCString() };
}

/** Azure Storage's error answer: an XML <Error> with Code and Message, and x-ms-error-code. */
function storageError(status: number, code: string, message: string): BlobReply {
  const body = Buffer.from(
    `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}\nRequestId:${randomUUID()}\nTime:${new Date().toISOString()}</Message></Error>`,
  );
  return {
    status,
    headers: {
      ...storageHeaders(),
      'content-type': 'application/xml',
      'content-length': String(body.length),
      'x-ms-error-code': code,
    },
    body,
  };
}

function restNotFound(): Reply {
  return {
    status: 404,
    body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
  };
}

function etagOf(data: Buffer): string {
  return `"0x${createHash('sha1').update(data).digest('hex').slice(0, 15).toUpperCase()}"`;
}

function b64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function startFakeArtifactService(
  options?: FakeArtifactServiceOptions,
): Promise<FakeArtifactService> {
  return new FakeArtifactService(options).start();
}
