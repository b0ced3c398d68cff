import { readdirSync, readFileSync } from 'node:fs';

// Process-group bookkeeping. On Linux the group's members are read from /proc so that zombies
// count as gone: where PID 1 does not reap orphans (some containers), an orphaned grandchild stays
// a zombie in the group forever, and `kill(-pgid, 0)` would keep reporting it alive.

const hasProc =
  process.platform === 'linux' &&
  (() => {
    try {
      readdirSync('/proc/self');
      return true;
    } catch {
      return false;
    }
  })();

/** Pids of the group's members that are still running (not zombies). */
export function liveMembers(pgid: number): number[] {
  if (!hasProc) {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    // The command name is in parentheses and may contain spaces; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') live.push(Number(entry));
  }
  return live;
}

export type SignalGroup = (pgid: number, signal: NodeJS.Signals) => void;

export const signalGroup: SignalGroup = (pgid, signal) => {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Stops every process of a group: SIGTERM, then SIGKILL for whatever still runs after `graceMs`.
 * Resolves once no member is running (or shortly after SIGKILL if one cannot be seen to die).
 */
export async function killGroup(
  pgid: number,
  graceMs: number,
  send: SignalGroup = signalGroup,
): Promise<void> {
  if (liveMembers(pgid).length === 0) return;
  send(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(20);
    if (liveMembers(pgid).length === 0) return;
  }
  send(pgid, 'SIGKILL');
  for (let i = 0; i < 50; i++) {
    if (liveMembers(pgid).length === 0) return;
    await sleep(20);
  }
}
