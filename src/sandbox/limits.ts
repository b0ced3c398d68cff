import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { EndedCommand } from '../tools/process.js';

// Resource limits for one sandboxed command, set with prlimit as root just before privileges are
// dropped, so the command cannot raise them again (an unprivileged process may only lower its hard
// limits).

export interface CommandLimits {
  /** Processes and threads of the sandbox user (RLIMIT_NPROC); this is what bounds a fork bomb. */
  processes: number;
  /**
   * Data segment (RLIMIT_DATA), in bytes; none by default. Since Linux 4.7 it counts every private
   * writable mapping, reserved or not: AddressSanitizer's shadow (a 15 TiB MAP_NORESERVE mapping
   * on x86-64) fails under any limit a machine could back ("ReserveShadowMemoryRange failed"), as
   * V8's and WebAssembly's reservations do under RLIMIT_AS. Memory is bounded instead by the
   * kernel's out-of-memory killer, which takes a command first (OOM_FIRST below).
   */
  dataBytes?: number;
  /** Largest file a command may write (RLIMIT_FSIZE), in bytes; past it the write fails with EFBIG. */
  fileBytes: number;
  /** Open files per process (RLIMIT_NOFILE). */
  openFiles: number;
  /**
   * CPU seconds per process (RLIMIT_CPU), every thread counted. By default the command's time limit
   * times the machine's cores (cpuSecondsFor): the wall clock is what bounds a command, and a
   * multi-threaded build (a JVM, rustc, `go test`, a vitest pool) uses several CPU seconds a second.
   */
  cpuSeconds?: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  // a test runner with a worker per core and a dozen threads each stays far below this
  processes: 1024,
  fileBytes: 2 * 1024 ** 3,
  openFiles: 8192,
};

// What patchloop itself saves of a command's output (its first and last 8 MiB) and the total output
// past which it stops the command (1 GiB). They bound every command, isolated or not, so they are
// defined with the tools that read the output (src/tools/output-buffer.ts, which says why these
// numbers); they are listed here with the other limits.
export { DEFAULT_OUTPUT_BOUNDS, type OutputBounds } from '../tools/output-buffer.js';

/** When the command has no time limit (an MCP server): an hour of every core. */
const FALLBACK_SECONDS = 3600;
/** The hard CPU limit's lead over the soft one: SIGXCPU at the soft one says which limit it was. */
const CPU_HARD_LEAD_SECONDS = 10;

/** The soft CPU-time limit of a command with this time limit on a machine with this many cores. */
export function cpuSecondsFor(timeoutMs: number | undefined, cores = Math.max(1, cpus().length)): number {
  const wall = timeoutMs !== undefined && timeoutMs > 0 ? Math.ceil(timeoutMs / 1000) : FALLBACK_SECONDS;
  // a few seconds over: the wall clock's SIGTERM, and its grace, come first
  return wall * cores + 5;
}

/**
 * Run as root after prlimit, before privileges are dropped: the kernel's out-of-memory killer takes
 * the command (and what it starts) before anything else, patchloop included. A command may lower
 * its score back to 0, everyone's default, but never below (that needs CAP_SYS_RESOURCE).
 */
export const OOM_FIRST = 'echo 1000 > /proc/self/oom_score_adj 2>/dev/null; exec "$@"';

const PROC_NAMES = {
  processes: 'Max processes',
  dataBytes: 'Max data size',
  fileBytes: 'Max file size',
  openFiles: 'Max open files',
  cpuSeconds: 'Max cpu time',
} as const;

/** The hard limits patchloop itself runs under (Linux: /proc/self/limits); Infinity where unlimited. */
export function currentHardLimits(text?: string): Partial<Record<keyof CommandLimits, number>> {
  let table = text;
  if (table === undefined) {
    try {
      table = readFileSync('/proc/self/limits', 'latin1');
    } catch {
      return {};
    }
  }
  const out: Partial<Record<keyof CommandLimits, number>> = {};
  for (const [key, label] of Object.entries(PROC_NAMES) as [keyof CommandLimits, string][]) {
    const line = table.split('\n').find((l) => l.startsWith(label));
    const hard = line?.slice(label.length).trim().split(/\s+/)[1];
    if (hard) out[key] = hard === 'unlimited' ? Infinity : Number(hard);
  }
  return out;
}

/** One resource limit as prlimit(2) takes it: the resource's name, soft and hard value. */
export type Rlimit = [name: 'nproc' | 'data' | 'fsize' | 'nofile' | 'cpu', soft: number, hard: number];

/**
 * The limits of a command (soft and hard alike, but the CPU time's). No limit goes above
 * patchloop's own hard limit: without CAP_SYS_RESOURCE (containers often drop it) not even root
 * may raise one, and setting it would then refuse to start the command at all.
 */
export function rlimits(
  limits: CommandLimits,
  timeoutMs?: number,
  hard: Partial<Record<keyof CommandLimits, number>> = currentHardLimits(),
): Rlimit[] {
  const cpu = limits.cpuSeconds ?? cpuSecondsFor(timeoutMs);
  const n = (key: keyof CommandLimits, v: number) =>
    Math.max(1, Math.floor(Math.min(v, hard[key] ?? Infinity)));
  const same = (name: Rlimit[0], key: keyof CommandLimits, v: number): Rlimit => [name, n(key, v), n(key, v)];
  return [
    same('nproc', 'processes', limits.processes),
    ...(limits.dataBytes !== undefined ? [same('data', 'dataBytes', limits.dataBytes)] : []),
    same('fsize', 'fileBytes', limits.fileBytes),
    same('nofile', 'openFiles', limits.openFiles),
    // SIGXCPU at the soft limit (exit 152), SIGKILL only past the hard one
    ['cpu', n('cpuSeconds', cpu), n('cpuSeconds', cpu + CPU_HARD_LEAD_SECONDS)],
  ];
}

/** The arguments of `prlimit` before the command it runs (rlimits). */
export function prlimitArgs(
  limits: CommandLimits,
  timeoutMs?: number,
  hard: Partial<Record<keyof CommandLimits, number>> = currentHardLimits(),
): string[] {
  return rlimits(limits, timeoutMs, hard).map(([name, soft, max]) =>
    name === 'cpu' ? `--cpu=${soft}:${max}` : `--${name}=${soft}`,
  );
}

/** The argv steps that apply the limits: prlimit, then the out-of-memory preference (OOM_FIRST). */
export function limitSteps(
  bins: { prlimit: string; sh: string },
  limits: CommandLimits,
  timeoutMs?: number,
): string[] {
  return [bins.prlimit, ...prlimitArgs(limits, timeoutMs), '--', bins.sh, '-c', OOM_FIRST, 'patchloop-oom'];
}

const SIGNALS: Record<number, string> = { 9: 'SIGKILL', 24: 'SIGXCPU', 25: 'SIGXFSZ' };

/**
 * Which limit ended a command, in a sentence for the model, or undefined when none did. A sandboxed
 * command's signal arrives as its namespace init's exit status (128 + the signal's number).
 */
export function limitKillNote(
  limits: CommandLimits,
  timeoutMs: number | undefined,
  ended: EndedCommand,
): string | undefined {
  if (ended.timedOut || ended.aborted) return undefined;
  const code = ended.exitCode;
  const signal = ended.signal ?? (code !== null && code > 128 ? SIGNALS[code - 128] : undefined);
  const cpu = limits.cpuSeconds ?? cpuSecondsFor(timeoutMs);
  const gib = (b: number) =>
    b >= 1024 ** 3 ? `${+(b / 1024 ** 3).toFixed(2)} GiB` : `${+(b / 1024 ** 2).toFixed(2)} MiB`;
  if (signal === 'SIGXCPU')
    return `The command was ended by SIGXCPU (exit ${code ?? 152}): a process of it used up the CPU-time limit of ${cpu} CPU-seconds per process (RLIMIT_CPU, all its threads counted).`;
  if (signal === 'SIGXFSZ')
    return `The command was ended by SIGXFSZ (exit ${code ?? 153}): it wrote past the file-size limit of ${gib(limits.fileBytes)} per file (RLIMIT_FSIZE).`;
  if (code !== 0 && ended.outputTail !== undefined && /\b(File too large|EFBIG)\b/i.test(ended.outputTail))
    return `A write failed with EFBIG ("File too large"): the file-size limit is ${gib(limits.fileBytes)} per file (RLIMIT_FSIZE).`;
  if (signal === 'SIGKILL')
    return `The command was killed by SIGKILL (exit ${code ?? 137}), not by patchloop (it had not timed out): most likely the kernel's out-of-memory killer, which takes commands first (the machine ran out of memory), or the CPU-time hard limit of ${cpu + CPU_HARD_LEAD_SECONDS} CPU-seconds per process.`;
  return undefined;
}
