import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, gitRepo, tempDir, textOf } from './helpers.js';

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
