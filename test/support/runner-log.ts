// Set-up file of both vitest configs. Code under test that runs in the worker (the action's
// modules, @actions/core, @actions/artifact) writes the runner's log to stdout: `::debug::`,
// `::group::`, `::warning::` lines and plain log lines, hundreds of them in a full run. They are
// held back per test and printed only when that test fails, under a heading that says so;
// PL_TEST_RUNNER_LOG=1 prints them as they come. Vitest's own output (its reporter, console.log
// of a test) does not go through the worker's process.stdout.write, so nothing of it is held.
import { beforeEach } from 'vitest';

const live = process.env.PL_TEST_RUNNER_LOG === '1';
const write = process.stdout.write.bind(process.stdout);
let held: string[] = [];

if (!live) {
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    held.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function') as ((err?: Error) => void) | undefined;
    if (done) queueMicrotask(() => done());
    return true;
  }) as typeof process.stdout.write;

  beforeEach((ctx) => {
    held = [];
    ctx.onTestFailed(() => {
      const text = held.join('');
      held = [];
      if (text.trim() === '') return;
      write(`\n--- runner log of the failed test "${ctx.task.name}" ---\n${text}`);
      write(`--- end of the runner log ---\n`);
    });
  });
}
