// grep on a large checkout: our grep tool against `git grep` run directly, in the same run.
// Generates 50,000 small committed files in a temp repository, times a few patterns and prints
// median times and the ratio ours / git grep (goal: at most 1.3).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrepTool } from '../src/tools/grep.js';
import { createWorkspace } from '../src/tools/workspace.js';

const FILES = 50_000;
const PER_DIR = 250;
const RUNS = 7;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function generate(root: string): void {
  const rand = rng(42);
  const words = [
    'alpha',
    'beta',
    'gamma',
    'delta',
    'value',
    'result',
    'config',
    'handler',
    'request',
    'buffer',
  ];
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    const lines: string[] = [`// module ${i}`];
    for (let l = 0; l < 12; l++) {
      const w = words[Math.floor(rand() * words.length)]!;
      lines.push(`export function ${w}_${i}_${l}(x: number) { return x * ${Math.floor(rand() * 1000)}; }`);
    }
    if (i % 9973 === 0) lines.push('const marker = "needle_rare";');
    if (i % 97 === 0) lines.push('// TODO: tidy this up');
    writeFileSync(join(dir, `file${i}.ts`), lines.join('\n') + '\n');
  }
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@b',
  };
  execFileSync('git', ['init', '-q'], { cwd: root, env });
  execFileSync('git', ['add', '-A'], { cwd: root, env });
  // No background `gc --auto` (50,000 loose objects would start one) writing while we clean up.
  execFileSync('git', ['-c', 'gc.auto=0', 'commit', '-q', '-m', 'generated'], { cwd: root, env });
}

function gitGrep(root: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['grep', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', () => undefined);
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'patchloop-grep-bench-')));
try {
  const started = performance.now();
  generate(root);
  console.log(
    `generated and committed ${FILES} files in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const tool = createGrepTool(createWorkspace(root));
  const signal = new AbortController().signal;
  const cases: { label: string; args: Record<string, unknown>; git: string[] }[] = [
    {
      label: 'rare literal',
      args: { pattern: 'needle_rare', literal: true },
      git: ['-n', '-F', 'needle_rare'],
    },
    { label: 'regex, few hits', args: { pattern: 'TODO: \\w+' }, git: ['-n', '-P', 'TODO: \\w+'] },
    {
      label: 'ignore case, few',
      args: { pattern: 'NEEDLE_RARE', ignoreCase: true },
      git: ['-n', '-i', 'NEEDLE_RARE'],
    },
    { label: 'no match', args: { pattern: 'zz_not_there_zz' }, git: ['-n', 'zz_not_there_zz'] },
    { label: 'common word', args: { pattern: 'handler' }, git: ['-n', 'handler'] },
  ];
  console.log(
    `\nmedians of ${RUNS} interleaved runs; "best" compares the fastest runs, which a busy machine disturbs least.`,
  );
  console.log(
    '"same search" is git grep with the flags our tool adds (--untracked -I), isolating our own overhead.',
  );
  console.log('pattern            ours (ms)  git grep (ms)  ours / git grep  (best)  ours / same search');
  const ratios: number[] = [];
  for (const c of cases) {
    const same = ['--untracked', '-I', ...c.git];
    await tool.execute(c.args as never, { signal, toolCallId: 'warm' });
    await gitGrep(root, c.git);
    const ours: number[] = [];
    const theirs: number[] = [];
    const equivalent: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await time(() => tool.execute(c.args as never, { signal, toolCallId: 'b' })));
      theirs.push(await time(() => gitGrep(root, c.git)));
      equivalent.push(await time(() => gitGrep(root, same)));
    }
    const ratio = median(ours) / median(theirs);
    const best = Math.min(...ours) / Math.min(...theirs);
    ratios.push(ratio);
    console.log(
      `${c.label.padEnd(18)} ${median(ours).toFixed(1).padStart(9)}  ${median(theirs).toFixed(1).padStart(13)}  ` +
        `${ratio.toFixed(2).padStart(15)}x  ${best.toFixed(2).padStart(5)}x  ${(median(ours) / median(equivalent)).toFixed(2).padStart(17)}x`,
    );
  }
  const worst = Math.max(...ratios);
  console.log(`\nworst ratio ${worst.toFixed(2)}x (goal <= 1.30x): ${worst <= 1.3 ? 'met' : 'NOT met'}`);
  console.log(
    '"common word" stops at the 100-match limit, so ours reads far less output than git grep prints.',
  );
} finally {
  rmSync(root, { recursive: true, force: true, maxRetries: 5 });
}
