import type { AttemptFailure } from './errors.js';

/**
 * When and how long to wait before trying a failed request again.
 *
 * Retried: HTTP 408, 409, 429, 5xx (Anthropic's 529 overloaded_error among them), connection
 * resets and streams cut mid-way, and `error` events of those kinds inside a stream. Not retried:
 * other 4xx, context-length errors (the loop compacts instead), aborts. The delay is exponential
 * with full jitter, raised to the server's retry-after when it sent one; a retry whose wait would
 * go past `maxTotalMs` (measured from the first attempt) is not made.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Upper bound on the time spent on one turn including waits. */
  maxTotalMs: number;
  /**
   * Read timeout: an attempt that receives nothing for this long is given up and retried like a
   * lost connection. Long enough for a reasoning model that thinks before its first token.
   */
  idleTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxTotalMs: 180_000,
  idleTimeoutMs: 300_000,
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
 * `elapsedMs` is the time since the first attempt started.
 */
export function retryDelay(
  policy: RetryPolicy,
  retry: number,
  failure: AttemptFailure,
  elapsedMs: number,
  random: () => number = Math.random,
): number | undefined {
  if (!isRetryable(failure) || retry > policy.maxRetries) return undefined;
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
