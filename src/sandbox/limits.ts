import { readFileSync } from 'node:fs';

// Resource limits for one sandboxed command, set with prlimit as root just before privileges are
// dropped, so the command cannot raise them again (an unprivileged process may only lower its hard
// limits).

export interface CommandLimits {
  /** Processes and threads of the sandbox user (RLIMIT_NPROC); this is what bounds a fork bomb. */
  processes: number;
  /**
   * Data segment, heap included (RLIMIT_DATA), in bytes. Not the address space (RLIMIT_AS): V8 and
   * WebAssembly reserve tens of GiB of virtual memory they never touch, and `node` fails to start
   * under an address-space limit a machine could actually back.
   */
  dataBytes: number;
  /** Largest file a command may write (RLIMIT_FSIZE), in bytes; past it the write fails with EFBIG. */
  fileBytes: number;
  /** Open files per process (RLIMIT_NOFILE). */
  openFiles: number;
  /** CPU seconds per process (RLIMIT_CPU); by default the command's own time limit. */
  cpuSeconds?: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  // a test runner with a worker per core and a dozen threads each stays far below this
  processes: 1024,
  dataBytes: 8 * 1024 ** 3,
  fileBytes: 2 * 1024 ** 3,
  openFiles: 8192,
};

// What patchloop itself saves of a command's output (its first and last 8 MiB) and the total output
// past which it stops the command (1 GiB). They bound every command, isolated or not, so they are
// defined with the tools that read the output (src/tools/output-buffer.ts, which says why these
// numbers); they are listed here with the other limits.
export { DEFAULT_OUTPUT_BOUNDS, type OutputBounds } from '../tools/output-buffer.js';

/** When the command has no time limit: an hour of CPU, longer than any default timeout. */
const FALLBACK_CPU_SECONDS = 3600;

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

/**
 * The arguments of `prlimit` (soft and hard limit alike) before the command it runs. No limit goes
 * above patchloop's own hard limit: without CAP_SYS_RESOURCE (containers often drop it) not even
 * root may raise one, and prlimit would then refuse to start the command at all.
 */
export function prlimitArgs(
  limits: CommandLimits,
  timeoutMs?: number,
  hard: Partial<Record<keyof CommandLimits, number>> = currentHardLimits(),
): string[] {
  const cpu =
    limits.cpuSeconds ??
    (timeoutMs !== undefined && timeoutMs > 0 ? Math.ceil(timeoutMs / 1000) : FALLBACK_CPU_SECONDS);
  const n = (key: keyof CommandLimits, v: number) =>
    String(Math.max(1, Math.floor(Math.min(v, hard[key] ?? Infinity))));
  return [
    `--nproc=${n('processes', limits.processes)}`,
    `--data=${n('dataBytes', limits.dataBytes)}`,
    `--fsize=${n('fileBytes', limits.fileBytes)}`,
    `--nofile=${n('openFiles', limits.openFiles)}`,
    `--cpu=${n('cpuSeconds', cpu)}`,
  ];
}
