import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
