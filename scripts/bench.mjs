// Runs every bench/*.bench.ts (or those named on the command line): each is bundled with esbuild
// and run in its own Node process, so one benchmark's heap does not colour the next.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
mkdirSync('.bench', { recursive: true });
let failed = 0;
for (const file of files) {
  const out = join('.bench', basename(file, '.ts') + '.mjs');
  await build({
    entryPoints: [join('bench', file)],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, ['--expose-gc', out], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (files.length === 0) console.log('no benchmarks found');
process.exit(failed ? 1 : 0);
