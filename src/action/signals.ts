// The runner cancels a job with SIGINT, then SIGTERM 7.5 s later, then SIGKILL. The first signal
// aborts the run so it can still write its summary; a later one shortens the wait.

export interface Cancellation {
  readonly signal: AbortSignal;
  readonly received: NodeJS.Signals | undefined;
  dispose(): void;
}

export function watchCancellation(onSecond: (sig: NodeJS.Signals) => void): Cancellation {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (sig: NodeJS.Signals): void => {
    if (received) {
      onSecond(sig);
      return;
    }
    received = sig;
    controller.abort(new Error(`cancelled by ${sig}`));
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
