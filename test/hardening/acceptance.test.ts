import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import type { FakeProviderServer } from '../fakes/sse.js';
import { bundleCli, startCli } from './cli-process.js';
import { record } from './figures.js';
import { findSecrets, plantSecrets, toolResultsSent } from './planted.js';
import { makeCheckout } from './run-harness.js';

// Issue 8's acceptance test, on the CLI: a scripted model runs `env`, `cat /proc/$PPID/environ`,
// `cat /proc/*/environ`, `git config --list` and `cat .git/config` through bash, and a test
// script that does the same through run_tests. No planted secret may appear in anything that
// leaves the run: what the model is sent, the timeline, the summary, the transcript, its HTML.

const planted = plantSecrets();
const SNOOP = [
  'env',
  'cat /proc/$PPID/environ',
  'cat /proc/*/environ',
  'git config --list',
  'cat .git/config',
];

let dir: string;
let cli: string;
let server: FakeProviderServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-accept-'));
  chmodSync(dir, 0o755);
  cli = await bundleCli(dir);
  server = await startAnthropicServer([
    {
      toolCalls: [
        ...SNOOP.map((command, i) => ({
          id: `toolu_0${i}`,
          name: 'bash',
          json: JSON.stringify({ command }),
        })),
        { id: 'toolu_09', name: 'run_tests', json: '{}' },
      ],
    },
    { text: 'Finished looking around.' },
  ]);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('acceptance: secrets stay out of every output', () => {
  it('`patchloop run` with bash and run_tests leaks no planted secret', async () => {
    const work = mkdtempSync(join(dir, 'run-'));
    chmodSync(work, 0o755);
    const ws = makeCheckout(work);
    const transcript = join(work, 'transcript.jsonl');
    const args = [
      'run',
      '--repo',
      ws,
      '--provider',
      'anthropic',
      '--model',
      'claude-sonnet-5-5',
      '--base-url',
      server.url,
    ];
    args.push('--api-key', planted.cliArg, '--allow-bash', '--transcript', transcript);
    args.push('--test-command', `${SNOOP.join('; ')}; cat /proc/*/cmdline`, 'look around');
    const run = startCli(cli, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...planted.env },
      cwd: work,
    });
    const code = await run.exited;
    const html = join(work, 'run.html');
    const exported = spawnSync(process.execPath, [cli, 'export', transcript, '-o', html], {
      encoding: 'utf8',
    });
    const inspected = spawnSync(process.execPath, [cli, 'inspect', transcript, '--json'], {
      encoding: 'utf8',
    });

    const text = readFileSync(transcript, 'utf8');
    const results = parseTranscript(text).messages.filter((m) => m.role === 'toolResult');
    // the probes really ran: six tool results, and the environment listing has ordinary variables
    expect(results).toHaveLength(SNOOP.length + 1);
    expect(JSON.stringify(results[0])).toContain('PATH=');

    const outputs: Record<string, string> = {
      'requests to the model': server.requests.map((r) => r.raw).join('\n'),
      'stdout (summary)': run.stdout(),
      'stderr (timeline)': run.stderr(),
      transcript: text,
      'HTML export': exported.status === 0 ? readFileSync(html, 'utf8') : '',
      'inspect --json': inspected.stdout,
    };
    const leaks = Object.entries(outputs).flatMap(([where, out]) =>
      findSecrets(out, planted.values).map((v) => `${where}: ${v.slice(0, 14)}…`),
    );
    // what the model was sent back for each call (the transcript's copy is redacted)
    const sentBack = toolResultsSent(server.requests.at(-1)?.body);
    record('acceptance', {
      escapesTried: SNOOP.length + 1,
      escapesRefused: sentBack.filter((t) => findSecrets(t, planted.values).length === 0).length,
      secretChecks: Object.keys(outputs).length,
      secretsFound: leaks.length,
    });
    expect(code, run.stderr()).toBe(0);
    expect(exported.status, exported.stderr).toBe(0);
    expect(server.requests.length).toBe(2);
    expect(sentBack).toHaveLength(SNOOP.length + 1);
    expect(leaks).toEqual([]);
  });
});
