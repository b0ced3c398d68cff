// The suite's set-up file keeps the runner's log of code under test (::debug:: …) out of the test
// output, and prints it for a test that fails. Checked by running vitest itself on a fixture.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();

function vitest(env: Record<string, string> = {}) {
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'test/support/fixtures/runner-log.vitest.ts',
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000 },
  );
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('the runner log of code under test', () => {
  it('is left out for a passing test and printed for a failing one, whose failure still shows', () => {
    const { status, out } = vitest({ PL_TEST_RUNNER_LOG: '' });
    expect(status).toBe(1);
    expect(out).not.toContain('quiet-debug-line');
    expect(out).not.toContain('quiet-info-line');
    expect(out).toContain('--- runner log of the failed test "fails loudly" ---');
    expect(out).toContain('::group::loud-group');
    expect(out).toContain('::debug::loud-debug-line');
    expect(out).toMatch(/AssertionError: expected 1 to be 2/);
    expect(out).toMatch(/1 failed \| 1 passed/);
  }, 150_000);

  it('is printed as it comes with PL_TEST_RUNNER_LOG=1', () => {
    const { out } = vitest({ PL_TEST_RUNNER_LOG: '1' });
    expect(out).toContain('::debug::quiet-debug-line');
    expect(out).toContain('quiet-info-line');
  }, 150_000);
});
