import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inCi } from '../support/requirements.js';
import { createSandbox, SANDBOX_USER, type Defence, type SandboxSetup } from '../../src/sandbox/index.js';
import { overlaySyscalls, PERL_FLAGS, PREP_STEP, prepArgs } from '../../src/sandbox/overlay.js';
import { runCommand } from '../../src/tools/process.js';
import { createFixture, missingForSandbox, type Fixture } from './fixture.js';

// The overlay access method (src/sandbox/overlay.ts): commands write into a layer of patchloop's
// own, which is moved into the checkout when each command has ended; nothing of the checkout is
// changed to let them in. What the move must reproduce, what it must never do (write a store file
// linked in, open a private file or folder), and the defences' switches that show each test can fail.

const found = missingForSandbox();
if (found && !inCi()) console.warn(`skipping the overlay tests: ${found}`);
const missing = inCi() ? undefined : found;
if (found !== undefined && inCi())
  it('has what the overlay tests need (CI=true: they must not be skipped)', () => {
    throw new Error(found);
  });

type Isolated = Extract<SandboxSetup, { kind: 'isolated' }>;

async function overlaySandbox(f: Fixture, weaken: Defence[] = [], covers = false): Promise<Isolated> {
  const setup = await createSandbox({
    workspace: f.workspace,
    env: f.env,
    privateDirs: [f.runnerTemp],
    access: 'overlay',
    overlayCovers: covers,
    weaken,
    selfCheck: weaken.length === 0,
  });
  if (setup.kind !== 'isolated') throw new Error(`not isolated: ${setup.reason}`);
  expect(setup.reason).toContain('overlay');
  return setup;
}

const run = (setup: Isolated, f: Fixture, command: string) =>
  runCommand({ command, cwd: f.workspace, env: f.env, sandbox: setup.sandbox, timeoutMs: 30_000 });

const ctime = (p: string) => lstatSync(p).ctimeMs;

/** A file of the given mode whatever the umask (a checkout's owner-only file). */
const writePrivate = (path: string, text: string, mode = 0o600) => {
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
};

describe.skipIf(missing !== undefined)('the overlay access method', () => {
  let f: Fixture | undefined;
  let setup: Isolated | undefined;
  // one fixture and sandbox at a time: each loop below runs with its defence on, then off
  const closeRound = async () => {
    await setup?.dispose();
    setup = undefined;
    f?.cleanup();
    f = undefined;
  };
  afterEach(closeRound);

  it('puts what a command wrote into the checkout before its result is read, owned by the checkout’s owner', async () => {
    f = createFixture();
    const ws = f.workspace;
    mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
    mkdirSync(join(ws, 'gone', 'inner'), { recursive: true });
    mkdirSync(join(ws, 'remade'));
    mkdirSync(join(ws, 'moved'));
    writeFileSync(join(ws, 'src', 'a.js'), 'a\n');
    writeFileSync(join(ws, 'src', 'deep', 'b.js'), 'b\n');
    writeFileSync(join(ws, 'gone', 'inner', 'x'), 'x\n');
    writeFileSync(join(ws, 'remade', 'old'), 'old\n');
    writeFileSync(join(ws, 'moved', 'm'), 'm\n');
    writeFileSync(join(ws, 'to-dir'), 'file\n');
    writeFileSync(join(ws, 'untouched.md'), 'same\n');
    const untouched = ctime(join(ws, 'untouched.md'));
    setup = await overlaySandbox(f);
    const r = await run(
      setup,
      f,
      [
        'echo more >> src/a.js',
        'echo new > src/new.js',
        'rm src/deep/b.js',
        'rm -rf gone',
        'rm -rf remade && mkdir remade && echo fresh > remade/new',
        'mv moved renamed',
        'rm to-dir && mkdir to-dir && echo in > to-dir/f',
        'ln -s src/a.js link.js',
        'printf "#!/bin/sh\\n" > tool.sh && chmod 4755 tool.sh',
        'mkfifo pipe',
        'mkdir -p build/out && echo o > build/out/o.txt',
        `setfacl -m u:${SANDBOX_USER}:rw src/new.js`,
        'echo ok',
      ].join(' && '),
    );
    expect(r.text).toBe('ok\n');
    expect(r.workspaceNote).toBeUndefined();
    expect(readFileSync(join(ws, 'src', 'a.js'), 'utf8')).toBe('a\nmore\n');
    expect(readFileSync(join(ws, 'src', 'new.js'), 'utf8')).toBe('new\n');
    expect(existsSync(join(ws, 'src', 'deep', 'b.js'))).toBe(false);
    expect(existsSync(join(ws, 'src', 'deep'))).toBe(true);
    expect(existsSync(join(ws, 'gone'))).toBe(false);
    // removed and made again: what it held before is gone
    expect(spawnSync('ls', [join(ws, 'remade')], { encoding: 'utf8' }).stdout).toBe('new\n');
    // a folder of the checkout renamed (mv copies it: rename(2) says EXDEV in the overlay)
    expect(existsSync(join(ws, 'moved'))).toBe(false);
    expect(readFileSync(join(ws, 'renamed', 'm'), 'utf8')).toBe('m\n');
    expect(readFileSync(join(ws, 'to-dir', 'f'), 'utf8')).toBe('in\n');
    expect(readlinkSync(join(ws, 'link.js'))).toBe('src/a.js');
    expect(lstatSync(join(ws, 'pipe')).isFIFO()).toBe(true);
    expect(readFileSync(join(ws, 'build', 'out', 'o.txt'), 'utf8')).toBe('o\n');
    const owner = lstatSync(ws);
    for (const p of [
      'src/a.js',
      'src/new.js',
      'renamed',
      'renamed/m',
      'tool.sh',
      'link.js',
      'build/out/o.txt',
    ]) {
      const st = lstatSync(join(ws, p));
      expect([st.uid, st.gid], p).toEqual([owner.uid, owner.gid]);
    }
    // nor an ACL entry the command gave its file
    expect(
      spawnSync('getfacl', ['-c', join(ws, 'src', 'new.js')], { encoding: 'utf8' }).stdout,
    ).not.toContain(SANDBOX_USER);
    // no setuid bit comes in with a command's file
    expect(lstatSync(join(ws, 'tool.sh')).mode & 0o7777).toBe(0o755);
    // nothing the command left alone was written: no new ctime for git to re-read it
    expect(ctime(join(ws, 'untouched.md'))).toBe(untouched);
    // the next command sees the checkout as the file tools left it
    writeFileSync(join(ws, 'src', 'tool.js'), 'tool\n');
    const again = await run(setup, f, 'cat src/tool.js src/a.js && rm src/tool.js && echo done');
    expect(again.text).toBe('tool\na\nmore\ndone\n');
    expect(existsSync(join(ws, 'src', 'tool.js'))).toBe(false);
  });

  // claim 10: a package store's file linked into node_modules is copied up before it is written
  it('never writes a store file linked into the checkout; the checkout’s name gets a file of its own (fails with overlay-in-place)', async () => {
    for (const weaken of [[], ['overlay-in-place']] as Defence[][]) {
      f = createFixture();
      const store = mkdtempSync(join(f.home, 'store-'));
      writeFileSync(join(store, 'index.js'), 'store\n', { mode: 0o644 });
      mkdirSync(join(f.workspace, 'node_modules', 'pkg'), { recursive: true });
      linkSync(join(store, 'index.js'), join(f.workspace, 'node_modules', 'pkg', 'index.js'));
      setup = await overlaySandbox(f, weaken);
      const r = await run(setup, f, 'echo "planted()" >> node_modules/pkg/index.js && echo ok');
      expect(r.text).toBe('ok\n');
      const storeText = readFileSync(join(store, 'index.js'), 'utf8');
      if (weaken.length) {
        expect(storeText).toContain('planted()');
      } else {
        expect(storeText).toBe('store\n');
        expect(readFileSync(join(f.workspace, 'node_modules', 'pkg', 'index.js'), 'utf8')).toBe(
          'store\nplanted()\n',
        );
        expect(lstatSync(join(store, 'index.js')).nlink).toBe(1);
      }
      await closeRound();
    }
  });

  // claims 11 and 16: the idmap shows the checkout's owner as the sandbox user, so a file others may
  // not read and a folder others may not enter would be the command's to open: the reader's overlay
  // opens the lower layer with others' rights only (or, where it cannot be stacked, each is covered)
  it.each([
    ['the reader’s overlay', false],
    ['covered paths', true],
  ])(
    'keeps an owner-only file and folder shut with %s: not read, renamed, removed, replaced or linked (fails with cover-private)',
    async (_, covers) => {
      for (const weaken of [[], ['cover-private']] as Defence[][]) {
        f = createFixture();
        const ws = f.workspace;
        writePrivate(join(ws, 'gha-creds-abc.json'), 'cloud-key-1e2f\n', 0o640);
        mkdirSync(join(ws, '.gcloud'));
        chmodSync(join(ws, '.gcloud'), 0o700);
        writeFileSync(join(ws, '.gcloud', 'token.json'), 'folder-token-9a8b\n', { mode: 0o644 });
        // deeper down too: at the second level (where the walk is split) and below it
        mkdirSync(join(ws, 'node_modules', '.cache', 'deep'), { recursive: true });
        writePrivate(join(ws, 'node_modules', '.cache', 'deep', 'npmrc'), 'deep-token-5c6d\n');
        mkdirSync(join(ws, 'vendor', 'keys'), { recursive: true });
        writeFileSync(join(ws, 'vendor', 'keys', 'id'), 'level-two-7e8f\n', { mode: 0o644 });
        chmodSync(join(ws, 'vendor', 'keys'), 0o700);
        setup = await overlaySandbox(f, weaken, covers);
        const r = await run(
          setup,
          f,
          [
            'cat gha-creds-abc.json .gcloud/token.json node_modules/.cache/deep/npmrc vendor/keys/id',
            'mv gha-creds-abc.json creds-leak.txt',
            'mv .gcloud exposed',
            'ln gha-creds-abc.json hard-leak',
            'cat creds-leak.txt exposed/token.json hard-leak',
            'rm -rf .gcloud gha-creds-abc.json',
            'echo end',
          ].join('; '),
        );
        expect(r.text).toContain('end');
        if (weaken.length) {
          expect(r.text).toContain('cloud-key-1e2f');
          expect(r.text).toContain('deep-token-5c6d');
          expect(r.text).toContain('level-two-7e8f');
        } else {
          expect(r.text).not.toContain('cloud-key-1e2f');
          expect(r.text).not.toContain('folder-token-9a8b');
          expect(r.text).not.toContain('deep-token-5c6d');
          expect(r.text).not.toContain('level-two-7e8f');
          // both are still where they were, as they were
          expect(readFileSync(join(ws, 'gha-creds-abc.json'), 'utf8')).toBe('cloud-key-1e2f\n');
          expect(readFileSync(join(ws, '.gcloud', 'token.json'), 'utf8')).toBe('folder-token-9a8b\n');
          expect(lstatSync(join(ws, 'gha-creds-abc.json')).mode & 0o777).toBe(0o640);
          for (const leak of ['creds-leak.txt', 'hard-leak', 'exposed/token.json'])
            expect(existsSync(join(ws, leak)) ? readFileSync(join(ws, leak), 'utf8') : '', leak).not.toMatch(
              /cloud-key|folder-token/,
            );
        }
        await closeRound();
      }
    },
  );

  // claim 30b: no command could read them, so none may remove them or put its own in their place
  // (an earlier step's credentials swapped for the attacker's, which a later step would then use)
  it('never removes or replaces a private file or folder of the checkout (fails with apply-replaces-private)', async () => {
    for (const weaken of [[], ['apply-replaces-private']] as Defence[][]) {
      f = createFixture();
      const ws = f.workspace;
      writePrivate(join(ws, 'gha-creds-abc.json'), 'cloud-key-1e2f\n');
      // a folder the command may list, holding a file it may not read: it can remove both
      mkdirSync(join(ws, 'keys'));
      writePrivate(join(ws, 'keys', 'id'), 'ssh-key-3c4d\n');
      writeFileSync(join(ws, 'keys', 'pub.txt'), 'public\n');
      writePrivate(join(ws, 'token'), 'token-5e6f\n');
      setup = await overlaySandbox(f, weaken);
      const r = await run(
        setup,
        f,
        [
          'rm -f gha-creds-abc.json && echo \'{"attacker":1}\' > gha-creds-abc.json',
          'rm -rf keys',
          'echo mine > other && mv -f other token',
          'echo ok',
        ].join(' && '),
      );
      expect(r.text).toBe('ok\n');
      if (weaken.length) {
        expect(readFileSync(join(ws, 'gha-creds-abc.json'), 'utf8')).toContain('attacker');
        expect(existsSync(join(ws, 'keys'))).toBe(false);
        expect(readFileSync(join(ws, 'token'), 'utf8')).toBe('mine\n');
      } else {
        expect(readFileSync(join(ws, 'gha-creds-abc.json'), 'utf8')).toBe('cloud-key-1e2f\n');
        expect(readFileSync(join(ws, 'keys', 'id'), 'utf8')).toBe('ssh-key-3c4d\n');
        expect(readFileSync(join(ws, 'token'), 'utf8')).toBe('token-5e6f\n');
        // what could go went: the public file beside the private one
        expect(existsSync(join(ws, 'keys', 'pub.txt'))).toBe(false);
        expect(r.workspaceNote).toMatch(/gha-creds-abc\.json: a private path: left in place/);
        expect(r.workspaceNote).toMatch(/keys: is or holds a private path: left in place/);
      }
      await closeRound();
    }
  });

  // issue 38: coverage tools write owner-only files (c8: 0600). What an earlier command of the run
  // made is the run's own (the move keeps a record of it, by inode and name), so a later command
  // may remove or replace it; an earlier step's private file stays out of reach (claim 30b).
  it('lets a command remove and write again what an earlier command made owner-only (c8 twice), while an earlier step’s private file stays (fails with the record removed)', async () => {
    for (const forget of [false, true]) {
      f = createFixture();
      const ws = f.workspace;
      writePrivate(join(ws, 'gha-creds-abc.json'), 'cloud-key-1e2f\n');
      // the layers and the record in a temp folder of the test's own, to find the record in
      const temp = mkdtempSync('/tmp/pl-layers-');
      const was = process.env.TMPDIR;
      process.env.TMPDIR = temp;
      try {
        setup = await overlaySandbox(f);
      } finally {
        if (was === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = was;
      }
      const c8 = (n: number) =>
        `rm -rf coverage && mkdir -p coverage/tmp && (umask 077; echo run${n} > coverage/x.json; echo t${n} > coverage/tmp/cov-${n}.json) && echo ok`;
      const first = await run(setup, f, c8(1));
      expect(first.text).toBe('ok\n');
      expect(first.workspaceNote).toBeUndefined();
      expect(lstatSync(join(ws, 'coverage', 'x.json')).mode & 0o777).toBe(0o600);
      const state = join(temp, readdirSync(temp)[0]!);
      expect(existsSync(join(state, 'own'))).toBe(true);
      if (forget) rmSync(join(state, 'own'));
      const second = await run(setup, f, c8(2));
      expect(second.text).toBe('ok\n');
      if (forget) {
        expect(second.workspaceNote).toMatch(/coverage\/x\.json: a private path: left in place/);
        expect(readFileSync(join(ws, 'coverage', 'x.json'), 'utf8')).toBe('run1\n');
      } else {
        expect(second.workspaceNote).toBeUndefined();
        expect(readFileSync(join(ws, 'coverage', 'x.json'), 'utf8')).toBe('run2\n');
        // no stale file of the first run
        expect(readdirSync(join(ws, 'coverage', 'tmp'))).toEqual(['cov-2.json']);
        // a third, replacing by rename, and the earlier step's file, which no command may swap
        const third = await run(
          setup,
          f,
          '(umask 077; echo run3 > y && mv -f y coverage/x.json); rm -f gha-creds-abc.json; echo mine > gha-creds-abc.json; echo ok',
        );
        expect(third.text).toBe('ok\n');
        expect(readFileSync(join(ws, 'coverage', 'x.json'), 'utf8')).toBe('run3\n');
        expect(readFileSync(join(ws, 'gha-creds-abc.json'), 'utf8')).toBe('cloud-key-1e2f\n');
        expect(third.workspaceNote).toMatch(/gha-creds-abc\.json: a private path: left in place/);
        expect(third.workspaceNote).not.toMatch(/coverage/);
      }
      await closeRound();
      rmSync(temp, { recursive: true, force: true });
    }
  });

  // The move runs as root: a link of the checkout's in place of a folder must never lead it outside
  it('never writes through a link the checkout holds where a command made a folder (fails with apply-follows-links)', async () => {
    for (const weaken of [[], ['apply-follows-links']] as Defence[][]) {
      f = createFixture();
      const outside = mkdtempSync('/var/tmp/pl-outside-');
      chmodSync(outside, 0o755);
      symlinkSync(outside, join(f.workspace, 'cache'));
      setup = await overlaySandbox(f, weaken);
      const r = await run(setup, f, 'rm cache && mkdir cache && echo planted > cache/x && echo ok');
      expect(r.text).toBe('ok\n');
      const planted = existsSync(join(outside, 'x'));
      if (weaken.length) expect(planted).toBe(true);
      else {
        expect(planted).toBe(false);
        expect(lstatSync(join(f.workspace, 'cache')).isDirectory()).toBe(true);
        expect(readFileSync(join(f.workspace, 'cache', 'x'), 'utf8')).toBe('planted\n');
      }
      rmSync(outside, { recursive: true, force: true });
      await closeRound();
    }
  });

  it('runs no command once a covered path is another inode (fail closed, where the private paths are covered)', async () => {
    f = createFixture();
    const ws = f.workspace;
    writePrivate(join(ws, 'secret.json'), 'k\n');
    setup = await overlaySandbox(f, [], true);
    expect((await run(setup, f, 'echo fine')).text).toBe('fine\n');
    // something outside the commands (an earlier step's tool, say) puts another file under the name
    writeFileSync(join(ws, 'other.json'), 'k2\n', { mode: 0o600 });
    renameSync(join(ws, 'other.json'), join(ws, 'secret.json'));
    const r = await run(setup, f, 'echo ran');
    expect(r.text).not.toContain('ran');
    expect(r.spawnError).toMatch(/secret\.json is no longer the private path/);
  });

  // The reader's overlay opens only what others may: a workspace whose top folder others may not
  // list would show commands nothing. There the private paths are covered instead (the walk), and
  // commands still list, read and write the checkout while the private file stays shut.
  it('covers the private paths instead where the workspace’s top folder is closed to others', async () => {
    f = createFixture();
    const ws = f.workspace;
    writePrivate(join(ws, 'secret.json'), 'closed-top-4e5f\n');
    chmodSync(ws, 0o750);
    setup = await overlaySandbox(f);
    const r = await run(setup, f, 'ls; cat README.md; cat secret.json; echo x > made.txt && echo ok');
    expect(r.text).toContain('README.md');
    expect(r.text).toContain('hello');
    expect(r.text).not.toContain('closed-top-4e5f');
    expect(r.text).toMatch(/secret\.json: Permission denied/);
    expect(r.text).toContain('ok');
    expect(readFileSync(join(ws, 'made.txt'), 'utf8')).toBe('x\n');
  });

  // The reader's overlay is relied on only where the set-up's trial saw it keep a probe file of the
  // checkout's owner shut: made with root's own rights (a kernel or a process whose file-system uid
  // change kept the capabilities), the probe opens, and the trial says so.
  it('trusts the reader’s overlay only where its probe file stays shut (the trial fails with the reader root)', () => {
    f = createFixture();
    const numbers = overlaySyscalls()!;
    const owner = lstatSync(f.workspace);
    const trial = (reader: number) => {
      const state = mkdtempSync('/tmp/pl-trial-');
      try {
        const argv = [
          'unshare',
          '--mount',
          '--propagation',
          'private',
          '--',
          'perl',
          ...PERL_FLAGS,
          '-e',
          PREP_STEP,
          '--',
          '--view=probe',
          `--sys-unshare=${numbers.unshare}`,
          `--sys-mount=${numbers.mount}`,
          `--workspace=${f!.workspace}`,
          `--stash=${state}`,
          `--layer=${join(state, 'layer')}`,
          ...prepArgs(numbers, { uid: owner.uid, gid: owner.gid }, { uid: 65533, gid: 65533 }, reader, {
            folders: [],
            files: [],
          }),
        ];
        const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n', '--'];
        const [file, ...args] = [...sudo, ...argv];
        return spawnSync(file!, args, { encoding: 'utf8' });
      } finally {
        spawnSync(process.getuid?.() === 0 ? 'rm' : 'sudo', [
          ...(process.getuid?.() === 0 ? [] : ['-n', 'rm']),
          '-rf',
          state,
        ]);
      }
    };
    const nobody = trial(65534);
    expect(nobody.stderr).toBe('');
    expect(nobody.status).toBe(0);
    const root = trial(0);
    expect(root.status).toBe(125);
    expect(root.stderr).toMatch(/an owner-only file opens through the reader's overlay/);
  });

  it('shows an MCP stdio server (which lives beside the commands) the workspace read-only', async () => {
    f = createFixture();
    setup = await overlaySandbox(f);
    const launch = setup.sandbox.wrap({
      command: 'cat README.md; echo x > written.txt || echo refused',
      cwd: f.workspace,
      env: f.env as Record<string, string>,
      readOnlyWorkspace: true,
    });
    const r = spawnSync(launch.file, launch.args, { env: launch.env, cwd: f.workspace, encoding: 'utf8' });
    expect(r.stdout).toContain('hello');
    expect(r.stdout).toContain('refused');
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(launch.settle).toBeUndefined();
    expect(existsSync(join(f.workspace, 'written.txt'))).toBe(false);
  });

  it('copies what a command wrote when its layer is on another file system than the checkout', async () => {
    f = createFixture();
    writeFileSync(join(f.workspace, 'a.txt'), 'a\n');
    // the layers are made in the system temp folder: a tmpfs here, the checkout is not on one
    const temp = mkdtempSync('/dev/shm/pl-layers-');
    expect(lstatSync(temp).dev).not.toBe(lstatSync(f.workspace).dev);
    const was = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      setup = await overlaySandbox(f);
    } finally {
      if (was === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = was;
    }
    try {
      const r = await run(
        setup,
        f,
        'echo more >> a.txt && mkdir -p out && echo new > out/b.txt && chmod 600 out/b.txt && ln -s a.txt link && mkfifo pipe && echo ok',
      );
      expect(r.text).toBe('ok\n');
      expect(r.workspaceNote).toBeUndefined();
      expect(readFileSync(join(f.workspace, 'a.txt'), 'utf8')).toBe('a\nmore\n');
      expect(readFileSync(join(f.workspace, 'out', 'b.txt'), 'utf8')).toBe('new\n');
      expect(lstatSync(join(f.workspace, 'out', 'b.txt')).mode & 0o777).toBe(0o600);
      expect(readlinkSync(join(f.workspace, 'link'))).toBe('a.txt');
      expect(lstatSync(join(f.workspace, 'pipe')).isFIFO()).toBe(true);
      const owner = lstatSync(f.workspace);
      const st = lstatSync(join(f.workspace, 'out', 'b.txt'));
      expect([st.uid, st.gid]).toEqual([owner.uid, owner.gid]);
    } finally {
      await setup.dispose();
      setup = undefined;
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('falls back to the ACL walks where the overlay cannot be made (here: no Perl), and says so', async () => {
    f = createFixture();
    const made = await createSandbox({
      workspace: f.workspace,
      env: f.env,
      privateDirs: [f.runnerTemp],
      hideBins: ['perl'],
    });
    if (made.kind !== 'isolated') throw new Error(`not isolated: ${made.reason}`);
    setup = made;
    expect(made.reason).toContain('ACL access to the workspace');
    expect(made.reason).not.toContain('overlay');
    expect((await run(made, f, 'echo x > made.txt && echo ok')).text).toBe('ok\n');
    expect(readFileSync(join(f.workspace, 'made.txt'), 'utf8')).toBe('x\n');
    // asked for explicitly, the overlay that cannot be had makes commands unavailable
    const asked = await createSandbox({
      workspace: f.workspace,
      env: f.env,
      access: 'overlay',
      hideBins: ['perl'],
    });
    expect(asked).toEqual({ kind: 'unavailable', reason: 'perl is not installed' });
  });

  // issue 36: a run killed or crashed leaves its state (root's and the sandbox user's files); the
  // next set-up removes it, and only it: a folder whose recorded owner still runs is left alone
  it('removes at set-up the state a killed run left, never a running run’s', async () => {
    f = createFixture();
    const temp = mkdtempSync('/tmp/pl-layers-');
    const startOf = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    };
    const gone = spawnSync('sh', ['-c', 'echo $$']);
    const deadPid = Number(gone.stdout.toString().trim());
    const live = spawn('sleep', ['60']);
    const state = (name: string, owner: string | undefined, ageMs = 0) => {
      const d = join(temp, `patchloop-overlay-${name}`);
      mkdirSync(join(d, '3', 'work', 'work'), { recursive: true });
      writeFileSync(join(d, '3', 'up-file'), 'x\n');
      chmodSync(join(d, '3', 'work'), 0);
      spawnSync('chown', [`${SANDBOX_USER}:`, join(d, '3', 'up-file')]);
      if (owner !== undefined) writeFileSync(join(d, 'owner'), owner);
      const t = (Date.now() - ageMs) / 1000;
      utimesSync(d, t, t);
      return d;
    };
    try {
      const killed = state('kild01', `${deadPid} 123\n`);
      const reused = state('reus01', `${live.pid} 1\n`);
      const running = state('live01', `${live.pid} ${startOf(live.pid!)}\n`);
      const old = state('olds01', undefined, 7 * 3600_000);
      const fresh = state('frsh01', undefined);
      const was = process.env.TMPDIR;
      process.env.TMPDIR = temp;
      try {
        setup = await overlaySandbox(f);
      } finally {
        if (was === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = was;
      }
      expect(existsSync(killed)).toBe(false);
      expect(existsSync(reused)).toBe(false);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(running)).toBe(true);
      expect(existsSync(fresh)).toBe(true);
      await setup.dispose();
      setup = undefined;
      expect(readdirSync(temp).sort()).toEqual(['patchloop-overlay-frsh01', 'patchloop-overlay-live01']);
    } finally {
      live.kill('SIGKILL');
      spawnSync('rm', ['-rf', temp]);
    }
  });

  it('leaves no layer behind after dispose', async () => {
    f = createFixture();
    // the layers are made in the system temp folder: one of this test's own, to look in
    const temp = mkdtempSync('/tmp/pl-layers-');
    const was = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      setup = await overlaySandbox(f);
    } finally {
      if (was === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = was;
    }
    expect((await run(setup, f, 'echo x > made.txt && echo ok')).text).toBe('ok\n');
    expect((await run(setup, f, 'echo y > more.txt && echo ok')).text).toBe('ok\n');
    expect(readFileSync(join(f.workspace, 'made.txt'), 'utf8')).toBe('x\n');
    const state = spawnSync('ls', [temp], { encoding: 'utf8' }).stdout.trim();
    expect(state).toMatch(/^patchloop-overlay-/);
    // a layer whose writes were moved in is gone at once (its 0000 work folder too); only the
    // self-check's, which wrote nothing, waits for dispose
    expect(
      spawnSync('ls', [join(temp, state)], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter((n) => n !== 'owner'),
    ).toHaveLength(1);
    await setup.dispose();
    setup = undefined;
    expect(spawnSync('ls', ['-A', temp], { encoding: 'utf8' }).stdout).toBe('');
    rmSync(temp, { recursive: true, force: true });
  });
});
