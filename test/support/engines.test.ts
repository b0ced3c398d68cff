// The Node versions package.json promises (`engines`) are ones every bundled dependency says it
// runs on: dist/ inlines them, so a dependency that asks for a newer Node is a promise broken.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleEntries } from '../../scripts/bundle.mjs';

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
  it('every bundled dependency runs on the oldest Node that package.json promises', async () => {
    const ours = manifest(ROOT).engines?.node;
    expect(ours).toBeDefined();
    const oldest = semver.minVersion(ours!)!.version;
    // Every package the bundles inline (dist/ installs nothing: package.json lists them all as
    // devDependencies), as esbuild reports the files it read, nested copies included.
    const out = mkdtempSync(join(tmpdir(), 'patchloop-engines-'));
    let inputs: string[];
    try {
      const meta = await bundleEntries({ index: 'src/index.ts', cli: 'src/cli.ts' }, out, { metafile: true });
      inputs = Object.keys(meta!.inputs);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    const dirs = inputs.flatMap((file) => {
      const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file);
      return m ? [join(ROOT, m[1]!)] : [];
    });
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
