import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { perlText } from './test/support/perl-text.js';

export default defineConfig({
  plugins: [perlText],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/hardening/**', 'node_modules/**'],
    // the runner's log of code under test (::debug:: …) is shown only for a failed test
    setupFiles: ['test/support/runner-log.ts'],
    testTimeout: 30_000,
    // a file's first hook may wait for the one build of the bundle the files share
    // (test/support/bundle-cache.ts), which takes far longer on a loaded machine than idle
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default leaves a core to itself (one worker on a 2-core runner), but these tests
    // mostly wait on child processes and loopback servers: one worker per core, at least two.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
