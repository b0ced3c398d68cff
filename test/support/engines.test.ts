// The Node versions package.json promises (`engines`) are ones every bundled dependency says it
// runs on: dist/ inlines them, so a dependency that asks for a newer Node is a promise broken.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// npm's own range logic (semver comes with the toolchain; its types are not installed).
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
};

const ROOT = join(import.meta.dirname, '..', '..');

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

describe('engines', () => {
  it('every production dependency runs on the oldest Node that package.json promises', () => {
    const ours = manifest(ROOT).engines?.node;
    expect(ours).toBeDefined();
    const oldest = semver.minVersion(ours!)!.version;
    // Every package that `npm install --omit=dev` would install, nested copies included.
    const dirs = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((d) => d && d !== ROOT);
    expect(dirs.length).toBeGreaterThan(20);
    const refused = [...new Set(dirs)].flatMap((dir) => {
      const m = manifest(dir);
      const wants = m.engines?.node;
      if (!wants || semver.validRange(wants) === null) return [];
      return semver.satisfies(oldest, wants) ? [] : [`${m.name}@${m.version} wants node ${wants}`];
    });
    expect(refused, `package.json promises node ${ours}`).toEqual([]);
  });
});
