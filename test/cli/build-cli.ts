// The bundle of src/cli.ts, built exactly as `npm run build` does (once per content:
// test/support/bundle-cache.ts), in a temp folder of the caller's own, so the CLI tests run the
// real bundle as `node cli.js` without touching the committed dist/.
import { spawn } from 'node:child_process';
import { builtBundle } from '../support/bundle-cache.js';

export interface BuiltCli {
  path: string;
  cleanup(): void;
}

export async function buildCli(): Promise<BuiltCli> {
  return builtBundle('src/cli.ts', 'cli.js', { executable: true, prefix: 'patchloop-cli-build-' });
}

/** Runs the built CLI with these arguments and environment: its exit code and what it printed. */
export function runBuiltCli(
  cli: BuiltCli,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.path, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
