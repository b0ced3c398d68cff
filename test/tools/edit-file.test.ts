import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../src/tools/edit-file.js';
import { locate } from '../../src/tools/text-match.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, tempDir, textOf, writeFiles } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.cleanup());

const tools = () => [createEditFileTool(createWorkspace(dir.path))];
const bytes = (rel: string) => readFileSync(join(dir.path, rel));

describe('edit_file', () => {
  it('replaces the one occurrence and reports a diff with the first changed line', async () => {
    writeFiles(dir.path, { 'a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const r = await call(tools(), 'edit_file', {
      path: 'a.ts',
      oldText: 'const b = 2;',
      newText: 'const b = 20;\nconst bb = 21;',
    });
    expect(r.isError).toBe(false);
    expect(bytes('a.ts').toString()).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    expect(textOf(r)).toBe('Edited a.ts at line 2: 1 line removed, 2 added.');
    expect(r.details).toEqual({
      path: 'a.ts',
      matchedBy: 'exact',
      firstChangedLine: 2,
      diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,4 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n+const bb = 21;\n const c = 3;\n',
    });
  });

  it('refuses three occurrences, naming 3, and leaves the file alone', async () => {
    writeFiles(dir.path, { 'three.txt': 'x = 1\nx = 1\nx = 1\n' });
    const r = await call(tools(), 'edit_file', { path: 'three.txt', oldText: 'x = 1', newText: 'x = 2' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/occurs 3 times in three\.txt.*more surrounding lines/s);
    expect(bytes('three.txt').toString()).toBe('x = 1\nx = 1\nx = 1\n');
  });

  it('says when oldText is not there, pointing at a near miss', async () => {
    writeFiles(dir.path, { 'miss.txt': 'alpha\nbeta\ngamma\n' });
    const r = await call(tools(), 'edit_file', { path: 'miss.txt', oldText: 'beta\ndelta', newText: 'x' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/oldText was not found in miss\.txt.*first line appears at line 2/s);
  });

  it('keeps CRLF line endings, also when oldText and newText use LF', async () => {
    writeFiles(dir.path, { 'crlf.txt': 'one\r\ntwo\r\nthree\r\n' });
    const r = await call(tools(), 'edit_file', {
      path: 'crlf.txt',
      oldText: 'one\ntwo',
      newText: 'one\nTWO\nand a half',
    });
    expect(r.isError).toBe(false);
    expect(r.details).toMatchObject({ matchedBy: 'line-endings' });
    expect(bytes('crlf.txt').toString()).toBe('one\r\nTWO\r\nand a half\r\nthree\r\n');
  });

  it('keeps a leading BOM', async () => {
    writeFiles(dir.path, { 'bom.txt': '\uFEFFhello\nworld\n' });
    await call(tools(), 'edit_file', { path: 'bom.txt', oldText: 'hello', newText: 'hi' });
    expect([...bytes('bom.txt').subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes('bom.txt').toString()).toBe('\uFEFFhi\nworld\n');
  });

  it('finds a tolerant match and changes only the matched bytes', async () => {
    const before = 'keep “smart” — here  \n';
    const region = 'say(“hello”)\u00a0— done   \nnext line';
    const after = '\nkeep ‘this’ too\u00a0\n';
    writeFiles(dir.path, { 'tol.txt': before + region + after });
    const r = await call(tools(), 'edit_file', {
      path: 'tol.txt',
      oldText: 'say("hello") - done\nnext line',
      newText: 'REPLACED',
    });
    expect(r.isError).toBe(false);
    expect(r.details).toMatchObject({ matchedBy: 'tolerant' });
    expect(textOf(r)).toMatch(/normalising/);
    expect(bytes('tol.txt').toString()).toBe(before + 'REPLACED' + after);
  });

  it('matches text in another Unicode normal form', async () => {
    writeFiles(dir.path, { 'nfd.txt': 'prefix cafe\u0301 suffix\n' });
    const r = await call(tools(), 'edit_file', { path: 'nfd.txt', oldText: 'caf\u00e9', newText: 'tea' });
    expect(r.isError).toBe(false);
    expect(bytes('nfd.txt').toString()).toBe('prefix tea suffix\n');
  });

  it('refuses protected paths, binary and non-UTF-8 files, and no-op edits', async () => {
    writeFiles(dir.path, {
      '.github/workflows/ci.yml': 'on: push\n',
      'bin.dat': Buffer.from([0x61, 0, 0x62]),
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      'same.txt': 'same\n',
    });
    const wf = await call(tools(), 'edit_file', {
      path: '.github/workflows/ci.yml',
      oldText: 'push',
      newText: 'pull_request',
    });
    expect(textOf(wf)).toMatch(/protected.*`workflows` permission/s);
    expect(textOf(await call(tools(), 'edit_file', { path: 'bin.dat', oldText: 'a', newText: 'b' }))).toMatch(
      /binary/,
    );
    expect(
      textOf(await call(tools(), 'edit_file', { path: 'latin1.txt', oldText: 'caf', newText: 'x' })),
    ).toMatch(/not valid UTF-8/);
    expect(
      textOf(await call(tools(), 'edit_file', { path: 'same.txt', oldText: 'same', newText: 'same' })),
    ).toMatch(/nothing would change/);
    expect(
      textOf(await call(tools(), 'edit_file', { path: 'none.txt', oldText: 'a', newText: 'b' })),
    ).toMatch(/use write_file/);
    expect(textOf(await call(tools(), 'edit_file', { path: 'same.txt', oldText: '', newText: 'b' }))).toMatch(
      /oldText/,
    );
  });

  it('never changes bytes outside the matched region (property)', async () => {
    const filler = fc.string({
      unit: fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '“', '—', '\u00a0', 'é', 'e\u0301', '\t'),
    });
    await fc.assert(
      fc.asyncProperty(
        filler,
        filler,
        fc.string({ minLength: 1, maxLength: 20 }),
        async (head, tail, replacement) => {
          const marker = 'MARK “quoted” — text';
          const content = `${head}|${marker}|${tail}`;
          writeFileSync(join(dir.path, 'prop.txt'), content);
          const r = await call(tools(), 'edit_file', {
            path: 'prop.txt',
            oldText: '|MARK "quoted" - text|',
            newText: replacement,
          });
          expect(r.isError).toBe(false);
          expect(bytes('prop.txt').toString()).toBe(`${head}${replacement}${tail}`);
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('locate', () => {
  it('counts overlapping occurrences as separate places', () => {
    expect(locate('aaa', 'aa')).toMatchObject({ mode: 'exact', count: 2 });
  });

  it('does not split a character that expands under normalisation', () => {
    expect(locate('ﬁle', 'ile').count).toBe(0);
    expect(locate('a ﬁle', 'file')).toMatchObject({ mode: 'tolerant', count: 1, start: 2, end: 5 });
  });
});
