// The ending of an action run: from the model's final answer to the process exit, on the harness's
// small repository (the bundled `node index.js`, spawned as the runner spawns it on an
// issue_comment event, against the loopback GitHub, artifact and Anthropic fakes and a real clone
// of a bare origin). Between the two lie the commit, the push, the PR, the transcript's page and
// artifact upload, the summary comment, the outputs and the clean-up (sandbox, credential).
//   fix        the model edits a file, then answers: commit, push, PR, upload, summary;
//   no-edit    the model answers at once: no commit, push or PR (upload and summary only);
//   node       a bare `node -e ''`, start to exit: the floor any process pays.
// The kinds alternate within each round; every figure is a median over the rounds, with its range.
// The breakdown is the action's own `PATCHLOOP_TIMINGS` lines (phase durations, see README), medians.
// BASELINE=path/to/index.js (or several, `label=path,label=path`) adds the fix run of other builds
// (an older commit's bundle) to each round, for a before/after in one run on the same machine
// load. RUNS=n changes the number of rounds (default 7).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundle } from '../scripts/bundle.mjs';
import { startAnthropicServer, type AnthropicTurn } from '../test/fakes/anthropic-server.js';
import { startFakeArtifactService } from '../test/fakes/artifact-service.js';
import { startFakeGitHub } from '../test/fakes/github-server.js';
import { issueComment } from '../test/github/payloads.js';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.RUNS ?? 7);
const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-bench-ending-0000000000000000';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

const FIX: AnthropicTurn[] = [
  {
    text: 'Guarding the division.',
    toolCalls: [
      {
        id: 'toolu_b1',
        name: 'edit_file',
        json: '{"path":"src/math.js","oldText":"a / b","newText":"(b === 0 ? 0 : a / b)"}',
      },
    ],
    usage: { input: 1000, output: 60 },
  },
  { text: 'Guarded div() against a zero divisor.', usage: { input: 1200, output: 30 } },
];
const NO_EDIT: AnthropicTurn[] = [{ text: 'Nothing to change.', usage: { input: 1000, output: 10 } }];

function checkout(root: string, name: string): { work: string; origin: string } {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd,
      stdio: 'ignore',
    });
  const dir = join(root, name);
  mkdirSync(dir);
  const origin = join(dir, 'origin.git');
  git(dir, 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = join(dir, 'seed');
  git(dir, 'clone', '-q', origin, seed);
  git(seed, 'checkout', '-q', '-B', 'main');
  mkdirSync(join(seed, 'src'));
  writeFileSync(join(seed, 'package.json'), '{ "name": "demo", "type": "module" }\n');
  writeFileSync(join(seed, 'src', 'math.js'), 'export const div = (a, b) => a / b;\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'init');
  git(seed, 'push', '-q', 'origin', 'main');
  const work = join(dir, 'work');
  git(dir, 'clone', '-q', origin, work);
  return { work, origin };
}

function timeToExit(args: string[]): Promise<number> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, {
      stdio: 'ignore',
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    child.on('close', () => done(performance.now() - t0));
  });
}

interface Ended {
  /** final answer (the last model request's arrival) → process exit, ms */
  finalToExit: number;
  /** PATCHLOOP_TIMINGS phases: name → ms */
  phases: Map<string, number>;
  conclusion: string;
}

const tmp = mkdtempSync(join(tmpdir(), 'pl-bench-ending-'));
try {
  const script = join(tmp, 'build', 'index.js');
  await bundle(join(ROOT, 'src', 'index.ts'), script);
  const baselines = (process.env.BASELINE ?? '')
    .split(',')
    .filter(Boolean)
    .map((b, i) => {
      const at = b.indexOf('=');
      return at > 0
        ? { label: b.slice(0, at), path: resolve(b.slice(at + 1)) }
        : { label: `baseline ${i + 1}`, path: resolve(b) };
    });
  const gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  const service = await startFakeArtifactService();
  service.mountOn(gh);
  let turns: AnthropicTurn[] = FIX;
  let lastAsked = 0;
  let asked = 0;
  const model = await startAnthropicServer(() => {
    lastAsked = performance.now();
    return turns[asked++] ?? { text: 'done' };
  });

  let runNo = 0;
  async function actionRun(kind: 'fix' | 'no-edit', build: string): Promise<Ended> {
    runNo++;
    turns = kind === 'fix' ? FIX : NO_EDIT;
    asked = 0;
    const { work } = checkout(tmp, `run-${runNo}`);
    const runnerTemp = join(tmp, `runner-${runNo}`);
    mkdirSync(runnerTemp);
    const issue = gh.addIssue({ title: 'div by zero' });
    const c = gh.addComment(issue.number, { body: '/patchloop fix the division', author: 'alice' });
    const eventPath = join(runnerTemp, 'event.json');
    writeFileSync(
      eventPath,
      JSON.stringify(
        issueComment({
          issue: { number: issue.number, title: issue.title },
          comment: { id: c.id, body: c.body, createdAt: c.created_at, author: { login: 'alice', id: 4242 } },
        }),
      ),
    );
    writeFileSync(join(runnerTemp, 'output'), '');
    writeFileSync(join(runnerTemp, 'summary'), '');
    const runId = 20_000 + runNo;
    const identity = service.job({ runId, job: 'patchloop' });
    const child = spawn(process.execPath, [build], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LANG: 'C.UTF-8',
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: 'octo/demo',
        GITHUB_REPOSITORY_OWNER: 'octo',
        GITHUB_RUN_ID: String(runId),
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_JOB: 'patchloop',
        GITHUB_ACTOR: 'alice',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_API_URL: gh.url,
        GITHUB_WORKSPACE: work,
        GITHUB_OUTPUT: join(runnerTemp, 'output'),
        GITHUB_STEP_SUMMARY: join(runnerTemp, 'summary'),
        RUNNER_TEMP: runnerTemp,
        RUNNER_OS: 'Linux',
        ACTIONS_RUNTIME_TOKEN: identity.token,
        ACTIONS_RESULTS_URL: service.url,
        PATCHLOOP_TIMINGS: '1',
        'INPUT_GITHUB-TOKEN': TOKEN,
        'INPUT_API-KEY': API_KEY,
        'INPUT_BASE-URL': model.url,
        'INPUT_CONTINUE-SESSION': 'false',
      },
    });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const exited = await new Promise<number>((done) => child.on('close', () => done(performance.now())));
    const phases = new Map<string, number>();
    for (const m of stdout.matchAll(/^patchloop timing: (.+?) (\d+) ms$/gm)) phases.set(m[1]!, Number(m[2]));
    const conclusion = /^conclusion<<.*\n(.*)$/m.exec(
      execFileSync('cat', [join(runnerTemp, 'output')], { encoding: 'utf8' }),
    )?.[1];
    const expected = kind === 'fix' ? 'success' : 'no-changes';
    if (conclusion !== expected)
      throw new Error(
        `the ${kind} run ended ${conclusion ?? 'without a conclusion'}:\n${stdout.slice(-3000)}`,
      );
    return { finalToExit: exited - lastAsked, phases, conclusion };
  }

  const fix: Ended[] = [];
  const noEdit: Ended[] = [];
  const base: Ended[][] = baselines.map(() => []);
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const kinds = ['fix', 'no-edit', 'node', ...baselines.map((_, b) => b)];
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(k + i) % kinds.length]!;
      if (kind === 'fix') fix.push(await actionRun('fix', script));
      else if (kind === 'no-edit') noEdit.push(await actionRun('no-edit', script));
      else if (typeof kind === 'number') base[kind]!.push(await actionRun('fix', baselines[kind]!.path));
      else bare.push(await timeToExit(['-e', '']));
    }
  }
  const row = (label: string, xs: number[]) =>
    console.log(`${label.padEnd(44)} ${median(xs).toFixed(0).padStart(6)} ms  (${range(xs)})`);
  console.log(`medians of ${RUNS} rounds, range in brackets`);
  row("node -e '' start → exit", bare);
  row(
    'fix run: final answer → exit',
    fix.map((e) => e.finalToExit),
  );
  row(
    'no-edit run: final answer → exit',
    noEdit.map((e) => e.finalToExit),
  );
  baselines.forEach((b, k) =>
    row(
      `${b.label}, fix run: final answer → exit`,
      base[k]!.map((e) => e.finalToExit),
    ),
  );
  const f = median(fix.map((e) => e.finalToExit));
  const n = median(noEdit.map((e) => e.finalToExit));
  console.log(
    `ratios: fix / node start ${(f / median(bare)).toFixed(1)}x; fix / no-edit ${(f / n).toFixed(2)}x` +
      baselines
        .map((b, k) => `; fix / ${b.label} ${(f / median(base[k]!.map((e) => e.finalToExit))).toFixed(2)}x`)
        .join(''),
  );
  for (const [label, runs] of [
    ['fix', fix],
    ['no-edit', noEdit],
  ] as const) {
    const names = [...new Set(runs.flatMap((e) => [...e.phases.keys()]))];
    if (names.length === 0) continue;
    console.log(`${label} run, PATCHLOOP_TIMINGS phases (medians):`);
    for (const name of names) {
      const xs = runs.map((e) => e.phases.get(name)).filter((x): x is number => x !== undefined);
      console.log(`  ${name.padEnd(40)} ${median(xs).toFixed(0).padStart(6)} ms  (${range(xs)})`);
    }
  }
  await gh.stop();
  await service.stop();
  await model.close();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
