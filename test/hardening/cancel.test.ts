import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { startAnthropicServer, type AnthropicScript } from '../fakes/anthropic-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { bundleCli, endsWithin, startCli, until } from './cli-process.js';
import { record } from './figures.js';
import { makeCheckout } from './run-harness.js';
import { transcriptProblems } from './transcript-check.js';

// Cancellation as GitHub's runner does it: SIGINT, then SIGTERM 7.5 s later if the process is
// still there, then SIGKILL. At each phase of a run the CLI must stop within that grace period,
// answer every tool call, finish the transcript and print a summary that says cancelled.

const RUNNER_GRACE_MS = 7_500;
const KEY = 'sk-ant-api03-cancel-test-key-0123456789';

let dir: string;
let cli: string;
let server: FakeProviderServer | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-cancel-'));
  chmodSync(dir, 0o777);
  cli = await bundleCli(dir);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Phase {
  name: string;
  script: AnthropicScript;
  /** The command run_tests runs; `MARKER` is replaced by a file it creates when it starts. */
  testCommand?: string;
  /** Resolves once the run has reached the phase. */
  reached(ctx: { server: FakeProviderServer; marker: string }): Promise<boolean>;
  first: NodeJS.Signals;
}

const sleeper = `pl-cancel-sleeper-${process.pid}`;
// the command itself (argv[0] is the name), not the CLI whose arguments carry the name too
const sleeping = () =>
  spawnSync('pgrep', ['-f', `^${sleeper} 60$`], { encoding: 'utf8' }).stdout.trim() !== '';

const phases: Phase[] = [
  {
    name: 'before the first response',
    script: () => ({ text: 'never sent', hangAfter: 0 }),
    reached: async ({ server }) => {
      await server.received(1);
      return true;
    },
    first: 'SIGINT',
  },
  {
    name: 'mid-stream',
    script: () => ({ text: ['first words of the answer ', 'and more'], hangAfter: 4 }),
    // the fake has sent the headers and four frames and holds the stream open; a moment later
    // they have been read (the timeline does not print text deltas, so there is nothing to watch)
    reached: async ({ server }) => {
      await server.received(1);
      await new Promise((r) => setTimeout(r, 300));
      return true;
    },
    first: 'SIGINT',
  },
  {
    name: 'mid-tool (SIGINT)',
    script: [{ toolCalls: [{ id: 'toolu_01', name: 'run_tests', json: '{}' }] }, { text: 'done' }],
    testCommand: `touch MARKER; exec -a ${sleeper} sleep 60`,
    // the command's own process: what it writes reaches the checkout only once it has ended
    reached: () => until(() => sleeping(), 15_000),
    first: 'SIGINT',
  },
  {
    name: 'mid-tool (SIGTERM)',
    script: [{ toolCalls: [{ id: 'toolu_01', name: 'run_tests', json: '{}' }] }, { text: 'done' }],
    testCommand: `touch MARKER; exec -a ${sleeper} sleep 60`,
    // the command's own process: what it writes reaches the checkout only once it has ended
    reached: () => until(() => sleeping(), 15_000),
    first: 'SIGTERM',
  },
];

describe('cancellation of `patchloop run`', () => {
  for (const phase of phases) {
    it(`${phase.first} ${phase.name}: exits 130 in the grace period with a complete transcript`, async () => {
      server = await startAnthropicServer(phase.script);
      const work = mkdtempSync(join(dir, 'run-'));
      chmodSync(work, 0o777);
      const ws = makeCheckout(work);
      // In the workspace: the sandboxed command sees nothing above it (nor the transcript's folder).
      const marker = join(ws, 'tool-started');
      const transcript = join(work, 'transcript.jsonl');
      const args = ['run', '--repo', ws, '--provider', 'anthropic', '--model', 'claude-sonnet-5-5'];
      args.push('--base-url', server.url, '--api-key', KEY, '--transcript', transcript);
      if (phase.testCommand) args.push('--test-command', phase.testCommand.replace('MARKER', marker));
      args.push('fix the bug');
      const run = startCli(cli, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME }, cwd: work });

      const reached = await phase.reached({ server, marker });
      expect(reached, run.stderr()).toBe(true);
      run.child.kill(phase.first);
      const inGrace = await endsWithin(run, RUNNER_GRACE_MS);
      if (!inGrace) {
        run.child.kill('SIGTERM');
        if (!(await endsWithin(run, 2_500))) run.child.kill('SIGKILL');
      }
      const code = await run.exited;
      const text = readFileSync(transcript, 'utf8');
      const problems = transcriptProblems(text);
      const summary = parseTranscript(text).summary;
      const leftovers = spawnSync('pgrep', ['-f', sleeper], { encoding: 'utf8' }).stdout.trim();
      const ok =
        inGrace && code === 130 && problems.length === 0 && summary?.conclusion === 'cancelled' && !leftovers;
      record('cancel', {
        faultsInjected: 1,
        faultsSurvived: ok ? 1 : 0,
        secretChecks: 1,
        secretsFound: text.includes(KEY) ? 1 : 0,
      });

      expect(inGrace, run.stderr()).toBe(true);
      expect(code).toBe(130);
      expect(problems).toEqual([]);
      expect(summary?.conclusion).toBe('cancelled');
      expect(run.stdout()).toMatch(/cancelled/i);
      expect(leftovers).toBe('');
      expect(text).not.toContain(KEY);
      if (phase.testCommand) {
        const results = parseTranscript(text).messages.filter((m) => m.role === 'toolResult');
        expect(results).toHaveLength(1);
        expect(results[0]!.isError).toBe(true);
        // what the cancelled command wrote is kept
        expect(existsSync(marker)).toBe(true);
      }
    });
  }
});
