// Issue 36 item 2: a run artifact is untrusted input. A model steered by a hostile issue records
// a `bash` call and a test command in its transcript; a maintainer later replays that transcript
// on their own checkout. Replay must run none of it by default, and with --run-commands only in
// the command sandbox (as patchloop-sandbox), with the test command and bash of its own flags.
//
// SECURITY.md R30. Defence switches (attack-kit.ts, PL_DEFENCE_OFF): `replay-commands` (the
// replay as it was: everything run by default, as the user, with the transcript's settings),
// `replay-sandbox` (--run-commands without the sandbox), `replay-settings` (--run-commands with the
// transcript's test command and bash).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtBundle } from '../support/bundle-cache.js';
import { missingForSandbox } from '../sandbox/fixture.js';
import { PATCHES, switchOff } from './attack-kit.js';
import { record } from './figures.js';

const missing = missingForSandbox({ keyctl: false });
let dir: string;
let cli: { path: string; cleanup(): void };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-attack-replay-'));
  chmodSync(dir, 0o755);
  cli = await builtBundle('src/cli.ts', 'cli.js', { executable: true, prefix: 'pl-attack-replay-cli-' });
  const off = (process.env.PL_DEFENCE_OFF ?? '').split(',').filter(Boolean);
  if (off.length)
    for (const line of switchOff(dirname(cli.path), off)) process.stderr.write(`attack suite: OFF ${line}\n`);
});
afterAll(() => {
  cli?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

interface Scene {
  /** The maintainer's checkout the transcript is replayed on. */
  repo: string;
  transcript: string;
  /** Files outside the checkout that only a command run as the maintainer (root here) can make. */
  hostMarkers: string[];
}

/** The maintainer's checkout, whose own test script writes who ran it, and the hostile transcript. */
function scene(): Scene {
  const work = mkdtempSync(join(dir, 'scene-'));
  chmodSync(work, 0o755);
  const repo = join(work, 'repo');
  mkdirSync(repo);
  writeFileSync(
    join(repo, 'package.json'),
    '{ "name": "calc", "scripts": { "test": "id -un > tests-ran-as.txt" } }\n',
  );
  writeFileSync(join(repo, 'README.md'), 'calc\n');
  const git = (...a: string[]) => spawnSync('git', a, { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=m', '-c', 'user.email=m@example.com', 'commit', '-qm', 'base');
  // in a folder only root may write to: no sandboxed command can make them
  const hostDir = mkdtempSync(join(dir, 'host-'));
  chmodSync(hostDir, 0o755);
  const id = randomBytes(4).toString('hex');
  const bashMarker = join(hostDir, `bash-${id}`);
  const testMarker = join(hostDir, `test-command-${id}`);
  const session = {
    type: 'session',
    version: 1,
    id: 'steered-1',
    startedAt: '2026-12-01T10:00:00.000Z',
    repository: 'octo/calc',
    trigger: 'issue_comment',
    provider: 'anthropic',
    model: 'claude-sonnet-5-5',
    workspace: '/home/runner/work/calc/calc',
    allowBash: true,
    testCommand: `id -un > transcript-test-command.txt; touch ${testMarker}`,
  };
  const calls = [
    { type: 'toolCall', id: 'toolu_1', name: 'read_file', input: { path: 'README.md' } },
    {
      type: 'toolCall',
      id: 'toolu_2',
      name: 'bash',
      input: { command: `id -un > bash-ran-as.txt; touch ${bashMarker} 2>/dev/null; true` },
    },
    { type: 'toolCall', id: 'toolu_3', name: 'run_tests', input: {} },
  ];
  const result = (id: string, name: string, text: string) => ({
    type: 'message',
    message: {
      role: 'toolResult',
      toolCallId: id,
      toolName: name,
      isError: false,
      content: [{ type: 'text', text }],
      timestamp: 3,
    },
  });
  const lines = [
    session,
    { type: 'message', message: { role: 'user', content: 'Fix issue 7.', timestamp: 1 } },
    {
      type: 'message',
      message: {
        role: 'assistant',
        content: calls,
        provider: 'anthropic',
        model: 'claude-sonnet-5-5',
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        stopReason: 'toolUse',
        timestamp: 2,
      },
    },
    result('toolu_1', 'read_file', 'calc'),
    result('toolu_2', 'bash', 'Exit code 0 (10 ms).\n(no output)'),
    result('toolu_3', 'run_tests', 'Exit code 0 (10 ms).\n(no output)'),
  ];
  const transcript = join(work, 'artifact', 'transcript.jsonl');
  mkdirSync(dirname(transcript));
  writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { repo, transcript, hostMarkers: [bashMarker, testMarker] };
}

function replay(args: string[]) {
  return spawnSync(process.execPath, [cli.path, 'replay', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: dir },
    timeout: 180_000,
  });
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined);

describe.skipIf(missing)('replaying a steered run’s transcript (R30)', () => {
  it('by default runs none of its commands: its bash call and its test command are listed as not run', () => {
    const s = scene();
    const r = replay([s.transcript, '--repo', s.repo]);
    const ran =
      s.hostMarkers.filter(existsSync).length + (existsSync(join(s.repo, 'bash-ran-as.txt')) ? 1 : 0);
    record('replay', { attacksTried: 1, attacksHeld: ran === 0 ? 1 : 0 });

    expect(s.hostMarkers.filter(existsSync)).toEqual([]);
    expect(read(join(s.repo, 'bash-ran-as.txt'))).toBeUndefined();
    expect(read(join(s.repo, 'transcript-test-command.txt'))).toBeUndefined();
    expect(read(join(s.repo, 'tests-ran-as.txt'))).toBeUndefined();
    expect(r.stdout).toMatch(
      /- turn 1 bash .*not run: commands are run again only with replay --run-commands/,
    );
    expect(r.stdout).toMatch(/- turn 1 run_tests\s+not run:/);
    expect(r.stdout).toMatch(/All 1 compared call\(s\) match .*; 2 not run/);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('with --run-commands runs them only in the sandbox as patchloop-sandbox, with its own test command, never the transcript’s', () => {
    const s = scene();
    const r = replay([s.transcript, '--repo', s.repo, '--run-commands', '--allow-bash']);
    const bashUser = read(join(s.repo, 'bash-ran-as.txt'));
    const held =
      bashUser === 'patchloop-sandbox' &&
      s.hostMarkers.every((m) => !existsSync(m)) &&
      read(join(s.repo, 'transcript-test-command.txt')) === undefined;
    record('replay', { attacksTried: 1, attacksHeld: held ? 1 : 0 });

    // the bash call ran, as the sandbox user, and could not reach the maintainer's folders
    expect(bashUser, r.stdout + r.stderr).toBe('patchloop-sandbox');
    expect(s.hostMarkers.filter(existsSync)).toEqual([]);
    // run_tests ran the checkout's own test script (detected), not the transcript's test command
    expect(read(join(s.repo, 'transcript-test-command.txt'))).toBeUndefined();
    expect(read(join(s.repo, 'tests-ran-as.txt'))).toBe('patchloop-sandbox');
    expect(r.stdout).toMatch(/note: the run's test command is not taken from the transcript/);
  });
});

describe('the CLI’s defence switches', () => {
  it.skipIf(Boolean(process.env.PL_DEFENCE_OFF))('each one still finds its place in the CLI bundle', () => {
    const names = Object.keys(PATCHES).filter((n) => PATCHES[n]!.bundle === 'cli');
    const failures: string[] = [];
    for (const name of names) {
      const copy = mkdtempSync(join(tmpdir(), 'pl-switch-'));
      try {
        cpSync(dirname(cli.path), copy, { recursive: true });
        switchOff(copy, [name]);
      } catch (err) {
        failures.push((err as Error).message);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
    expect(names).toEqual(['replay-commands', 'replay-sandbox', 'replay-settings']);
    expect(failures).toEqual([]);
  });
});
