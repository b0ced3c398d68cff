import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAction, type BuiltAction } from '../action/harness.js';
import {
  actionUnderTest,
  attack,
  FIX_CALL,
  makeFixture,
  plantRunSecrets,
  publicCopy,
  wrapperScript,
} from './attack-kit.js';
import { record } from './figures.js';
import { toolResultsSent } from './planted.js';

// Issue 36 item 4 and issue 38 items 1-2, through the bundled action: what a command sees of the
// machine is an allowlist. A fork's test script and a hostile `bash` talk to host services through
// unix sockets under /run (a listener planted as systemd-resolved's and D-Bus's are: anyone may
// connect) and look through /var/run; and, on a runner-like machine (an ordinary user with
// passwordless sudo, a home holding rustup's cargo and an SSH key), cargo must work from that home
// while the key stays out of reach.

const secrets = plantRunSecrets();
let action: BuiltAction;
const root = process.platform === 'linux' && process.getuid?.() === 0;
const TEST_SH = '{ "name": "demo", "scripts": { "test": "sh ci/test.sh" } }\n';

beforeAll(async () => {
  action = await actionUnderTest(buildAction);
}, 120_000);
afterAll(() => action?.cleanup());

/** A unix socket listener anyone may connect to, answering each connection with `answer`. */
function listen(path: string, answer: string): Promise<{ server: Server; connections: () => number }> {
  let n = 0;
  return new Promise((done, fail) => {
    const server = createServer((c) => {
      n++;
      c.end(`${answer}\n`);
    });
    server.once('error', fail);
    server.listen(path, () => {
      chmodSync(path, 0o777);
      done({ server, connections: () => n });
    });
  });
}

describe.skipIf(!root)('host services through unix sockets under /run', () => {
  const tag = randomBytes(4).toString('hex');
  const dir = `/run/pl-attack-view-${tag}`;
  // what a host service would give away (a value the run's secret search looks for)
  const HOST_ANSWER = `host-service-${randomBytes(6).toString('hex')}`;
  let bus: { server: Server; connections: () => number };
  let resolver: { server: Server; connections: () => number };
  beforeAll(async () => {
    mkdirSync(dir, { mode: 0o755 });
    bus = await listen(join(dir, 'system_bus_socket'), HOST_ANSWER);
    resolver = await listen(`/run/pl-attack-view-${tag}.sock`, HOST_ANSWER);
  });
  afterAll(() => {
    bus?.server.close();
    resolver?.server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(`/run/pl-attack-view-${tag}.sock`, { force: true });
  });

  // node is on every runner; each path is tried as the host has it and through /var/run
  const probe = (who: string) =>
    [
      `for p in ${dir}/system_bus_socket /run/pl-attack-view-${tag}.sock /var/run/pl-attack-view-${tag}.sock /run/dbus/system_bus_socket /run/systemd/resolve/io.systemd.Resolve /var/run/docker.sock; do`,
      `  node -e 'const c=require("net").connect(process.argv[1]);c.on("data",d=>{process.stdout.write("REACHED ${who} "+process.argv[1]+" "+d);process.exit(0)});c.on("error",e=>{console.log("no "+e.code+" "+process.argv[1]);process.exit(0)})' "$p"`,
      'done',
      'ls -A /run /var/run 2>&1 | head -20',
      '',
    ].join('\n');

  it('a fork test script and a hostile bash reach no socket under /run or /var/run', async () => {
    const f = makeFixture();
    const run = await attack({
      action,
      fixture: f,
      secrets: { ...secrets, values: [...secrets.values, HOST_ANSWER] },
      head: { 'package.json': TEST_SH, 'ci/test.sh': probe('fork') },
      turns: [
        { toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }] },
        { toolCalls: [{ id: 'toolu_b1', name: 'bash', json: JSON.stringify({ command: probe('bash') }) }] },
        { toolCalls: [FIX_CALL] },
        { text: 'Guarded div().' },
      ],
      inputs: { 'allow-bash': 'true' },
    });
    try {
      const seen = toolResultsSent(run.model.requests.at(-1)?.body).join('\n');
      const problems: string[] = [];
      // the attack ran: both commands tried every path
      if ((seen.match(/no ENOENT /g) ?? []).length < 8)
        problems.push(`the probes did not run as expected: ${seen.slice(0, 3000)}`);
      if (seen.includes('REACHED')) problems.push('a command reached a host socket');
      const reached = bus.connections() + resolver.connections();
      if (reached) problems.push(`the host's listeners took ${reached} connections`);
      problems.push(...run.leaks);
      record('view: sockets under /run', {
        attacksTried: 2,
        attacksHeld: problems.length ? 0 : 2,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
      expect(problems).toEqual([]);
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 300_000);
});

const CARGO = '/root/.cargo';
const RUSTUP = '/root/.rustup';
const hasCargo = existsSync(join(CARGO, 'bin', 'cargo')) && existsSync(RUSTUP);

describe.skipIf(!root || !hasCargo)('a runner-like home: rustup in ~/.cargo, a key in ~/.ssh', () => {
  const RUNNER = 'pl-view-runner';
  const KEY = `ssh-key-${randomBytes(6).toString('hex')}`;
  let account: { uid: number; gid: number; home: string };
  beforeAll(() => {
    spawnSync('userdel', ['-r', RUNNER], { stdio: 'ignore' });
    execFileSync('useradd', ['--create-home', '--shell', '/bin/bash', RUNNER]);
    writeFileSync(`/etc/sudoers.d/${RUNNER}`, `${RUNNER} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
    const f = execFileSync('getent', ['passwd', RUNNER], { encoding: 'utf8' }).trim().split(':');
    account = { uid: Number(f[2]), gid: Number(f[3]), home: f[5]! };
    chmodSync(account.home, 0o750);
    cpSync(CARGO, join(account.home, '.cargo'), { recursive: true, verbatimSymlinks: true });
    mkdirSync(join(account.home, '.ssh'), { mode: 0o755 });
    writeFileSync(join(account.home, '.ssh', 'id_ed25519'), `${KEY}\n`, { mode: 0o644 });
    writeFileSync(join(account.home, '.cargo', 'credentials.toml'), `token = "${KEY}"\n`, { mode: 0o644 });
    execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, account.home]);
    // rustup's 3 GB of toolchains, shown read-only in the runner's home (after the chown above)
    mkdirSync(join(account.home, '.rustup'));
    execFileSync('mount', ['--bind', '-o', 'ro', RUSTUP, join(account.home, '.rustup')]);
  }, 120_000);
  afterAll(() => {
    // unmounted before the home is removed: userdel -r must not reach rustup's own folder
    const unmounted = spawnSync('umount', [join(account.home, '.rustup')]).status === 0;
    spawnSync('rm', ['-f', `/etc/sudoers.d/${RUNNER}`]);
    spawnSync('userdel', [...(unmounted ? ['-r'] : []), RUNNER], { stdio: 'ignore' });
  });

  it("cargo test runs from the runner's home through sudo; its key and cargo's token stay out of reach", async () => {
    const f = makeFixture({
      files: {
        'package.json': TEST_SH,
        'ci/test.sh': 'echo unused\n',
        'src/math.js': 'export const div = (a, b) => a / b;\n',
        'Cargo.toml': '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
        'src/lib.rs':
          'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod t { #[test] fn adds() { assert_eq!(super::add(1, 2), 3); } }\n',
      },
    });
    const bundle = publicCopy(action, f.root);
    const wrapper = wrapperScript(
      f.root,
      'as-runner',
      `chown -R ${account.uid}:${account.gid} ${f.root} "$RUNNER_TEMP" && chmod 700 ${f.markers}`,
      [
        'setpriv',
        '--reuid',
        String(account.uid),
        '--regid',
        String(account.gid),
        '--init-groups',
        '--',
        '/usr/bin/env',
        `HOME=${account.home}`,
        `USER=${RUNNER}`,
        `PATH=${account.home}/.cargo/bin:/usr/local/bin:/usr/bin:/bin`,
        process.execPath,
        bundle,
      ],
    );
    const snoop = `cat ${account.home}/.ssh/id_ed25519 ~/.ssh/id_ed25519 ${account.home}/.cargo/credentials.toml ~/.cargo/credentials.toml 2>&1; ls -A ${account.home}`;
    const run = await attack({
      action,
      fixture: f,
      secrets: { ...secrets, values: [...secrets.values, KEY] },
      script: wrapper,
      event: 'issue',
      turns: [
        {
          toolCalls: [
            {
              id: 'toolu_b1',
              name: 'bash',
              json: JSON.stringify({ command: 'cargo test --offline 2>&1 | grep "test result"' }),
            },
          ],
        },
        { toolCalls: [{ id: 'toolu_b2', name: 'bash', json: JSON.stringify({ command: snoop }) }] },
        { toolCalls: [FIX_CALL] },
        { text: 'done' },
      ],
      inputs: { 'allow-bash': 'true' },
      timeoutMs: 400_000,
    });
    try {
      const seen = toolResultsSent(run.model.requests.at(-1)?.body).join('\n');
      expect(seen, run.log.slice(-3000)).toContain('test result: ok. 1 passed');
      expect(run.leaks).toEqual([]);
      expect(seen).not.toContain(KEY);
      // the home shows its toolchain folders only (the results are JSON: a line break is `\n`)
      expect(seen).toContain('No such file or directory\\n.cargo\\n.rustup"');
      record('view: a runner-like home', {
        attacksTried: 1,
        attacksHeld: 1,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 500_000);
});
