// Text a command printed that depends on the day and the machine, not on what the command did.

// npm's update notice, written to stderr by any npm command when the registry has a newer npm:
//   npm notice
//   npm notice New minor version of npm available! 10.8.2 -> 10.9.4
//   npm notice Changelog: https://github.com/npm/cli/releases/tag/v10.9.4
//   npm notice To update run: npm install -g npm@10.9.4
//   npm notice
/** Text without npm's update notice (above) and the bare `npm notice` lines around it; other npm notices are kept. */
export function withoutNpmUpdateNotice(text: string): string {
  if (!text.includes('npm notice')) return text;
  const lines = text.split('\n');
  const update =
    /^npm notice (New (major|minor|patch) version of npm available!|Changelog: |To update run: npm install -g npm@)/;
  const keep = lines.map(() => true);
  for (let i = 0; i < lines.length; i++) {
    if (!update.test(lines[i]!)) continue;
    keep[i] = false;
    // The bare `npm notice` lines framing the block go with it.
    for (let j = i - 1; j >= 0 && lines[j]!.trim() === 'npm notice'; j--) keep[j] = false;
    for (let j = i + 1; j < lines.length && lines[j]!.trim() === 'npm notice'; j++) keep[j] = false;
  }
  return lines.filter((_, i) => keep[i]).join('\n');
}
