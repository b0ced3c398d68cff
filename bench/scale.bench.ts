// The command sandbox at scale (issue 30): generated checkouts of 1k and 100k tracked files, and
// 200 tracked files beside a git-ignored dependency tree of 400k files (pnpm-like: a store outside
// the checkout hard-linked in, and symbolic links). For each, the CLI (bundled from src/) runs
// against a loopback Anthropic fake that answers at once: a bash `true` as the first tool call,
// COMMANDS more, then the final answer; sandbox on and off alternate in one run. Figures:
// first tool call (request 1 → request 2: waits for the sandbox set-up), per command, and final
// answer → exit (with the walks, their revoke is in it), with on/off ratios; on is the default
// method (the overlay where the machine makes it). Then the sandbox module alone, each access
// method: set-up (open + self-check), per command, and dispose (the walks' revoke).
// PL_BENCH_SCALE=0.01 shrinks every checkout (CI); PL_BENCH_RUNS (default 3) sets the runs.
// Run it with NODE_EXTRA_CA_CERTS unset (it is read at every start of node).
import { execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundle } from '../scripts/bundle.mjs';
import { startAnthropicServer, type AnthropicTurn } from '../test/fakes/anthropic-server.js';
import { createSandbox } from '../src/sandbox/index.js';
import { runCommand } from '../src/tools/process.js';

const ROOT = resolve(import.meta.dirname, '..');
const SCALE = Number(process.env.PL_BENCH_SCALE ?? 1);
const RUNS = Number(process.env.PL_BENCH_RUNS ?? 3);
const COMMANDS = 5;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Checkout {
  name: string;
  tracked: number;
  ignored: number;
}

const CHECKOUTS: Checkout[] = [
  { name: `${fmt(1000 * SCALE)} tracked`, tracked: Math.round(1000 * SCALE), ignored: 0 },
  { name: `${fmt(100_000 * SCALE)} tracked`, tracked: Math.round(100_000 * SCALE), ignored: 0 },
  {
    name: `200 tracked + ${fmt(400_000 * SCALE)} ignored (links)`,
    tracked: 200,
    ignored: Math.round(400_000 * SCALE),
  },
];

function fmt(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(Math.round(n));
}

/** `n` files, 12 to a folder, two folders deep. */
function files(dir: string, n: number, each: (path: string, i: number) => void): void {
  for (let i = 0; i < n; i++) {
    const d = join(dir, `d${Math.floor(i / 1200)}`, `p${Math.floor(i / 12)}`);
    if (i % 12 === 0) mkdirSync(d, { recursive: true });
    each(join(d, `f${i % 12}.js`), i);
  }
}

function makeCheckout(root: string, c: Checkout): string {
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const git = (...args: string[]) =>
    // no background gc: it would still be writing in .git when the checkout is removed
    execFileSync(
      'git',
      ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'gc.auto=0', ...args],
      {
        cwd: ws,
        stdio: 'ignore',
      },
    );
  git('init', '-q', '-b', 'main');
  files(join(ws, 'src'), c.tracked, (p, i) => writeFileSync(p, `export const v${i} = ${i};\n`));
  if (c.ignored) {
    writeFileSync(join(ws, '.gitignore'), 'node_modules/\n');
    // a third of the files are a store's (outside the checkout), hard-linked in; some are links
    const store = join(root, 'store');
    mkdirSync(store);
    files(join(ws, 'node_modules'), c.ignored, (p, i) => {
      if (i % 3 === 0) {
        const s = join(store, `s${i}`);
        writeFileSync(s, `module.exports = ${i};\n`);
        linkSync(s, p);
      } else if (i % 12 === 1) symlinkSync('f0.js', p);
      else writeFileSync(p, `module.exports = ${i};\n`);
    });
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return ws;
}

interface CliFigures {
  firstTool: number;
  perCommand: number;
  finalToExit: number;
}

function turns(): AnthropicTurn[] {
  const usage = { input: 100, output: 10 };
  const call = (i: number): AnthropicTurn => ({
    toolCalls: [{ id: `toolu_${i}`, name: 'bash', json: '{"command":"true"}' }],
    usage,
  });
  return [...Array.from({ length: COMMANDS + 1 }, (_, i) => call(i)), { text: 'done', usage }];
}

async function runCli(cli: string, ws: string, sandbox: 'auto' | 'off'): Promise<CliFigures> {
  const script = turns();
  const arrivals: number[] = [];
  const server = await startAnthropicServer((_req, index) => {
    arrivals.push(performance.now());
    return script[index] ?? { text: 'done' };
  });
  const out = mkdtempSync(join(tmpdir(), 'pl-bench-scale-out-'));
  const child = spawn(
    process.execPath,
    [
      cli,
      'run',
      '--repo',
      ws,
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
      '--allow-bash',
      '--transcript',
      join(out, 'run.jsonl'),
      'run true a few times',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME } },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
  const exited = performance.now();
  await server.close();
  rmSync(out, { recursive: true, force: true });
  if (code !== 0 || arrivals.length !== COMMANDS + 2)
    throw new Error(
      `the run did not complete (exit ${code}, ${arrivals.length} requests): ${stderr.slice(-500)}`,
    );
  const gaps = arrivals.slice(2).map((t, i) => t - arrivals[i + 1]!);
  return {
    firstTool: arrivals[1]! - arrivals[0]!,
    perCommand: median(gaps),
    finalToExit: exited - arrivals.at(-1)!,
  };
}

interface ModuleFigures {
  setup: number;
  perCommand: number;
  dispose: number;
}

async function runModule(ws: string, access: 'overlay' | 'acl' | 'group'): Promise<ModuleFigures> {
  const t0 = performance.now();
  const setup = await createSandbox({ workspace: ws, access, privateDirs: [] });
  if (setup.kind !== 'isolated') throw new Error(`no sandbox here: ${setup.reason}`);
  const t1 = performance.now();
  const each: number[] = [];
  for (let i = 0; i < COMMANDS; i++) {
    const s = performance.now();
    const r = await runCommand({ command: 'true', cwd: ws, sandbox: setup.sandbox, timeoutMs: 600_000 });
    if (r.exitCode !== 0) throw new Error(`true failed: ${r.text}`);
    each.push(performance.now() - s);
  }
  const t2 = performance.now();
  await setup.dispose();
  return { setup: t1 - t0, perCommand: median(each), dispose: performance.now() - t2 };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function main() {
  if (process.env.NODE_EXTRA_CA_CERTS)
    console.log('note: NODE_EXTRA_CA_CERTS is set; every node start pays for it (unset it for figures)');
  const tmp = mkdtempSync(join(tmpdir(), 'pl-bench-scale-'));
  try {
    const cli = join(tmp, 'cli', 'cli.js');
    await bundle(join(ROOT, 'src', 'cli.ts'), cli, { executable: true });
    console.log(
      `the sandbox at scale (scale ${SCALE}; medians of ${RUNS} runs, ${COMMANDS} commands each; on = --sandbox auto)`,
    );
    for (const c of CHECKOUTS) {
      const dir = mkdtempSync(join(tmp, 'co-'));
      const made = performance.now();
      const ws = makeCheckout(dir, c);
      console.log(`\n${c.name} (made in ${((performance.now() - made) / 1000).toFixed(1)} s)`);
      await runCli(cli, ws, 'off'); // warms the file cache
      const on: CliFigures[] = [];
      const off: CliFigures[] = [];
      for (let i = 0; i < RUNS; i++) {
        on.push(await runCli(cli, ws, 'auto'));
        off.push(await runCli(cli, ws, 'off'));
      }
      const m = (xs: CliFigures[], k: keyof CliFigures) => median(xs.map((x) => x[k]));
      const rows: [string, number, number][] = [
        ['first tool call', m(on, 'firstTool'), m(off, 'firstTool')],
        ['per command', m(on, 'perCommand'), m(off, 'perCommand')],
        ['final answer → exit', m(on, 'finalToExit'), m(off, 'finalToExit')],
      ];
      for (const [name, a, b] of rows)
        console.log(
          `  CLI ${name.padEnd(20)} on ${ms(a).padStart(9)}  off ${ms(b).padStart(9)}  ${ratio(a, b).padStart(7)}  (on − off ${ms(a - b)})`,
        );
      for (const access of ['overlay', 'acl', 'group'] as const) {
        const figs: ModuleFigures[] = [];
        for (let i = 0; i < RUNS; i++) figs.push(await runModule(ws, access));
        const k = (key: keyof ModuleFigures) => ms(median(figs.map((f) => f[key])));
        console.log(
          `  module, ${access.padEnd(7)}  set-up ${k('setup').padStart(9)}  per command ${k('perCommand').padStart(7)}  dispose ${k('dispose').padStart(9)}`,
        );
      }
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main();
