import { Writable } from 'node:stream';
import type { CliIO } from '../../src/cli/io.js';

export interface CapturedIO extends CliIO {
  out(): string;
  err(): string;
}

/** A CliIO whose stdout and stderr are collected in memory. */
export function captureIO(
  options: { cwd?: string; tty?: boolean; env?: NodeJS.ProcessEnv; columns?: number } = {},
): CapturedIO {
  const sink = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer | string, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    }) as Writable & { isTTY?: boolean; columns?: number };
    if (options.tty) stream.isTTY = true;
    if (options.columns) stream.columns = options.columns;
    return { stream, text: () => chunks.join('') };
  };
  const stdout = sink();
  const stderr = sink();
  return {
    stdout: stdout.stream,
    stderr: stderr.stream,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
    out: stdout.text,
    err: stderr.text,
  };
}
