import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, SandboxSetupError, type SandboxSetup } from '../../src/sandbox/index.js';
import { accountHome, ensureUser, findRootAccess, SANDBOX_USER } from '../../src/sandbox/user.js';
import { runCommand, type CommandSandbox } from '../../src/tools/process.js';
import { planView, WRITABLE_HOME_DIRS } from '../../src/sandbox/view.js';
import { RUN_CACHE_BASE, RUN_CACHE_PREFIX } from '../../src/sandbox/run-cache.js';
import { inCi } from '../support/requirements.js';
import { createFixture, missingForSandbox, type Fixture } from './fixture.js';

// What a command sees of the machine (view.ts): an allowlist, run for real as the sandbox user. A
// unix socket listening under /run is not there (and is, with /run put back); the runner user's
// toolchain folders are there read-only, its credentials are not; real cargo and real Maven build
// offline from them; the sandbox account has a real home the JVM finds; the run's cache folder
// is kept from one command to the next. The home's cache folders (~/.cargo, ~/.m2) are written
// through a layer of the run's own: cargo fetches a git dependency and `mvn install` installs an
// artifact there, the next command finds them, and the runner's folders stay byte for byte as
// they were.

const found = missingForSandbox();
const missing = inCi() ? undefined : found;
const CARGO = '/root/.cargo';
const RUSTUP = '/root/.rustup';
const M2 = '/root/.m2/repository';
const hasCargo = existsSync(join(CARGO, 'bin', 'cargo')) && existsSync(RUSTUP);
const hasMaven =
  existsSync(M2) && spawnSync('mvn', ['-v'], { stdio: 'ignore' }).status === 0 && existsSync('/usr/bin/java');
const SECRET = `view-secret-${randomBytes(4).toString('hex')}`;
const hasGo =
  spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0 &&
  spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0;

function isolated(setup: SandboxSetup): Extract<SandboxSetup, { kind: 'isolated' }> {
  if (setup.kind !== 'isolated') throw new Error(`not isolated: ${setup.reason}`);
  return setup;
}

/** A listening unix socket anyone may connect to (0777), counting its connections. */
function listen(path: string): Promise<{ server: Server; connections: () => number }> {
  let n = 0;
  return new Promise((done, fail) => {
    const server = createServer((c) => {
      n++;
      c.end('hello from the host\n');
    });
    server.once('error', fail);
    server.listen(path, () => {
      chmodSync(path, 0o777);
      done({ server, connections: () => n });
    });
  });
}

const CONNECT = (path: string) =>
  `node -e 'const c=require("net").connect(process.argv[1]);c.on("data",d=>{process.stdout.write("got "+d);process.exit(0)});c.on("error",e=>{console.log("refused "+e.code);process.exit(0)})' ${path}; ls -A /run /var/run 2>&1 | head -5`;

describe.skipIf(missing !== undefined)('the view: a unix socket under /run', () => {
  let f: Fixture;
  const tag = randomBytes(4).toString('hex');
  const dir = `/run/pl-view-${tag}`;
  const sock = join(dir, 'bus');
  beforeAll(() => {
    f = createFixture();
    mkdirSync(dir, { mode: 0o755 });
  });
  afterAll(() => {
    f?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is not there for a command (with /run put back in the view, the same command talks to it)', async () => {
    const host = await listen(sock);
    try {
      const sh = (sandbox: CommandSandbox) =>
        runCommand({ command: CONNECT(sock), cwd: f.workspace, env: f.env, sandbox, timeoutMs: 30_000 });
      const setup = isolated(await createSandbox({ workspace: f.workspace, env: f.env }));
      try {
        const r = await sh(setup.sandbox);
        expect(r.text).toContain('refused ENOENT');
        expect(r.text).toMatch(/cannot access '\/run'/);
        expect(host.connections()).toBe(0);
      } finally {
        await setup.dispose();
      }
      const open = isolated(
        await createSandbox({ workspace: f.workspace, env: f.env, weaken: ['view'], selfCheck: false }),
      );
      try {
        const r = await sh(open.sandbox);
        expect(r.text).toContain('got hello from the host');
        expect(host.connections()).toBe(1);
      } finally {
        await open.dispose();
      }
    } finally {
      host.server.close();
    }
  }, 120_000);

  it('the self-check refuses a view that shows /run', async () => {
    await expect(createSandbox({ workspace: f.workspace, env: f.env, weaken: ['view'] })).rejects.toThrow(
      /self-check failed: the probe found: .*(outside-view \/run|run-socket-visible)/,
    );
  }, 120_000);
});

describe.skipIf(missing !== undefined)('the view: the runner user’s home', () => {
  let f: Fixture;
  let home: string;
  let setup: Extract<SandboxSetup, { kind: 'isolated' }>;
  let env: NodeJS.ProcessEnv;
  const sh = (command: string, timeoutMs = 60_000) =>
    runCommand({ command, cwd: f.workspace, env, sandbox: setup.sandbox, timeoutMs });

  beforeAll(async () => {
    f = createFixture('/var/tmp');
    // as /home/runner on GitHub's image: other users may not enter it
    home = mkdtempSync('/var/lib/pl-view-home-');
    chmodSync(home, 0o750);
    for (const [rel, text] of [
      ['.ssh/id_ed25519', SECRET],
      ['.aws/credentials', SECRET],
      ['.config/gh/hosts.yml', SECRET],
      ['.docker/config.json', SECRET],
      ['.netrc', SECRET],
      ['gha-creds-1234.json', SECRET],
      ['tools/bin/hello', '#!/bin/sh\necho hello-from-tools\n'],
      [
        '.m2/settings.xml',
        `<settings><servers><server><password>${SECRET}</password></server></servers></settings>`,
      ],
    ] as const) {
      mkdirSync(join(home, rel, '..'), { recursive: true });
      writeFileSync(join(home, rel), text, { mode: 0o755 });
    }
    if (hasCargo) {
      // cargo's own folder copied (its token planted in it); rustup's toolchains pointed at by a link
      cpSync(CARGO, join(home, '.cargo'), { recursive: true, verbatimSymlinks: true });
      writeFileSync(join(home, '.cargo', 'credentials.toml'), `[registry]\ntoken = "${SECRET}"\n`, {
        mode: 0o644,
      });
      symlinkSync(RUSTUP, join(home, '.rustup'));
    }
    env = {
      ...f.env,
      HOME: home,
      PATH: `${join(home, '.cargo', 'bin')}:${join(home, 'tools', 'bin')}:/usr/local/bin:/usr/bin:/bin`,
      PATCHLOOP_COMMAND_HOME_DIRS: 'tools',
    };
    if (hasMaven) populateM2(join(home, '.m2', 'repository'));
    // Go's module cache, as setup-go leaves it (empty here: the test fills it through the layer)
    if (hasGo) mkdirSync(join(home, 'go', 'pkg', 'mod'), { recursive: true });
    setup = isolated(await createSandbox({ workspace: f.workspace, env, privateDirs: [f.runnerTemp] }));
  }, 600_000);
  afterAll(async () => {
    await setup?.dispose();
    f?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('shows the toolchain folders read-only, at their place and under HOME; the credentials nowhere', async () => {
    const r = await sh(
      [
        `ls -A ${home}`,
        'echo --',
        'ls -A "$HOME"',
        'echo --',
        `cat ${home}/.ssh/id_ed25519 ${home}/.aws/credentials ${home}/.netrc ${home}/.config/gh/hosts.yml ${home}/.docker/config.json ${home}/gha-creds-1234.json 2>&1`,
        `cat ${home}/.m2/settings.xml ~/.m2/settings.xml`,
        hasCargo
          ? `cat ${home}/.cargo/credentials.toml ~/.cargo/credentials.toml; echo "[$(wc -c < ~/.cargo/credentials.toml)]"`
          : ':',
        `touch ${home}/tools/x ~/tools/y 2>&1`,
        'hello',
      ].join('; '),
    );
    const [atPlace, atHome] = r.text.split('--\n');
    const shown = [
      '.m2',
      'tools',
      ...(hasCargo ? ['.cargo', '.rustup'] : []),
      ...(hasGo ? ['go'] : []),
    ].sort();
    expect(atPlace!.trim().split('\n').sort()).toEqual(shown);
    expect(atHome!.trim().split('\n').sort()).toEqual(['.cache', ...shown].sort());
    expect(r.text).not.toContain(SECRET);
    expect(r.text.match(/No such file or directory/g)?.length).toBeGreaterThanOrEqual(6);
    expect(r.text).toContain('<settings/>\n<settings/>');
    if (hasCargo) expect(r.text).toContain('[0]');
    expect(r.text.match(/Read-only file system/g)).toHaveLength(2);
    expect(r.text).toContain('hello-from-tools');
  });

  it('refuses PATCHLOOP_COMMAND_HOME_DIRS naming a credentials folder, or one that holds one', async () => {
    for (const name of ['.ssh', '.config', '../etc', '/etc'])
      await expect(
        createSandbox({ workspace: f.workspace, env: { ...env, PATCHLOOP_COMMAND_HOME_DIRS: name } }),
      ).rejects.toThrow(SandboxSetupError);
  });

  it.skipIf(!hasCargo)(
    'runs cargo test offline from the home’s toolchain, ~/.rustup read-only',
    async () => {
      const crate = join(f.workspace, 'crate');
      mkdirSync(join(crate, 'src'), { recursive: true });
      writeFileSync(
        join(crate, 'Cargo.toml'),
        '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
      );
      writeFileSync(
        join(crate, 'src', 'lib.rs'),
        'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod t { #[test] fn adds() { assert_eq!(super::add(1, 2), 3); } }\n',
      );
      const r = await sh('cd crate && cargo test --offline 2>&1; touch ~/.rustup/x 2>&1', 300_000);
      expect(r.text).toContain('test result: ok. 1 passed');
      expect(r.text).toMatch(/Read-only file system/);
    },
    400_000,
  );

  it.skipIf(!hasMaven)(
    'the JVM finds a real user.home, and mvn -o test runs from the home’s ~/.m2',
    async () => {
      const props = await sh(
        'java -XshowSettings:properties -version 2>&1 | grep user.home; mvn -v 2>&1 | head -1',
      );
      expect(props.text).toContain(`user.home = ${accountHome(SANDBOX_USER)}`);
      expect(props.text).toContain('Apache Maven');
      const project = join(f.workspace, 'mvn');
      writeMavenProject(project);
      const r = await sh('cd mvn && mvn -o -q test 2>&1; ls target/surefire-reports', 300_000);
      expect(r.text).toContain('TEST-t.TTest.xml');
    },
    400_000,
  );

  it.skipIf(!hasCargo)(
    'cargo fetches a git dependency into the run’s layer of ~/.cargo; the next command builds from it; the home’s ~/.cargo is unchanged',
    async () => {
      const before = listing(join(home, '.cargo'));
      // a crate in a bare git repository in the workspace, fetched by a file:// URL (no network)
      const src = mkdtempSync(join(tmpdir(), 'pl-view-dep-'));
      const bare = join(f.workspace, 'deps', 'dep.git');
      try {
        mkdirSync(join(src, 'src'));
        writeFileSync(
          join(src, 'Cargo.toml'),
          '[package]\nname = "dep"\nversion = "0.1.0"\nedition = "2021"\n',
        );
        writeFileSync(join(src, 'src', 'lib.rs'), 'pub fn two() -> i32 { 2 }\n');
        const git = (...args: string[]) =>
          execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
            cwd: src,
            stdio: 'pipe',
          });
        git('init', '-q');
        git('add', '-A');
        git('commit', '-q', '-m', 'dep');
        execFileSync('git', ['clone', '-q', '--bare', src, bare], { stdio: 'pipe' });
      } finally {
        rmSync(src, { recursive: true, force: true });
      }
      for (const name of ['gitapp', 'gitapp2']) {
        mkdirSync(join(f.workspace, name, 'src'), { recursive: true });
        writeFileSync(
          join(f.workspace, name, 'Cargo.toml'),
          `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\ndep = { git = "file://${bare}" }\n`,
        );
        writeFileSync(
          join(f.workspace, name, 'src', 'main.rs'),
          'fn main() { println!("dep says {}", dep::two()); }\n',
        );
      }
      const first = await sh(
        'cd gitapp && CARGO_NET_OFFLINE=false cargo run -q 2>&1; echo "[${PATCHLOOP_HOME_READ_ONLY:-}]"; ls ~/.cargo/git/checkouts; ' +
          `echo planted > ~/.cargo/planted && echo planted > ${home}/.cargo/bin/planted && echo planted-ok`,
        300_000,
      );
      expect(first.text).toContain('dep says 2');
      expect(first.text).toContain('[]');
      expect(first.text).toMatch(/^dep-[0-9a-f]+$/m);
      expect(first.text).toContain('planted-ok');
      // the dependency's repository gone: the second command can only build from the run's copy
      renameSync(bare, `${bare}.gone`);
      const second = await sh(
        `cd gitapp2 && cargo run -q --offline 2>&1; cat ~/.cargo/bin/planted ${home}/.cargo/planted`,
        300_000,
      );
      expect(second.text).toContain('dep says 2');
      expect(second.text).toContain('planted\nplanted');
      // the runner's own folder: byte for byte as it was
      expect(listing(join(home, '.cargo'))).toEqual(before);
    },
    700_000,
  );

  it.skipIf(!hasMaven)(
    'mvn -o install writes its artifact into the run’s layer of ~/.m2; the next command’s build finds it; the home’s ~/.m2 is unchanged',
    async () => {
      const before = listing(join(home, '.m2'));
      writeMavenLib(join(f.workspace, 'mvnlib'));
      writeMavenApp(join(f.workspace, 'mvnapp'));
      const first = await sh(
        'cd mvnlib && mvn -o -q install 2>&1; echo "[${PATCHLOOP_HOME_READ_ONLY:-}]"; ls ~/.m2/repository/t/lib/1',
        300_000,
      );
      expect(first.text).toContain('[]');
      expect(first.text).toContain('lib-1.jar');
      const second = await sh('cd mvnapp && mvn -o -q test 2>&1; ls target/surefire-reports', 300_000);
      expect(second.text).toContain('TEST-u.UTest.xml');
      expect(listing(join(home, '.m2'))).toEqual(before);
      expect(existsSync(join(home, '.m2', 'repository', 't', 'lib'))).toBe(false);
    },
    700_000,
  );

  it.skipIf(!hasGo)(
    'go downloads a module into the run’s layer of go/pkg/mod; the next command builds from it without a proxy; the home’s go/pkg/mod is unchanged',
    async () => {
      const before = listing(join(home, 'go'));
      // a module proxy of files in the workspace (GOPROXY=file://: no network)
      const proxy = join(f.workspace, 'goproxy');
      const src = mkdtempSync(join(tmpdir(), 'pl-view-gomod-'));
      try {
        const mod = join(src, 'example.com', 'dep@v1.0.0');
        mkdirSync(mod, { recursive: true });
        writeFileSync(join(mod, 'go.mod'), 'module example.com/dep\n\ngo 1.19\n');
        writeFileSync(join(mod, 'dep.go'), 'package dep\n\nfunc Two() int { return 2 }\n');
        const at = join(proxy, 'example.com', 'dep', '@v');
        mkdirSync(at, { recursive: true });
        writeFileSync(join(at, 'list'), 'v1.0.0\n');
        writeFileSync(join(at, 'v1.0.0.info'), '{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}\n');
        writeFileSync(join(at, 'v1.0.0.mod'), 'module example.com/dep\n\ngo 1.19\n');
        execFileSync('zip', ['-qr', join(at, 'v1.0.0.zip'), 'example.com/dep@v1.0.0'], { cwd: src });
      } finally {
        rmSync(src, { recursive: true, force: true });
      }
      for (const name of ['gomod', 'gomod2']) {
        mkdirSync(join(f.workspace, name), { recursive: true });
        writeFileSync(
          join(f.workspace, name, 'go.mod'),
          `module ${name}\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n`,
        );
        writeFileSync(
          join(f.workspace, name, 'main.go'),
          'package main\n\nimport (\n\t"fmt"\n\t"example.com/dep"\n)\n\nfunc main() { fmt.Println("dep says", dep.Two()) }\n',
        );
      }
      const go = 'GOSUMDB=off GOFLAGS=-mod=mod GOTOOLCHAIN=local';
      const first = await sh(
        `cd gomod && GOPROXY=file://${proxy} ${go} go run . 2>&1; echo "[\${PATCHLOOP_HOME_READ_ONLY:-}]"; ls ${home}/go/pkg/mod/example.com`,
        300_000,
      );
      expect(first.text).toContain('dep says 2');
      expect(first.text).toContain('[]');
      expect(first.text).toMatch(/^dep@v1\.0\.0$/m);
      const second = await sh(`cd gomod2 && GOPROXY=off ${go} go run . 2>&1`, 300_000);
      expect(second.text).toContain('dep says 2');
      expect(listing(join(home, 'go'))).toEqual(before);
    },
    700_000,
  );

  it('an attack: a command rewrites and removes what the home’s caches hold; the runner’s folders, and the next run, see none of it', async () => {
    // a file of the runner's that other users may not read, in a layered folder
    mkdirSync(join(home, '.m2', 'private'), { recursive: true });
    writeFileSync(join(home, '.m2', 'private', 'key.txt'), SECRET, { mode: 0o600 });
    const before = { cargo: listing(join(home, '.cargo')), m2: listing(join(home, '.m2')) };
    const evil = isolated(await createSandbox({ workspace: f.workspace, env }));
    try {
      const r = await runCommand({
        command: [
          `echo evil > ${home}/.m2/repository/evil && echo evil > ~/.m2/settings-evil.xml`,
          `rm -rf ${home}/.m2/repository/org ~/.m2/repository/junit 2>&1`,
          hasCargo ? `echo evil > ~/.cargo/env && rm -rf ${home}/.cargo/bin 2>&1` : ':',
          `ls ~/.m2/repository; echo "[${'$'}{PATCHLOOP_HOME_READ_ONLY:-}]"`,
        ].join('; '),
        cwd: f.workspace,
        env,
        sandbox: evil.sandbox,
      });
      expect(r.text).toContain('evil');
      expect(r.text).not.toMatch(/Read-only file system|Permission denied/);
      expect(r.text).toContain('[]');
      // the credential files covered in the layered folders: neither moved, removed nor read
      const creds = await runCommand({
        command: [
          `mv ~/.m2/settings.xml ~/.m2/s.xml 2>&1; rm -f ${home}/.m2/settings.xml 2>&1; cat ~/.m2/settings.xml ${home}/.m2/settings.xml`,
          hasCargo
            ? `mv ${home}/.cargo/credentials.toml /tmp/c 2>&1; rm -f ~/.cargo/credentials.toml 2>&1; echo "[$(cat ~/.cargo/credentials.toml ${home}/.cargo/credentials.toml | wc -c)]"`
            : ':',
        ].join('; '),
        cwd: f.workspace,
        env,
        sandbox: evil.sandbox,
      });
      expect(creds.text).not.toContain(SECRET);
      // the private file: neither read nor changed through the layer, at either place
      const priv = await runCommand({
        command: `cat ~/.m2/private/key.txt 2>&1; echo x >> ${home}/.m2/private/key.txt 2>&1; cp ~/.m2/private/key.txt /tmp/k 2>&1; cat ${home}/.m2/private/key.txt 2>&1`,
        cwd: f.workspace,
        env,
        sandbox: evil.sandbox,
      });
      expect(priv.text).not.toContain(SECRET);
      expect(priv.text.match(/Permission denied/g)?.length).toBeGreaterThanOrEqual(4);
      expect(creds.text).toContain('<settings/>\n<settings/>');
      if (hasCargo) expect(creds.text).toContain('[0]');
      expect(listing(join(home, '.cargo'))).toEqual(before.cargo);
      expect(listing(join(home, '.m2'))).toEqual(before.m2);
    } finally {
      await evil.dispose();
    }
    const next = await sh(`ls ${home}/.m2/repository; cat ~/.m2/repository/evil 2>&1`);
    expect(next.text).not.toContain('evil\n');
    expect(next.text).toMatch(/No such file/);
    if (hasMaven) expect(next.text).toMatch(/^org$/m);
    expect(listing(join(home, '.cargo'))).toEqual(before.cargo);
    expect(listing(join(home, '.m2'))).toEqual(before.m2);
  }, 120_000);

  it('without the overlay’s reader (the ACL walks), the cache folders stay read-only', async () => {
    const acl = isolated(await createSandbox({ workspace: f.workspace, env, access: 'acl' }));
    try {
      const r = await runCommand({
        command: `touch ~/.m2/x ${home}/.m2/x 2>&1; echo "[\${PATCHLOOP_HOME_READ_ONLY:-}]"`,
        cwd: f.workspace,
        env,
        sandbox: acl.sandbox,
      });
      expect(r.text.match(/Read-only file system/g)).toHaveLength(2);
      expect(r.text).toContain('[]');
    } finally {
      await acl.dispose();
    }
    expect(existsSync(join(home, '.m2', 'x'))).toBe(false);
  }, 120_000);

  it('removes at set-up the cache folders of runs whose process is gone, never a running one’s', async () => {
    const stale = mkdtempSync(join(RUN_CACHE_BASE, RUN_CACHE_PREFIX));
    writeFileSync(join(stale, 'owner'), '2147483646 1\n');
    mkdirSync(join(stale, 'home', '0', 'up'), { recursive: true });
    writeFileSync(join(stale, 'home', '0', 'up', 'left'), 'x');
    const live = mkdtempSync(join(RUN_CACHE_BASE, RUN_CACHE_PREFIX));
    const stat = readFileSync('/proc/self/stat', 'latin1');
    writeFileSync(
      join(live, 'owner'),
      `${process.pid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}\n`,
    );
    try {
      const other = isolated(await createSandbox({ workspace: f.workspace, env }));
      await other.dispose();
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      rmSync(stale, { recursive: true, force: true });
      rmSync(live, { recursive: true, force: true });
    }
  }, 120_000);

  it("keeps the run's cache folder (GOCACHE) from one command to the next, not from one run to the next", async () => {
    const first = await sh('echo "$GOCACHE"; mkdir -p "$GOCACHE" && echo kept > "$GOCACHE/mark"');
    expect(first.text.split('\n')[0]).toBe('/tmp/home/.cache/go-build');
    expect((await sh('cat "$GOCACHE/mark"')).text).toBe('kept\n');
    const other = isolated(await createSandbox({ workspace: f.workspace, env }));
    const mark = `other-${randomBytes(4).toString('hex')}`;
    let folder: string | undefined;
    try {
      const r = await runCommand({
        command: `cat "$GOCACHE/mark" 2>&1; echo ${mark} > "$HOME/.cache/${mark}"`,
        cwd: f.workspace,
        env,
        sandbox: other.sandbox,
      });
      expect(r.text).toMatch(/No such file/);
      // the run's folder on the machine: the one holding what the command wrote
      folder = readdirSync(RUN_CACHE_BASE)
        .filter((n) => n.startsWith('patchloop-cache-'))
        .map((n) => join(RUN_CACHE_BASE, n))
        .find((d) => existsSync(join(d, 'cache', mark)));
      expect(folder).toBeDefined();
    } finally {
      await other.dispose();
    }
    // nothing of it is left on the machine once the run is over
    expect(existsSync(folder!)).toBe(false);
  }, 120_000);
});

describe('the view’s plan: the home’s cache folders', () => {
  it('layers ~/.cargo, ~/.m2, ~/.gradle and go/pkg/mod (each once, by its real path), never a toolchain or a named folder', () => {
    const home = mkdtempSync(join(tmpdir(), 'pl-view-plan-'));
    try {
      for (const rel of [
        '.cargo/bin',
        '.m2/repository',
        '.gradle/caches',
        'go/pkg/mod',
        '.rustup',
        'tools',
        '.sbt',
      ])
        mkdirSync(join(home, rel), { recursive: true });
      writeFileSync(join(home, '.m2', 'settings.xml'), '<settings/>');
      const plan = planView({
        workspace: join(home, 'ws'),
        home,
        commandHome: '/tmp/home',
        privateDirs: [],
        env: { PATCHLOOP_COMMAND_HOME_DIRS: 'tools' },
      });
      expect(WRITABLE_HOME_DIRS).toEqual(['.cargo', '.m2', '.gradle', 'go/pkg/mod']);
      expect(plan.layered).toEqual(['.cargo', '.m2', '.gradle', 'go/pkg/mod'].map((r) => join(home, r)));
      // each layered folder is still a bind (at its place and under HOME), its credential file still blanked
      for (const src of plan.layered!) expect(plan.binds.filter(([s]) => s === src)).toHaveLength(2);
      expect(plan.blanks).toEqual(
        expect.arrayContaining([join(home, '.m2', 'settings.xml'), '/tmp/home/.m2/settings.xml']),
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe.skipIf(missing !== undefined)('the sandbox account', () => {
  // another account than the sandbox's own, which other tests' commands may be using meanwhile
  const user = `pl-view-${randomBytes(3).toString('hex')}`;
  afterAll(() => {
    spawnSync('userdel', [user], { stdio: 'ignore' });
    rmSync(join('/var/lib', user), { recursive: true, force: true });
  });

  it('has a real home of its own (0700), and an account left with /nonexistent is moved to it', async () => {
    const root = await findRootAccess();
    if (typeof root === 'string') throw new Error(root);
    // as an earlier version made it
    execFileSync('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      user,
    ]);
    const account = await ensureUser(root, user);
    expect(account.home).toBe(accountHome(user));
    expect(execFileSync('getent', ['passwd', user], { encoding: 'utf8' }).split(':')[5]).toBe(
      accountHome(user),
    );
    const st = statSync(accountHome(user));
    expect(st.mode & 0o777).toBe(0o700);
    expect(st.uid).toBe(account.uid);
  });
});

/** A local ~/.m2 filled once, offline, from the machine's own: that repository served as a file:// mirror. */
function populateM2(repo: string): void {
  const work = mkdtempSync(join(tmpdir(), 'pl-view-m2-'));
  try {
    writeMavenProject(work);
    const settings = join(work, 'settings.xml');
    writeFileSync(
      settings,
      `<settings><mirrors><mirror><id>central</id><mirrorOf>*</mirrorOf><url>file://${M2}</url></mirror></mirrors></settings>`,
    );
    execFileSync('mvn', ['-q', '-s', settings, `-Dmaven.repo.local=${repo}`, 'install'], {
      cwd: work,
      stdio: 'pipe',
      timeout: 400_000,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const plugin = (a: string, v: string) =>
  `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${a}</artifactId><version>${v}</version></plugin>`;
const PLUGINS = `${plugin('maven-resources-plugin', '3.3.1')}${plugin('maven-compiler-plugin', '3.13.0')}${plugin('maven-surefire-plugin', '3.2.5')}${plugin('maven-jar-plugin', '3.4.1')}${plugin('maven-install-plugin', '3.1.2')}`;
const JUNIT =
  '<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency>';

function pom(group: string, artifact: string, dependencies: string): string {
  return `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>1</version>
<properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
<dependencies>${dependencies}</dependencies>
<build><plugins>${PLUGINS}</plugins></build>
</project>\n`;
}

/** A library t:lib:1, installed by `mvn install`. */
function writeMavenLib(dir: string): void {
  mkdirSync(join(dir, 'src', 'main', 'java', 't'), { recursive: true });
  writeFileSync(join(dir, 'pom.xml'), pom('t', 'lib', ''));
  writeFileSync(
    join(dir, 'src', 'main', 'java', 't', 'Lib.java'),
    'package t;\npublic class Lib { public static int two() { return 2; } }\n',
  );
}

/** A project whose test needs t:lib:1 from the local repository. */
function writeMavenApp(dir: string): void {
  mkdirSync(join(dir, 'src', 'test', 'java', 'u'), { recursive: true });
  writeFileSync(
    join(dir, 'pom.xml'),
    pom(
      'u',
      'app',
      `<dependency><groupId>t</groupId><artifactId>lib</artifactId><version>1</version></dependency>${JUNIT}`,
    ),
  );
  writeFileSync(
    join(dir, 'src', 'test', 'java', 'u', 'UTest.java'),
    'package u;\npublic class UTest { @org.junit.jupiter.api.Test public void two() { org.junit.jupiter.api.Assertions.assertEquals(2, t.Lib.two()); } }\n',
  );
}

/** Every path below `dir` with its type, mode, size and content (a file's sha256, a link's target), in order. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const p = rel ? join(dir, rel) : dir;
    const st = lstatSync(p);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out.push(`${rel} l ${mode} -> ${readlinkSync(p)}`);
    else if (st.isFile())
      out.push(
        `${rel} f ${mode} ${st.size} ${st.mtimeMs} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`,
      );
    else if (st.isDirectory()) {
      out.push(`${rel} d ${mode} ${st.uid}:${st.gid} ${st.mtimeMs}`);
      for (const n of readdirSync(p).sort()) walk(rel ? join(rel, n) : n);
    } else out.push(`${rel} ? ${mode}`);
  };
  walk('');
  return out;
}

function writeMavenProject(dir: string): void {
  mkdirSync(join(dir, 'src', 'test', 'java', 't'), { recursive: true });
  writeFileSync(
    join(dir, 'pom.xml'),
    `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>t</groupId><artifactId>t</artifactId><version>1</version>
<properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
<dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency></dependencies>
<build><plugins>${PLUGINS}</plugins></build>
</project>\n`,
  );
  writeFileSync(
    join(dir, 'src', 'test', 'java', 't', 'TTest.java'),
    'package t;\npublic class TTest { @org.junit.jupiter.api.Test public void adds() { org.junit.jupiter.api.Assertions.assertEquals(2, 1 + 1); } }\n',
  );
}
