// The Actions toolkit (@actions/core, @actions/github) inside the bundle, where its behaviour
// differs from patchloop's own expectations.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAction, runAction, type BuiltAction } from './harness.js';

let action: BuiltAction;
beforeAll(async () => {
  action = await buildAction();
});
afterAll(() => action.cleanup());

describe('the bundled action and the toolkit', () => {
  it('reports an event payload that is not JSON as a clear error, with outputs, not a crash at load', async () => {
    // @actions/github parses GITHUB_EVENT_PATH when its module loads (scripts/bundle.mjs guards it).
    const dir = mkdtempSync(join(tmpdir(), 'patchloop-bad-event-'));
    const bad = join(dir, 'event.json');
    writeFileSync(bad, '{"comment": {"body": "/patchloop fix"');
    try {
      const r = await runAction({
        script: action.path,
        workspace: dir,
        eventName: 'issue_comment',
        payload: {},
        inputs: { 'github-token': 'ghs_faketoken', 'api-key': 'sk-ant-api03-toolkit-test-0123456789' },
        apiUrl: 'http://127.0.0.1:9',
        env: { GITHUB_EVENT_PATH: bad },
      });
      r.cleanup();
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain('SyntaxError');
      expect(r.stdout).toContain(`::error::The event payload ${bad} could not be read:`);
      expect(r.outputs.conclusion).toBe('failure');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
