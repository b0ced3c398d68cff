import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { bundle } from '../../scripts/bundle.mjs';

// The CLI as users run it: src/cli.ts bundled as dist/cli.js is,
// started as its own node process.

/** Bundles the CLI into `dir` exactly as `npm run build` does; returns the script path. */
export async function bundleCli(dir: string): Promise<string> {
  const outfile = join(dir, 'cli.mjs');
  await bundle(join(import.meta.dirname, '..', '..', 'src', 'cli.ts'), outfile, { executable: true });
  return outfile;
}

export interface CliRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

export function startCli(
  script: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string },
): CliRun {
  const child = spawn(process.execPath, [script, ...args], {
    env: opts.env,
    cwd: opts.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => {
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for the process to end, at most `ms`; true when it ended. */
export async function endsWithin(run: CliRun, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    run.exited.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return ended;
}

/** Polls `check` every 25 ms until it is true or `ms` passed; returns its last value. */
export async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}
