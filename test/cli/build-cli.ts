// Bundles src/cli.ts the way scripts/build.mjs does, into a temp folder, so the CLI tests run the
// real bundle as `node cli.js` without touching the committed dist/ that others may be using.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BANNER = [
  "import { createRequire as __plCreateRequire } from 'node:module';",
  "import { fileURLToPath as __plFileURLToPath } from 'node:url';",
  "import { dirname as __plDirname } from 'node:path';",
  'const require = __plCreateRequire(import.meta.url);',
  'const __filename = __plFileURLToPath(import.meta.url);',
  'const __dirname = __plDirname(__filename);',
].join('\n');

export interface BuiltCli {
  path: string;
  cleanup(): void;
}

export async function buildCli(): Promise<BuiltCli> {
  const dir = mkdtempSync(join(tmpdir(), 'patchloop-cli-build-'));
  const path = join(dir, 'cli.js');
  await build({
    entryPoints: ['src/cli.ts'],
    outfile: path,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    logLevel: 'warning',
    banner: { js: `#!/usr/bin/env node\n${BANNER}` },
  });
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
