// The images of an issue, a PR and their comments, for models that take images (CONTRACT §5).
//
// The markdown says where an image stands; GitHub's rendering says where to fetch it. REST with
// `Accept: application/vnd.github.full+json` answers `body_html` beside `body` (GitHub's "Media
// types" reference: "Return raw, text and HTML representations"), and in it an attachment
// written as `https://github.com/user-attachments/assets/<uuid>` is an `<img>` whose `src` is a
// signed, short-lived `https://private-user-images.githubusercontent.com/<user>/<n>-<uuid>.png
// ?jwt=…` (as seen in jamulussoftware/jamuluswebsite#1121): the same uuid in both, and the only
// URL that works without a browser session on a private repository. An image from another site
// is rendered through GitHub's proxy, `camo.githubusercontent.com/…` with the original in
// `data-canonical-src` (Meekdai/Gmeek#316): fetching that fetches the other site, so it is not
// fetched.
//
// The URLs come from text anyone can write. A download goes only to GitHub's own hosts (those of
// GITHUB_SERVER_URL and GITHUB_API_URL, and *.githubusercontent.com), over https (plain http only
// where the configured URL itself is a loopback one, as in tests), follows a redirect only on the
// same host, carries no token at all (the signed URL is its own credential), stops at 10 MB
// (GitHub's limit for an attached image) and keeps what its first bytes show to be PNG, JPEG, GIF
// or WebP, whatever the server calls it.
import { decodeEntities } from '../sanitize.js';
import type { ImageContent } from '../../protocol/types.js';
import { nodeFetch } from '../../providers/node-fetch.js';

export const MAX_IMAGES = 10;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const IMAGE_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 3;

export interface ImageFetchOptions {
  /** GITHUB_SERVER_URL */
  serverUrl: string;
  /** GITHUB_API_URL */
  apiUrl: string;
  maxImages?: number;
  maxBytes?: number;
  /** for all downloads together; they run in parallel */
  timeoutMs?: number;
}

/** What became of one image: its content, or why the model does not get it. */
export type ImageOutcome = { ok: true; image: ImageContent } | { ok: false; reason: string };

// ---- where images stand in the markdown ------------------------------------------------------

// The shapes the sanitiser turns into `[image]` (sanitize.ts): `![alt](url "title")`,
// `![alt][ref]` / `![ref]` with a reference definition, and `<img src=…>`.
const LABEL = String.raw`\[(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*\]`;
const DESTINATION = String.raw`(?:<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))*)`;
const TITLE = String.raw`(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))`;
const ATTR = String.raw`\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?`;
const IMAGE_SYNTAX = new RegExp(
  [
    String.raw`<img((?:${ATTR})*)\s*\/?>`,
    String.raw`!${LABEL}\(\s*(${DESTINATION})(?:\s+${TITLE})?\s*\)`,
    String.raw`!(${LABEL})(?:\[([^\]\n]*)\])?`,
  ].join('|'),
  'gi',
);
const REFERENCE = new RegExp(String.raw`^ {0,3}\[((?:[^\]\\]|\\.)+)\]:[ \t]*\n?[ \t]*(${DESTINATION})`, 'gm');
const ONE_ATTR = /([A-Za-z_:][A-Za-z0-9_.:-]*)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

export interface ImageRef {
  /** where the image syntax starts and ends in the text */
  start: number;
  end: number;
  /** its URL as written ('' when it has none) */
  url: string;
}

function attribute(attrs: string, name: string): string | undefined {
  for (const m of attrs.matchAll(ONE_ATTR)) {
    if (m[1]!.toLowerCase() === name && m[2] !== undefined) {
      return decodeEntities(m[2].replace(/^["']|["']$/g, '')).trim();
    }
  }
  return undefined;
}

const labelKey = (label: string) =>
  label
    .replace(/^\[|\]$/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
const destination = (d: string) => decodeEntities(d.trim().replace(/^<|>$/g, '')).trim();

/** The images of a markdown text, in order. */
export function imageRefs(markdown: string): ImageRef[] {
  if (!markdown.includes('!') && !/<img/i.test(markdown)) return [];
  const references = new Map<string, string>();
  for (const m of markdown.matchAll(REFERENCE)) {
    const key = labelKey(m[1]!);
    if (!references.has(key)) references.set(key, destination(m[2]!));
  }
  const refs: ImageRef[] = [];
  for (const m of markdown.matchAll(IMAGE_SYNTAX)) {
    let url: string;
    if (m[0].startsWith('<')) url = attribute(m[1] ?? '', 'src') ?? '';
    else if (m[2] !== undefined) url = destination(m[2]);
    else url = references.get(labelKey(m[4] || m[3]!)) ?? '';
    refs.push({ start: m.index, end: m.index + m[0].length, url });
  }
  return refs;
}

// ---- where GitHub serves them ----------------------------------------------------------------

export interface HtmlImage {
  src: string;
  /** the original URL of an image GitHub proxies from another site */
  canonical?: string;
}

/** The `<img>` elements of GitHub's `body_html`, in order. */
export function htmlImages(html: string | null | undefined): HtmlImage[] {
  if (!html) return [];
  const out: HtmlImage[] = [];
  for (const m of html.matchAll(/<img\b([^>]*)>/gi)) {
    const src = attribute(m[1]!, 'src');
    if (!src) continue;
    const canonical = attribute(m[1]!, 'data-canonical-src');
    out.push(canonical ? { src, canonical } : { src });
  }
  return out;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function keysOf(url: string | undefined): string[] {
  if (!url) return [];
  const keys = [url];
  try {
    const u = new URL(url);
    keys.push(u.href);
    const id = UUID.exec(u.pathname);
    if (id) keys.push(id[0].toLowerCase());
  } catch {
    // not an absolute URL: only the text itself
  }
  return keys;
}

/**
 * For each markdown image, the `<img>` of the rendering that shows it: the same URL, the
 * original of a proxied one, or the same attachment uuid. Images in code, in hidden regions or
 * written in a way GitHub did not render have none.
 */
export function matchImages(
  refs: readonly ImageRef[],
  html: readonly HtmlImage[],
): (HtmlImage | undefined)[] {
  const used = new Set<number>();
  const keyed = html.map((h) => new Set([...keysOf(h.src), ...keysOf(h.canonical)]));
  return refs.map((ref) => {
    const keys = keysOf(ref.url);
    const at = keyed.findIndex((k, i) => !used.has(i) && keys.some((key) => k.has(key)));
    if (at < 0) return undefined;
    used.add(at);
    return html[at];
  });
}

// ---- which hosts, and the download -----------------------------------------------------------

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The test an image URL must pass: https on GitHub's hosts, or exactly the origin of the
 * configured server or API URL (plain http only when that URL is a loopback one).
 */
export function imageHostCheck(serverUrl: string, apiUrl: string): (url: URL) => boolean {
  const origins: URL[] = [];
  for (const text of [serverUrl, apiUrl]) {
    try {
      const u = new URL(text);
      if (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.test(u.hostname))) origins.push(u);
    } catch {
      // an unset or malformed URL allows nothing
    }
  }
  return (url) => {
    if (url.username || url.password) return false;
    if (origins.some((o) => o.protocol === url.protocol && o.host === url.host)) return true;
    return (
      url.protocol === 'https:' &&
      url.port === '' &&
      url.hostname.endsWith('.githubusercontent.com') &&
      // GitHub's proxy for images of other sites
      url.hostname !== 'camo.githubusercontent.com'
    );
  };
}

/** PNG, JPEG, GIF or WebP by the first bytes, whatever the server called it. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  const at = (i: number, ...b: number[]) => b.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return undefined;
}

function megabytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} KB`;
}

/** Downloads one image under the rules above. Never throws. */
export async function downloadImage(
  url: string,
  allowed: (url: URL) => boolean,
  options: { maxBytes?: number; signal?: AbortSignal } = {},
): Promise<ImageOutcome> {
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { ok: false, reason: 'its address is not a URL' };
  }
  if (!allowed(current)) return { ok: false, reason: `it is not hosted on GitHub (${current.host})` };
  try {
    for (let hop = 0; ; hop++) {
      const res = await nodeFetch(current, {
        redirect: 'manual',
        signal: options.signal,
        headers: { accept: 'image/png, image/jpeg, image/gif, image/webp' },
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        const next = location ? new URL(location, current) : undefined;
        if (!next || hop >= MAX_REDIRECTS)
          return { ok: false, reason: 'GitHub answered with too many redirects' };
        if (next.host !== current.host || !allowed(next))
          return { ok: false, reason: `its address redirects to another host (${next.host})` };
        current = next;
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        return { ok: false, reason: `the download failed (HTTP ${res.status})` };
      }
      const declared = Number(res.headers.get('content-length') ?? NaN);
      if (declared > maxBytes) {
        await res.body?.cancel();
        return { ok: false, reason: `it is larger than ${megabytes(maxBytes)}` };
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of res.body ?? []) {
        size += (chunk as Uint8Array).length;
        if (size > maxBytes) return { ok: false, reason: `it is larger than ${megabytes(maxBytes)}` };
        chunks.push(chunk as Uint8Array);
      }
      const bytes = Buffer.concat(chunks);
      const mimeType = sniffImageType(bytes);
      if (!mimeType) return { ok: false, reason: 'it is not a PNG, JPEG, GIF or WebP image' };
      return { ok: true, image: { type: 'image', mimeType, data: bytes.toString('base64') } };
    }
  } catch (err) {
    const timedOut = options.signal?.aborted;
    return {
      ok: false,
      reason: timedOut
        ? 'the download did not finish in time'
        : `the download failed (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

/**
 * Downloads, in parallel and within one time limit, the images at `urls` (in the order they
 * appear to the model): the first `maxImages` of them; the others are left out with the reason.
 */
export async function downloadImages(
  urls: readonly string[],
  options: ImageFetchOptions,
): Promise<ImageOutcome[]> {
  const allowed = imageHostCheck(options.serverUrl, options.apiUrl);
  const max = options.maxImages ?? MAX_IMAGES;
  const signal = AbortSignal.timeout(options.timeoutMs ?? IMAGE_TIMEOUT_MS);
  let fetched = 0;
  return Promise.all(
    urls.map((url): Promise<ImageOutcome> => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      // Outside hosts do not use up the allowance of downloads.
      if (!parsed || !allowed(parsed)) return downloadImage(url, allowed);
      if (fetched >= max)
        return Promise.resolve({ ok: false, reason: `only the first ${max} images are given` });
      fetched++;
      return downloadImage(url, allowed, { maxBytes: options.maxBytes, signal });
    }),
  );
}
