import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFindFilesTool } from '../../src/tools/find-files.js';
import { createGrepTool } from '../../src/tools/grep.js';
import { createListDirTool } from '../../src/tools/list-dir.js';
import { createWriteFileTool } from '../../src/tools/write-file.js';
import { createToolGit, type Git } from '../../src/git/index.js';
import { ToolRegistry } from '../../src/protocol/execute.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, git, gitRepo, tempDir, textOf, writeFiles } from './helpers.js';

let repo: ReturnType<typeof tempDir>;
let plain: ReturnType<typeof tempDir>;

const committed = {
  '.gitignore': 'dist/\n*.log\n!keep.log\n',
  'README.md': '# r\n',
  'src/index.ts': '',
  'src/util/strings.ts': '',
  'src/util/strings.test.ts': '',
  'src/b.js': '',
  'gone.ts': '',
  'keep.log': '',
};
const extra = { 'notes.ts': '', 'dist/bundle.js': '', 'debug.log': '', 'src/zz.ts': '' };

beforeAll(() => {
  repo = tempDir();
  gitRepo(repo.path, committed);
  writeFiles(repo.path, extra);
  rmSync(join(repo.path, 'gone.ts'));
  mkdirSync(join(repo.path, 'empty'));
  plain = tempDir();
  writeFiles(plain.path, { ...committed, ...extra });
  rmSync(join(plain.path, 'gone.ts'));
  mkdirSync(join(plain.path, 'empty'));
});
afterAll(() => {
  repo.cleanup();
  plain.cleanup();
});

describe.each([
  ['git checkout', () => repo.path],
  ['plain folder', () => plain.path],
])('find_files in a %s', (_label, root) => {
  const find = (args: Record<string, unknown>) =>
    call([createFindFilesTool(createWorkspace(root()))], 'find_files', args);

  it('matches names at any depth, sorted, skipping ignored and deleted files', async () => {
    expect(textOf(await find({ pattern: '*.ts' }))).toBe(
      ['notes.ts', 'src/index.ts', 'src/util/strings.test.ts', 'src/util/strings.ts', 'src/zz.ts'].join('\n'),
    );
    expect(textOf(await find({ pattern: '*.log' }))).toBe('keep.log');
  });

  it('matches paths relative to `path`', async () => {
    expect(textOf(await find({ pattern: 'util/*.ts', path: 'src' }))).toBe(
      'src/util/strings.test.ts\nsrc/util/strings.ts',
    );
    expect(textOf(await find({ pattern: '**/*.{js,md}' }))).toBe('README.md\nsrc/b.js');
  });

  it('lists an ignored folder when it is asked for by name', async () => {
    expect(textOf(await find({ pattern: '*', path: 'dist' }))).toBe('dist/bundle.js');
  });

  it('cuts at limit with a notice, and says when nothing matches', async () => {
    const r = await find({ pattern: '*.ts', limit: 2 });
    expect(textOf(r)).toBe(
      'notes.ts\nsrc/index.ts\n\n[Showing 2 of 5 files. Raise limit (up to 1000), or give a narrower `path` or a more specific pattern.]',
    );
    expect(textOf(await find({ pattern: '*.rs' }))).toBe('No files match "*.rs" in the workspace.');
    expect(textOf(await find({ pattern: '*.ts', path: 'README.md' }))).toMatch(/is a file, not a folder/);
  });
});

describe.each([
  ['git checkout', () => repo.path],
  ['plain folder', () => plain.path],
])('list_dir in a %s', (_label, root) => {
  const list = (args: Record<string, unknown>) =>
    call([createListDirTool(createWorkspace(root()))], 'list_dir', args);

  it('lists sorted entries with folders marked, leaving out ignored ones', async () => {
    const r = await list({});
    expect(textOf(r)).toBe(
      [
        '.gitignore',
        'README.md',
        'empty/',
        'keep.log',
        'notes.ts',
        'src/',
        '',
        '[2 entries ignored by .gitignore not shown.]',
      ].join('\n'),
    );
  });

  it('lists a subfolder and cuts at limit', async () => {
    expect(textOf(await list({ path: 'src' }))).toBe('b.js\nindex.ts\nutil/\nzz.ts');
    expect(textOf(await list({ path: 'src', limit: 2 }))).toBe(
      'b.js\nindex.ts\n\n[Showing 2 of 4 entries. Raise limit (up to 1000) to see more.]',
    );
  });

  it('says when a folder is empty, and shows an ignored folder when asked for it', async () => {
    expect(textOf(await list({ path: 'empty' }))).toBe('[empty is empty.]');
    expect(textOf(await list({ path: 'dist' }))).toBe(
      'bundle.js\n\n[dist itself is ignored by .gitignore; all its entries are shown.]',
    );
    expect(textOf(await list({ path: 'README.md' }))).toMatch(/is a file; use read_file/);
  });
});

describe('listing in a checkout', () => {
  it('answers .gitignore from one cached git listing until a tool that may change the tree runs', async () => {
    const inner = createToolGit(repo.path);
    const calls: string[] = [];
    const counted: Git = { ...inner, run: (args, o) => (calls.push(args[0]!), inner.run(args, o)) };
    const ws = createWorkspace(repo.path);
    const registry = new ToolRegistry([
      createListDirTool(ws, { git: counted }),
      createFindFilesTool(ws, { git: counted }),
      createWriteFileTool(ws),
    ]);
    const first = textOf(await call(registry, 'list_dir', {}));
    const afterFirst = calls.length;
    for (let i = 0; i < 5; i++) {
      expect(textOf(await call(registry, 'list_dir', {}))).toBe(first);
      expect(textOf(await call(registry, 'list_dir', { path: 'src' }))).toBe('b.js\nindex.ts\nutil/\nzz.ts');
      expect(textOf(await call(registry, 'find_files', { pattern: '*.ts', path: 'src' }))).toContain(
        'src/zz.ts',
      );
    }
    expect(calls.slice(afterFirst)).toEqual([]);

    await call(registry, 'write_file', { path: 'src/new.ts', content: '' });
    try {
      expect(textOf(await call(registry, 'list_dir', { path: 'src' }))).toBe(
        'b.js\nindex.ts\nnew.ts\nutil/\nzz.ts',
      );
      expect(textOf(await call(registry, 'find_files', { pattern: 'new.*' }))).toBe('src/new.ts');
      expect(calls.slice(afterFirst).filter((c) => c === 'ls-files')).toHaveLength(2);
    } finally {
      rmSync(join(repo.path, 'src', 'new.ts'));
    }
  });

  it('uses git, so a file ignored only through git config is left out', async () => {
    git(repo.path, 'config', 'core.excludesFile', join(repo.path, '.git', 'extra-excludes'));
    writeFiles(repo.path, { '.git/extra-excludes': 'notes.ts\n' });
    try {
      const list = await call([createListDirTool(createWorkspace(repo.path))], 'list_dir', {});
      expect(textOf(list)).not.toContain('notes.ts');
      const find = await call([createFindFilesTool(createWorkspace(repo.path))], 'find_files', {
        pattern: 'notes.*',
      });
      expect(textOf(find)).toBe('No files match "notes.*" in the workspace.');
    } finally {
      git(repo.path, 'config', '--unset', 'core.excludesFile');
    }
  });
});

describe('caps on a 20k-file repository, whatever limit asks', () => {
  let big: ReturnType<typeof tempDir>;
  const KB50 = 50 * 1024;
  beforeAll(() => {
    big = tempDir();
    git(big.path, 'init', '-q', '-b', 'main');
    const line = `export const needle = "${'n'.repeat(400)}";\n`;
    for (let p = 0; p < 10; p++) {
      const folder = join(big.path, `packages/package-number-${p}/src/components`);
      mkdirSync(folder, { recursive: true });
      for (let f = 0; f < 2000; f++)
        writeFileSync(join(folder, `a-rather-long-component-file-name-with-words-${f}.ts`), line.repeat(3));
    }
  }, 120_000);
  afterAll(() => big.cleanup());

  const ws = () => createWorkspace(big.path);
  const size = (text: string) => Buffer.byteLength(text, 'utf8');

  it('find_files stays under 50 KB and says how to get the rest', async () => {
    const r = await call([createFindFilesTool(ws())], 'find_files', { pattern: '*.ts', limit: 100_000 });
    const text = textOf(r);
    expect(size(text)).toBeLessThanOrEqual(KB50);
    expect(text).toMatch(
      /\[Showing \d+ of 20000 files \(find_files shows at most 1000 paths \/ 50\.0 KB\)\. To see the rest, give a narrower `path`/,
    );
  });

  it('list_dir stays under 50 KB and says how to get the rest', async () => {
    const r = await call([createListDirTool(ws())], 'list_dir', {
      path: 'packages/package-number-0/src/components',
      limit: 100_000,
    });
    const text = textOf(r);
    expect(size(text)).toBeLessThanOrEqual(KB50);
    expect(text).toMatch(
      /\[Showing \d+ of 2000 entries \(list_dir shows at most 1000 \/ 50\.0 KB\)\. To see the rest, use find_files with this `path`/,
    );
    const all = await call([createListDirTool(ws())], 'list_dir', { path: 'packages', limit: 100_000 });
    expect(textOf(all).split('\n')).toHaveLength(10);
  });

  it.each(['git', 'javascript'] as const)(
    'grep (%s) shows at most 100 matches and 50 KB, with or without context',
    async (backend) => {
      const tool = createGrepTool(ws(), { backend });
      for (const context of [0, 20]) {
        const r = await call([tool], 'grep', { pattern: 'needle', limit: 1000, context });
        const text = textOf(r);
        expect(size(text)).toBeLessThanOrEqual(KB50);
        expect((r.details as { matches: number }).matches).toBeLessThanOrEqual(100);
        expect(text.split('\n').filter((l) => /^\S+:\d+: /.test(l)).length).toBeLessThanOrEqual(100);
        expect(text).toMatch(
          /there are more \(grep shows at most 100\)\. Narrow the pattern, or search a narrower `path` or `glob`/,
        );
      }
    },
    60_000,
  );
});
