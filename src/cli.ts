#!/usr/bin/env node
// The `patchloop` command (bundled to dist/cli.js).
import { main } from './cli/main.js';
import { processIO } from './cli/io.js';

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((done) => stream.write('', () => done()));
}

// Hides the arguments (an --api-key among them) from /proc/<pid>/cmdline, which any process of
// the same user can read.
process.title = 'patchloop';

// A reader that stops early (`patchloop inspect --json | head`) closes the pipe: that ends the
// command quietly, as it would a classic Unix tool, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

const code = await main(process.argv.slice(2), processIO());
await Promise.all([flush(process.stdout), flush(process.stderr)]);
// SDK keep-alive sockets or a stray timer must not hold the process after the command is done.
process.exit(code);
