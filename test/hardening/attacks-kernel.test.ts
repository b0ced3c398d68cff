import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAction, type BuiltAction } from '../action/harness.js';
import {
  actionUnderTest,
  attack,
  FIX_CALL,
  leaksIn,
  makeFixture,
  plantRunSecrets,
  SANDBOX_USER,
  wrapperScript,
} from './attack-kit.js';
import { record } from './figures.js';

// Issue 23, "resources and kernel state the namespaces do not cover": what a command can reach or
// leave through the kernel rather than through files, and through the machine's world-writable
// folders other than /tmp. A fork's test script (run by a well-behaved model) and a hostile `bash`
// try each; the bundled action runs as the runner runs it.

const secrets = plantRunSecrets();
let action: BuiltAction;

beforeAll(async () => {
  action = await actionUnderTest(buildAction);
}, 120_000);
afterAll(() => action?.cleanup());

const root = process.platform === 'linux' && process.getuid?.() === 0;
const haveKeyctl = ['/usr/bin/keyctl', '/bin/keyctl'].some((p) => existsSync(p));
const TEST_SH = '{ "name": "demo", "scripts": { "test": "sh ci/test.sh" } }\n';

/** Message queues of the machine's own IPC namespace made by `uid`, as `msqid` strings. */
function queuesOf(uid: number): string[] {
  return readFileSync('/proc/sysvipc/msg', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length > 7 && Number(c[7]) === uid)
    .map((c) => c[1]!);
}

describe.skipIf(!root || !haveKeyctl)('kernel state', () => {
  it("a key an earlier step put in the runner's session keyring is read neither by a fork's test script nor by a hostile bash", async () => {
    const f = makeFixture();
    const keyValue = `kv${randomBytes(12).toString('hex')}`;
    // The runner's job as systemd starts it, with a session keyring of its own that every step
    // inherits; an earlier step keeps a deploy key there (`keyctl add … @s`). The key is added by
    // a process inside that session before the bundle starts in it (a shell between the harness
    // and the bundle would drop the INPUT_* names, hence the node wrapper).
    const inner = wrapperScript(
      f.root,
      'earlier-step',
      `keyctl add user runner-deploy-key ${keyValue} @s >/dev/null`,
      [process.execPath, action.path],
    );
    const wrapper = wrapperScript(f.root, 'runner-session', 'true', [
      'keyctl',
      'session',
      'runner-job',
      process.execPath,
      inner,
    ]);
    const steal = [
      'keyctl show @s',
      'keyctl print %user:runner-deploy-key',
      'for k in $(keyctl rlist @s); do keyctl print "$k"; done',
      'cat /proc/keys',
      '',
    ].join('\n');
    const run = await attack({
      action,
      fixture: f,
      secrets,
      script: wrapper,
      head: { 'package.json': TEST_SH, 'ci/test.sh': steal },
      turns: [
        { toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }] },
        { toolCalls: [{ id: 'toolu_b1', name: 'bash', json: JSON.stringify({ command: steal }) }] },
        { toolCalls: [FIX_CALL] },
        { text: 'Guarded div().' },
      ],
      inputs: { 'allow-bash': 'true' },
    });
    try {
      const problems: string[] = [];
      const stolen = leaksIn(run.outputs, [keyValue]);
      problems.push(...stolen, ...run.leaks);
      // both commands ran (the model saw their results), as the sandbox user
      const seen = run.model.requests.map((q) => q.raw).join('\n');
      if (!/keyring/.test(seen)) problems.push(`the commands did not run: ${run.log.slice(-2000)}`);
      if (run.r.outputs.conclusion !== 'success') problems.push(`conclusion ${run.r.outputs.conclusion}`);
      record('kernel: session keyring', {
        attacksTried: 2,
        attacksHeld: stolen.length === 0 ? 2 : 0,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: stolen.length + run.leaks.length,
      });
      expect(problems).toEqual([]);
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 300_000);

  it('a file a command leaves in /dev/shm (a scratch folder every user may write; /run/lock is not in the view) and a message queue it makes (ipcmk) reach neither the next command nor, after the run, the machine', async () => {
    const f = makeFixture();
    const tag = randomBytes(4).toString('hex');
    const uid = Number(execFileSync('id', ['-u', SANDBOX_USER], { encoding: 'utf8' }).trim());
    const before = queuesOf(uid);
    const leave = (who: string) =>
      [
        `echo planted-by-${who} > /dev/shm/pl-left-${who}-${tag} && echo lock""-written`,
        // (each marker is written split, so that only the command's output, not its text, holds it)
        `ipcmk -Q -p 0666 && echo queue""-made`,
        // what an earlier command (or run) left, found by this one
        `for x in /dev/shm/pl-left-*-${tag}; do [ "$x" = /dev/shm/pl-left-${who}-${tag} ] || [ ! -e "$x" ] || echo "SAW""-LEFT $x"; done`,
        `[ "$(ipcs -q | grep -c '^0x')" -le 1 ] || echo SAW""-OTHER-QUEUES`,
        '',
      ].join('\n');
    const run = await attack({
      action,
      fixture: f,
      secrets,
      head: { 'package.json': TEST_SH, 'ci/test.sh': leave('fork') },
      turns: [
        { toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }] },
        { toolCalls: [{ id: 'toolu_b1', name: 'bash', json: JSON.stringify({ command: leave('bash') }) }] },
        { toolCalls: [FIX_CALL] },
        { text: 'Guarded div().' },
      ],
      inputs: { 'allow-bash': 'true' },
    });
    const files = ['fork', 'bash'].map((who) => `/dev/shm/pl-left-${who}-${tag}`);
    const queues = queuesOf(uid).filter((q) => !before.includes(q));
    try {
      const problems: string[] = [];
      const seen = run.model.requests.map((q) => q.raw).join('\n');
      // the attacks happened: each command wrote its file and made its queue
      if ((seen.match(/lock-written/g) ?? []).length < 2 || (seen.match(/queue-made/g) ?? []).length < 2)
        problems.push(`the commands did not leave their traces: ${run.log.slice(-2000)}`);
      for (const file of files) if (existsSync(file)) problems.push(`${file} outlived the run`);
      if (queues.length)
        problems.push(`message queues ${queues.join(', ')} of the sandbox user outlived the run`);
      // the second command found nothing of the first one's
      for (const saw of ['SAW-LEFT', 'SAW-OTHER-QUEUES'])
        if (seen.includes(saw)) problems.push(`a command found what another left (${saw})`);
      if (run.leaks.length) problems.push(...run.leaks);
      record('kernel: /dev/shm and IPC', {
        attacksTried: 2,
        attacksHeld: problems.length === 0 ? 2 : 0,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
      expect(problems).toEqual([]);
    } finally {
      for (const file of files) rmSync(file, { force: true });
      for (const q of queues) spawnSync('ipcrm', ['-q', q]);
      await run.cleanup();
      f.cleanup();
    }
  }, 300_000);
});
