import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { SignatureV4 } from '@smithy/signature-v4';
import { anthropicFrames, type AnthropicScript } from './anthropic-server.js';
import type { FakeProviderServer, RecordedRequest } from './sse.js';

/*
 * A loopback stand-in for Amazon Bedrock's runtime API as the Anthropic models use it:
 * POST /model/{modelId}/invoke-with-response-stream, authenticated with SigV4 and answered with
 * `application/vnd.amazon.eventstream`: binary messages (prelude with total and headers length and
 * its CRC32, headers, payload, message CRC32) of `:event-type` `chunk`, each payload
 * `{"bytes": base64(<one Anthropic stream event>)}`. The request's signature is checked by
 * recomputing it with AWS's reference signer (@smithy/signature-v4) from the test credentials, over
 * the headers the request says it signed; a wrong or missing signature, another key, or a missing
 * session token gets Bedrock's 403. `expire()` makes the credentials expired from then on (403
 * ExpiredTokenException, as STS credentials past their lifetime).
 */

export interface AwsTestCredentials {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

export const TEST_AWS: AwsTestCredentials = {
  region: 'eu-west-3',
  accessKeyId: 'ASIAFAKEBEDROCKTEST01',
  secretAccessKey: 'bedrock-fake-secret-8f3a9c1e5b7d2f4a6c8e0b1d3f5a7c9e1b3d5f70',
  sessionToken: 'IQoJb3JpZ2luX2VjEFakeSessionToken/bedrock+test/0123456789abcdefABCDEF==',
};

export interface BedrockServer extends FakeProviderServer {
  /** Requests refused for their signature or credentials (they are in `requests` too). */
  refused: number;
  /** From now on the session token is expired. */
  expire(): void;
}

const utf8 = {
  toUtf8: (b: Uint8Array) => Buffer.from(b).toString('utf8'),
  fromUtf8: (s: string) => new Uint8Array(Buffer.from(s, 'utf8')),
};
const codec = new EventStreamCodec(utf8.toUtf8, utf8.fromUtf8);

/** One event-stream message carrying an Anthropic stream event, as Bedrock frames it. */
export function bedrockChunk(event: unknown): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: utf8.fromUtf8(JSON.stringify({ bytes, p: 'abcdefghijklmnopqrstuvwxyzABCDEFGH' })),
  });
}

function amzDate(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return new Date(NaN);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

/** Whether the request carries a valid SigV4 signature by `creds` for Bedrock in their region. */
async function signatureValid(
  req: IncomingMessage,
  raw: string,
  creds: AwsTestCredentials,
): Promise<string | undefined> {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return 'Missing Authentication Token';
  const [, keyId, , region, service, signedHeaders, signature] = m;
  if (keyId !== creds.accessKeyId) return 'The security token included in the request is invalid.';
  if (region !== creds.region || service !== 'bedrock')
    return 'Credential should be scoped to a valid region.';
  if (req.headers['x-amz-security-token'] !== creds.sessionToken)
    return 'The security token included in the request is invalid.';
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders!.split(';')) {
    const v = req.headers[name];
    if (v !== undefined) headers[name] = Array.isArray(v) ? v.join(',') : v;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const signer = new SignatureV4({
    credentials: creds,
    region: creds.region,
    service: 'bedrock',
    sha256: Sha256,
  });
  const signed = await signer.sign(
    {
      method: req.method ?? 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query,
      headers,
      body: raw,
    },
    { signingDate: amzDate(String(req.headers['x-amz-date'] ?? '')) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1];
  return expected === signature
    ? undefined
    : 'The request signature we calculated does not match the signature you provided.';
}

function awsError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'fake-request-id',
  });
  res.end(JSON.stringify({ message }));
}

export async function startBedrockServer(
  script: AnthropicScript,
  creds: AwsTestCredentials = TEST_AWS,
  /** A Bedrock API key also accepted, as `Authorization: Bearer <key>`. */
  apiKey?: string,
): Promise<BedrockServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let expired = false;
  let turns = 0;
  const state = { refused: 0 };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // kept as text
    }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      raw,
    };
    requests.push(recorded);
    for (const w of waiters.filter((w) => requests.length >= w.count)) w.resolve();
    const route = /^\/model\/([^/]+)\/invoke-with-response-stream$/.exec(
      new URL(req.url ?? '/', 'http://x').pathname,
    );
    if (req.method !== 'POST' || !route) return awsError(res, 404, 'UnknownOperationException', 'Not found');
    const byKey = apiKey !== undefined && req.headers.authorization === `Bearer ${apiKey}`;
    const refusal = byKey ? undefined : await signatureValid(req, raw, creds);
    if (refusal) {
      state.refused++;
      const type = refusal.startsWith('The request signature')
        ? 'InvalidSignatureException'
        : 'UnrecognizedClientException';
      return awsError(res, 403, type, refusal);
    }
    if (expired) {
      state.refused++;
      return awsError(
        res,
        403,
        'ExpiredTokenException',
        'The security token included in the request is expired',
      );
    }
    const model = decodeURIComponent(route[1]!);
    if (!/^(?:[a-z]+\.)?anthropic\.claude-/.test(model) && !model.startsWith('arn:aws:bedrock:'))
      return awsError(res, 400, 'ValidationException', 'The provided model identifier is invalid.');
    const index = turns++;
    const turn = typeof script === 'function' ? script(recorded, index) : script[index];
    if (!turn)
      return awsError(
        res,
        400,
        'ValidationException',
        `fake server: no scripted turn for request ${index + 1}`,
      );
    if (turn.http) return awsError(res, turn.http.status, turn.http.type, turn.http.message);
    res.writeHead(200, {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-bedrock-content-type': 'application/json',
      'x-amzn-requestid': `fake-${index}`,
    });
    const out: Uint8Array[] = [];
    for (const frame of anthropicFrames(turn, index)) {
      if (typeof frame !== 'string') continue;
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (!data) continue;
      const event = JSON.parse(data) as { type: string; [k: string]: unknown };
      if (event.type === 'ping') continue; // Bedrock does not forward pings
      if (event.type === 'message_stop') {
        const u = turn.usage ?? {};
        event['amazon-bedrock-invocationMetrics'] = {
          inputTokenCount: u.input ?? 0,
          outputTokenCount: u.output ?? 0,
          invocationLatency: 812,
          firstByteLatency: 301,
        };
      }
      out.push(bedrockChunk(event));
    }
    // Frames split across writes at odd offsets: a reader must join a message cut anywhere.
    const all = Buffer.concat(out);
    const cut = Math.max(1, Math.floor(all.length / 3) + 7);
    res.write(all.subarray(0, cut));
    res.end(all.subarray(cut));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(err) }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get refused() {
      return state.refused;
    },
    expire() {
      expired = true;
    },
    received(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
