#!/usr/bin/env node
// The release steps that are not GitHub's own (the workflow in .github/workflows/release.yml runs
// them around `gh release create`), kept in a script so they can be tried on a local tag:
//
//   node scripts/release.mjs check vX.Y.Z       the tag names package.json's version, and
//                                               CHANGELOG.md has a non-empty section for it
//   node scripts/release.mjs notes vX.Y.Z       prints that section (the release notes)
//   node scripts/release.mjs move-major vX.Y.Z [--remote NAME] [--dry-run]
//                                               points the major tag (v0, v1, …) at the release's
//                                               commit and pushes it; a pre-release moves nothing
//
// Exit 0 when done, 1 with one line on stderr saying what is wrong.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SEMVER_TAG = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?$/;

export class ReleaseError extends Error {}

/** The parts of a release tag, or a ReleaseError that says what a tag must look like. */
export function parseTag(tag) {
  const m = SEMVER_TAG.exec(tag ?? '');
  if (!m)
    throw new ReleaseError(`"${tag ?? ''}" is not a release tag: use v<major>.<minor>.<patch>, e.g. v0.2.0`);
  return { tag, version: tag.slice(1), major: `v${m[1]}`, prerelease: m[4] !== undefined };
}

/** The CHANGELOG.md section of `version` (the lines under `## [version]`), trimmed; '' when absent. */
export function changelogSection(changelog, version) {
  const lines = changelog.split('\n');
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const head = new RegExp(`^## \\[?${escaped}\\]?(?:\\s|$)`);
  const start = lines.findIndex((l) => head.test(l));
  if (start < 0) return '';
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^## /.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
}

/** Checks a tag against the tree in `root`; returns the release notes. */
export function check(root, tag) {
  const { version } = parseTag(tag);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (pkg.version !== version)
    throw new ReleaseError(
      `tag ${tag} does not match package.json's version ${pkg.version}: bump one of them`,
    );
  const notes = changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version);
  if (!notes) throw new ReleaseError(`CHANGELOG.md has no section "## [${version}]" with text under it`);
  return notes;
}

/** Moves the major tag to the release's commit and pushes it; returns the git commands (run or not). */
export function moveMajor(root, tag, { remote = 'origin', dryRun = false } = {}) {
  const { major, prerelease } = parseTag(tag);
  if (prerelease) return [];
  const git = (...args) =>
    execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  const commit = git('rev-parse', '--verify', `refs/tags/${tag}^{commit}`);
  const commands = [
    ['tag', '--force', '--annotate', '--message', `${major}: ${tag}`, major, commit],
    ['push', '--force', remote, `refs/tags/${major}`],
  ];
  if (!dryRun) for (const c of commands) git(...c);
  return commands.map((c) => `git ${c.join(' ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, tag, ...flags] = process.argv.slice(2);
  const root = process.cwd();
  const flag = (name) => {
    const i = flags.indexOf(name);
    return i < 0 ? undefined : (flags[i + 1] ?? '');
  };
  try {
    if (command === 'check') {
      check(root, tag);
      console.log(`${tag}: package.json and CHANGELOG.md agree`);
    } else if (command === 'notes') {
      console.log(check(root, tag));
    } else if (command === 'move-major') {
      check(root, tag);
      const dryRun = flags.includes('--dry-run');
      const done = moveMajor(root, tag, { remote: flag('--remote') || 'origin', dryRun });
      if (done.length === 0) console.log(`${tag} is a pre-release: the major tag stays where it is`);
      for (const line of done) console.log(dryRun ? `would run: ${line}` : `ran: ${line}`);
    } else {
      throw new ReleaseError('usage: release.mjs check|notes|move-major vX.Y.Z [--remote NAME] [--dry-run]');
    }
  } catch (err) {
    console.error(`release: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
