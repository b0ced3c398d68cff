export class ReleaseError extends Error {}
export function parseTag(tag: string): { tag: string; version: string; major: string; prerelease: boolean };
export function changelogSection(changelog: string, version: string): string;
export function check(root: string, tag: string): string;
export function moveMajor(
  root: string,
  tag: string,
  options?: { remote?: string; dryRun?: boolean },
): string[];
