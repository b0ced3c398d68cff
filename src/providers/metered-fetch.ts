import { nodeFetch } from './node-fetch.js';

/*
 * Idle detection on bytes, not on events. The SDKs swallow what carries no content: Anthropic's
 * `event: ping` frames, SSE comments (`: keep-alive`) that OpenAI-compatible gateways send while a
 * reasoning model thinks, Gemini's empty chunks. Measured on the events an adapter yields, a model
 * that thinks silently for minutes while the server keeps the connection alive looks hung. So every
 * adapter gives its SDK the fetch of a ByteMeter, which tells the attempt that made the request
 * about every chunk of the response body (heard on the dispatcher, before any web stream).
 *
 * Each attempt makes one request. The harness announces an attempt's listener before the attempt
 * starts (`expect`) and withdraws it when the attempt ends (`forget`); the meter hands listeners to
 * requests in the order they were announced. (AsyncLocalStorage would say it directly, but on
 * Node 20 it turns on promise hooks for the whole process, which costs every await of the loop.)
 */

/** Called on response headers and on each chunk of the body. */
export type ActivityListener = () => void;

type Fetch = typeof globalThis.fetch;

export class ByteMeter {
  private readonly waiting: ActivityListener[] = [];

  /** The fetch to give the SDK: proxy-aware, without undici's own timeouts (the adapter owns them). */
  readonly fetch: Fetch = (input, init) => nodeFetch(input, init, this.waiting.shift(), { timeouts: false });

  /** The next request made through `fetch` reports to `listener`. */
  expect(listener: ActivityListener): void {
    this.waiting.push(listener);
  }

  /** Withdraws a listener whose attempt ended before it made its request. */
  forget(listener: ActivityListener): void {
    const i = this.waiting.indexOf(listener);
    if (i >= 0) this.waiting.splice(i, 1);
  }
}
