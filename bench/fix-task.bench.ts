// The fix task of shared/PEERS.md, measured on patchloop the way the peers were measured: the real
// CLI (dist/cli.js) as a child process against a loopback Anthropic fake (real SSE wire format,
// scripted turns): read src/math.js, add a RangeError guard to divide, run npm test, finish.
// Figures: spawn → first provider request (and the same minus a bare `node -e ''` start measured in
// this run), bytes sent to the provider over the 4 requests, the first request's system prompt and
// tool definitions, peak memory of the process tree and of the CLI process itself, the extra time of
// one 1 MiB tool argument streamed in 16-byte deltas (against the same argument in one delta, beside
// the fake's own extra time for a bare fetch of the same two streams), and the bundle sizes. The
// start is measured with the command sandbox as `--sandbox auto` gives it here and with it off.
// PATCHLOOP_CLI=path/to/cli.js measures another build (an older dist/, say) the same way.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startAnthropicServer, type AnthropicTurn } from '../test/fakes/anthropic-server.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = process.env.PATCHLOOP_CLI ?? join(ROOT, 'dist', 'cli.js');
const RUNS = 5;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function demoCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-bench-fix-'));
  cpSync(join(ROOT, 'examples', 'demo-repo'), dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'init');
  return dir;
}

const OLD = 'export function divide(a, b) {\n  return a / b;\n}';
const NEW =
  "export function divide(a, b) {\n  if (b === 0) throw new RangeError('division by zero');\n  return a / b;\n}";

function fixTurns(): AnthropicTurn[] {
  const usage = { input: 1500, output: 60 };
  return [
    {
      text: 'Reading the file.',
      toolCalls: [{ id: 'toolu_1', name: 'read_file', json: '{"path":"src/math.js"}' }],
      usage,
    },
    {
      text: 'Adding the guard.',
      toolCalls: [
        {
          id: 'toolu_2',
          name: 'edit_file',
          json: JSON.stringify({ path: 'src/math.js', oldText: OLD, newText: NEW }),
        },
      ],
      usage,
    },
    { text: 'Running the tests.', toolCalls: [{ id: 'toolu_3', name: 'run_tests', json: '{}' }], usage },
    { text: 'divide now throws a RangeError for a zero divisor; the tests pass.', usage },
  ];
}

/** Sums VmRSS over a process and its descendants, polling; returns the peak seen. */
function watchTreeRss(rootPid: number): { stop: () => number } {
  let peak = 0;
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const rss = (pid: number): number => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  };
  const tick = () => {
    let total = 0;
    const stack = [rootPid];
    while (stack.length) {
      const pid = stack.pop()!;
      total += rss(pid);
      stack.push(...children(pid));
    }
    peak = Math.max(peak, total);
  };
  const timer = setInterval(tick, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

interface RunFigures {
  firstRequestMs: number;
  totalMs: number;
  bytesSent: number;
  requests: number;
  systemBytes: number;
  toolBytes: number;
  peakRss: number;
  /** VmHWM of the CLI process: its own peak, without the commands it ran */
  cliPeak: number;
  exitCode: number | null;
}

/** Polls a process's VmHWM (its peak resident set so far); the last value read before it exits. */
function watchOwnPeak(pid: number): { stop: () => number } {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      // gone
    }
  }, 3);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

async function runOnce(turns: AnthropicTurn[], sandbox = 'auto'): Promise<RunFigures> {
  const repo = demoCopy();
  let firstArrival = 0;
  const server = await startAnthropicServer((_req, index) => {
    if (index === 0) firstArrival = performance.now();
    return turns[index] ?? { text: 'done' };
  });
  const transcript = join(repo + '-transcript', 'run.jsonl');
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      CLI,
      'run',
      '--repo',
      repo,
      '--provider',
      'anthropic',
      '--model',
      'claude-sonnet-4-5',
      '--base-url',
      server.url,
      '--api-key',
      'bench-key',
      '--sandbox',
      sandbox,
      '--transcript',
      transcript,
      'fix the divide-by-zero in src/math.js',
    ],
    { stdio: ['ignore', 'ignore', 'ignore'] },
  );
  const watch = watchTreeRss(child.pid!);
  const own = watchOwnPeak(child.pid!);
  const exitCode = await new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const totalMs = performance.now() - started;
  const peakRss = watch.stop();
  const cliPeak = own.stop();
  await server.close();
  rmSync(repo, { recursive: true, force: true });
  rmSync(dirname(transcript), { recursive: true, force: true });
  const first = server.requests[0]?.body ?? {};
  const systemBytes = Buffer.byteLength(JSON.stringify(first.system ?? ''));
  const toolBytes = Buffer.byteLength(JSON.stringify(first.tools ?? []));
  return {
    firstRequestMs: firstArrival - started,
    totalMs,
    bytesSent: server.requests.reduce((n, r) => n + Buffer.byteLength(r.raw), 0),
    requests: server.requests.length,
    systemBytes,
    toolBytes,
    peakRss,
    cliPeak,
    exitCode,
  };
}

/** The fake's own cost: the first stream of `turns` fetched and read, nothing done with it. */
async function fetchOnly(turns: AnthropicTurn[]): Promise<number> {
  const server = await startAnthropicServer((_req, index) => turns[index] ?? { text: 'done' });
  const started = performance.now();
  const r = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'm',
      max_tokens: 1,
      stream: true,
      messages: [{ role: 'user', content: 'go' }],
    }),
  });
  for await (const _c of r.body!) void _c;
  const ms = performance.now() - started;
  await server.close();
  return ms;
}

async function nodeStartMs(): Promise<number> {
  const started = performance.now();
  await new Promise((res) => spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }).on('exit', res));
  return performance.now() - started;
}

/** The same single write_file call, its 1 MiB argument streamed in 16-byte deltas or in one. */
function bigArgumentTurns(chunk: number | 'whole'): AnthropicTurn[] {
  const content = 'const line = "x\\ty";\n'.repeat(Math.ceil((1024 * 1024) / 21)).slice(0, 1024 * 1024);
  const json = JSON.stringify({ path: 'big.js', content });
  const pieces =
    chunk === 'whole'
      ? [json]
      : Array.from({ length: Math.ceil(json.length / chunk) }, (_, i) =>
          json.slice(i * chunk, (i + 1) * chunk),
        );
  // Rendered once by the fake and reused, so its own JSON work stays out of the figure.
  return [
    {
      toolCalls: [{ id: 'toolu_big', name: 'write_file', json: pieces }],
      usage: { input: 100, output: 10 },
      renderOnce: true,
    },
    { text: 'written', usage: { input: 100, output: 5 }, renderOnce: true },
  ];
}

async function main() {
  const nodeStarts: number[] = [];
  const runs: RunFigures[] = [];
  const unsandboxed: RunFigures[] = [];
  await runOnce(fixTurns()); // warm the file cache
  for (let i = 0; i < RUNS; i++) {
    nodeStarts.push(await nodeStartMs());
    runs.push(await runOnce(fixTurns()));
    unsandboxed.push(await runOnce(fixTurns(), 'off'));
  }
  const bad = runs.filter((r) => r.exitCode !== 0 || r.requests !== 4);
  if (bad.length) {
    console.error(`fix task did not complete: ${JSON.stringify(bad[0])}`);
    process.exit(1);
  }
  const whole: number[] = [];
  const small: number[] = [];
  const fakeExtra: number[] = [];
  const oneDelta = bigArgumentTurns('whole');
  const deltas = bigArgumentTurns(16);
  await fetchOnly(oneDelta); // renders both streams once
  await fetchOnly(deltas);
  for (let i = 0; i < 5; i++) {
    whole.push((await runOnce(oneDelta)).totalMs);
    small.push((await runOnce(deltas)).totalMs);
    fakeExtra.push((await fetchOnly(deltas)) - (await fetchOnly(oneDelta)));
  }
  const bundle = (f: string) => statSync(join(ROOT, 'dist', f)).size;
  const distTotal = readdirSync(join(ROOT, 'dist'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);

  const node = median(nodeStarts);
  const first = median(runs.map((r) => r.firstRequestMs));
  const firstOff = median(unsandboxed.map((r) => r.firstRequestMs));
  const range = (xs: number[], unit = ' ms') =>
    `(${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}${unit})`;
  const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
  const rows: [string, string, string][] = [
    [
      'spawn → first provider request',
      `${first.toFixed(0)} ms`,
      `${range(runs.map((r) => r.firstRequestMs))}; ${(first - node).toFixed(0)} ms over node -e '' (${node.toFixed(0)} ms); ${(first / node).toFixed(2)}× node's start`,
    ],
    [
      '  the same, --sandbox off',
      `${firstOff.toFixed(0)} ms`,
      `${range(unsandboxed.map((r) => r.firstRequestMs))}; ${(firstOff / node).toFixed(2)}× node's start (goal <= 120 ms where node starts in ~25)`,
    ],
    [
      'fix task: bytes sent (4 requests)',
      kb(median(runs.map((r) => r.bytesSent))),
      'peers: pi 27 KB, Claude Code 202 KB',
    ],
    [
      'first request: system + tools',
      `${kb(runs[0]!.systemBytes)} + ${kb(runs[0]!.toolBytes)}`,
      'peers: pi 2.4 + 3.4 KB',
    ],
    [
      'peak memory: process tree / CLI process',
      `${mb(median(runs.map((r) => r.peakRss)))} / ${mb(median(runs.map((r) => r.cliPeak)))}`,
      `CLI ${range(
        runs.map((r) => r.cliPeak / 1048576),
        ' MB',
      )}, goal <= 70 MB; peers: 148–416 MB (tree)`,
    ],
    [
      '1 MiB argument in 16-byte deltas: extra time',
      `+${(median(small) - median(whole)).toFixed(0)} ms`,
      `${median(small).toFixed(0)} ms vs ${median(whole).toFixed(0)} ms in one delta; the fake's own extra (a bare fetch): +${median(fakeExtra).toFixed(0)} ms`,
    ],
    ['fix task wall time', `${median(runs.map((r) => r.totalMs)).toFixed(0)} ms`, 'including npm test'],
    [
      'bundle: dist/ in all (entries and chunks)',
      `${(distTotal / 1048576).toFixed(2)} MB`,
      `entries ${(bundle('index.js') / 1024).toFixed(0)} KB + ${(bundle('cli.js') / 1024).toFixed(0)} KB; peers install 100–424 MB per run`,
    ],
  ];
  console.log(`patchloop on the PEERS.md fix task (medians of ${RUNS} runs; loopback Anthropic fake)`);
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [name, value, note] of rows) console.log(`  ${name.padEnd(w)}  ${value.padStart(14)}  ${note}`);
}

await main();
