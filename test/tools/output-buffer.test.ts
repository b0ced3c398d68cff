import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputBuffer } from '../../src/tools/output-buffer.js';
import { tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.cleanup());

function buffer(headBytes: number, tailBytes: number): OutputBuffer {
  return new OutputBuffer({
    memoryBytes: 4,
    limits: { maxLines: 100, maxBytes: 4 },
    spillDir: dir.path,
    name: 'unit',
    bounds: { headBytes, tailBytes },
  });
}

describe('OutputBuffer: what the saved file keeps', () => {
  it('keeps the first and last bytes across chunk boundaries, and says how many were dropped between them', () => {
    const out = buffer(10, 7);
    for (const chunk of ['abcdefgh', 'ijklmnop', 'qrstuvwxyz']) out.write(Buffer.from(chunk));
    const r = out.finish();
    expect(r.totalBytes).toBe(26);
    expect(r.droppedBytes).toBe(9);
    expect(r.text).toBe('wxyz');
    expect(readFileSync(r.fullOutputPath!, 'utf8')).toBe(
      "abcdefghij\n[… 9 B of output dropped here: patchloop keeps the first 10 B and the last 7 B of a command's output …]\ntuvwxyz",
    );
  });

  it('keeps the whole output when it fits in the head and the tail', () => {
    const out = buffer(10, 16);
    for (const chunk of ['abcdefgh', 'ijklmnop', 'qrstuvwxyz']) out.write(Buffer.from(chunk));
    const r = out.finish();
    expect(r.droppedBytes).toBeUndefined();
    expect(readFileSync(r.fullOutputPath!, 'utf8')).toBe('abcdefghijklmnopqrstuvwxyz');
  });
});
