// Start-up of the action: from spawning `node index.js` (as the runner does, on an issue_comment
// event) to the first request reaching the provider, against a bare `node -e ''` measured in the
// same run. Between the two lie the inputs, the event, the permission check, the tracking comment,
// the context, taking the checkout credential, the branch, the tools and the provider. The GitHub
// API and the provider are loopback fakes; the checkout is a real clone of a bare origin.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { bundle } from '../scripts/bundle.mjs';
import { startAnthropicServer } from '../test/fakes/anthropic-server.js';
import { startFakeGitHub } from '../test/fakes/github-server.js';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = 7;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The action bundled from src/ (or PATCHLOOP_ACTION=path/to/index.js, another build, measured the same way). */
async function bundleAction(dir: string): Promise<string> {
  if (process.env.PATCHLOOP_ACTION) return resolve(process.env.PATCHLOOP_ACTION);
  const out = join(dir, 'index.js');
  await bundle(join(ROOT, 'src', 'index.ts'), out);
  return out;
}

function repo(root: string): string {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd,
      stdio: 'ignore',
    });
  const origin = join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = join(root, 'seed');
  git(root, 'clone', '-q', origin, seed);
  git(seed, 'checkout', '-q', '-B', 'main');
  writeFileSync(join(seed, 'README.md'), '# bench\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'init');
  git(seed, 'push', '-q', 'origin', 'main');
  const work = join(root, 'work');
  git(root, 'clone', '-q', origin, work);
  return work;
}

// The bare start gets the environment the action gets: a variable such as NODE_EXTRA_CA_CERTS
// (read at every start, ~45 ms where the machine sets it) must weigh on both or on neither.
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

const tmp = mkdtempSync(join(tmpdir(), 'pl-bench-startup-'));
try {
  const script = await bundleAction(tmp);
  const work = repo(tmp);
  const gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  let arrived: (() => void) | undefined;
  const model = await startAnthropicServer(() => {
    arrived?.();
    return { text: 'done' };
  });

  const runnerTemp = join(tmp, 'runner');
  mkdirSync(runnerTemp);
  const startup: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // A new issue each round: on the last round's issue its tracking comment would make this a
    // follow-up (bench/follow-up.bench.ts measures those).
    const issue = gh.addIssue({ title: 'Startup', body: 'measure me' });
    const comment = gh.addComment(issue.number, { body: '/patchloop measure start-up', author: 'alice' });
    const eventPath = join(runnerTemp, `event-${i}.json`);
    writeFileSync(
      eventPath,
      JSON.stringify({
        action: 'created',
        issue: { number: issue.number, title: issue.title, body: issue.body },
        comment: {
          id: comment.id,
          body: comment.body,
          user: { login: 'alice', type: 'User' },
          created_at: comment.created_at,
        },
        sender: { login: 'alice', type: 'User' },
        repository: { full_name: 'octo/demo', default_branch: 'main' },
      }),
    );
    const first = new Promise<number>((resolveFirst) => {
      arrived = () => resolveFirst(performance.now());
    });
    const t0 = performance.now();
    const child = spawn(process.execPath, [script], {
      cwd: work,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: 'octo/demo',
        GITHUB_RUN_ID: String(1000 + i),
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_API_URL: gh.url,
        GITHUB_OUTPUT: join(runnerTemp, 'output'),
        GITHUB_STEP_SUMMARY: join(runnerTemp, 'summary'),
        RUNNER_TEMP: runnerTemp,
        'INPUT_GITHUB-TOKEN': 'ghs_faketoken',
        'INPUT_API-KEY': 'sk-ant-bench-0000000000000000',
        'INPUT_BASE-URL': model.url,
      },
    });
    const closed = new Promise<void>((r) => child.on('close', () => r()));
    const at = await Promise.race([first, closed.then(() => -1)]);
    child.kill('SIGKILL');
    await closed;
    if (at < 0) throw new Error('the action exited before asking the provider anything');
    startup.push(at - t0);
    execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: work });
  }
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) bare.push(await timeToExit(['-e', '']));

  const a = median(startup);
  const b = median(bare);
  const bytes = readdirSync(dirname(script), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);
  console.log(`action bundle with its chunks: ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
  console.log(`node -e '' (start to exit), median of ${RUNS}:           ${b.toFixed(0)} ms`);
  console.log(`action start to first provider request, median of ${RUNS}: ${a.toFixed(0)} ms`);
  console.log(
    `ratio: ${(a / b).toFixed(2)}x node's own start; on top of it: ${(a - b).toFixed(0)} ms (goal: <= 250 ms in all where node starts in ~25)`,
  );
  await gh.stop();
  await model.close();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
