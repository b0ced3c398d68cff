// SIGINT / SIGTERM → an AbortSignal, so a command can stop its provider stream and tools cleanly.

export interface Interrupt {
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  readonly received: NodeJS.Signals | undefined;
  dispose(): void;
}

/**
 * Aborts on the first SIGINT or SIGTERM. A second one calls `onRepeat` (default: exit 130 at
 * once), for a user who does not want to wait for the clean stop.
 */
export function watchInterrupts(onRepeat: () => void = () => process.exit(130)): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (sig: NodeJS.Signals): void => {
    if (received) {
      onRepeat();
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
