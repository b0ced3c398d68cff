import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { createReadFileTool } from '../../src/tools/read-file.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, tempDir, textOf, writeFiles } from './helpers.js';

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND) with valid CRCs. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let dir: ReturnType<typeof tempDir>;
const lines5000 = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const wide = Array.from(
  { length: 1000 },
  (_, i) => `${String(i + 1).padStart(4, '0')} ${'w'.repeat(95)}`,
).join('\n');

beforeAll(() => {
  dir = tempDir();
  writeFiles(dir.path, {
    'long.txt': lines5000,
    'wide.txt': wide,
    'small.txt': 'one\ntwo\nthree',
    'crlf.txt': '\uFEFFa\r\nb\r\n',
    'empty.txt': '',
    'bin.dat': Buffer.from([1, 2, 0, 3, 4]),
    'pixel.png': tinyPng(),
    'huge-line.txt': 'x'.repeat(120 * 1024) + '\nafter\n',
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    'folder/inner.txt': 'inner\n',
  });
});
afterAll(() => dir.cleanup());

const tools = () => [createReadFileTool(createWorkspace(dir.path))];

describe('read_file', () => {
  it('keeps the head of a long file and says how to continue', async () => {
    const r = await call(tools(), 'read_file', { path: 'long.txt' });
    const text = textOf(r);
    expect(r.isError).toBe(false);
    expect(text.startsWith('line 1\nline 2\n')).toBe(true);
    expect(text).toContain('line 2000\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]');
    expect(text).not.toContain('line 2001');
    expect(r.details).toMatchObject({ startLine: 1, endLine: 2000, totalLines: 5000, truncated: true });
  });

  it('continues from an offset, and the last page has no notice', async () => {
    const text = textOf(await call(tools(), 'read_file', { path: 'long.txt', offset: 4001 }));
    expect(text.startsWith('line 4001\n')).toBe(true);
    expect(text.endsWith('line 5000')).toBe(true);
  });

  it('stops at 50 KB before 2000 lines', async () => {
    const text = textOf(await call(tools(), 'read_file', { path: 'wide.txt' }));
    // Lines are 100 bytes with a newline between; 1 KB of the 50 KB is kept for the notice, so
    // 496 fit in 50,176 bytes (497 take 50,196).
    expect(text).toContain('[Showing lines 1-496 of 1000 (50.0 KB limit). Use offset=497 to continue.]');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024);
  });

  it('honours limit', async () => {
    const text = textOf(await call(tools(), 'read_file', { path: 'small.txt', offset: 2, limit: 1 }));
    expect(text).toBe('two\n\n[Showing lines 2-2 of 3. Use offset=3 to continue.]');
  });

  it('names the line count when offset is past the end', async () => {
    const r = await call(tools(), 'read_file', { path: 'small.txt', offset: 10 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('offset 10 is past the end of small.txt, which has 3 lines.');
  });

  it('shows CRLF files without carriage returns or BOM', async () => {
    expect(textOf(await call(tools(), 'read_file', { path: 'crlf.txt' }))).toBe('a\nb');
  });

  it('says when a file is empty', async () => {
    expect(textOf(await call(tools(), 'read_file', { path: 'empty.txt' }))).toBe('[empty.txt is empty.]');
  });

  it('refuses binary files', async () => {
    const r = await call(tools(), 'read_file', { path: 'bin.dat' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/bin\.dat looks like a binary file \(it contains NUL bytes/);
  });

  it('returns images as image blocks', async () => {
    const r = await call(tools(), 'read_file', { path: 'pixel.png' });
    expect(r.isError).toBe(false);
    expect(r.content[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: tinyPng().toString('base64'),
    });
  });

  it('cuts a single line longer than 50 KB and points past it', async () => {
    const text = textOf(await call(tools(), 'read_file', { path: 'huge-line.txt' }));
    expect(text.startsWith('x'.repeat(49 * 1024) + '\n\n[Line 1 is longer than the 49.0 KB')).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024);
    expect(text).toContain('Use offset=2 to continue after it.]');
  });

  it('shows bytes that are not UTF-8 as replacement characters', async () => {
    expect(textOf(await call(tools(), 'read_file', { path: 'latin1.txt' }))).toBe('caf\uFFFD');
  });

  it('gives readable errors for missing paths, folders and bad arguments', async () => {
    const missing = await call(tools(), 'read_file', { path: 'nope.txt' });
    expect(textOf(missing)).toMatch(/File not found: nope\.txt/);
    expect(textOf(await call(tools(), 'read_file', { path: 'folder' }))).toMatch(
      /is a directory; use list_dir/,
    );
    const noPath = await call(tools(), 'read_file', '{}');
    expect(noPath.isError).toBe(true);
    expect(textOf(noPath)).toMatch(/missing required parameter "path"/);
    expect(textOf(await call(tools(), 'read_file', { path: 'small.txt', offset: 0 }))).toMatch(/offset/);
    expect(textOf(await call(tools(), 'read_file', { path: 'small.txt', extra: 1 }))).toMatch(
      /unknown parameter "extra"/,
    );
  });
});

describe("a command's saved full output", () => {
  let root: ReturnType<typeof tempDir>;
  let outputs: ReturnType<typeof tempDir>;
  beforeAll(() => {
    root = tempDir();
    outputs = tempDir('patchloop-outputs-');
    writeFiles(outputs.path, { 'transcripts/run.jsonl': '{"secret":"x"}\n' });
  });
  afterAll(() => {
    root.cleanup();
    outputs.cleanup();
  });

  it('is read and searched at the path the notice gives, and never written', async () => {
    const tools = createWorkspaceTools({
      root: root.path,
      artifactsDir: outputs.path,
      testCommand: 'seq 1 5000',
    });
    const run = await call(tools, 'run_tests', {});
    const notice =
      /Full output saved to (\S+)\. Read it with read_file or search it with grep at that path\./.exec(
        textOf(run),
      );
    expect(notice).not.toBeNull();
    const saved = notice![1]!;
    expect(saved.startsWith(outputs.path)).toBe(true);

    const head = await call(tools, 'read_file', { path: saved, limit: 3 });
    expect(head.isError).toBe(false);
    expect(textOf(head)).toBe('1\n2\n3\n\n[Showing lines 1-3 of 5000. Use offset=4 to continue.]');
    expect(textOf(await call(tools, 'read_file', { path: saved, offset: 4999 }))).toBe('4999\n5000');

    const found = await call(tools, 'grep', { pattern: '^4242$', path: saved });
    expect(textOf(found)).toBe(`${saved}:4242: 4242`);

    for (const [name, input] of [
      ['write_file', { path: saved, content: 'x' }],
      ['edit_file', { path: saved, oldText: '4242', newText: 'x' }],
    ] as const) {
      const r = await call(tools, name, input);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/saved command output outside the workspace: it can be read with read_file/);
    }
    expect(readFileSync(saved, 'utf8').split('\n')).toHaveLength(5001);
  });

  it('opens nothing else outside the workspace', async () => {
    const tools = createWorkspaceTools({ root: root.path, artifactsDir: outputs.path });
    for (const path of [
      outputs.path,
      join(outputs.path, 'transcripts/run.jsonl'),
      join(outputs.path, '../x'),
      join(outputs.path, 'missing.log'),
    ]) {
      const r = await call(tools, 'read_file', { path });
      expect(r.isError, path).toBe(true);
      expect(textOf(r), path).not.toContain('secret');
    }
    const grep = await call(tools, 'grep', { pattern: 'secret', path: join(outputs.path, 'transcripts') });
    expect(grep.isError).toBe(true);
    // Relative paths are the workspace's, never the outputs folder's.
    expect(textOf(await call(tools, 'read_file', { path: 'transcripts/run.jsonl' }))).toMatch(
      /File not found/,
    );
  });

  it('is refused without the outputs folder given', async () => {
    writeFiles(outputs.path, { 'run_tests-1.log': 'saved\n' });
    const r = await call([createReadFileTool(createWorkspace(root.path))], 'read_file', {
      path: join(outputs.path, 'run_tests-1.log'),
    });
    expect(textOf(r)).toMatch(/outside the workspace/);
  });
});
