import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type SandboxSetup } from '../../src/sandbox/index.js';
import { runCommand, type CommandSandbox } from '../../src/tools/process.js';
import { inCi } from '../support/requirements.js';
import { createFixture, missingForSandbox, type Fixture } from './fixture.js';

// What commands leave in the kernel and in the machine's shared folders, run for real as the
// sandbox user: a System V message queue, a file in /run/lock (not in the view at all), a key in
// the sandbox user's own keyring, a change to a world-writable tool folder (read-only in the view). With the defences, nothing passes from one
// command to the next or to the machine; with them left out (the `weaken` switches), all of it does.

const missing = inCi() ? undefined : missingForSandbox();

function isolated(setup: SandboxSetup): Extract<SandboxSetup, { kind: 'isolated' }> {
  if (setup.kind !== 'isolated') throw new Error(`not isolated: ${setup.reason}`);
  return setup;
}

/** Message queues of the machine's own IPC namespace made by `uid`, as `msqid` strings. */
function queuesOf(uid: number): string[] {
  return readFileSync('/proc/sysvipc/msg', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length > 7 && Number(c[7]) === uid)
    .map((c) => c[1]!);
}

describe.skipIf(missing !== undefined)('kernel state and shared folders', () => {
  const tag = randomBytes(4).toString('hex');
  const lockFile = `/run/lock/pl-kernel-${tag}`;
  const hostLock = `/run/lock/pl-host-${tag}`;
  // a tool cache as the hosted runner image makes it: 0777, not sticky
  const tools = `/opt/pl-tools-${tag}`;
  let f: Fixture;
  let uid: number;
  let hostQueue: string;
  beforeAll(() => {
    f = createFixture();
    uid = Number(execFileSync('id', ['-u', 'patchloop-sandbox'], { encoding: 'utf8' }).trim());
    mkdirSync(tools);
    chmodSync(tools, 0o777);
    writeFileSync(join(tools, 'tool.sh'), 'echo tool-ran\n', { mode: 0o755 });
    writeFileSync(hostLock, 'host-lock\n', { mode: 0o644 });
    hostQueue = /(\d+)\s*$/.exec(execFileSync('ipcmk', ['-Q', '-p', '0644'], { encoding: 'utf8' }))![1]!;
  });
  afterAll(() => {
    f?.cleanup();
    rmSync(tools, { recursive: true, force: true });
    rmSync(lockFile, { force: true });
    rmSync(hostLock, { force: true });
    for (const q of [hostQueue, ...queuesOf(uid)]) spawnSync('ipcrm', ['-q', q]);
  });

  const sh = (sandbox: CommandSandbox, command: string) =>
    runCommand({ command, cwd: f.workspace, env: f.env, sandbox, timeoutMs: 20_000 });

  // one command leaves what it can; the next looks for it; the machine is searched after both
  const leave = [
    `echo left > ${lockFile} && echo lock-written`,
    'ipcmk -Q -p 0666 >/dev/null && echo queue-made',
    `keyctl add user pl-u-${tag} carried @u >/dev/null && echo key-added`,
    `rm -f ${tools}/tool.sh && echo changed > ${tools}/tool.sh && echo tool-changed`,
    `cat ${hostLock} 2>/dev/null`,
    'wc -l < /proc/sysvipc/msg',
    `sh ${tools}/tool.sh`,
  ].join('; ');
  // a later command of the same user may link its user keyring into a session of its own and read it all
  const look = `keyctl new_session >/dev/null; keyctl link @u @s; keyctl print %user:pl-u-${tag} 2>/dev/null; ls /run/lock 2>/dev/null; wc -l < /proc/sysvipc/msg`;

  it('keeps them apart: nothing a command leaves there reaches the machine or the next command', async () => {
    const setup = isolated(await createSandbox({ workspace: f.workspace, env: f.env }));
    try {
      expect(setup.reason).toMatch(/own System V IPC and host name, a session keyring of their own/);
      const r = await sh(setup.sandbox, leave);
      // /run is not in the view; the IPC namespace is the command's own; the tool folder is read-only
      expect(r.text).not.toContain('lock-written');
      expect(r.text).toContain('queue-made');
      expect(r.text).toContain('key-added');
      expect(r.text).not.toContain('tool-changed');
      expect(r.text).toMatch(/Read-only file system/);
      expect(r.text).toContain('tool-ran');
      expect(r.text).not.toContain('host-lock');
      // the header line and the command's own queue: the machine's queue is not there
      expect(r.text).toMatch(/^2$/m);
      expect(existsSync(lockFile)).toBe(false);
      expect(queuesOf(uid)).toEqual([]);
      expect(readFileSync(join(tools, 'tool.sh'), 'utf8')).toBe('echo tool-ran\n');
      const next = await sh(setup.sandbox, look);
      expect(next.text).not.toContain('carried');
      expect(next.text.trim()).toBe('1');
    } finally {
      await setup.dispose();
    }
  });

  it('with the defences left out, the same commands reach the machine and the next command', async () => {
    const setup = isolated(
      await createSandbox({
        workspace: f.workspace,
        env: f.env,
        weaken: ['keyring', 'ipc-uts', 'view'],
        selfCheck: false,
      }),
    );
    try {
      const r = await sh(setup.sandbox, leave);
      // /run put back in the view (read-only): the machine's lock file is there to read
      expect(r.text).toContain('host-lock');
      expect(queuesOf(uid)).toHaveLength(1);
      // every defended command of the sandbox user empties its keyrings, and other test files run
      // such commands meanwhile: the key must get through at least once in a few tries
      let carried = (await sh(setup.sandbox, look)).text.includes('carried');
      for (let i = 0; i < 5 && !carried; i++) {
        await sh(setup.sandbox, `keyctl add user pl-u-${tag} carried @u >/dev/null`);
        carried = (await sh(setup.sandbox, look)).text.includes('carried');
      }
      expect(carried).toBe(true);
    } finally {
      await setup.dispose();
    }
  }, 120_000);

  for (const [weak, said] of [
    ['ipc-uts', /the probe shares patchloop's System V IPC namespace/],
    ['view', /the probe found: .*(outside-view \/run|run-socket-visible|shared-visible \/run\/lock)/],
  ] as const)
    it(`the self-check refuses a sandbox without its ${weak} defence`, async () => {
      await expect(createSandbox({ workspace: f.workspace, env: f.env, weaken: [weak] })).rejects.toThrow(
        said,
      );
    });
});
