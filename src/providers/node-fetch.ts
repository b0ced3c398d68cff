import { getProxyUrl } from '@actions/http-client/lib/proxy';
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';

/*
 * The fetch patchloop's own requests go through (the provider SDKs, the artifact and image
 * downloads; Octokit has @actions/github's, which decides the same way): undici's fetch over a
 * dispatcher that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY as the Actions toolkit reads them
 * (@actions/http-client's getProxyUrl: https_proxy for https, http_proxy for http, no_proxy
 * entries by host or host:port, loopback never proxied). A runner behind a proxy then reaches
 * GitHub and the model the way its git already does.
 */

type Fetch = typeof globalThis.fetch;

/** Called when the response headers arrive and on each chunk of the body. */
export type OnActivity = () => void;

export interface TransportOptions {
  /**
   * false: no undici headers/body timeouts (default 300 s each). The provider adapters pass false:
   * they own the deadline (an idle timeout on bytes, the SDK's request timeout), and a reasoning
   * model may send nothing for longer than undici's default while its answer is still coming.
   */
  timeouts?: boolean;
}

const pools = new Map<string, Dispatcher>();

/** The dispatcher for requests to `url`'s origin: a proxy's when the environment names one for it. */
export function dispatcherFor(url: URL, options: TransportOptions = {}): Dispatcher {
  const proxy = getProxyUrl(url);
  const timeouts = options.timeouts !== false;
  const key = `${timeouts ? 't' : 'n'} ${proxy?.href ?? ''}`;
  let pool = pools.get(key);
  if (!pool) {
    const limits = timeouts ? {} : { headersTimeout: 0, bodyTimeout: 0 };
    // undici's ProxyAgent sends the URL's user:password as Proxy-Authorization (Basic); CONNECT
    // tunnels https and http alike.
    pool = proxy?.hostname ? new ProxyAgent({ uri: proxy.href, ...limits }) : new Agent(limits);
    pools.set(key, pool);
  }
  return pool;
}

type Handlers = Dispatcher.DispatchHandlers;

/** `handler`, with `onActivity` told of the response headers and of each body chunk. */
function withActivity(handler: Handlers, onActivity: OnActivity): Handlers {
  return {
    onConnect: (...a) => handler.onConnect?.(...a),
    onError: (...a) => handler.onError?.(...a),
    onUpgrade: (...a) => handler.onUpgrade?.(...a),
    onResponseStarted: () => handler.onResponseStarted?.(),
    onHeaders: (...a) => {
      onActivity();
      return handler.onHeaders?.(...a) ?? true;
    },
    onData: (chunk) => {
      onActivity();
      return handler.onData?.(chunk) ?? true;
    },
    onComplete: (...a) => handler.onComplete?.(...a),
    onBodySent: (...a) => handler.onBodySent?.(...a),
  };
}

function urlOf(input: Parameters<Fetch>[0]): URL {
  if (typeof input === 'string' || input instanceof URL) return new URL(input);
  throw new TypeError('patchloop fetch: pass the URL as a string or URL, and the rest in init');
}

/**
 * fetch(url, init) through the proxy the environment names for `url` (see above). `onActivity`
 * hears of the headers and of each body chunk as the socket delivers them (see metered-fetch.ts).
 * A redirect is followed on the dispatcher chosen for the first URL.
 */
export function nodeFetch(
  input: Parameters<Fetch>[0],
  init?: RequestInit,
  onActivity?: OnActivity,
  options?: TransportOptions,
): Promise<Response> {
  let dispatcher: Dispatcher;
  try {
    dispatcher = dispatcherFor(urlOf(input), options);
  } catch (err) {
    return Promise.reject(err);
  }
  if (onActivity) {
    dispatcher = dispatcher.compose(
      (dispatch) => (opts, handler) => dispatch(opts, withActivity(handler, onActivity)),
    );
  }
  // undici's Response is the standard one in all but its class: the SDKs only use its members.
  return undiciFetch(input as string | URL, {
    ...(init as Parameters<typeof undiciFetch>[1]),
    dispatcher,
  }) as unknown as Promise<Response>;
}
