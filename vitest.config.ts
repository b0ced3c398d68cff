import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/hardening/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default leaves a core to itself (one worker on a 2-core runner), but these tests
    // mostly wait on child processes and loopback servers: one worker per core, at least two.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
