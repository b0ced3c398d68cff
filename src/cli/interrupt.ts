import { watchInterrupts as watch, type Interrupt } from '../agent/signals.js';

export type { Interrupt };

/** For CLI commands: a second SIGINT or SIGTERM exits 130 at once (the user will not wait). */
export function watchInterrupts(onRepeat: () => void = () => process.exit(130)): Interrupt {
  return watch(onRepeat);
}
