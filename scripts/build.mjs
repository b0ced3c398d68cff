// Bundles the action (dist/index.js) and the CLI (dist/cli.js), with their shared chunks in
// dist/chunks/; all of it is committed.
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { bundleEntries } from './bundle.mjs';

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
await bundleEntries({ index: 'src/index.ts', cli: 'src/cli.ts' }, 'dist');
chmodSync('dist/cli.js', 0o755);
