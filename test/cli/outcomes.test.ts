// `patchloop run` concludes from the evidence as the action does: the real CLI bundle, a real
// checkout and the loopback Anthropic server; a run whose last test run is red exits 1 and says
// why, and its commit does not claim success.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, tempRepo } from '../agent/helpers.js';
import { buildCli, runBuiltCli, type BuiltCli } from './build-cli.js';

let cli: BuiltCli;
let processTmp: string;
beforeAll(async () => {
  cli = await buildCli();
  processTmp = mkdtempSync(join(tmpdir(), 'patchloop-cli-tmp-'));
});
afterAll(() => {
  cli.cleanup();
  rmSync(processTmp, { recursive: true, force: true });
});

const run = (args: string[], env: NodeJS.ProcessEnv) => runBuiltCli(cli, args, env);

const WRONG_FIX: AnthropicTurn[] = [
  {
    toolCalls: [
      {
        id: 'toolu_01',
        name: 'edit_file',
        json: JSON.stringify({
          path: 'src/math.js',
          oldText: '  return a / b;',
          newText: "  if (b === 0) throw new Error('division by zero');\n  return a / b;",
        }),
      },
    ],
  },
  { toolCalls: [{ id: 'toolu_02', name: 'run_tests', json: '{}' }] },
  { text: 'I could not make the tests pass.' },
];

describe('patchloop run', () => {
  it('whose last test run is red exits 1 with the reason, the work committed on its branch', async () => {
    const repo = tempRepo(BUGGY_PROJECT);
    const server = await startAnthropicServer(WRONG_FIX);
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        TMPDIR: processTmp,
        ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdefghij',
      };
      delete env.ANTHROPIC_BASE_URL;
      const r = await run(
        [
          'run',
          '--repo',
          repo.root,
          '--model',
          'claude-sonnet-4-5',
          '--base-url',
          server.url,
          '--test-command',
          'node --test',
          'Fix the divide-by-zero in src/math.js',
        ],
        env,
      );
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^Outcome: failure \(tests still failing\)$/m);
      expect(r.stdout).toMatch(/^Error: The tests still fail at the end \(last run_tests exit 1\)\.$/m);
      expect(r.stdout).toMatch(/^Tests: failed at the end \(last run_tests exit 1\)$/m);
      expect(r.stdout).toMatch(/^Next: The tests still fail; the work so far is committed on its branch\./m);
      // nothing lost: the change is committed, and its message does not call it a success
      const branch = /^Branch: (.+)$/m.exec(r.stdout)![1]!;
      expect(repo.git('show', `${branch}:src/math.js`)).toContain("throw new Error('division by zero')");
      const message = repo.git('log', '-1', '--format=%B', branch);
      expect(message).toContain(
        'Outcome: failure (The tests still fail at the end (last run_tests exit 1).)',
      );
      expect(message).not.toContain('Outcome: success');
    } finally {
      await server.close();
      repo.cleanup();
    }
  }, 180_000);
});
