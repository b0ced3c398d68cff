// The esbuild settings of the committed bundles, shared by `npm run build` and the tests that
// bundle into a temp folder (so they never touch the committed dist/).
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const banner = [
  // CommonJS dependencies inside an ESM bundle need require, __filename and __dirname.
  "import { createRequire as __plCreateRequire } from 'node:module';",
  "import { fileURLToPath as __plFileURLToPath } from 'node:url';",
  "import { dirname as __plDirname } from 'node:path';",
  'const require = __plCreateRequire(import.meta.url);',
  'const __filename = __plFileURLToPath(import.meta.url);',
  'const __dirname = __plDirname(__filename);',
].join('\n');

/** Bundles one entry (src/index.ts or src/cli.ts) into `outfile`, for Node 20 and up. */
export async function bundle(entry, outfile, { executable = false } = {}) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    // Identifiers too: the action bundle is otherwise over 5 MB, and nothing is installed at run time.
    minify: true,
    keepNames: true,
    logLevel: 'warning',
    banner: { js: executable ? `#!/usr/bin/env node\n${banner}` : banner },
  });
  if (executable) chmodSync(outfile, 0o755);
}
