// `npm run demo`: the whole pipeline offline. Copies examples/demo-repo (a tiny Node project whose
// divide() does not guard against zero, so one test fails) to a temp folder, makes it a git
// checkout, and runs `patchloop run` on it with a scripted model session: the assistant turns are
// replayed from examples/demo-session.jsonl, the tools run for real. Then shows the commit, the
// diff, the tests, and where the transcript and its HTML page are.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
const session = join(root, 'examples', 'demo-session.jsonl');

if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first.');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'patchloop-demo-'));
const repo = join(work, 'demo-repo');
const transcript = join(work, 'transcript.jsonl');
const html = join(work, 'transcript.html');

function git(...args) {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function heading(text) {
  console.log(`\n── ${text} ${'─'.repeat(Math.max(0, 72 - text.length))}`);
}

/** `node --test` in the demo repository, summarised as "N passed, M failed". */
function testSummary() {
  const r = spawnSync(process.execPath, ['--test'], { cwd: repo, encoding: 'utf8' });
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(r.stdout)?.[1] ?? 0);
  return `${count('pass')} passed, ${count('fail')} failed`;
}

cpSync(join(root, 'examples', 'demo-repo'), repo, { recursive: true });
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'patchloop demo');
git('config', 'user.email', 'demo@example.invalid');
git('config', 'commit.gpgsign', 'false');
git('add', '-A');
git('commit', '-q', '-m', 'Demo calculator');

const task = readFileSync(session, 'utf8')
  .split('\n')
  .map((l) => (l.trim() ? JSON.parse(l) : undefined))
  .find((l) => l?.type === 'message' && l.message.role === 'user')?.message.content;

console.log('patchloop demo: a SCRIPTED model session.');
console.log('No model is called: the assistant turns are replayed from examples/demo-session.jsonl,');
console.log('and the tools (read_file, edit_file, run_tests) run for real on a copy of examples/demo-repo.');
console.log(`\nRepository: ${repo}`);
console.log(`Task:       ${task}`);
console.log(`Tests now:  ${testSummary()}`);

heading('Tool timeline (stderr of patchloop run)');
const run = spawnSync(
  process.execPath,
  [cli, 'run', '--repo', repo, '--replay', session, '--transcript', transcript],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
heading('Summary (stdout of patchloop run)');
process.stdout.write(run.stdout ?? '');

if (run.status === 0 && git('rev-parse', '--abbrev-ref', 'HEAD').trim() !== 'main') {
  heading('The commit');
  process.stdout.write(git('log', '-1', '--format=%h %s%n', 'HEAD'));
  process.stdout.write(git('show', '--stat', '--format=', 'HEAD'));
  heading('The diff');
  process.stdout.write(git('show', '--format=', 'HEAD'));
  heading('Afterwards');
  console.log(`Tests now:  ${testSummary()}`);
  console.log(
    `Checkout:   ${git('status', '--porcelain').trim() === '' ? 'clean' : 'has uncommitted changes'}, on ${git('rev-parse', '--abbrev-ref', 'HEAD').trim()}`,
  );
}

const exported = spawnSync(process.execPath, [cli, 'export', transcript, '-o', html], { encoding: 'utf8' });
console.log(`Transcript: ${transcript}`);
if (exported.status === 0) console.log(`HTML page:  ${html}`);
else console.log(`HTML page:  not written (${(exported.stderr || '').trim() || 'export failed'})`);
console.log(`Inspect it: node dist/cli.js inspect ${transcript}`);
console.log(`Remove it:  rm -rf ${work}`);
process.exit(run.status ?? 1);
