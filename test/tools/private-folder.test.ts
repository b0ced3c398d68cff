import { chmodSync, chownSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { call, gitRepo, tempDir, textOf } from './helpers.js';

// A folder others may not enter is private with everything under it: the file tools, which run
// as patchloop's own user (root in CI), use none of it, as commands cannot. Its files are 0644,
// so only the folder tells.

const SECRET = 'planted-folder-secret-7c1d';
let ws: ReturnType<typeof tempDir>;

beforeAll(() => {
  ws = tempDir();
  chmodSync(ws.path, 0o700); // the workspace root is the sandbox's whatever its mode
  gitRepo(ws.path, { 'src/a.ts': 'export const a = 1;\n' });
  for (const [dir, mode] of [
    ['vault', 0o700],
    ['vault/inner', 0o755],
    ['gated', 0o711],
  ] as const) {
    mkdirSync(join(ws.path, dir), { recursive: true });
    // the 0711 folder's file is readable by all, as its folder lets others in
    const content = dir === 'gated' ? 'token=open\n' : `token=${SECRET}\n`;
    writeFileSync(join(ws.path, dir, 'token.txt'), content, { mode: 0o644 });
    chmodSync(join(ws.path, dir, 'token.txt'), 0o644);
    chmodSync(join(ws.path, dir), mode);
    if (process.getuid?.() === 0) chownSync(join(ws.path, dir), 4242, 4242);
  }
});
afterAll(() => ws.cleanup());

describe('the file tools and a folder others may not enter', () => {
  it('read_file, grep, list_dir, edit_file and write_file refuse everything under it, renamed or not', async () => {
    const tools = createWorkspaceTools({ root: ws.path });
    const refused = async (name: string, input: Record<string, unknown>) => {
      const r = await call(tools, name, input);
      expect(textOf(r), `${name} ${JSON.stringify(input)}`).not.toContain(SECRET);
      return r;
    };
    for (const dir of ['vault', 'vault/inner']) {
      const r = await refused('read_file', { path: `${dir}/token.txt` });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/lies in a folder that others may not enter/);
      expect((await refused('list_dir', { path: dir })).isError).toBe(true);
      expect(
        (await refused('edit_file', { path: `${dir}/token.txt`, oldText: 'token', newText: 'x' })).isError,
      ).toBe(true);
      expect((await refused('write_file', { path: `${dir}/new.txt`, content: 'x' })).isError).toBe(true);
      expect((await refused('write_file', { path: `${dir}/deeper/new.txt`, content: 'x' })).isError).toBe(
        true,
      );
    }
    await refused('grep', { pattern: 'token=' });
    await refused('grep', { pattern: 'token=', path: 'vault' });
    // the same folder under another name (a command may rename it: that needs only the folder above)
    renameSync(join(ws.path, 'vault'), join(ws.path, 'renamed'));
    try {
      expect((await refused('read_file', { path: 'renamed/inner/token.txt' })).isError).toBe(true);
      await refused('grep', { pattern: 'token=' });
    } finally {
      renameSync(join(ws.path, 'renamed'), join(ws.path, 'vault'));
    }
    // nothing was written there
    expect(() => statSync(join(ws.path, 'vault', 'new.txt'))).toThrow();
    expect(() => statSync(join(ws.path, 'vault', 'deeper'))).toThrow();
  });

  it('a folder others may enter but not list (0711) is not private, and the root is the workspace whatever its mode', async () => {
    const tools = createWorkspaceTools({ root: ws.path });
    const r = await call(tools, 'read_file', { path: 'gated/token.txt' });
    expect(r.isError).toBe(false);
    expect(textOf(r)).toContain('token=open');
    expect((await call(tools, 'read_file', { path: 'src/a.ts' })).isError).toBe(false);
  });

  it('what the tools make is readable by all whatever the umask, so that it is delivered', async () => {
    const tools = createWorkspaceTools({ root: ws.path });
    const before = process.umask(0o077);
    try {
      const r = await call(tools, 'write_file', { path: 'made/here/new.ts', content: 'export {};\n' });
      expect(r.isError, textOf(r)).toBe(false);
    } finally {
      process.umask(before);
    }
    for (const [p, bits] of [
      ['made', 0o005],
      ['made/here', 0o005],
      ['made/here/new.ts', 0o004],
    ] as const)
      expect(statSync(join(ws.path, p)).mode & bits, p).toBe(bits);
    // and it can be read and edited again
    const tools2 = createWorkspaceTools({ root: ws.path });
    expect(
      (await call(tools2, 'edit_file', { path: 'made/here/new.ts', oldText: '{}', newText: '{ x }' }))
        .isError,
    ).toBe(false);
  });
});
