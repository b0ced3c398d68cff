import type { AttemptFailure } from './errors.js';

/**
 * When and how long to wait before trying a failed request again.
 *
 * Retried: HTTP 408, 409, 429, 5xx (Anthropic's 529 overloaded_error among them), connection
 * resets and streams cut mid-way, and `error` events of those kinds inside a stream. Not retried:
 * other 4xx, context-length errors (the loop compacts instead), aborts. The delay is exponential
 * with full jitter, raised to the server's retry-after when it sent one; a retry whose wait would
 * go past `maxTotalMs` (measured from the failed attempt's start, or from the last byte it
 * received when that is later) is not made. A failure may allow fewer retries than the policy
 * (a refused connection: the server is not there, and waiting a minute will rarely change that).
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Upper bound on one attempt without progress plus the wait before the next: counted from the
   * attempt's start or its last received byte, whichever is later.
   */
  maxTotalMs: number;
  /**
   * Read timeout: an attempt that receives no byte for this long (pings and keep-alives count) is
   * given up and retried like a lost connection. Below `maxTotalMs`, so that a hung stream always
   * gets a retry.
   */
  idleTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxTotalMs: 180_000,
  idleTimeoutMs: 120_000,
};

export function retryPolicy(overrides?: Partial<RetryPolicy>): RetryPolicy {
  const p = { ...DEFAULT_RETRY_POLICY };
  for (const key of Object.keys(p) as (keyof RetryPolicy)[]) {
    const v = overrides?.[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) p[key] = v;
  }
  return p;
}

export function isRetryable(failure: AttemptFailure): boolean {
  return failure.retryable && failure.kind !== 'context_length';
}

/**
 * The wait before retry number `retry` (1-based), or undefined when no retry should be made.
 * `elapsedMs` is the time since the failed attempt started or last received a byte.
 */
export function retryDelay(
  policy: RetryPolicy,
  retry: number,
  failure: AttemptFailure,
  elapsedMs: number,
  random: () => number = Math.random,
): number | undefined {
  if (!isRetryable(failure) || retry > Math.min(policy.maxRetries, failure.maxRetries ?? Infinity))
    return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  // Full jitter, but never less than half the step so a burst of clients spreads without stampeding.
  let delay = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  if (failure.retryAfterMs !== undefined) delay = Math.max(delay, Math.ceil(failure.retryAfterMs));
  if (elapsedMs + delay > policy.maxTotalMs) return undefined;
  return delay;
}

/** Waits `ms`, or less when the signal aborts. Resolves true when the full wait passed. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
