import type { ErrorKind } from '../protocol/types.js';

/**
 * What went wrong with one request attempt, in provider-neutral terms. `classifyError` builds it
 * from whatever an SDK threw (the three SDKs' APIError shapes are read by duck typing: `status`,
 * `headers`, `error` body), and the retry policy decides from it whether to try again.
 */
export interface AttemptFailure {
  kind: ErrorKind;
  /** HTTP status when the failure was an HTTP response. */
  status?: number;
  /** Server-requested wait (retry-after-ms / retry-after), in milliseconds. */
  retryAfterMs?: number;
  /** Whether trying the same request again may succeed. */
  retryable: boolean;
  /** At most this many retries for this failure, fewer than the policy's. */
  maxRetries?: number;
  /** No server answered at the address (connection refused, unknown host). */
  refused?: boolean;
  /** The request was refused because of an image it carried (size, dimensions, format). */
  imageRefused?: boolean;
  message: string;
}

// Phrases the providers use for an over-long prompt: Anthropic "prompt is too long: 213000 tokens >
// 200000 maximum", OpenAI code context_length_exceeded / "maximum context length is 128000 tokens",
// Gemini "The input token count (1100000) exceeds the maximum number of tokens allowed (1048576)".
const CONTEXT_LENGTH_PATTERNS = [
  /prompt is too long/i,
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /context window/i,
  /input token count.*exceeds/i,
  /exceeds the maximum number of tokens/i,
  /too many (input )?tokens/i,
  /input is too long/i,
  /request_too_large/i,
];

// Refusals of an image: Anthropic "messages.1.content.2.image.source.base64: image exceeds 5 MB
// maximum: 6275800 bytes > 5242880 bytes", "...image.source.base64.data: At least one of the image
// dimensions exceed max allowed size: 8000 pixels"; OpenAI "Invalid image" / "image_parse_error";
// Gemini "Unable to process input image".
const IMAGE_REFUSAL =
  /image exceeds|image dimensions exceed|\.image\.source|invalid image|image_parse_error|unable to process input image|unsupported image/i;

export function isContextLengthMessage(text: string): boolean {
  return CONTEXT_LENGTH_PATTERNS.some((p) => p.test(text));
}

type HeaderBag = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const bag = headers as Record<string, string | string[] | undefined>;
  const hit = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = hit === undefined ? undefined : bag[hit];
  return Array.isArray(value) ? value[0] : value;
}

/** Milliseconds the server asked us to wait, from `retry-after-ms` or `retry-after` (seconds or a date). */
export function retryAfterFromHeaders(headers: HeaderBag | undefined, now = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0)
    return Number(ms);
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function errorTypeOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { type?: unknown; error?: { type?: unknown; code?: unknown; status?: unknown } };
  // Anthropic: {type:'error', error:{type:'overloaded_error'}}; OpenAI: {type, code} or {error:{type}}.
  if (b.error && typeof b.error === 'object') {
    if (typeof b.error.type === 'string') return b.error.type;
    if (typeof b.error.status === 'string') return b.error.status;
  }
  if (typeof b.type === 'string' && b.type !== 'error') return b.type;
  return undefined;
}

function codeOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { code?: unknown; error?: { code?: unknown } };
  const code = b.code ?? b.error?.code;
  return typeof code === 'string' ? code : undefined;
}

function bodyMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { message?: unknown; error?: { message?: unknown } };
  const m = b.error && typeof b.error === 'object' ? b.error.message : b.message;
  return typeof m === 'string' && m.trim() ? m.trim() : undefined;
}

function className(err: object): string {
  const own = (err as { name?: unknown }).name;
  const ctor = (err as { constructor?: { name?: string } }).constructor?.name ?? '';
  return `${typeof own === 'string' ? own : ''} ${ctor}`;
}

function causeChain(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof Error) {
      const code = (cur as { code?: unknown }).code;
      parts.push(`${cur.message}${typeof code === 'string' ? ` ${code}` : ''}`);
      cur = cur.cause;
    } else {
      parts.push(String(cur));
      break;
    }
  }
  return parts.join('; caused by: ');
}

const NETWORK_CODES =
  /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR_SOCKET|UND_ERR_CLOSED|other side closed|terminated|socket hang up|fetch failed/i;

function kindFromType(type: string | undefined): ErrorKind | undefined {
  switch (type) {
    case 'overloaded_error':
      return 'overloaded';
    case 'rate_limit_error':
    case 'rate_limit_exceeded':
    case 'RESOURCE_EXHAUSTED':
      return 'rate_limit';
    case 'api_error':
    case 'server_error':
    case 'INTERNAL':
    case 'UNAVAILABLE':
      return 'server';
    case 'authentication_error':
    case 'permission_error':
    case 'UNAUTHENTICATED':
    case 'PERMISSION_DENIED':
      return 'auth';
    case 'request_too_large':
      return 'context_length';
    case 'invalid_request_error':
    case 'not_found_error':
    case 'INVALID_ARGUMENT':
      return 'bad_request';
    default:
      return undefined;
  }
}

function kindFromStatus(status: number): ErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'network';
  if (status === 413) return 'context_length';
  if (status >= 400) return 'bad_request';
  return 'other';
}

function retryableKind(kind: ErrorKind): boolean {
  return kind === 'rate_limit' || kind === 'overloaded' || kind === 'server' || kind === 'network';
}

/** Turns anything an SDK or fetch threw into an AttemptFailure. Never throws. */
export function classifyError(err: unknown, now = Date.now()): AttemptFailure {
  if (!err || typeof err !== 'object') {
    return { kind: 'other', retryable: false, message: String(err) };
  }
  const e = err as { status?: unknown; headers?: HeaderBag; error?: unknown; message?: unknown };
  const own = typeof e.message === 'string' && e.message ? e.message : String(err);
  const name = className(err);
  const status = typeof e.status === 'number' && e.status > 0 ? e.status : undefined;
  const retryAfterMs = retryAfterFromHeaders(e.headers, now);
  const type = errorTypeOf(e.error);
  const code = codeOf(e.error);
  // The SDKs' own messages embed the raw JSON body; the provider's sentence reads better.
  const said = bodyMessage(e.error);
  const message = said ? `${type ? `${type}: ` : ''}${said}` : own;
  const detail = `${own} ${message} ${type ?? ''} ${code ?? ''}`;

  if (/AbortError/.test(name)) return { kind: 'other', retryable: false, message: 'Request aborted.' };
  const credential = credentialFailure(err);
  if (credential) return credential;

  if (status !== undefined) {
    let kind = kindFromStatus(status);
    if ((status === 400 || status === 413) && isContextLengthMessage(detail)) kind = 'context_length';
    // 529 is Anthropic's overloaded_error; some proxies turn it into a 500 with that type.
    if (type === 'overloaded_error') kind = 'overloaded';
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const image = (status === 400 || status === 413) && IMAGE_REFUSAL.test(detail);
    return {
      kind,
      status,
      retryAfterMs,
      retryable,
      ...(image ? { imageRefused: true } : {}),
      message: withStatus(status, message),
    };
  }

  // An error with no HTTP status: an `error` event inside a stream, or a transport failure.
  const typed = kindFromType(type) ?? kindFromType(code);
  if (typed) {
    const kind = typed === 'bad_request' && isContextLengthMessage(detail) ? 'context_length' : typed;
    return { kind, retryAfterMs, retryable: retryableKind(kind), message };
  }
  if (isContextLengthMessage(detail)) return { kind: 'context_length', retryable: false, message };
  const chain = causeChain(err);
  if (/Connection(Timeout)?Error/.test(name) || NETWORK_CODES.test(chain)) {
    // Nothing listens there (a wrong --base-url, a local server not started): one retry covers a
    // server that is restarting; five would only keep the user waiting for the same answer.
    const refused = /ECONNREFUSED|ENOTFOUND/.test(chain);
    return {
      kind: 'network',
      retryable: true,
      ...(refused ? { maxRetries: 1, refused: true } : {}),
      message: networkMessage(err, message),
    };
  }
  return { kind: 'other', retryable: false, message };
}

function withStatus(status: number, message: string): string {
  return message.startsWith(String(status)) ? message : `${status} ${message}`;
}

/**
 * The SDKs wrap the socket's error twice ("Connection error." ← "fetch failed" ← "connect
 * ECONNREFUSED 127.0.0.1:8080"); the innermost one is the one that says what happened.
 */
function networkMessage(err: unknown, message: string): string {
  let inner: Error | undefined;
  for (let cur: unknown = err, depth = 0; cur instanceof Error && depth < 5; depth++) {
    inner = cur;
    cur = cur.cause;
  }
  const said = inner && inner !== err && inner.message ? inner.message : message;
  return `Connection failed: ${said.replace(/[.\s]+$/, '')}.`;
}

/**
 * A short-lived cloud credential that could not be turned into an access token (Google's token
 * exchange answering 400 invalid_grant for an expired ID token, 401 from the token endpoint). The
 * Vertex SDK wraps it in a connection error ("Failed to acquire Google OAuth credentials."), which
 * would be retried; asking again with the same expired credential only repeats the refusal.
 */
function credentialFailure(err: unknown): AttemptFailure | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 5; depth++, cur = cur.cause) {
    const e = cur as { name?: string; status?: unknown; response?: { status?: unknown } };
    const status = typeof e.status === 'number' ? e.status : e.response?.status;
    const oauth = /invalid_grant|invalid_client|unauthorized_client|invalid_token|Error code invalid_/i.test(
      cur.message,
    );
    const tokenEndpoint =
      e.name === 'GaxiosError' && typeof status === 'number' && status >= 400 && status < 500;
    if (oauth || tokenEndpoint) {
      return {
        kind: 'auth',
        retryable: false,
        ...(typeof status === 'number' ? { status } : {}),
        message: `The cloud credentials could not be exchanged for an access token: ${cur.message.split('\n')[0]}`,
      };
    }
  }
  return undefined;
}

/** A failure for a stream that ended before the provider said it was complete. */
export function streamCutFailure(what = 'the response stream ended before it was complete'): AttemptFailure {
  return { kind: 'network', retryable: true, message: `Connection lost: ${what}.` };
}

/**
 * The error of a turn that ended for a reason the adapter does not know (one the API added
 * later): it names the reason, and is not retried (the same request would end the same way).
 */
export function unknownStop(
  api: string,
  field: string,
  reason: string | null | undefined,
): { message: string; kind: 'other' } {
  const named = reason ? `"${String(reason).slice(0, 80)}"` : '(none given)';
  return {
    message: `${api} ended the turn with ${field} ${named}, which patchloop does not know; the turn is treated as failed.`,
    kind: 'other',
  };
}
