import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../src/tools/edit-file.js';
import { createGrepTool } from '../../src/tools/grep.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { createListDirTool } from '../../src/tools/list-dir.js';
import { createReadFileTool } from '../../src/tools/read-file.js';
import { isInside, readRegularFileSync } from '../../src/tools/safe-fs.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { createWriteFileTool } from '../../src/tools/write-file.js';
import { call, gitRepo, tempDir, textOf, writeFiles } from './helpers.js';

let ws: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;

beforeAll(() => {
  ws = tempDir();
  outside = tempDir('patchloop-outside-');
  writeFileSync(join(outside.path, 'secret.txt'), 'OUTSIDE-SECRET needle\n');
  gitRepo(ws.path, { 'src/a.ts': 'export const a = 1; // needle\n', 'README.md': 'hello\n' });
  symlinkSync(join(outside.path, 'secret.txt'), join(ws.path, 'link.txt'));
  symlinkSync(outside.path, join(ws.path, 'linkdir'));
  symlinkSync(join(outside.path, 'not-yet.txt'), join(ws.path, 'dangling.txt'));
});

afterAll(() => {
  ws.cleanup();
  outside.cleanup();
});

describe('workspace paths', () => {
  it('resolves relative and in-workspace absolute paths', async () => {
    const w = createWorkspace(ws.path);
    expect((await w.resolve('src/../src/a.ts', 'read')).rel).toBe('src/a.ts');
    expect((await w.resolve(join(ws.path, 'src/a.ts'), 'read')).rel).toBe('src/a.ts');
    expect((await w.resolve(undefined, 'read')).rel).toBe('');
    const missing = await w.resolve('new/dir/file.ts', 'write');
    expect(missing.exists).toBe(false);
    expect(missing.real).toBe(join(ws.path, 'new/dir/file.ts'));
  });

  it.each([
    ['a\0b', /NUL byte/],
    ['../x', /outside the workspace/],
    ['src/../../x', /outside the workspace/],
    ['/etc/passwd', /outside the workspace/],
    ['.git/config', /inside \.git/],
    ['src/.GIT/x', /inside \.git/],
    ['link.txt', /symbolic link that leads outside/],
    ['linkdir/secret.txt', /symbolic link that leads outside/],
    ['dangling.txt', /symbolic link that leads outside/],
  ])('refuses %j', async (path, message) => {
    const w = createWorkspace(ws.path);
    await expect(w.resolve(path, 'write')).rejects.toThrow(message);
  });

  it('refuses a symlink inside the workspace that leads into .git', async () => {
    symlinkSync(join(ws.path, '.git', 'config'), join(ws.path, 'cfg'));
    await expect(createWorkspace(ws.path).resolve('cfg', 'read')).rejects.toThrow(/into \.git/);
  });

  it('refuses protected paths for writes only, saying why', async () => {
    const w = createWorkspace(ws.path);
    await expect(w.resolve('.github/workflows/ci.yml', 'write')).rejects.toThrow(/`workflows` permission/);
    expect((await w.resolve('.github/workflows/ci.yml', 'read')).rel).toBe('.github/workflows/ci.yml');
    const custom = createWorkspace(ws.path, { protectedPaths: ['dist/**'] });
    await expect(custom.resolve('dist/index.js', 'write')).rejects.toThrow(
      /protected-paths pattern "dist\/\*\*"/,
    );
    expect((await custom.resolve('.github/workflows/ci.yml', 'write')).exists).toBe(false);
  });

  it('refuses a write through an in-workspace symlink into a protected folder', async () => {
    mkdirSync(join(ws.path, '.github/workflows'), { recursive: true });
    symlinkSync(join(ws.path, '.github/workflows'), join(ws.path, 'wf'));
    await expect(createWorkspace(ws.path).resolve('wf/ci.yml', 'write')).rejects.toThrow(/protected/);
  });
});

describe('every tool refuses a symlink that leads outside', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['read_file', { path: 'link.txt' }],
    ['read_file', { path: 'linkdir/secret.txt' }],
    ['edit_file', { path: 'link.txt', oldText: 'needle', newText: 'x' }],
    ['write_file', { path: 'link.txt', content: 'x' }],
    ['write_file', { path: 'dangling.txt', content: 'x' }],
    ['write_file', { path: 'linkdir/new.txt', content: 'x' }],
    ['grep', { pattern: 'needle', path: 'linkdir' }],
    ['grep', { pattern: 'needle', path: 'link.txt' }],
    ['find_files', { pattern: '*', path: 'linkdir' }],
    ['list_dir', { path: 'linkdir' }],
  ];
  it.each(cases)('%s %j', async (name, input) => {
    const tools = createWorkspaceTools({ root: ws.path });
    const result = await call(tools, name, input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/symbolic link that leads outside/);
    expect(readFileSync(join(outside.path, 'secret.txt'), 'utf8')).toBe('OUTSIDE-SECRET needle\n');
    expect(existsSync(join(outside.path, 'not-yet.txt'))).toBe(false);
    expect(existsSync(join(outside.path, 'new.txt'))).toBe(false);
  });

  it.each(['git', 'javascript', 'ripgrep'] as const)(
    'grep over the whole tree (%s) does not follow them',
    async (backend) => {
      const { createGrepTool } = await import('../../src/tools/grep.js');
      const tool = createGrepTool(createWorkspace(ws.path), { backend });
      const text = textOf(await call([tool], 'grep', { pattern: 'needle' }));
      expect(text).toContain('src/a.ts:1:');
      expect(text).not.toContain('OUTSIDE-SECRET');
    },
  );

  it('find_files and list_dir show the links without following them', async () => {
    const tools = createWorkspaceTools({ root: ws.path });
    expect(textOf(await call(tools, 'find_files', { pattern: '**' }))).not.toContain('secret.txt');
    expect(textOf(await call(tools, 'list_dir', {}))).toContain('link.txt@');
  });

  it.each([
    ['read_file', { path: '../etc/passwd' }, /outside the workspace/],
    ['read_file', { path: '/etc/passwd' }, /outside the workspace/],
    ['read_file', { path: 'src/a.ts\u0000.png' }, /NUL byte/],
    ['write_file', { path: '../escape.txt', content: 'x' }, /outside the workspace/],
    ['edit_file', { path: '.git/config', oldText: 'a', newText: 'b' }, /inside \.git/],
    ['list_dir', { path: '..' }, /outside the workspace/],
    ['grep', { pattern: 'x', path: '/tmp' }, /outside the workspace/],
    ['find_files', { pattern: '*', path: '../..' }, /outside the workspace/],
  ])('%s %j is refused', async (name, input, message) => {
    const result = await call(createWorkspaceTools({ root: ws.path }), name, input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });
});

describe('checks made on the opened descriptor, not on the name', () => {
  let root: ReturnType<typeof tempDir>;
  let away: ReturnType<typeof tempDir>;
  beforeEach(() => {
    root = tempDir();
    away = tempDir('patchloop-away-');
    writeFileSync(join(away.path, 'secret.txt'), 'AWAY-SECRET\n');
  });
  afterEach(() => {
    root.cleanup();
    away.cleanup();
  });

  it('a folder swapped for a symlink after the check is not followed out of the workspace', async () => {
    writeFiles(root.path, { 'sub/secret.txt': 'inside\n' });
    const ws = createWorkspace(root.path);
    const read = await ws.resolve('sub/secret.txt', 'read');
    const write = await ws.resolve('sub/new/x.txt', 'write');
    renameSync(join(root.path, 'sub'), join(root.path, 'sub.real'));
    symlinkSync(away.path, join(root.path, 'sub'));
    await expect(ws.open(read, 'read')).rejects.toThrow(/outside the workspace \(checked on the opened file/);
    await expect(ws.makeParents(write)).rejects.toThrow(/changed into a symbolic link/);
    await expect(ws.open(write, 'write')).rejects.toThrow(/outside the workspace|does not exist/);
    await expect(ws.readDir(join(root.path, 'sub'), 'sub')).rejects.toThrow(/changed into a symbolic link/);
    expect(readdirSync(away.path)).toEqual(['secret.txt']);
  });

  it('read_file never returns what a folder flipped to /proc/self holds, while a real process flips it', async () => {
    writeFiles(root.path, { 'd/environ': 'INSIDE\n' });
    const tools = [createReadFileTool(createWorkspace(root.path))];
    // A process left running by a command: flips d between the real folder and a symlink to
    // /proc/self (which, for the reader, is the reader's own environment) as fast as it can, until
    // told to stop. The reads go on until both outcomes were seen at least 200 calls in (so the
    // race really ran), however slow a busy machine makes either side; bounded all the same.
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); process.chdir(${JSON.stringify(root.path)});
         let flips = 0, stop = false;
         process.on('SIGTERM', () => { stop = true; });
         const step = () => {
           const end = Date.now() + 20;
           while (Date.now() < end) {
             fs.renameSync('d', 'd.real'); fs.symlinkSync('/proc/self', 'd');
             fs.unlinkSync('d'); fs.renameSync('d.real', 'd'); flips++;
           }
           if (stop) process.stdout.write(String(flips)); else setImmediate(step);
         };
         step();`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let flips = '';
    flipper.stdout.on('data', (c: Buffer) => (flips += c.toString()));
    const exited = new Promise((resolve) => flipper.once('exit', resolve));
    const seen = new Map<string, number>();
    let calls = 0;
    const enough = () => calls >= 200 && (seen.get('inside') ?? 0) > 0 && (seen.get('refused') ?? 0) > 0;
    while (!enough() && calls < 50_000) {
      const r = await call(tools, 'read_file', { path: 'd/environ' });
      const text = textOf(r);
      const kind = !r.isError ? (text === 'INSIDE' ? 'inside' : `LEAK: ${text.slice(0, 80)}`) : 'refused';
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      calls++;
    }
    flipper.kill('SIGTERM');
    await exited;
    expect(Number(flips)).toBeGreaterThan(0);
    expect([...seen.keys()].filter((k) => k.startsWith('LEAK'))).toEqual([]);
    // Both outcomes happened, so the race was really run.
    expect(seen.get('inside') ?? 0).toBeGreaterThan(0);
    expect(seen.get('refused') ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it('a FIFO is refused at once and never blocks the event loop', async () => {
    execFileSync('mkfifo', [join(root.path, 'notes.txt')]);
    const tools = createWorkspaceTools({ root: root.path });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    try {
      for (const [name, input] of [
        ['read_file', { path: 'notes.txt' }],
        ['write_file', { path: 'notes.txt', content: 'x' }],
        ['edit_file', { path: 'notes.txt', oldText: 'a', newText: 'b' }],
        ['grep', { pattern: 'x', path: 'notes.txt' }],
      ] as const) {
        const r = await call(tools, name, input);
        expect(r.isError, name).toBe(true);
        expect(textOf(r), name).toMatch(/not a regular file \(a pipe, device or socket\)/);
      }
      expect(() => readRegularFileSync(join(root.path, 'notes.txt'), 1024)).toThrow(/not a regular file/);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      clearInterval(timer);
    }
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(0);
  });

  it('a renamed .git stays refused: it is recognised by what it is, not by its name', async () => {
    gitRepo(root.path, { 'a.txt': 'a\n' });
    const ws = createWorkspace(root.path);
    const tools = [
      createReadFileTool(ws),
      createWriteFileTool(ws),
      createEditFileTool(ws),
      createListDirTool(ws),
      createGrepTool(ws, { backend: 'javascript' }),
    ];
    renameSync(join(root.path, '.git'), join(root.path, 'g'));
    const config = readFileSync(join(root.path, 'g/config'), 'utf8');
    for (const [name, input] of [
      ['read_file', { path: 'g/config' }],
      ['edit_file', { path: 'g/config', oldText: '[core]', newText: '[core]\n\thooksPath = /tmp' }],
      ['write_file', { path: 'g/config', content: '[core]\n' }],
      ['write_file', { path: 'g/hooks/new/pre-commit', content: '#!/bin/sh\n' }],
      ['list_dir', { path: 'g' }],
    ] as const) {
      const r = await call(tools, name, input);
      expect(r.isError, name).toBe(true);
      expect(textOf(r), name).toMatch(/git directory \(checked on the opened file/);
    }
    const grep = await call(tools, 'grep', { pattern: 'repositoryformatversion' });
    expect(textOf(grep)).toMatch(/^No matches/);
    expect(readFileSync(join(root.path, 'g/config'), 'utf8')).toBe(config);
    expect(existsSync(join(root.path, 'g/hooks/new'))).toBe(false);
  });

  it('a recorded git directory elsewhere is refused by real path', async () => {
    writeFiles(root.path, { 'meta/config': '[core]\n', 'a.txt': 'a\n' });
    const ws = createWorkspace(root.path, { gitDir: join(root.path, 'meta') });
    const r = await call([createReadFileTool(ws)], 'read_file', { path: 'meta/config' });
    expect(textOf(r)).toMatch(/git directory/);
    expect(textOf(await call([createReadFileTool(ws)], 'read_file', { path: 'a.txt' }))).toBe('a');
  });
});

describe('files the workspace holds for others', () => {
  let root: ReturnType<typeof tempDir>;
  let store: ReturnType<typeof tempDir>;
  beforeEach(() => {
    root = tempDir();
    store = tempDir('patchloop-store-');
    gitRepo(root.path, { 'src/a.ts': 'export const a = 1; // needle\n' });
    // a package store's file linked into node_modules, as pnpm and uv do
    writeFileSync(join(store.path, 'index.js'), 'module.exports = 1; // needle\n');
    mkdirSync(join(root.path, 'node_modules/pkg'), { recursive: true });
    linkSync(join(store.path, 'index.js'), join(root.path, 'node_modules/pkg/index.js'));
    // an earlier step's credentials, readable by its owner (and group) only
    writeFileSync(join(root.path, 'gha-creds-1.json'), '{"token":"CREDS-SECRET needle"}\n', { mode: 0o640 });
    chmodSync(join(root.path, 'gha-creds-1.json'), 0o640);
  });
  afterEach(() => {
    root.cleanup();
    store.cleanup();
  });

  it('a file with other names (a hard link into a store) is read but never written', async () => {
    const tools = createWorkspaceTools({ root: root.path });
    const read = await call(tools, 'read_file', { path: 'node_modules/pkg/index.js' });
    expect(read.isError).toBe(false);
    expect(textOf(read)).toContain('module.exports = 1');
    for (const [name, input] of [
      ['write_file', { path: 'node_modules/pkg/index.js', content: 'module.exports = 666;\n' }],
      ['edit_file', { path: 'node_modules/pkg/index.js', oldText: '= 1', newText: '= 666' }],
    ] as const) {
      const r = await call(tools, name, input);
      expect(r.isError, name).toBe(true);
      expect(textOf(r)).toMatch(/2 names \(a hard link\).*outside the workspace too/);
    }
    expect(readFileSync(join(store.path, 'index.js'), 'utf8')).toBe('module.exports = 1; // needle\n');
  });

  it('a file only its owner may read (an earlier step’s credentials) is neither read nor searched', async () => {
    const tools = createWorkspaceTools({ root: root.path });
    const read = await call(tools, 'read_file', { path: 'gha-creds-1.json' });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/readable by its owner only \(only its owner may read it \(mode 640\)\)/);
    expect(textOf(read)).not.toContain('CREDS-SECRET');
    for (const input of [{ pattern: 'needle' }, { pattern: 'needle', path: 'gha-creds-1.json' }]) {
      const found = await call(tools, 'grep', input);
      expect(textOf(found)).not.toContain('CREDS-SECRET');
    }
    // what the checkout holds is still read and searched
    expect(textOf(await call(tools, 'grep', { pattern: 'needle' }))).toContain('src/a.ts');
    // a world-readable file written by the tools stays readable to them
    expect((await call(tools, 'write_file', { path: 'new.txt', content: 'x\n' })).isError).toBe(false);
    expect(textOf(await call(tools, 'read_file', { path: 'new.txt' }))).toContain('x');
  });
});

describe('isInside', () => {
  it.each([
    ['/repo', '/repo', true],
    ['/repo/a/b', '/repo', true],
    ['/repo/..cache/t.jsonl', '/repo', true],
    ['/repo/...', '/repo', true],
    ['/repo/../x', '/repo', false],
    ['/repo-other/x', '/repo', false],
    ['/', '/repo', false],
    ['/x', '/', true],
  ])('%s inside %s: %s', (child, parent, inside) => {
    expect(isInside(child, parent)).toBe(inside);
  });
});

describe('readRegularFileSync', () => {
  it('reads a regular file, refusing symlinks, large files and files outside `within`', () => {
    const root = tempDir();
    const away = tempDir('patchloop-away-');
    try {
      writeFiles(root.path, { 'AGENTS.md': 'be brief\n', 'big.txt': 'x'.repeat(2000) });
      writeFileSync(join(away.path, 'secret.txt'), 'AWAY-SECRET\n');
      symlinkSync(join(away.path, 'secret.txt'), join(root.path, 'link.md'));
      symlinkSync(away.path, join(root.path, 'awaydir'));
      expect(readRegularFileSync(join(root.path, 'AGENTS.md'), 100).toString()).toBe('be brief\n');
      expect(() => readRegularFileSync(join(root.path, 'link.md'), 100)).toThrow(/ELOOP/);
      expect(() => readRegularFileSync(join(root.path, 'big.txt'), 1000)).toThrow(/more than the 1000 read/);
      expect(() => readRegularFileSync(root.path, 1000)).toThrow(/is a directory/);
      expect(() =>
        readRegularFileSync(join(root.path, 'awaydir/secret.txt'), 100, { within: root.path }),
      ).toThrow(/lies outside/);
      expect(() =>
        readRegularFileSync(join(root.path, 'link.md'), 100, { within: root.path, followSymlinks: true }),
      ).toThrow(/lies outside/);
      // A pseudo-file reports size 0, so nothing of it is read.
      expect(readRegularFileSync('/proc/self/environ', 1000).length).toBe(0);
    } finally {
      root.cleanup();
      away.cleanup();
    }
  });
});
