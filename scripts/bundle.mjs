// The esbuild settings of the committed bundles, shared by `npm run build` and the tests that
// bundle into a temp folder (so they never touch the committed dist/).
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

const banner = [
  // CommonJS dependencies inside an ESM bundle need require, __filename and __dirname.
  "import { createRequire as __plCreateRequire } from 'node:module';",
  "import { fileURLToPath as __plFileURLToPath } from 'node:url';",
  "import { dirname as __plDirname } from 'node:path';",
  'const require = __plCreateRequire(import.meta.url);',
  'const __filename = __plFileURLToPath(import.meta.url);',
  'const __dirname = __plDirname(__filename);',
].join('\n');

/**
 * Bundles entries into `outdir` for Node 20 and up: `entries` maps an output name (without
 * extension) to a source file. Code that several entries share, and every module loaded with
 * import() (the provider SDKs, the CLI's commands, the artifact client), goes to outdir/chunks/,
 * so a run parses only what it uses. src/cli.ts starts with a #! line, which esbuild keeps.
 */
export async function bundleEntries(entries, outdir, { extension = '.js' } = {}) {
  await build({
    entryPoints: entries,
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': extension },
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    // Identifiers too: the bundle is otherwise over 5 MB, and nothing is installed at run time.
    minify: true,
    keepNames: true,
    logLevel: 'warning',
    banner: { js: banner },
  });
}

/** Bundles one entry to `outfile` (its chunks beside it, in chunks/); `executable` sets mode 755. */
export async function bundle(entry, outfile, { executable = false } = {}) {
  const ext = extname(outfile) || '.js';
  await bundleEntries({ [basename(outfile, ext)]: entry }, dirname(outfile), { extension: ext });
  if (executable) chmodSync(join(dirname(outfile), basename(outfile)), 0o755);
}
