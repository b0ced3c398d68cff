// Phase durations of an action run, for whoever wants to know where its time goes: with
// `PATCHLOOP_TIMINGS` set (to anything but '' or '0'), each timed phase prints one line to the log,
// `patchloop timing: <phase> <ms> ms`; without it, the same figures are debug lines (shown with
// ACTIONS_STEP_DEBUG). `bench/ending.bench.ts` reads them.
import * as core from './runner-commands.js';

let loud = false;
let finalAnswerAt: number | undefined;

/** Reads the switch from the run's environment (once, at the start of the run). */
export function configureTimings(env: NodeJS.ProcessEnv): void {
  const v = env.PATCHLOOP_TIMINGS;
  loud = v !== undefined && v !== '' && v !== '0';
  finalAnswerAt = undefined;
}

/** Reports one phase's duration. */
export function timing(phase: string, ms: number): void {
  const line = `patchloop timing: ${phase} ${Math.round(ms)} ms`;
  if (loud) core.info(line);
  else core.debug(line);
}

/** Runs `work` and reports how long it took, whether it resolved or threw. */
export async function timed<T>(phase: string, work: Promise<T> | (() => Promise<T>)): Promise<T> {
  const t0 = performance.now();
  try {
    return await (typeof work === 'function' ? work() : work);
  } finally {
    timing(phase, performance.now() - t0);
  }
}

/** The agent's loop ended (its final answer, or its stop): the ending's clock starts. */
export function finalAnswer(): void {
  finalAnswerAt = performance.now();
}

/** Reports the time from the final answer to now under `phase` (once the run is about to exit). */
export function sinceFinalAnswer(phase: string): void {
  if (finalAnswerAt !== undefined) timing(phase, performance.now() - finalAnswerAt);
}
