// What a CLI command gets from the outside world, passed in so tests can capture it.
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** A CLI command: parses its own arguments and returns the exit status (2 for usage errors). */
export type CliCommand = (argv: string[], io: CliIO) => Promise<number>;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}

/** A terminal's width, or 80 when it reports none (0 from some terminals and pseudo-terminals). */
export function terminalWidth(stream: { columns?: number }, fallback = 80): number {
  const c = stream.columns;
  return typeof c === 'number' && Number.isFinite(c) && c > 0 ? c : fallback;
}

/** Colour on a terminal, unless NO_COLOR is set (to anything) or the terminal is dumb. */
export function useColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb';
}
