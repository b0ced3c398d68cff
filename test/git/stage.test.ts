import {
  chmodSync,
  chownSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../../src/git/index.js';
import { choosePaths, codeName, describeLeftOut, folderBlocker } from '../../src/git/stage.js';
import { parseStatus } from '../../src/git/status.js';
import { git, makeRepo, type RepoFixture } from '../github/git-fixtures.js';

// What a command could not read is never delivered, whatever it is called now. Real files with
// real modes in a real checkout, staged by patchloop's own git; as root the private files belong to
// another user, as an earlier step's (the runner's) do while patchloop runs as root.

const root = process.getuid?.() === 0;
/** the runner's user, who owns what earlier steps left */
const OTHER = 4242;
const SECRET = 'AKIA-planted-secret-1f2e3d';

let repo: RepoFixture;
let n = 0;

beforeAll(() => {
  repo = makeRepo({
    'README.md': '# demo\n',
    'src/math.js': 'export const div = (a, b) => a / b;\n',
    'docs/guide.md': 'guide\n',
    'vault/kept.txt': 'tracked in a folder that is private in this checkout\n',
  });
});
afterAll(() => repo.cleanup());

function own(path: string): void {
  if (root) chownSync(path, OTHER, OTHER);
}

/** A file an earlier step left: another user's, readable by its owner (and group) only. */
function privateFile(path: string, mode = 0o640): void {
  writeFileSync(path, `{"private_key":"${SECRET}"}\n`);
  chmodSync(path, mode);
  own(path);
}

async function checkout(): Promise<{ work: GitRepo; dir: string }> {
  n += 1;
  const dir = repo.clone(`work-${n}`);
  writeFileSync(join(dir, '.git', 'info', 'exclude'), 'gha-creds-*.json\nsecrets/\n');
  const work = new GitRepo({ dir, identitySource: 'local' });
  await work.startBranch(`patchloop/stage-${n}`);
  return { work, dir };
}

/** Commits through patchloop's private git dir and brings the commit into the checkout's. */
async function commitRun(work: GitRepo, message: string) {
  const out = await work.commitChanges(message);
  await work.writeBack();
  return out;
}

/** Every blob of the commit, as text. */
function committed(dir: string, sha: string): string {
  const names = git(dir, 'ls-tree', '-r', '-z', '--name-only', sha).split('\0').filter(Boolean);
  return names.map((p) => `${p}\n${git(dir, 'cat-file', '-p', `${sha}:${p}`)}`).join('\n');
}

describe('staging delivers only what a command could have read', () => {
  it('a git-ignored 0640 credentials file renamed by a command is left out and named; the change beside it is committed', async () => {
    const { work, dir } = await checkout();
    privateFile(join(dir, 'gha-creds-abc.json'));
    await work.isolate();
    // what a command may do with write access to the folder alone
    renameSync(join(dir, 'gha-creds-abc.json'), join(dir, 'creds-leak.txt'));
    writeFileSync(join(dir, 'src/math.js'), 'export const div = (a, b) => (b ? a / b : 0);\n');
    const { commit, leftOut } = await commitRun(work, 'fix');
    expect(commit!.files.map((f) => f.path)).toEqual(['src/math.js']);
    expect(leftOut).toEqual([{ path: 'creds-leak.txt', reason: 'not readable by commands', detail: '0640' }]);
    expect(committed(dir, commit!.sha)).not.toContain(SECRET);
    expect(describeLeftOut(leftOut)).toBe(
      'Not committed: `creds-leak.txt` (not readable by commands: mode 0640).',
    );
  });

  it('the same file moved over a tracked file is left out: the tracked file stays as it was', async () => {
    const { work, dir } = await checkout();
    privateFile(join(dir, 'gha-creds-abc.json'), 0o600);
    await work.isolate();
    renameSync(join(dir, 'gha-creds-abc.json'), join(dir, 'README.md'));
    writeFileSync(join(dir, 'docs/guide.md'), 'guide, edited\n');
    const { commit, leftOut } = await commitRun(work, 'fix');
    expect(commit!.files.map((f) => f.path)).toEqual(['docs/guide.md']);
    expect(leftOut.map((l) => [l.path, l.reason])).toEqual([['README.md', 'not readable by commands']]);
    expect(git(dir, 'show', `${commit!.sha}:README.md`)).toBe('# demo');
  });

  it('a 0700 folder is private with everything under it: its 0644 files are left out, under its name and under a new one', async () => {
    const { work, dir } = await checkout();
    const secrets = join(dir, 'secrets');
    mkdirSync(join(secrets, 'deep'), { recursive: true });
    writeFileSync(join(secrets, 'token.txt'), `${SECRET}\n`);
    writeFileSync(join(secrets, 'deep', 'more.txt'), `${SECRET}\n`);
    for (const f of ['token.txt', 'deep/more.txt']) chmodSync(join(secrets, f), 0o644);
    chmodSync(join(secrets, 'deep'), 0o755);
    chmodSync(secrets, 0o700);
    own(secrets);
    await work.isolate();
    // a command cannot enter it, but may rename it (the rename needs only the folder above)
    renameSync(secrets, join(dir, 'public'));
    writeFileSync(join(dir, 'src/math.js'), 'export const div = (a, b) => (b ? a / b : 0);\n');
    const { commit, leftOut } = await commitRun(work, 'fix');
    expect(commit!.files.map((f) => f.path)).toEqual(['src/math.js']);
    expect(leftOut).toEqual([
      { path: 'public/deep/more.txt', reason: 'not readable by commands', privateFolder: 'public' },
      { path: 'public/token.txt', reason: 'not readable by commands', privateFolder: 'public' },
    ]);
    // the renamed folder kept its mode: that is what tells it
    expect(statSync(join(dir, 'public')).mode & 0o777).toBe(0o700);
    expect(committed(dir, commit!.sha)).not.toContain(SECRET);
    expect(describeLeftOut(leftOut)).toContain(
      '`public/token.txt` (not readable by commands: the folder `public` is private)',
    );
  });

  it('a tracked folder made private and renamed: its files are committed as removed, never re-added under the new name', async () => {
    const { work, dir } = await checkout();
    chmodSync(join(dir, 'vault'), 0o750);
    own(join(dir, 'vault'));
    writeFileSync(join(dir, 'vault', 'added.txt'), `${SECRET}\n`);
    chmodSync(join(dir, 'vault', 'added.txt'), 0o644);
    await work.isolate();
    renameSync(join(dir, 'vault'), join(dir, 'open'));
    const { commit, leftOut } = await commitRun(work, 'move');
    expect(commit!.files.map((f) => f.path)).toEqual(['vault/kept.txt']);
    expect(git(dir, 'ls-tree', '-r', '--name-only', commit!.sha)).not.toContain('open/');
    expect(leftOut.map((l) => l.path).sort()).toEqual(['open/added.txt', 'open/kept.txt']);
  });

  it('what the tools and commands write is committed: 0644 files of patchloop’s user, 0664 files and folders of another user', async () => {
    const { work, dir } = await checkout();
    await work.isolate();
    // write_file (patchloop's own user, 0644), and a command's output (the sandbox user's, umask 002)
    writeFileSync(join(dir, 'src/math.js'), 'export const div = (a, b) => (b ? a / b : 0);\n');
    mkdirSync(join(dir, 'gen', 'out'), { recursive: true });
    writeFileSync(join(dir, 'gen', 'out', 'report.txt'), 'ok\n');
    chmodSync(join(dir, 'gen', 'out', 'report.txt'), 0o664);
    for (const p of ['gen', 'gen/out', 'gen/out/report.txt']) own(join(dir, p));
    chmodSync(join(dir, 'gen'), 0o775);
    // a deletion of a tracked file
    rmSync(join(dir, 'docs/guide.md'));
    const { commit, leftOut } = await commitRun(work, 'work');
    expect(leftOut).toEqual([]);
    expect(commit!.files.map((f) => f.path).sort()).toEqual([
      'docs/guide.md',
      'gen/out/report.txt',
      'src/math.js',
    ]);
  });

  it('links are staged as their text: one to a private file is a link in the commit, one inside a private folder is left out', async () => {
    const { work, dir } = await checkout();
    privateFile(join(dir, 'gha-creds-abc.json'));
    const closed = join(dir, 'secrets');
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    symlinkSync(`../${SECRET}`, join(closed, 'named-like-a-secret'));
    await work.isolate();
    symlinkSync('gha-creds-abc.json', join(dir, 'creds-link'));
    renameSync(closed, join(dir, 'renamed'));
    const { commit, leftOut } = await commitRun(work, 'links');
    expect(git(dir, 'ls-tree', commit!.sha, 'creds-link')).toMatch(/^120000 blob /);
    expect(git(dir, 'show', `${commit!.sha}:creds-link`)).toBe('gha-creds-abc.json');
    expect(leftOut).toEqual([
      { path: 'renamed/named-like-a-secret', reason: 'not readable by commands', privateFolder: 'renamed' },
    ]);
    expect(committed(dir, commit!.sha)).not.toContain(SECRET);
  });

  it('names with a newline, backticks and markup are staged as the one file each names, and shown escaped', async () => {
    const { work, dir } = await checkout();
    await work.isolate();
    const odd = ['line\nbreak.txt', 'tick`s.md', '<!-- patchloop:run 1 -->.md', '*', ':(glob)x'];
    for (const name of odd) writeFileSync(join(dir, name), `${name}\n`);
    writeFileSync(join(dir, 'x'), 'only the file named x\n');
    const hidden = 'a `b`\n<!-- hidden -->';
    privateFile(join(dir, hidden), 0o600);
    const { commit, leftOut } = await commitRun(work, 'odd names');
    expect(commit!.files.map((f) => f.path).sort()).toEqual([...odd, 'x'].sort());
    expect(leftOut.map((l) => l.path)).toEqual([hidden]);
    const line = describeLeftOut(leftOut)!;
    expect(line).toBe(
      'Not committed: ``a `b`\\u000a<!-- hidden -->`` (not readable by commands: mode 0600).',
    );
    expect(line).not.toContain('\n');
  });
});

describe('the folders on a path’s way', () => {
  it('the workspace root is the sandbox’s whatever its mode; o+x is what lets others in; each folder is looked at once', async () => {
    n += 1;
    const dir = join(repo.root, `finder-${n}`);
    mkdirSync(join(dir, 'a', 'b', 'c'), { recursive: true });
    mkdirSync(join(dir, 'p', 'q'), { recursive: true });
    chmodSync(dir, 0o700);
    chmodSync(join(dir, 'p'), 0o711);
    chmodSync(join(dir, 'p', 'q'), 0o750);
    const find = folderBlocker(dir);
    expect(await find('')).toBeUndefined();
    expect(await find('a/b/c')).toBeUndefined();
    // a 0711 folder may be entered, a 0750 one not
    expect(await find('p')).toBeUndefined();
    expect(await find('p/q')).toEqual({ dir: 'p/q', kind: 'private' });
    expect(await find('p/q/r/s')).toEqual({ dir: 'p/q', kind: 'private' });
    // a folder replaced by a link is not a way through; a folder that is gone stops nothing
    symlinkSync('a', join(dir, 'l'));
    expect(await find('l/b')).toEqual({ dir: 'l', kind: 'replaced' });
    expect(await find('gone/x')).toBeUndefined();
    // the answer for a folder is kept: a later change is not looked at again
    chmodSync(join(dir, 'a'), 0o700);
    expect(await find('a/b/c')).toBeUndefined();
  });

  it('a tracked folder a command replaced by a link to a private folder: the link is committed as a link, the folder’s files as removed, and delivery goes on', async () => {
    const { work, dir } = await checkout();
    const closed = join(dir, 'secrets');
    mkdirSync(closed);
    writeFileSync(join(closed, 'kept.txt'), `${SECRET}\n`);
    chmodSync(closed, 0o700);
    await work.isolate();
    rmSync(join(dir, 'docs'), { recursive: true });
    symlinkSync('secrets', join(dir, 'docs'));
    // and one replaced by a link to nothing
    rmSync(join(dir, 'vault'), { recursive: true });
    symlinkSync('nowhere', join(dir, 'vault'));
    writeFileSync(join(dir, 'src/math.js'), 'export const div = (a, b) => (b ? a / b : 0);\n');
    const { commit, leftOut } = await commitRun(work, 'links');
    expect(leftOut).toEqual([]);
    expect(git(dir, 'ls-tree', commit!.sha, 'docs')).toMatch(/^120000 blob .*\tdocs$/);
    expect(git(dir, 'ls-tree', commit!.sha, 'vault')).toMatch(/^120000 blob .*\tvault$/);
    expect(git(dir, 'ls-tree', '-r', '--name-only', commit!.sha).split('\n').sort()).toEqual([
      'README.md',
      'docs',
      'src/math.js',
      'vault',
    ]);
    expect(committed(dir, commit!.sha)).not.toContain(SECRET);
  });

  it('choosePaths stages the removal of each tracked file of a folder that is gone', async () => {
    n += 1;
    const { work, dir } = await checkout();
    await work.isolate();
    rmSync(join(dir, 'vault'), { recursive: true });
    const status = parseStatus(
      git(dir, 'status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames'),
    );
    const { stage, leftOut } = await choosePaths(dir, status.entries, {});
    expect(stage).toEqual(['vault/kept.txt']);
    expect(leftOut).toEqual([]);
  });
});

describe('codeName', () => {
  it('shows any name as one inline code span', () => {
    expect(codeName('plain.txt')).toBe('`plain.txt`');
    expect(codeName('a``b')).toBe('```a``b```');
    expect(codeName('`x`')).toBe('`` `x` ``');
    expect(codeName('a\r\nb\u2028c\u0000')).toBe('`a\\u000d\\u000ab\\u2028c\\u0000`');
  });
});
