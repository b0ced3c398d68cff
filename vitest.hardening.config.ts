import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/hardening/**/*.test.ts'],
    globalSetup: ['test/hardening/figures-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
