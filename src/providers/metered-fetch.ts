import { setFlagsFromString } from 'node:v8';

/*
 * Idle detection on bytes, not on events. The SDKs swallow what carries no content: Anthropic's
 * `event: ping` frames, SSE comments (`: keep-alive`) that OpenAI-compatible gateways send while a
 * reasoning model thinks, Gemini's empty chunks. Measured on the events an adapter yields, a model
 * that thinks silently for minutes while the server keeps the connection alive looks hung. So every
 * adapter gives its SDK the fetch of a ByteMeter, which tells the attempt that made the request
 * about every chunk of the response body.
 *
 * Each attempt makes one request. The harness announces an attempt's listener before the attempt
 * starts (`expect`) and withdraws it when the attempt ends (`forget`); the meter hands listeners to
 * requests in the order they were announced. (AsyncLocalStorage would say it directly, but on
 * Node 20 it turns on promise hooks for the whole process, which costs every await of the loop.)
 */

/** Called on response headers and on each chunk of the body. */
export type ActivityListener = () => void;

type Fetch = typeof globalThis.fetch;

// Node's fetch parses HTTP with undici's WebAssembly llhttp, compiled when undici loads; after a
// few responses V8 tiers it up to TurboFan, and that compile holds ~28 MB (the CLI peaked at
// 95–101 MB on the fix task, 67–70 MB with Liftoff's code only, which the 1 MiB bench could not
// tell apart in speed). The flag has to be set before undici loads; a V8 flag changed makes Node
// reject its code cache for the internal modules loaded afterwards, undici's among them, so it is
// set here, with the adapter that start-up preloads while it waits on git, and not at the start.
setFlagsFromString('--liftoff-only');
// Touching a fetch global evaluates undici (15–30 ms), here rather than on the way to the first request.
void globalThis.Response;

export class ByteMeter {
  private readonly waiting: ActivityListener[] = [];

  constructor(private readonly base: Fetch = globalThis.fetch) {}

  /** The next request made through `fetch` reports to `listener`. */
  expect(listener: ActivityListener): void {
    this.waiting.push(listener);
  }

  /** Withdraws a listener whose attempt ended before it made its request. */
  forget(listener: ActivityListener): void {
    const i = this.waiting.indexOf(listener);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  /** The fetch to give the SDK. */
  readonly fetch: Fetch = async (input, init) => {
    const listener = this.waiting.shift();
    const response = await this.base(input, init);
    if (!listener) return response;
    listener();
    if (!response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          listener();
          controller.enqueue(chunk);
        },
      }),
    );
    const metered = new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(metered, 'url', { value: response.url });
    return metered;
  };
}
