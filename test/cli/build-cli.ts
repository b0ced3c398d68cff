// The bundle of src/cli.ts, built exactly as `npm run build` does (once per content:
// test/support/bundle-cache.ts), in a temp folder of the caller's own, so the CLI tests run the
// real bundle as `node cli.js` without touching the committed dist/.
import { builtBundle } from '../support/bundle-cache.js';

export interface BuiltCli {
  path: string;
  cleanup(): void;
}

export async function buildCli(): Promise<BuiltCli> {
  return builtBundle('src/cli.ts', 'cli.js', { executable: true, prefix: 'patchloop-cli-build-' });
}
