import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo, resolveGit, type CheckoutCredential } from '../../src/git/index.js';
import { git, makeRepo, writeFiles, type RepoFixture } from '../github/git-fixtures.js';

// Each trick a command could leave in the workspace, planted after isolate() — when the agent's
// commands may run — and shown to change nothing patchloop's git does. Markers are written
// outside the workspace, so a trick that fired is seen even when its file would be ignored.

let repo: RepoFixture;
let n = 0;
let work: string;
let markers: string;

beforeAll(() => {
  repo = makeRepo({
    'README.md': '# demo\n',
    'src/math.js': 'export const div = (a, b) => a / b;\n',
    '.github/workflows/ci.yml': 'on: push\n',
  });
});
afterAll(() => repo.cleanup());
afterEach(() => {
  const fired = existsSync(markers) ? readdirSync(markers) : [];
  expect(fired, 'planted programs that ran').toEqual([]);
});

function fresh(): string {
  n += 1;
  work = repo.clone(`work-${n}`);
  markers = join(repo.root, `markers-${n}`);
  mkdirSync(markers);
  return work;
}

/** A shell script that leaves `markers/<name>` when it runs, then behaves as `tail` says. */
function script(name: string, tail = 'exit 0'): string {
  const path = join(repo.root, `planted-${n}-${name}.sh`);
  writeFileSync(path, `#!/bin/sh\necho "$@" > "${markers}/${name}"\n${tail}\n`);
  chmodSync(path, 0o755);
  return path;
}

function fired(): string[] {
  return readdirSync(markers).sort();
}

/** Everything a hostile .git/config can name that would run a program. */
function plantConfig(gitDir: string): void {
  const cfg = join(gitDir, 'config');
  const set = (key: string, value: string) => execFileSync('git', ['config', '--file', cfg, key, value]);
  set('core.fsmonitor', script('fsmonitor'));
  set('core.hooksPath', join(repo.root, `hooks-${n}`));
  set('core.pager', script('pager'));
  set('core.sshCommand', script('ssh'));
  set('core.editor', script('editor'));
  set('filter.evil.clean', `${script('filter-clean')}; cat`);
  set('filter.evil.smudge', `${script('filter-smudge')}; cat`);
  set('filter.evil.process', script('filter-process'));
  set('diff.evil.textconv', script('textconv'));
  set('diff.external', script('external-diff'));
  set('credential.helper', `!${script('credential-helper')}`);
  set('remote.origin.receivepack', script('receivepack', 'exit 1'));
  set('remote.origin.uploadpack', script('uploadpack', 'exit 1'));
  set('url./nonexistent/attacker.git.insteadOf', repo.origin);
  set('url./nonexistent/attacker.git.pushInsteadOf', repo.origin);
  set('include.path', join(repo.root, `include-${n}.config`));
  writeFileSync(join(repo.root, `include-${n}.config`), `[core]\n\tfsmonitor = ${script('included')}\n`);
  mkdirSync(join(repo.root, `hooks-${n}`));
  for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction']) {
    writeFileSync(join(repo.root, `hooks-${n}`, hook), `#!/bin/sh\ntouch "${markers}/hook-${hook}"\n`);
    chmodSync(join(repo.root, `hooks-${n}`, hook), 0o755);
  }
}

async function prepared(options: { credential?: CheckoutCredential; protectedPaths?: string[] } = {}) {
  const co = new GitRepo({ dir: fresh(), identitySource: 'local', ...options });
  await co.startBranch(`patchloop/t-${n}`);
  await co.isolate();
  return co;
}

const show = (ref: string, path: string) => git(repo.origin, 'show', `${ref}:${path}`);

describe('after isolate(), nothing under the workspace’s .git reaches patchloop’s git', () => {
  it('ignores a hostile .git/config, .gitattributes drivers and hooks: commit and push run none of them', async () => {
    const co = await prepared();
    plantConfig(join(work, '.git'));
    for (const hook of ['pre-commit', 'post-commit', 'pre-push', 'post-index-change']) {
      writeFiles(work, { [`.git/hooks/${hook}`]: `#!/bin/sh\ntouch "${markers}/dot-git-${hook}"\n` });
      chmodSync(join(work, '.git/hooks', hook), 0o755);
    }
    writeFiles(work, {
      '.gitattributes': '* filter=evil diff=evil\n',
      'src/math.js': 'export const div = (a, b) => (b === 0 ? NaN : a / b);\n',
      'NOTES.md': 'new\n',
    });
    const { commit } = await co.commitChanges('fix');
    expect(commit?.files.map((f) => f.path).sort()).toEqual(['.gitattributes', 'NOTES.md', 'src/math.js']);
    const pushed = await co.push(`patchloop/t-${n}`);
    expect(pushed).toMatchObject({ ok: true });
    // The filter would have run on the way in; the content is exactly what was written.
    expect(show(`patchloop/t-${n}`, 'src/math.js')).toBe(
      'export const div = (a, b) => (b === 0 ? NaN : a / b);',
    );
    expect(fired()).toEqual([]);
    await co.writeBack(pushed.ok ? pushed : undefined);
    expect(fired()).toEqual([]);
  });

  it('gives the tools’ git the private dir: a planted excludesFile and fsmonitor are not read', async () => {
    const co = await prepared();
    const tools = co.toolGit();
    writeFileSync(join(repo.root, `ignore-all-${n}`), '*.md\n');
    execFileSync('git', [
      'config',
      '--file',
      join(work, '.git/config'),
      'core.excludesFile',
      join(repo.root, `ignore-all-${n}`),
    ]);
    execFileSync('git', [
      'config',
      '--file',
      join(work, '.git/config'),
      'core.fsmonitor',
      script('fsmonitor'),
    ]);
    expect(await tools.isWorkTree()).toBe(true);
    expect(await tools.isIgnored('README.md')).toBe(false);
    const listed = await tools.run(['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
    expect(listed.stdout.toString().split('\0')).toContain('README.md');
    const grep = await tools.run(['grep', '-n', '--untracked', '-e', 'demo']);
    expect(grep.stdout.toString()).toContain('README.md:1:# demo');
  });

  it('does not enter a submodule or an embedded repository that carries its own fsmonitor and filter', async () => {
    // a gitlink in HEAD, as a repository with submodules has
    const sha = git(repo.origin, 'rev-parse', 'main');
    const co0 = new GitRepo({ dir: fresh() });
    git(work, 'update-index', '--add', '--cacheinfo', `160000,${sha},vendor/lib`);
    git(work, '-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'add a submodule');
    await co0.isolate();
    // commands populate the submodule and an embedded repository, each with a hostile config
    for (const dir of ['vendor/lib', 'sub']) {
      mkdirSync(join(work, dir), { recursive: true });
      execFileSync('git', ['init', '-q', join(work, dir)]);
      writeFiles(work, { [`${dir}/inner.txt`]: 'inner\n' });
      git(join(work, dir), 'add', 'inner.txt');
      git(join(work, dir), 'commit', '-qm', 'inner');
      // A repository with an index and a change of the same size: a git status inside it would
      // ask its fsmonitor and read the file through its filter.
      const cfg = join(work, dir, '.git/config');
      const tag = dir.replace('/', '-');
      const set = (key: string, value: string) => execFileSync('git', ['config', '--file', cfg, key, value]);
      set('core.fsmonitor', script(`fsmonitor-${tag}`));
      set('filter.evil.clean', `${script(`filter-${tag}`)}; cat`);
      writeFiles(work, { [`${dir}/.gitattributes`]: '* filter=evil\n', [`${dir}/inner.txt`]: 'INNER\n' });
    }
    writeFiles(work, { 'top.txt': 'top\n' });
    const { commit, leftOut } = await co0.commitChanges('work');
    expect(commit?.files.map((f) => f.path)).toEqual(['top.txt']);
    expect(leftOut).toContainEqual({ path: 'sub/', reason: 'embedded repository' });
    expect(fired()).toEqual([]);
  });

  it('ignores a commondir planted into .git', async () => {
    const co = await prepared();
    const elsewhere = join(repo.root, `other-${n}.git`);
    execFileSync('git', ['init', '-q', '--bare', elsewhere]);
    plantConfig(elsewhere);
    writeFileSync(join(work, '.git/commondir'), `${elsewhere}\n`);
    writeFiles(work, { 'a.txt': 'a\n' });
    const { commit } = await co.commitChanges('a');
    expect(commit?.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(await co.push(`patchloop/t-${n}`)).toMatchObject({ ok: true });
    expect(show(`patchloop/t-${n}`, 'a.txt')).toBe('a');
  });

  it('refuses, at isolate(), a commondir or gitfile that leads into the workspace', async () => {
    const co = new GitRepo({ dir: fresh() });
    execFileSync('git', ['init', '-q', '--bare', join(work, 'fake')]);
    writeFileSync(join(work, '.git/commondir'), '../fake\n');
    await expect(co.isolate()).rejects.toThrow(/commondir points to .*inside the workspace/);

    const co2 = new GitRepo({ dir: fresh() });
    renameSync(join(work, '.git'), join(work, 'moved.git'));
    writeFileSync(join(work, '.git'), 'gitdir: moved.git\n');
    await expect(co2.isolate()).rejects.toThrow(/lies in the workspace/);
  });

  it('commits the right tree when .git is renamed away and replaced, and refuses to write into the new one', async () => {
    const co = await prepared();
    writeFiles(work, { 'src/math.js': 'fixed\n' });
    renameSync(join(work, '.git'), join(work, 'old-git'));
    execFileSync('git', ['init', '-q', '--initial-branch=trap', work]);
    plantConfig(join(work, '.git'));
    const { commit, leftOut } = await co.commitChanges('after the swap');
    // the renamed git dir is still the git dir: nothing of it is committed
    expect(commit?.files.map((f) => f.path)).toEqual(['src/math.js']);
    expect(leftOut.filter((l) => l.path.startsWith('old-git/')).length).toBeGreaterThan(0);
    expect(leftOut.every((l) => l.reason === 'inside .git')).toBe(true);
    const pushed = await co.push(`patchloop/t-${n}`);
    expect(pushed).toMatchObject({ ok: true });
    expect(git(repo.origin, 'ls-tree', '-r', '--name-only', `patchloop/t-${n}`).split('\n').sort()).toEqual([
      '.github/workflows/ci.yml',
      'README.md',
      'src/math.js',
    ]);
    expect(show(`patchloop/t-${n}`, 'src/math.js')).toBe('fixed');
    await expect(co.writeBack()).rejects.toThrow(/was replaced during the run/);
    // nor does the checkout credential go back into the replacement's config
    const credential = {
      entries: [{ key: 'http.https://github.com/.extraheader', value: 'AUTHORIZATION: basic c2VjcmV0' }],
      secrets: [],
      removed: [],
    };
    await expect(co.restoreCredential(credential)).rejects.toThrow(/was replaced during the run/);
    expect(readFileSync(join(work, '.git/config'), 'utf8')).not.toContain('c2VjcmV0');
    expect(readFileSync(join(work, 'old-git/config'), 'utf8')).not.toContain('c2VjcmV0');
    expect(readFileSync(join(work, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/trap\n');
  });
});

describe('what is committed', () => {
  it('leaves out protected paths, .git-like paths, a 20 MiB file, a FIFO and a hard link, and names each', async () => {
    const co = await prepared({ protectedPaths: ['.github/workflows/**'] });
    writeFiles(work, {
      '.github/workflows/ci.yml': 'on: push\njobs: {steal: {}}\n',
      '.github/workflows/new.yml': 'on: push\n',
      'docs/.GIT/hooks/post-checkout': 'x\n',
      'ok.txt': 'ok\n',
    });
    writeFileSync(join(work, 'big.bin'), '');
    truncateSync(join(work, 'big.bin'), 20 * 1024 * 1024);
    // git lists no FIFO it does not track; a tracked file replaced by one is listed, never opened
    execFileSync('mkfifo', [join(work, 'pipe')]);
    execFileSync('rm', [join(work, 'README.md')]);
    execFileSync('mkfifo', [join(work, 'README.md')]);
    symlinkSync('ok.txt', join(work, 'link'));
    // a second name of a file outside the checkout (a command's link to what it cannot read, where
    // the kernel allows it), and of a tracked file
    const outsideFile = join(work, '..', `outside-${n}.txt`);
    writeFileSync(outsideFile, 'OUTSIDE-ONLY\n', { mode: 0o600 });
    linkSync(outsideFile, join(work, 'linked.txt'));
    const { commit, leftOut } = await co.commitChanges('mixed');
    expect(commit?.files.map((f) => f.path).sort()).toEqual(['link', 'ok.txt']);
    expect(leftOut.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: '.github/workflows/ci.yml', reason: 'protected path', detail: '.github/workflows/**' },
      { path: '.github/workflows/new.yml', reason: 'protected path', detail: '.github/workflows/**' },
      { path: 'big.bin', reason: 'too large', detail: String(20 * 1024 * 1024) },
      { path: 'docs/.GIT/hooks/post-checkout', reason: 'inside .git' },
      { path: 'linked.txt', reason: 'a hard link', detail: '2' },
      { path: 'README.md', reason: 'not a regular file' },
    ]);
    rmSync(outsideFile, { force: true });
  });
});

describe('the push', () => {
  it('runs no receive-pack, upload-pack, SSH command or URL rewrite planted in the config', async () => {
    // (the credential reaching the push alone is shown with a real HTTP remote in credential.test.ts)
    const co = await prepared();
    plantConfig(join(work, '.git'));
    writeFiles(work, { 'p.txt': 'p\n' });
    await co.commitChanges('p');
    expect(await co.push(`patchloop/t-${n}`)).toMatchObject({ ok: true });
    expect(fired()).toEqual([]);
  });

  it('is killed, with its helpers, when its deadline passes', async () => {
    const held: import('node:net').Socket[] = [];
    const server: Server = createServer((s) => held.push(s)); // accepts, never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const dir = fresh();
      git(dir, 'remote', 'set-url', 'origin', `http://127.0.0.1:${port}/x.git`);
      const co = new GitRepo({ dir });
      await co.isolate();
      writeFiles(dir, { 'slow.txt': 'slow\n' });
      await co.commitChanges('slow');
      const started = Date.now();
      const pushed = await co.push('patchloop/slow', { signal: AbortSignal.timeout(1500) });
      expect(pushed.ok).toBe(false);
      expect(Date.now() - started).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 200));
      const left = readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(`127.0.0.1:${port}`);
          } catch {
            return false;
          }
        });
      expect(left).toEqual([]);
    } finally {
      for (const s of held) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('the git binary', () => {
  it('is never one planted in a PATH entry inside the workspace', () => {
    const dir = fresh();
    const planted = script('git');
    for (const bin of ['node_modules/.bin', 'bin']) {
      mkdirSync(join(dir, bin), { recursive: true });
      writeFileSync(join(dir, bin, 'git'), readFileSync(planted));
      chmodSync(join(dir, bin, 'git'), 0o755);
    }
    // an entry outside the workspace whose git is a link into it
    const outside = join(repo.root, `bin-${n}`);
    mkdirSync(outside);
    symlinkSync(join(dir, 'bin', 'git'), join(outside, 'git'));
    const path = [join(dir, 'node_modules/.bin'), 'bin', '.', outside, process.env.PATH].join(':');
    const found = resolveGit({ workspace: dir, path });
    expect(found.startsWith(dir)).toBe(false);
    expect(readFileSync(found).subarray(0, 4).toString('latin1')).not.toBe('#!/b');
    // relative entries resolve against the cwd, which for the CLI is often the checkout itself
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const fromRelative = resolveGit({
        workspace: join(repo.root, 'elsewhere'),
        path: ['bin', process.env.PATH].join(':'),
      });
      expect(fromRelative.startsWith(dir)).toBe(false);
    } finally {
      process.chdir(cwd);
    }
    expect(() => resolveGit({ workspace: dir, path: [join(dir, 'bin'), outside].join(':') })).toThrow(
      /git was not found on PATH outside the workspace/,
    );
  });
});
