// Bundles the action (dist/index.js) and the CLI (dist/cli.js); both are committed.
import { mkdirSync, rmSync } from 'node:fs';
import { bundle } from './bundle.mjs';

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
await bundle('src/index.ts', 'dist/index.js');
await bundle('src/cli.ts', 'dist/cli.js', { executable: true });
