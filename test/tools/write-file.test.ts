import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/tools/workspace.js';
import { createWriteFileTool } from '../../src/tools/write-file.js';
import { call, tempDir, textOf, writeFiles } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.cleanup());

const tools = (protectedPaths?: string[]) => [
  createWriteFileTool(createWorkspace(dir.path, { protectedPaths })),
];

describe('write_file', () => {
  it('creates a file and its parent folders', async () => {
    const r = await call(tools(), 'write_file', {
      path: 'deep/er/new.ts',
      content: 'export {};\nconst x = 1;\n',
    });
    expect(r.isError).toBe(false);
    expect(textOf(r)).toBe('Created deep/er/new.ts (2 lines, 24 B).');
    expect(readFileSync(join(dir.path, 'deep/er/new.ts'), 'utf8')).toBe('export {};\nconst x = 1;\n');
    expect(r.details).toMatchObject({ created: true, bytes: 24 });
  });

  it('overwrites a file and reports the diff', async () => {
    writeFiles(dir.path, { 'over.txt': 'a\nb\nc\n' });
    const r = await call(tools(), 'write_file', { path: 'over.txt', content: 'a\nB\nc\n' });
    expect(textOf(r)).toMatch(/^Overwrote over\.txt/);
    expect(readFileSync(join(dir.path, 'over.txt'), 'utf8')).toBe('a\nB\nc\n');
    expect((r.details as { diff: string }).diff).toContain('-b\n+B\n');
  });

  it('refuses the default protected workflows folder, saying why', async () => {
    const r = await call(tools(), 'write_file', {
      path: '.github/workflows/release.yml',
      content: 'on: push\n',
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      /protected.*GitHub rejects pushes that change workflow files unless the token has the `workflows` permission/s,
    );
    expect(existsSync(join(dir.path, '.github/workflows/release.yml'))).toBe(false);
  });

  it('uses the configured protected paths instead', async () => {
    const r = await call(tools(['secrets/**', '*.lock']), 'write_file', {
      path: 'secrets/a.txt',
      content: 'x',
    });
    expect(textOf(r)).toMatch(/protected-paths pattern "secrets\/\*\*"/);
    expect(
      (await call(tools(['secrets/**']), 'write_file', { path: '.github/workflows/x.yml', content: 'x' }))
        .isError,
    ).toBe(false);
  });

  it('refuses folders and paths through files', async () => {
    mkdirSync(join(dir.path, 'adir'), { recursive: true });
    writeFiles(dir.path, { 'afile.txt': 'x' });
    expect(textOf(await call(tools(), 'write_file', { path: 'adir', content: 'x' }))).toMatch(
      /is a directory/,
    );
    expect(textOf(await call(tools(), 'write_file', { path: 'afile.txt/child.txt', content: 'x' }))).toMatch(
      /is a file, not a folder/,
    );
    expect(textOf(await call(tools(), 'write_file', { path: '', content: 'x' }))).toMatch(/`path` is empty/);
    expect(textOf(await call(tools(), 'write_file', { path: 'a.txt' }))).toMatch(
      /missing required parameter "content"/,
    );
  });
});

describe('write_file through a parent folder that leads outside', () => {
  let root: ReturnType<typeof tempDir>;
  let away: ReturnType<typeof tempDir>;
  beforeEach(() => {
    root = tempDir();
    away = tempDir('patchloop-away-');
  });
  afterEach(() => {
    root.cleanup();
    away.cleanup();
  });

  it('is refused when the parent is a symlink to outside, and nothing is created there', async () => {
    symlinkSync(away.path, join(root.path, 'out'));
    const ws = createWorkspace(root.path);
    for (const path of ['out/x.txt', 'out/new/deeper/x.txt']) {
      const r = await call([createWriteFileTool(ws)], 'write_file', { path, content: 'x' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/outside the workspace/);
    }
    expect(readdirSync(away.path)).toEqual([]);
  });

  it('is refused when a parent becomes a symlink after the check, at any level', async () => {
    mkdirSync(join(root.path, 'a/b'), { recursive: true });
    const ws = createWorkspace(root.path);
    for (const [path, swap] of [
      ['a/b/x.txt', 'a/b'],
      ['a/b/new/x.txt', 'a/b'],
      ['a/b/new/x.txt', 'a'],
    ] as const) {
      const target = await ws.resolve(path, 'write');
      renameSync(join(root.path, swap), join(root.path, `${swap}.real`));
      symlinkSync(away.path, join(root.path, swap));
      // Each defence on its own: the folders made one level at a time, and the descriptor check.
      await expect(ws.makeParents(target)).rejects.toThrow(/changed into a symbolic link/);
      await expect(ws.open(target, 'write')).rejects.toThrow(/outside the workspace|does not exist/);
      rmSync(join(root.path, swap));
      renameSync(join(root.path, `${swap}.real`), join(root.path, swap));
    }
    expect(readdirSync(away.path)).toEqual([]);
  });

  it('creates nothing outside while a real process flips the parent to a symlink', async () => {
    mkdirSync(join(root.path, 'd'));
    const tools = [createWriteFileTool(createWorkspace(root.path))];
    // Each state is held for a moment, so that writes both check and open in either state.
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); process.chdir(${JSON.stringify(root.path)});
         const hold = () => { const t = process.hrtime.bigint() + 300000n; while (process.hrtime.bigint() < t); };
         const end = Date.now() + 1500;
         let flips = 0;
         while (Date.now() < end) {
           try {
             fs.renameSync('d', 'd.real'); fs.symlinkSync(${JSON.stringify(away.path)}, 'd'); hold();
             fs.unlinkSync('d'); fs.renameSync('d.real', 'd'); hold(); flips++;
           } catch {
             // The writer made a new d while it was missing: put the real one back and go on.
             try { fs.rmSync('d', { recursive: true, force: true }); } catch {}
             try { fs.renameSync('d.real', 'd'); } catch {}
           }
         }
         process.stdout.write(String(flips));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let flips = '';
    flipper.stdout.on('data', (c: Buffer) => (flips += c.toString()));
    let running = true;
    const exited = new Promise((resolve) =>
      flipper.once('exit', () => {
        running = false;
        resolve(undefined);
      }),
    );
    let written = 0;
    let refused = 0;
    for (let i = 0; running || i < 20; i++) {
      const r = await call(tools, 'write_file', { path: `d/sub${i % 3}/f${i}.txt`, content: 'x' });
      if (r.isError) refused++;
      else written++;
    }
    await exited;
    expect(Number(flips)).toBeGreaterThan(100);
    expect(written).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(readdirSync(away.path)).toEqual([]);
  });
});
