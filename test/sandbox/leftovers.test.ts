import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inCi } from '../support/requirements.js';
import { createSandbox, SANDBOX_USER, startSandbox, type SandboxSetup } from '../../src/sandbox/index.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { runCommand } from '../../src/tools/process.js';
import { call } from '../tools/helpers.js';
import { createFixture, missingForSandbox, type Fixture } from './fixture.js';

// A run leaves the checkout as it found it (issue 30): after any ending, every path of the
// checkout and the folders above it has the ACL entries, default entries, mask, mode, owner and
// group it had before, with both access methods; what commands made carries no entry or group of
// the sandbox user; and a second run on the same checkout works as the first did.

const found = missingForSandbox();
if (found && !inCi()) console.warn(`skipping the leftover tests: ${found}`);
const missing = inCi() ? undefined : found;
if (found !== undefined && inCi())
  it('has what the leftover tests need (CI=true: they must not be skipped)', () => {
    throw new Error(found);
  });

type Isolated = Extract<SandboxSetup, { kind: 'isolated' }>;
function isolated(setup: SandboxSetup): Isolated {
  if (setup.kind !== 'isolated') throw new Error(`not isolated: ${setup.reason}`);
  return setup;
}

/** Every path under `top` (and each folder above it): mode, owner, group and ACL (getfacl). */
function snapshot(top: string, only?: Set<string>): Map<string, string> {
  const out = new Map<string, string>();
  const stat = execFileSync('find', [top, '-printf', '%p\\0%m %U %G %y\\0'], { encoding: 'latin1' }).split(
    '\0',
  );
  for (let i = 0; i + 1 < stat.length; i += 2)
    if (!only || only.has(stat[i]!)) out.set(stat[i]!, stat[i + 1]!);
  const acl = execFileSync('getfacl', ['-R', '-P', '-p', '--', top], {
    encoding: 'latin1',
    maxBuffer: 1 << 28,
  });
  for (const block of acl.split('\n\n')) {
    const m = /^# file: (.*)$/m.exec(block);
    if (!m) continue;
    const path = m[1]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    if (out.has(path)) out.set(path, `${out.get(path)}\n${block.replace(/^# file: .*\n/m, '').trim()}`);
  }
  for (let dir = join(top, '..'); ; dir = join(dir, '..')) {
    const st = execFileSync('stat', ['-c', '%a %u %g', dir], { encoding: 'utf8' }).trim();
    out.set(`above:${dir}`, `${st}\n${execFileSync('getfacl', ['-p', '-c', dir], { encoding: 'utf8' })}`);
    if (dir === '/') break;
  }
  return out;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const diff: string[] = [];
  for (const [path, was] of before) {
    const now = after.get(path);
    if (now !== undefined && now !== was)
      diff.push(`${path}:\n  before ${was.replaceAll('\n', ' ')}\n  after  ${now.replaceAll('\n', ' ')}`);
  }
  return diff;
}

/** A checkout with what the walks treat apart: ACLs of its own, a private folder, a store file hard-linked in, links. */
function furnish(f: Fixture): string {
  const ws = f.workspace;
  execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@e', 'add', '-A']);
  execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'init']);
  mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.js'), 'a\n');
  writeFileSync(join(ws, 'src', 'deep', 'b.js'), 'b\n');
  writeFileSync(join(ws, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  chmodSync(join(ws, 'run.sh'), 0o4755);
  mkdirSync(join(ws, 'shared'));
  chmodSync(join(ws, 'shared'), 0o2775);
  // ACLs the checkout had before the run: they must come back exactly (commands write elsewhere:
  // under group access an ACL's mask, not the group's own entry, takes what chmod g+w gives)
  mkdirSync(join(ws, 'docs', 'acl-dir'), { recursive: true });
  writeFileSync(join(ws, 'docs', 'with-acl.md'), 'doc\n');
  writeFileSync(join(ws, 'docs', 'acl-dir', 'inside.md'), 'doc\n');
  execFileSync('setfacl', ['-m', 'u:nobody:r,g:nogroup:rw', join(ws, 'docs', 'with-acl.md')]);
  execFileSync('setfacl', ['-m', 'u:nobody:rx,d:u:nobody:rx,d:o::---', join(ws, 'docs', 'acl-dir')]);
  execFileSync('setfacl', ['-m', 'm::r', join(ws, 'shared')]);
  // a private folder and a credentials file
  mkdirSync(join(ws, '.gcloud'), { mode: 0o700 });
  chmodSync(join(ws, '.gcloud'), 0o700);
  writeFileSync(join(ws, '.gcloud', 'token.json'), 'token\n', { mode: 0o644 });
  execFileSync('setfacl', ['-m', 'u:nobody:r', join(ws, '.gcloud', 'token.json')]);
  writeFileSync(join(ws, 'gha-creds.json'), 'creds\n', { mode: 0o640 });
  chmodSync(join(ws, 'gha-creds.json'), 0o640);
  // a store outside the checkout, one file linked in
  const store = mkdtempSync(join(f.home, 'store-'));
  writeFileSync(join(store, 'index.js'), 'store\n', { mode: 0o644 });
  mkdirSync(join(ws, 'node_modules', 'pkg'), { recursive: true });
  linkSync(join(store, 'index.js'), join(ws, 'node_modules', 'pkg', 'index.js'));
  symlinkSync('../src/a.js', join(ws, 'node_modules', 'pkg', 'link.js'));
  symlinkSync('/etc/passwd', join(ws, 'outside-link'));
  return store;
}

// writes, creates, deletes, renames; makes a folder of its own private; links a file
const WORK = [
  'echo more >> src/a.js',
  'echo new > src/new.js',
  'mkdir -p build/out && echo x > build/out/o.txt',
  'mkdir mine && echo y > mine/z && chmod 700 mine',
  'rm src/deep/b.js',
  'mv run.sh run2.sh',
  'ln src/new.js src/new-link.js',
  'echo ok',
].join(' && ');

// closed: commands ran, then dispose; aborted: a command cancelled mid-way (the run's abort), then
// dispose; failed: the set-up's self-check fails (a defence left out), which takes back on its own
const cases = (['overlay', 'acl', 'group'] as const).flatMap((access) =>
  (['closed', 'aborted', 'failed'] as const).map((ending) => [access, ending] as const),
);

describe.skipIf(missing !== undefined)('the checkout after a run', () => {
  let f: Fixture | undefined;
  afterEach(() => {
    f?.cleanup();
    f = undefined;
  });

  it.each(cases)(
    '%s access, %s: every path as it was, nothing of the sandbox user on what commands made',
    async (access, ending) => {
      f = createFixture();
      const fx = f;
      const store = furnish(fx);
      const before = snapshot(fx.home);
      const untouched = [
        'README.md',
        'docs',
        'docs/with-acl.md',
        'docs/acl-dir/inside.md',
        '.gcloud/token.json',
        'gha-creds.json',
        'node_modules/pkg/index.js',
        'node_modules/pkg/link.js',
      ].map((p) => join(fx.workspace, p));
      const ctimes = new Map(untouched.map((p) => [p, lstatSync(p).ctimeMs]));
      const setup = isolated(
        await startSandbox({
          workspace: fx.workspace,
          env: fx.env,
          privateDirs: [fx.runnerTemp],
          access,
          ...(ending === 'failed' ? { weaken: ['read-only-git' as const] } : {}),
        }),
      );
      if (ending === 'failed') {
        await expect(setup.ready).rejects.toThrow(/self-check failed/);
      } else await setup.ready;
      if (ending === 'aborted') {
        const abort = new AbortController();
        let started = false;
        const running = runCommand({
          command:
            'echo new > src/new.js && mkdir -p build && touch build/started && echo started && sleep 60',
          cwd: fx.workspace,
          env: fx.env,
          sandbox: setup.sandbox,
          timeoutMs: 120_000,
          signal: abort.signal,
          // under the overlay what it writes reaches the checkout when it has ended: its output says when
          onProgress: (tail) => (started ||= tail.includes('started')),
          progressMs: 20,
        });
        while (!started) await new Promise((r) => setTimeout(r, 50));
        abort.abort();
        expect((await running).aborted).toBe(true);
        // what the cancelled command wrote is in the checkout
        expect(existsSync(join(fx.workspace, 'build', 'started'))).toBe(true);
      }
      if (ending === 'closed') {
        const r = await runCommand({
          command: WORK,
          cwd: fx.workspace,
          env: fx.env,
          sandbox: setup.sandbox,
          timeoutMs: 30_000,
        });
        expect(r.text).toContain('ok');
        // the file tools (patchloop's own user) make a file and folders between commands
        const tools = createWorkspaceTools({ root: fx.workspace, sandbox: setup.sandbox, commands: false });
        for (const path of ['src/tool.js', 'src/tooldir/sub/t.js'])
          expect((await call(tools, 'write_file', { path, content: 'tool\n' })).isError).toBe(false);
        const again = await runCommand({
          command:
            'echo edit >> src/tool.js && echo edit >> src/tooldir/sub/t.js && : > src/tooldir/sub/u.js && echo ok',
          cwd: fx.workspace,
          env: fx.env,
          sandbox: setup.sandbox,
          timeoutMs: 30_000,
        });
        expect(again.text).toBe('ok\n');
      }
      await setup.dispose();
      const after = snapshot(fx.home);
      expect(differences(before, after)).toEqual([]);
      // the overlay writes nothing a command did not change: no new ctime for git to re-read
      if (access === 'overlay') for (const [p, was] of ctimes) expect(lstatSync(p).ctimeMs, p).toBe(was);
      // what the run made carries no entry and no group of the sandbox user
      const made = [...after.keys()].filter((p) => !before.has(p) && !p.startsWith('above:'));
      const gid = Number(execFileSync('id', ['-g', SANDBOX_USER], { encoding: 'utf8' }));
      for (const p of made) {
        expect(after.get(p), p).not.toContain(`:${SANDBOX_USER}:`);
        // group access: the sandbox user's group is replaced (what it made is still its own)
        if (access === 'group') expect(after.get(p)!.split('\n')[0]!.split(' ')[2], p).not.toBe(String(gid));
      }
      expect(readdirSync(store)).toEqual(['index.js']);
    },
  );

  // a self-hosted runner keeps its workspace between jobs, and a machine may gain or lose setfacl
  it.each([
    ['overlay', 'overlay', 'overlay'],
    ['overlay', 'acl', 'overlay'],
    ['group', 'overlay', 'group'],
    ['acl', 'acl', 'acl'],
    ['group', 'group', 'group'],
    ['acl', 'group', 'acl'],
    ['group', 'acl', 'group'],
  ] as const)(
    'runs on the same checkout (%s, then %s, then %s) each work as the first',
    async (...rounds) => {
      f = createFixture();
      const fx = f;
      furnish(fx);
      for (const [i, access] of rounds.entries()) {
        const round = i + 1;
        const setup = isolated(
          await createSandbox({ workspace: fx.workspace, env: fx.env, privateDirs: [fx.runnerTemp], access }),
        );
        const r = await runCommand({
          command: `echo ${round} >> src/a.js && mkdir -p build && echo ${round} > build/r${round}.txt && cat build/r*.txt | wc -l`,
          cwd: fx.workspace,
          env: fx.env,
          sandbox: setup.sandbox,
          timeoutMs: 30_000,
        });
        expect(r.text.trim()).toBe(String(round));
        await setup.dispose();
      }
    },
  );
});
