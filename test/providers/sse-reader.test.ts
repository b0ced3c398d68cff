import { describe, expect, it } from 'vitest';
import { sseBatches, type SseFrame } from '../../src/providers/sse-reader.js';

function body(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(typeof chunk === 'string' ? enc.encode(chunk) : chunk);
      c.close();
    },
  });
}

async function read(chunks: (string | Uint8Array)[]): Promise<SseFrame[][]> {
  const out: SseFrame[][] = [];
  for await (const batch of sseBatches(body(chunks))) out.push(batch);
  return out;
}

describe('sseBatches', () => {
  it('gives the frames each chunk completes, in one array per chunk', async () => {
    const batches = await read([
      'event: a\ndata: {"n":1}\n\nevent: b\ndata: {"n":2}\n\nevent: c\nda',
      'ta: {"n":3}\n\n',
    ]);
    expect(batches).toEqual([
      [
        { event: 'a', data: '{"n":1}' },
        { event: 'b', data: '{"n":2}' },
      ],
      [{ event: 'c', data: '{"n":3}' }],
    ]);
  });

  it('reads CRLF and CR line ends, also split between chunks, and joins data lines', async () => {
    const frames = (
      await read(['event: x\r', '\ndata: one\r\ndata:two\r\r', 'event: y\rdata: 3\r\r'])
    ).flat();
    expect(frames).toEqual([
      { event: 'x', data: 'one\ntwo' },
      { event: 'y', data: '3' },
    ]);
  });

  it('skips comments, unknown fields and a leading byte-order mark; drops an unterminated last frame', async () => {
    const frames = (
      await read(['\uFEFF: keep-alive\n\nid: 7\nretry: 5\nevent: e\ndata: d\n\n', 'event: cut\ndata: x'])
    ).flat();
    expect(frames).toEqual([{ event: 'e', data: 'd' }]);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: é✓\n\n');
    const frames = (await read([bytes.slice(0, 7), bytes.slice(7)])).flat();
    expect(frames).toEqual([{ event: null, data: 'é✓' }]);
  });
});
