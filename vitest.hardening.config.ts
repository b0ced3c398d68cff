import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { perlText } from './test/support/perl-text.js';

export default defineConfig({
  plugins: [perlText],
  test: {
    include: ['test/hardening/**/*.test.ts'],
    // the runner's log of code under test (::debug:: …) is shown only for a failed test
    setupFiles: ['test/support/runner-log.ts'],
    globalSetup: ['test/hardening/figures-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // files run side by side (each attack's markers, folders and processes are its own): on two
    // cores 342 s instead of 460 s one file at a time
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
