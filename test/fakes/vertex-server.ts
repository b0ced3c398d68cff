import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicReply, anthropicError, type AnthropicScript } from './anthropic-server.js';
import { googleErrorBody, googleReply, type GoogleScript } from './google-server.js';
import { startSseServer, type FakeProviderServer, type RecordedRequest, type Reply } from './sse.js';

/*
 * A loopback stand-in for Google Vertex AI and the token service in front of it, as
 * google-github-actions/auth's workload identity federation uses them:
 *
 *   GET  /oidc?audience=…           the credential source (GitHub's ID-token endpoint): needs the
 *                                   request token as a bearer, answers {"value": <subject token>}
 *   POST /v1/token                  Google STS: exchanges that subject token (form-encoded,
 *                                   grant_type token-exchange, the pool's audience) for an access
 *                                   token; 400 invalid_grant once `expire()` was called
 *   POST /v1/projects/P/locations/L/publishers/anthropic/models/M:streamRawPredict
 *                                   Anthropic on Vertex: the Messages API's SSE (anthropic-server.ts)
 *   POST /v1beta1/projects/P/locations/L/publishers/google/models/M:streamGenerateContent?alt=sse
 *                                   Gemini on Vertex: the Gemini API's SSE (google-server.ts)
 *
 * The model routes accept only `Authorization: Bearer <a token /v1/token issued>` (401
 * UNAUTHENTICATED otherwise), for the project and location they were given (403 / 404 otherwise).
 * `credentialsFile(dir)` writes the external-account file the auth action would, pointing here.
 */

export interface VertexServer extends FakeProviderServer {
  project: string;
  location: string;
  /** The value of ACTIONS_ID_TOKEN_REQUEST_TOKEN the credentials file carries. */
  requestToken: string;
  /** Access tokens issued so far. */
  issued: string[];
  /** Token exchanges asked for, model requests answered with a stream or an error. */
  counts: { oidc: number; sts: number; model: number };
  /** Writes the credentials file into `dir` (gha-creds-….json) and returns its path. */
  credentialsFile(dir: string, mode?: number): string;
  /** From now on the subject token is refused as expired. */
  expire(): void;
}

export interface VertexScripts {
  anthropic?: AnthropicScript;
  gemini?: GoogleScript;
  project?: string;
  location?: string;
}

const AUDIENCE =
  '//iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/github/providers/patchloop-test';

function json(status: number, body: unknown): Reply {
  return { kind: 'json', status, body };
}

export async function startVertexServer(scripts: VertexScripts): Promise<VertexServer> {
  const project = scripts.project ?? 'patchloop-test-project';
  const location = scripts.location ?? 'europe-west1';
  const requestToken = `fake-actions-request-${randomBytes(12).toString('hex')}`;
  const subjects = new Set<string>();
  const issued: string[] = [];
  const counts = { oidc: 0, sts: 0, model: 0 };
  let expired = false;
  let anthropicTurns = 0;
  let geminiTurns = 0;

  const ANTHROPIC =
    /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/;
  const GEMINI =
    /^\/v1beta1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):streamGenerateContent$/;

  function reply(request: RecordedRequest): Reply {
    const url = new URL(request.path, 'http://127.0.0.1');
    if (url.pathname === '/oidc') {
      counts.oidc++;
      if (request.headers.authorization !== `Bearer ${requestToken}`)
        return json(401, { message: 'Unable to get ACTIONS_ID_TOKEN_REQUEST_TOKEN env variable' });
      const subject = `eyJ.fake-github-oidc.${randomBytes(8).toString('hex')}`;
      subjects.add(subject);
      return json(200, { value: subject });
    }
    if (url.pathname === '/v1/token') {
      counts.sts++;
      const form = new URLSearchParams(String(request.raw));
      if (
        form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' ||
        form.get('audience') !== AUDIENCE
      )
        return json(400, { error: 'invalid_request', error_description: 'Invalid audience or grant type.' });
      if (expired || !subjects.has(form.get('subject_token') ?? ''))
        return json(400, {
          error: 'invalid_grant',
          error_description: 'The ID token has expired. Obtain a new ID token and retry.',
        });
      const token = `ya29.fake-vertex-${randomBytes(16).toString('hex')}`;
      issued.push(token);
      return json(200, {
        access_token: token,
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        token_type: 'Bearer',
        expires_in: 3600,
      });
    }
    const claude = ANTHROPIC.exec(url.pathname);
    const gemini = GEMINI.exec(url.pathname);
    const auth = String(request.headers.authorization ?? '');
    const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    counts.model++;
    if (!issued.includes(bearer)) {
      const body = googleErrorBody(
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        'UNAUTHENTICATED',
      );
      return json(401, claude ? [body] : body);
    }
    const m = (claude ?? gemini)!;
    if (decodeURIComponent(m[1]!) !== project)
      return json(
        403,
        googleErrorBody(
          403,
          `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${m[1]}'`,
          'PERMISSION_DENIED',
        ),
      );
    if (decodeURIComponent(m[2]!) !== location)
      return json(
        404,
        googleErrorBody(
          404,
          `Publisher Model \`projects/${m[1]}/locations/${m[2]}/publishers/${claude ? 'anthropic' : 'google'}/models/${m[3]}\` not found.`,
          'NOT_FOUND',
        ),
      );
    if (claude) {
      // On Vertex the version goes in the body and the model in the path.
      if (typeof request.body?.anthropic_version !== 'string' || 'model' in (request.body ?? {}))
        return json(400, anthropicError('invalid_request_error', 'anthropic_version: Field required'));
      const index = anthropicTurns++;
      const s = scripts.anthropic;
      const turn = typeof s === 'function' ? s(request, index) : s?.[index];
      if (!turn)
        return json(
          400,
          anthropicError('invalid_request_error', `fake server: no scripted turn ${index + 1}`),
        );
      return anthropicReply(turn, index);
    }
    if (url.searchParams.get('alt') !== 'sse')
      return json(400, googleErrorBody(400, 'alt=sse expected', 'INVALID_ARGUMENT'));
    const index = geminiTurns++;
    const s = scripts.gemini;
    return googleReply(typeof s === 'function' ? s(request, index) : s?.[index]);
  }

  const server = await startSseServer({
    route: (method, path) =>
      (method === 'GET' && path === '/oidc') ||
      (method === 'POST' && (path === '/v1/token' || ANTHROPIC.test(path) || GEMINI.test(path))),
    reply,
    notFound: (path) =>
      googleErrorBody(404, `The requested URL ${path} was not found on this server.`, 'NOT_FOUND'),
  });
  return {
    ...server,
    project,
    location,
    requestToken,
    issued,
    counts,
    credentialsFile(dir, mode = 0o640) {
      const path = join(dir, `gha-creds-${randomBytes(8).toString('hex')}.json`);
      const file = {
        type: 'external_account',
        audience: AUDIENCE,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        token_url: `${server.url}/v1/token`,
        credential_source: {
          url: `${server.url}/oidc?audience=${encodeURIComponent(`https:${AUDIENCE}`)}`,
          headers: { Authorization: `Bearer ${requestToken}` },
          format: { type: 'json', subject_token_field_name: 'value' },
        },
      };
      writeFileSync(path, JSON.stringify(file), { mode });
      return path;
    },
    expire() {
      expired = true;
    },
  };
}
