import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APPLY_STEP,
  applyArgs,
  MOVE_BUDGET,
  overlaySyscalls,
  PERL_FLAGS,
  type MoveBudget,
} from '../../src/sandbox/overlay.js';

// The overlay's move (src/sandbox/perl/apply.pl) run directly, as root, against folders of the
// test's own: a layer as a command's overlay leaves it (files, whiteouts, opaque folders, and the
// record of the command's PID namespace) and a checkout. What the sandbox tests cannot make happen
// on purpose is made here: a writer still running when the move starts, names swapped for links
// while it walks, a budget crossed.

const root = process.platform === 'linux' && process.getuid?.() === 0;
const numbers = overlaySyscalls();
const OWNER = { uid: 4321, gid: 4321 };

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A temp folder, removed after the test. */
function temp(base = '/tmp', prefix = 'pl-move-'): string {
  const d = mkdtempSync(join(base, prefix));
  chmodSync(d, 0o755);
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** The text of a PID namespace that is already gone (one unshare made and left). */
function deadNamespace(): string {
  const r = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'readlink', '/proc/self/ns/pid'], {
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return r.stdout.trim();
}

interface Move {
  state: string;
  layer: string;
  up: string;
  ws: string;
}

/** A state folder with layer `n` (`up/` empty) and a checkout owned by OWNER. */
function setUp(layerBase = '/tmp', wsBase = '/tmp'): Move {
  const state = temp(layerBase, 'pl-state-');
  const layer = join(state, '0');
  mkdirSync(join(layer, 'up'), { recursive: true });
  writeFileSync(join(layer, 'pidns'), `${deadNamespace()}\n`);
  const ws = temp(wsBase, 'pl-ws-');
  spawnSync('chown', [`${OWNER.uid}:${OWNER.gid}`, ws]);
  return { state, layer, up: join(layer, 'up'), ws };
}

function nextLayer(m: Move, n: number, pidns = deadNamespace()): Move {
  const layer = join(m.state, String(n));
  mkdirSync(join(layer, 'up'), { recursive: true });
  writeFileSync(join(layer, 'pidns'), `${pidns}\n`);
  return { ...m, layer, up: join(layer, 'up') };
}

function args(m: Move, budget: Partial<MoveBudget> = {}, o: { follow?: boolean; hidden?: string[] } = {}) {
  return applyArgs(numbers!, {
    layer: m.layer,
    workspace: m.ws,
    owner: OWNER,
    own: join(m.state, 'own'),
    budget: { ...MOVE_BUDGET, ...budget },
    follow: o.follow ?? false,
    spare: false,
    hidden: o.hidden ?? [],
  });
}

/** Runs apply.pl (or a patched text of it) and returns its exit code and output. */
function move(m: Move, budget: Partial<MoveBudget> = {}, o: { follow?: boolean; script?: string } = {}) {
  const r = spawnSync('perl', [...PERL_FLAGS, '-e', o.script ?? APPLY_STEP, '--', ...args(m, budget, o)], {
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function moveAsync(m: Move, budget: Partial<MoveBudget> = {}, script = APPLY_STEP, follow = false) {
  return new Promise<{ code: number | null; out: string }>((done) => {
    const child = spawn('perl', [...PERL_FLAGS, '-e', script, '--', ...args(m, budget, { follow })]);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => done({ code, out }));
  });
}

const whiteout = (p: string) => expect(spawnSync('mknod', [p, 'c', '0', '0']).status).toBe(0);

describe.skipIf(!root || !numbers)('the overlay move, run directly (src/sandbox/perl/apply.pl)', () => {
  it('takes named arguments only, and says which is missing', () => {
    const m = setUp();
    const bad = spawnSync('perl', [...PERL_FLAGS, '-e', APPLY_STEP, '--', m.layer, m.ws], {
      encoding: 'utf8',
    });
    expect(bad.status).toBe(125);
    expect(bad.stderr).toMatch(/not a named argument/);
    const some = args(m).filter((a) => !a.startsWith('--sys-statx='));
    const missing = spawnSync('perl', [...PERL_FLAGS, '-e', APPLY_STEP, '--', ...some], { encoding: 'utf8' });
    expect(missing.stderr).toMatch(/--sys-statx is missing/);
  });

  it('moves files, links, fifos and folders in, owned by the checkout’s owner; a whiteout removes; an opaque folder loses what it held', () => {
    const m = setUp();
    mkdirSync(join(m.ws, 'gone'));
    writeFileSync(join(m.ws, 'gone', 'x'), 'x\n');
    mkdirSync(join(m.ws, 'remade'));
    writeFileSync(join(m.ws, 'remade', 'old'), 'old\n');
    writeFileSync(join(m.ws, 'keep'), 'keep\n');
    mkdirSync(join(m.up, 'src', 'deep'), { recursive: true });
    writeFileSync(join(m.up, 'src', 'deep', 'a.js'), 'a\n');
    writeFileSync(join(m.up, 'tool.sh'), '#!/bin/sh\n');
    chmodSync(join(m.up, 'tool.sh'), 0o4755);
    symlinkSync('src/deep/a.js', join(m.up, 'link'));
    expect(spawnSync('mkfifo', [join(m.up, 'pipe')]).status).toBe(0);
    whiteout(join(m.up, 'gone'));
    mkdirSync(join(m.up, 'remade'));
    writeFileSync(join(m.up, 'remade', 'new'), 'new\n');
    expect(
      spawnSync('setfattr', ['-n', 'trusted.overlay.opaque', '-v', 'y', join(m.up, 'remade')]).status,
    ).toBe(0);
    const r = move(m);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^applied \d+\n$/);
    expect(readFileSync(join(m.ws, 'src', 'deep', 'a.js'), 'utf8')).toBe('a\n');
    expect(readlinkSync(join(m.ws, 'link'))).toBe('src/deep/a.js');
    expect(lstatSync(join(m.ws, 'pipe')).isFIFO()).toBe(true);
    expect(existsSync(join(m.ws, 'gone'))).toBe(false);
    expect(readdirSync(join(m.ws, 'remade'))).toEqual(['new']);
    expect(readFileSync(join(m.ws, 'keep'), 'utf8')).toBe('keep\n');
    expect(lstatSync(join(m.ws, 'tool.sh')).mode & 0o7777).toBe(0o755);
    for (const p of ['src', 'src/deep', 'src/deep/a.js', 'link', 'pipe', 'tool.sh']) {
      const st = lstatSync(join(m.ws, p));
      expect([st.uid, st.gid], p).toEqual([OWNER.uid, OWNER.gid]);
    }
    // all of it went in: the layer is gone
    expect(existsSync(m.layer)).toBe(false);
  });

  it('refuses, moving nothing, a layer that holds no record of the command’s PID namespace', () => {
    const m = setUp();
    writeFileSync(join(m.up, 'a'), 'a\n');
    rmSync(join(m.layer, 'pidns'));
    const r = move(m);
    expect(r.code).toBe(125);
    expect(r.err).toMatch(/no record of the command's PID namespace/);
    expect(existsSync(join(m.ws, 'a'))).toBe(false);
  });

  // the layer on another file system than the checkout: what is copied is written out whole
  it('moves nothing when the copies would pass the byte budget: a sparse file counts by its apparent size; the layer is discarded and no staging folder is left', () => {
    const m = setUp('/dev/shm');
    expect(statSync(m.up).dev).not.toBe(statSync(m.ws).dev);
    writeFileSync(join(m.up, 'small.txt'), 'small\n');
    expect(spawnSync('truncate', ['-s', '64M', join(m.up, 'holes.bin')]).status).toBe(0);
    // nothing allocated: a sparse file
    expect(statSync(join(m.up, 'holes.bin')).blocks).toBe(0);
    const r = move(m, { bytes: 16 * 1024 ** 2 });
    expect(r.err).toBe('');
    expect(r.out).toMatch(
      /^refused it would have written more than 16777216 bytes \(a sparse file counts by its apparent size\)\n$/,
    );
    expect(readdirSync(m.ws)).toEqual([]);
    expect(existsSync(m.layer)).toBe(false);
    // within the budget the same layer goes in, by copies
    const again = nextLayer(m, 1);
    writeFileSync(join(again.up, 'small.txt'), 'small\n');
    expect(spawnSync('truncate', ['-s', '1M', join(again.up, 'holes.bin')]).status).toBe(0);
    const ok = move(again, { bytes: 16 * 1024 ** 2 });
    expect(ok.out).toMatch(/^applied 2\n$/);
    expect(readdirSync(m.ws).sort()).toEqual(['holes.bin', 'small.txt']);
    expect(statSync(join(m.ws, 'holes.bin')).size).toBe(1024 ** 2);
  });

  it('moves nothing past its time budget', () => {
    const m = setUp('/dev/shm');
    writeFileSync(join(m.up, 'a.txt'), 'a\n');
    const r = move(m, { seconds: 0 });
    expect(r.out).toMatch(/^refused it would have taken more than 0s\n$/);
    expect(readdirSync(m.ws)).toEqual([]);
  });

  // a writer of the command's namespace still running when the move is asked for (a kill takes
  // the kernel a moment): the move starts once the namespace is gone, so it takes what was
  // written last; with the wait taken out of the script, it moves before the writer is done
  it('waits for the command’s PID namespace to be gone before it starts (fails with the wait taken out)', async () => {
    const noWait = APPLY_STEP.replace('while (pidns_tasks($ns_text))', 'while (0)');
    expect(noWait).not.toBe(APPLY_STEP);
    for (const script of [APPLY_STEP, noWait]) {
      const m = setUp();
      writeFileSync(join(m.up, 'early.txt'), 'early\n');
      const ready = join(m.state, 'ready');
      const writer = spawn('unshare', [
        '--pid',
        '--fork',
        '--mount-proc',
        'sh',
        '-c',
        `readlink /proc/self/ns/pid > "$1"; sleep 2; echo late > "$2"`,
        'sh',
        ready,
        join(m.up, 'late.txt'),
      ]);
      const exited = new Promise((r) => writer.on('close', r));
      while (!existsSync(ready) || readFileSync(ready, 'utf8').trim() === '')
        await new Promise((r) => setTimeout(r, 20));
      writeFileSync(join(m.layer, 'pidns'), readFileSync(ready));
      const r = await moveAsync(m, {}, script);
      await exited;
      expect(r.out).toMatch(/^applied/);
      expect(readFileSync(join(m.ws, 'early.txt'), 'utf8')).toBe('early\n');
      if (script === APPLY_STEP) expect(readFileSync(join(m.ws, 'late.txt'), 'utf8')).toBe('late\n');
      else expect(existsSync(join(m.ws, 'late.txt'))).toBe(false);
    }
  });

  it('moves nothing when the command’s processes outlive the wait', async () => {
    const m = setUp();
    writeFileSync(join(m.up, 'a.txt'), 'a\n');
    const ready = join(m.state, 'ready');
    const sleeper = spawn('unshare', [
      '--pid',
      '--fork',
      '--mount-proc',
      'sh',
      '-c',
      'readlink /proc/self/ns/pid > "$1"; sleep 30',
      'sh',
      ready,
    ]);
    cleanups.push(() => sleeper.kill('SIGKILL'));
    while (!existsSync(ready) || readFileSync(ready, 'utf8').trim() === '')
      await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(m.layer, 'pidns'), readFileSync(ready));
    const r = await moveAsync(m, { waitSeconds: 1 });
    expect(r.out).toMatch(/^refused the command's processes were still running 1s after it ended\n$/);
    expect(readdirSync(m.ws)).toEqual([]);
  });

  // A process that could still write the layer swaps folders for links to a root-only folder while
  // the move walks: the move opens each folder relative to the one above with O_NOFOLLOW and names
  // every entry relative to an open folder, so it never walks (nor moves anything out of) the folder
  // a link names. The control is the class of walk it replaced: one by path names (lstat, then
  // opendir and rename of "$up/$rel/..."), which the same swaps lead into the secret folder.
  it('never follows a folder swapped for a link while it walks; a walk by path names does (the control)', async () => {
    const secret = temp('/tmp', 'pl-secret-');
    chmodSync(secret, 0o700);
    const byName = String.raw`my ($up, $ws) = @ARGV; sub walk { my ($rel) = @_;
      opendir(my $h, "$up/$rel") or return; my @n = grep { !/^\.\.?$/ } readdir $h; closedir $h;
      for my $n (@n) { my $r = "$rel/$n"; my @s = lstat "$up/$r" or next;
        if (-d _) { mkdir "$ws/$r"; walk($r); } else { rename("$up/$r", "$ws/$r"); } } }
      walk('');`;
    const round = async (control: boolean) => {
      for (let i = 0; i < 6; i++) writeFileSync(join(secret, `stolen-${i}`), 'secret\n');
      const m = setUp();
      for (let i = 0; i < 40; i++) {
        mkdirSync(join(m.up, `d${i}`));
        for (let j = 0; j < 6; j++) writeFileSync(join(m.up, `d${i}`, `f${j}`), 'mine\n');
      }
      const swapper = spawn('perl', [
        '-e',
        'my ($up, $s) = @ARGV; chdir $up or die; while (1) { for my $i (0 .. 9) { rename "d$i", "t$i"; symlink $s, "d$i"; select(undef, undef, undef, 0.0005); unlink "d$i"; rename "t$i", "d$i"; } }',
        m.up,
        secret,
      ]);
      const r = control
        ? await new Promise<{ code: number | null }>((done) =>
            spawn('perl', ['-e', byName, m.up, m.ws]).on('close', (code) => done({ code })),
          )
        : await moveAsync(m);
      swapper.kill('SIGKILL');
      await new Promise((res) => swapper.on('close', res));
      expect(r.code).toBe(0);
      return readdirSync(secret).length < 6;
    };
    for (let i = 0; i < 8; i++) expect(await round(false), `round ${i}`).toBe(false);
    let walked = false;
    for (let i = 0; i < 60 && !walked; i++) walked = await round(true);
    expect(walked, 'the walk by path names was never led into the secret folder').toBe(true);
  }, 600_000);
});
