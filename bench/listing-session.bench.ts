// The listing session of shared/PEERS.md's "loop" row, at 200 turns: the real CLI (dist/cli.js,
// command sandbox as `--sandbox auto` gives it here) against the loopback Anthropic fake, each turn
// one list_dir or find_files call, then a final answer. Per-turn cost = (the 200-turn run − a
// 1-turn run) / 199, measured in alternation; the fake's own cost per turn is a bare fetch of the
// same 200 streams back to back in this run, each request with the body the CLI sent in that turn,
// so the figure the goal speaks of is the difference.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startAnthropicServer, type AnthropicTurn } from '../test/fakes/anthropic-server.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = process.env.PATCHLOOP_CLI ?? join(ROOT, 'dist', 'cli.js');
const TURNS = 200;
const RUNS = Number(process.env.RUNS ?? 3);
const SANDBOX = process.env.SANDBOX ?? 'auto';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function listingTurns(n: number): AnthropicTurn[] {
  const turns: AnthropicTurn[] = [];
  for (let i = 0; i < n - 1; i++) {
    const call =
      i % 2 === 0
        ? { id: `toolu_${i}`, name: 'list_dir', json: i % 4 === 0 ? '{}' : '{"path":"src"}' }
        : { id: `toolu_${i}`, name: 'find_files', json: '{"pattern":"*.js"}' };
    turns.push({ text: `Looking (${i}).`, toolCalls: [call], usage: { input: 100, output: 10 } });
  }
  turns.push({ text: 'Listed.', usage: { input: 100, output: 5 } });
  return turns;
}

function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-bench-list-'));
  cpSync(join(ROOT, 'examples', 'demo-repo'), dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return dir;
}

async function cliRun(turns: AnthropicTurn[], bodies?: string[]): Promise<number> {
  const dir = checkout();
  const server = await startAnthropicServer((_req, i) => turns[i] ?? { text: 'done' });
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      // CLI_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR" profiles the CLI runs.
      ...(process.env.CLI_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      CLI,
      'run',
      '--repo',
      dir,
      '--base-url',
      server.url,
      '--api-key',
      'bench-key',
      '--sandbox',
      SANDBOX,
      '--max-turns',
      String(TURNS + 5),
      '--transcript',
      join(`${dir}-t`, 'run.jsonl'),
      'list the files',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const ms = performance.now() - t0;
  await server.close();
  bodies?.push(...server.requests.map((r) => r.raw));
  if (code !== 0 || server.requests.length !== turns.length) {
    throw new Error(
      `the listing session did not complete: exit ${code}, ${server.requests.length} requests\n${stderr}`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}-t`, { recursive: true, force: true });
  return ms;
}

/**
 * The fake's own cost: the same streams fetched one after another, nothing done with them, each
 * request carrying the body the CLI sent in that turn of an earlier run (so the fake's reading and
 * parsing of a growing conversation counts as the fake's).
 */
async function fakeOnly(turns: AnthropicTurn[], bodies: string[]): Promise<number> {
  const server = await startAnthropicServer((_req, i) => turns[i] ?? { text: 'done' });
  const t0 = performance.now();
  for (let i = 0; i < turns.length; i++) {
    const r = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodies[i]!,
    });
    for await (const _c of r.body!) void _c;
  }
  const ms = performance.now() - t0;
  await server.close();
  return ms;
}

const long = listingTurns(TURNS);
const short = listingTurns(1);
const bodies: string[] = [];
await cliRun(short);
await cliRun(long, bodies);
const perTurn: number[] = [];
const fake: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const f = await fakeOnly(long, bodies);
  const s = await cliRun(short);
  const l = await cliRun(long);
  fake.push(f / TURNS);
  perTurn.push((l - s) / (TURNS - 1));
}
const over = perTurn.map((p, i) => p - fake[i]!);
console.log(
  `${TURNS}-turn listing session (list_dir / find_files), CLI with --sandbox ${SANDBOX}; ${RUNS} runs`,
);
console.log(
  `  per turn, fake included     ${median(perTurn).toFixed(2)} ms  [${Math.min(...perTurn).toFixed(2)}–${Math.max(...perTurn).toFixed(2)}]`,
);
console.log(
  `  the fake's own cost / turn  ${median(fake).toFixed(2)} ms  (a bare fetch of the same streams, sending the same requests)`,
);
console.log(
  `  over the fake / turn        ${median(over).toFixed(2)} ms  [${Math.min(...over).toFixed(2)}–${Math.max(...over).toFixed(2)}]  (goal <= 3 ms)`,
);
