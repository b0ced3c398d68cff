// SIGINT / SIGTERM → an AbortSignal, so a run stops its provider stream and its tools cleanly and
// still writes its summary. The Actions runner cancels a job with SIGINT, then SIGTERM 7.5 s later,
// then SIGKILL; a person at a terminal presses Ctrl-C twice when they will not wait.

export interface Interrupt {
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  readonly received: NodeJS.Signals | undefined;
  dispose(): void;
}

/** Aborts on the first SIGINT or SIGTERM; a later one calls `onRepeat`. */
export function watchInterrupts(onRepeat: (sig: NodeJS.Signals) => void): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (sig: NodeJS.Signals): void => {
    if (received) {
      onRepeat(sig);
      return;
    }
    received = sig;
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
