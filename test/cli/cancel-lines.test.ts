// What `patchloop run` says when it is cancelled: one timeline line for one cancel, and a next
// step that tells the truth about what was committed (nothing, when no edit had been made).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, tempRepo } from '../agent/helpers.js';
import { buildCli, type BuiltCli } from './build-cli.js';

let cli: BuiltCli;
let dir: string;

beforeAll(async () => {
  cli = await buildCli();
  dir = mkdtempSync(join(tmpdir(), 'patchloop-cli-cancel-'));
});
afterAll(() => {
  cli?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('a cancel while the model is being waited for', () => {
  it('prints one line for the cancel, and says nothing was committed', async () => {
    const server = await startAnthropicServer(() => ({ text: 'never sent', hangAfter: 0 }));
    const repo = tempRepo(BUGGY_PROJECT);
    try {
      const child = spawn(
        process.execPath,
        [
          cli.path,
          'run',
          '--repo',
          repo.root,
          '--base-url',
          server.url,
          '--api-key',
          'sk-ant-api03-cancel-lines-0123456789',
          '--sandbox',
          'off',
          '--transcript',
          join(dir, 't.jsonl'),
          'fix the bug',
        ],
        {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: dir },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
      await server.received(1);
      child.kill('SIGINT');
      const code = await closed;
      expect(code).toBe(130);
      const after = stderr.slice(stderr.indexOf('turn 1 ·'));
      // turn 1's line, then exactly one line for the cancel
      const lines = after.trim().split('\n');
      expect(lines, stderr).toHaveLength(2);
      expect(lines[1]).toMatch(/^ {2}■ .*(cancel|interrupt|SIGINT)/i);
      expect(stdout).toMatch(/^Outcome: cancelled$/m);
      expect(stdout).not.toMatch(/work so far was committed/);
      expect(stdout).toMatch(/Nothing was changed or committed/);
      expect(stdout).toMatch(/patchloop run --continue \S+ "go on"/);
      expect(repo.git('branch', '--list', 'patchloop/*').trim()).toBe('');
    } finally {
      await server.close();
      repo.cleanup();
    }
  });
});
