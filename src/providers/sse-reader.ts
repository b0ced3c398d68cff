/*
 * A lean reader of a server-sent event stream (the WHATWG "event stream" format) for the adapters
 * that read the SDK's raw response (`.asResponse()`, after the SDK has made the request, retried
 * and turned error statuses into its errors). It hands over every frame that one body chunk
 * completes as one array: a tool argument streamed in 16-byte deltas is ~70,000 frames per MiB,
 * and the SDKs' readers pay two async generator steps, a promise race in the harness and a yield
 * per frame (+440 ms per MiB measured); per chunk, the adapter can join a run of deltas into one.
 */

export interface SseFrame {
  /** The `event:` field; null when the frame had none. */
  event: string | null;
  /** The `data:` lines, joined by "\n". */
  data: string;
}

/** Yields the frames each body chunk completes (never an empty array); a last unterminated frame is dropped, as the format says. */
export async function* sseBatches(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<SseFrame[]> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  let rest = '';
  let event: string | null = null;
  let data: string | null = null;
  let seen = false;
  let first = true;
  const reader = chunkReader(body);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (first && text) {
        first = false;
        // A byte-order mark is only skipped at the very start of the stream.
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      text = rest + text;
      // A CR at the end may be the first half of a CRLF: keep it for the next chunk.
      const keepCR = !done && text.endsWith('\r');
      if (keepCR) text = text.slice(0, -1);
      if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
      const frames: SseFrame[] = [];
      let at = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', at)) {
        const line = text.slice(at, nl);
        at = nl + 1;
        if (line === '') {
          if (seen) frames.push({ event, data: data ?? '' });
          event = null;
          data = null;
          seen = false;
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue; // a comment (": keep-alive")
        const field = colon < 0 ? line : line.slice(0, colon);
        const v = colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
        if (field === 'event') {
          event = v;
          seen = true;
        } else if (field === 'data') {
          data = data === null ? v : `${data}\n${v}`;
          seen = true;
        }
      }
      rest = text.slice(at) + (keepCR ? '\r' : '');
      if (frames.length > 0) yield frames;
      if (done) return;
    }
  } finally {
    // Ends the body (and the connection's part in it) when the reader stops early.
    reader.stop();
  }
}

/** One way to read a web stream or an async iterable of chunks (a Node stream's). */
function chunkReader(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): {
  read(): Promise<IteratorResult<Uint8Array, undefined>>;
  stop(): void;
} {
  if (!(body instanceof ReadableStream)) {
    const it = body[Symbol.asyncIterator]();
    return {
      read: () => it.next(),
      stop: () => void it.return?.()?.catch(() => undefined),
    };
  }
  const reader = body.getReader();
  return {
    read: () => reader.read() as Promise<IteratorResult<Uint8Array, undefined>>,
    stop() {
      reader.cancel().catch(() => undefined);
      try {
        reader.releaseLock();
      } catch {
        // a read still pending: the cancel above ends it
      }
    },
  };
}
