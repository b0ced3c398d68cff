// The sandbox's root-run Perl (src/sandbox/perl/*.pl) is imported `with { type: 'text' }`, which
// esbuild (the bundle) loads as text by itself; Vite, which runs the tests, does not: this plugin
// gives it the same module, the file's text as the default export.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vitest/config';

export const perlText: Plugin = {
  name: 'perl-text',
  enforce: 'pre',
  load(id) {
    const path = id.split('?')[0]!;
    if (!path.endsWith('.pl')) return null;
    return `export default ${JSON.stringify(readFileSync(path, 'utf8'))};`;
  },
};
