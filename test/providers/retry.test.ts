import { describe, expect, it } from 'vitest';
import { classifyError, retryAfterFromHeaders, type AttemptFailure } from '../../src/providers/errors.js';
import { DEFAULT_RETRY_POLICY, retryDelay, retryPolicy, sleep } from '../../src/providers/retry.js';

const policy = {
  maxRetries: 3,
  baseDelayMs: 100,
  maxDelayMs: 1_000,
  maxTotalMs: 10_000,
  idleTimeoutMs: 1_000,
};
const server: AttemptFailure = { kind: 'server', status: 500, retryable: true, message: '500' };

/** An error shaped like the SDKs' APIError (status, headers, parsed body). */
function apiError(status: number | undefined, body: unknown, headers: Record<string, string> = {}) {
  return Object.assign(new Error(`${status ?? ''} ${JSON.stringify(body)}`), {
    status,
    headers: new Headers(headers),
    error: body,
  });
}

describe('retry policy', () => {
  it('backs off exponentially with jitter, capped, and stops after maxRetries', () => {
    expect(retryDelay(policy, 1, server, 0, () => 0)).toBe(50);
    expect(retryDelay(policy, 1, server, 0, () => 1)).toBe(100);
    expect(retryDelay(policy, 3, server, 0, () => 1)).toBe(400);
    expect(retryDelay({ ...policy, maxRetries: 10 }, 8, server, 0, () => 1)).toBe(1_000);
    expect(retryDelay(policy, 4, server, 0)).toBeUndefined();
  });

  it('waits at least what retry-after asked, unless that passes the total budget', () => {
    expect(retryDelay(policy, 1, { ...server, retryAfterMs: 2_500 }, 0, () => 0)).toBe(2_500);
    expect(retryDelay(policy, 1, { ...server, retryAfterMs: 2_500 }, 8_000, () => 0)).toBeUndefined();
  });

  it('does not retry what cannot succeed', () => {
    expect(
      retryDelay(policy, 1, { kind: 'bad_request', status: 400, retryable: false, message: '' }, 0),
    ).toBeUndefined();
    expect(
      retryDelay(policy, 1, { kind: 'context_length', retryable: true, message: '' }, 0),
    ).toBeUndefined();
  });

  it('with the defaults, a stream that hangs for the idle timeout still gets a retry', () => {
    const hang: AttemptFailure = { kind: 'network', retryable: true, message: 'no data' };
    const p = DEFAULT_RETRY_POLICY;
    // The budget counts from the hung attempt's last byte: the idle timeout plus the longest
    // first back-off fits in it.
    expect(retryDelay(p, 1, hang, p.idleTimeoutMs, () => 1)).toBe(p.baseDelayMs);
  });

  it('allows a failure fewer retries than the policy when it says so', () => {
    const refused: AttemptFailure = { kind: 'network', retryable: true, maxRetries: 1, message: '' };
    expect(retryDelay(policy, 1, refused, 0, () => 0)).toBe(50);
    expect(retryDelay(policy, 2, refused, 0, () => 0)).toBeUndefined();
  });

  it('takes overrides that are numbers and ignores the rest', () => {
    expect(retryPolicy({ maxRetries: 0, baseDelayMs: Number.NaN })).toEqual({
      ...DEFAULT_RETRY_POLICY,
      maxRetries: 0,
    });
  });

  it('sleep ends early, with false, when the signal aborts', async () => {
    const c = new AbortController();
    const pending = sleep(60_000, c.signal);
    c.abort();
    expect(await pending).toBe(false);
    expect(await sleep(1)).toBe(true);
  });
});

describe('classifyError', () => {
  it('reads retry-after-ms, retry-after seconds and retry-after dates', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '3' }))).toBe(3_000);
    const now = Date.parse('2026-11-30T10:00:00Z');
    expect(retryAfterFromHeaders({ 'Retry-After': 'Mon, 30 Nov 2026 10:00:05 GMT' }, now)).toBe(5_000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });

  it.each([
    [408, 'network', true],
    [409, 'bad_request', true],
    [429, 'rate_limit', true],
    [500, 'server', true],
    [503, 'server', true],
    [529, 'overloaded', true],
    [400, 'bad_request', false],
    [401, 'auth', false],
    [403, 'auth', false],
    [404, 'bad_request', false],
    [422, 'bad_request', false],
  ])('HTTP %i is %s (retryable: %s)', (status, kind, retryable) => {
    const f = classifyError(apiError(status, { error: { type: 'x', message: 'm' } }));
    expect([f.kind, f.retryable, f.status]).toEqual([kind, retryable, status]);
  });

  it('recognises context-length errors of each provider', () => {
    const anthropic = apiError(400, {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' },
    });
    const openai = apiError(400, {
      message: 'too long',
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
    });
    const gemini = apiError(400, {
      error: {
        status: 'INVALID_ARGUMENT',
        message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      },
    });
    for (const e of [anthropic, openai, gemini])
      expect(classifyError(e)).toMatchObject({ kind: 'context_length', retryable: false });
  });

  it('classifies error events inside a stream by their type', () => {
    expect(
      classifyError(
        apiError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      ),
    ).toMatchObject({ kind: 'overloaded', retryable: true });
    expect(classifyError(apiError(undefined, { message: 'boom', type: 'server_error' }))).toMatchObject({
      kind: 'server',
      retryable: true,
    });
    expect(
      classifyError(
        apiError(undefined, { type: 'error', error: { type: 'invalid_request_error', message: 'no' } }),
      ),
    ).toMatchObject({ kind: 'bad_request', retryable: false });
  });

  it('treats connection failures as retryable network errors and aborts as final', () => {
    const reset = new TypeError('fetch failed', {
      cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    });
    expect(classifyError(reset)).toMatchObject({ kind: 'network', retryable: true });
    expect(classifyError(reset).message).toContain('ECONNRESET');
    expect(classifyError(reset).maxRetries).toBeUndefined();
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });
    expect(classifyError(refused)).toMatchObject({ kind: 'network', maxRetries: 1, refused: true });
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    expect(classifyError(abort)).toMatchObject({ retryable: false });
    expect(classifyError('weird')).toMatchObject({ kind: 'other', retryable: false, message: 'weird' });
  });
});
