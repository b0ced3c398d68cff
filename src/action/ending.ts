// How much time an ending has. The Actions runner cancels a job with SIGINT, sends SIGTERM 7.5 s
// later and SIGKILL 2.5 s after that (the runner's ProcessInvoker): what a cancelled run keeps
// must be committed, pushed, summarised and uploaded inside those 10 seconds, the most valuable
// step first. Outside a cancel the same steps get ordinary deadlines.
import { watchInterrupts } from '../agent/signals.js';
import { formatDuration } from '../protocol/format.js';

/** From the first signal: when the runner sends SIGTERM, and when it kills the process. */
export const RUNNER_SIGTERM_MS = 7_500;
export const RUNNER_SIGKILL_MS = 10_000;

/** Deadlines of each step of a cancelled run's ending, in ms after the first signal. */
export const GRACE = {
  /** staging and the local commit */
  commit: 3_000,
  /** the summary comment written before the push (turns, tokens, cost, the branch) */
  earlySummary: 4_500,
  /** the push: given up 1.5 s before the runner's SIGTERM, which leaves the rest time to finish */
  push: 6_000,
  /** the transcript upload: given up at SIGTERM at the latest */
  upload: RUNNER_SIGTERM_MS,
  /** the final summary edit and outputs, before SIGKILL */
  finalSummary: 9_500,
} as const;

export interface Ending {
  /** aborted by the first SIGINT/SIGTERM: the run is cancelled */
  readonly cancelled: AbortSignal;
  /** aborted by the second signal (the runner's SIGTERM): only the summary is left to write */
  readonly hurry: AbortSignal;
  /**
   * A signal for one step: aborted after `ms`, or — once the run is cancelled — `graceMs` after
   * the first signal, or at the second signal (unless `outlastsHurry`: the last step, the summary,
   * is what the time after it is for). `ms` undefined: no deadline outside a cancel.
   */
  deadline(ms: number | undefined, graceMs: number, outlastsHurry?: boolean): AbortSignal;
  dispose(): void;
}

/** Watches SIGINT and SIGTERM for the whole run, start-up included. */
export function watchEnding(onRepeat: () => void = () => undefined): Ending {
  const hurry = new AbortController();
  const interrupt = watchInterrupts(() => {
    onRepeat();
    hurry.abort(new Error('interrupted again'));
  });
  let firstAt: number | undefined;
  if (interrupt.signal.aborted) firstAt = Date.now();
  else interrupt.signal.addEventListener('abort', () => (firstAt = Date.now()), { once: true });
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const after = (ms: number, c: AbortController, why: string) => {
    const t = setTimeout(() => c.abort(new DOMException(why, 'TimeoutError')), Math.max(0, ms));
    t.unref();
    timers.add(t);
  };
  return {
    cancelled: interrupt.signal,
    hurry: hurry.signal,
    deadline(ms, graceMs, outlastsHurry = false) {
      const c = new AbortController();
      if (ms !== undefined) after(ms, c, `no answer within ${formatDuration(ms)}`);
      const inGrace = () =>
        after(firstAt! + graceMs - Date.now(), c, 'the cancelled run’s grace period ran out');
      if (interrupt.signal.aborted) inGrace();
      else interrupt.signal.addEventListener('abort', inGrace, { once: true });
      return outlastsHurry ? c.signal : AbortSignal.any([c.signal, hurry.signal]);
    },
    dispose() {
      interrupt.dispose();
      for (const t of timers) clearTimeout(t);
    },
  };
}

/** `work`, or a rejection once `signal` aborts (the work itself is left to finish unwatched). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(abortError(signal));
    signal.addEventListener('abort', stop, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', stop);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : 'cancelled';
  const err = new Error(`stopped: ${why}`);
  err.name = 'AbortError';
  return err;
}
