// Bundles src/cli.ts exactly as `npm run build` does, into a temp folder, so the CLI tests run the
// real bundle as `node cli.js` without touching the committed dist/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle } from '../../scripts/bundle.mjs';

export interface BuiltCli {
  path: string;
  cleanup(): void;
}

export async function buildCli(): Promise<BuiltCli> {
  const dir = mkdtempSync(join(tmpdir(), 'patchloop-cli-build-'));
  const path = join(dir, 'cli.js');
  await bundle('src/cli.ts', path, { executable: true });
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
