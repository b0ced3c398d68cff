// The number and duration styles of every surface and every layer: the agent's budget messages
// and the tools' results read like the comment, the Actions log, the CLI and the HTML page
// (src/report/format.ts re-exports them with its other rules). Imports nothing of the project.

/**
 * A count as an integer with thousands separators ("12,345"): the one number style of the
 * comment, the Actions log, the CLI and the HTML page. Never abbreviated ("12.3k").
 */
export function formatCount(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '0';
  const digits = String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 && Math.round(n) !== 0 ? `-${digits}` : digits;
}

/**
 * A duration in the one style of every surface: "350 ms", "4.2 s", "2 min 5 s", "1 h 2 min 5 s",
 * "30 min".
 * A number and its unit are always apart, as in the tools' own "Exit code 1 (2.0 s)".
 */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const totalSeconds = ms / 1000;
  // 59.96 s would read "60.0 s": from there on, whole seconds.
  if (totalSeconds < 59.95) return `${totalSeconds.toFixed(1)} s`;
  const s = Math.round(totalSeconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  // Zero parts are left out after the first: "30 min", "1 h 5 s".
  const parts = [h > 0 ? `${formatCount(h)} h` : '', m > 0 ? `${m} min` : '', rest > 0 ? `${rest} s` : ''];
  return parts.filter(Boolean).join(' ');
}
