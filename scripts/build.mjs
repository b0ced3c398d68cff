// Bundles the action (dist/index.js) and the CLI (dist/cli.js) with esbuild, for Node 20 and up.
import { build } from 'esbuild';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';

const banner = [
  // CommonJS dependencies inside an ESM bundle need require, __filename and __dirname.
  "import { createRequire as __plCreateRequire } from 'node:module';",
  "import { fileURLToPath as __plFileURLToPath } from 'node:url';",
  "import { dirname as __plDirname } from 'node:path';",
  'const require = __plCreateRequire(import.meta.url);',
  'const __filename = __plFileURLToPath(import.meta.url);',
  'const __dirname = __plDirname(__filename);',
].join('\n');

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  // Identifiers too: the action bundle is otherwise over 5 MB, and nothing is installed at run time.
  minify: true,
  keepNames: true,
  logLevel: 'warning',
  banner: { js: banner },
};

await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
await build({
  ...common,
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  banner: { js: `#!/usr/bin/env node\n${banner}` },
});
chmodSync('dist/cli.js', 0o755);
