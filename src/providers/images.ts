import type { ImageContent, Message, TextContent } from '../protocol/types.js';
import type { ImageLimits } from './capabilities.js';

/*
 * Images as the target accepts them. The history keeps every image as it was given; each request
 * gets, in place of an image over the target's limits, the image scaled down (PNG and JPEG, see
 * image-scale.ts) with a note saying so, or else a text block that says what was left out and
 * why, so one oversized screenshot never makes every later request fail. A target with no image
 * limits takes no images: every image becomes a note saying so (a fallback model without image
 * input, say, after a primary that had them). An image the API refused anyway (a limit not in
 * the table) is remembered by the harness and left out the same way.
 */

/** Scaled versions of oversized images, by their data (null: could not be scaled). */
export type ScaledImages = Map<string, { image: ImageContent; note: string } | null>;

const MB = 1024 * 1024;

function size(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Why `image` cannot be sent to the target, or undefined when it can. No `limits`: the target
 * takes no images.
 */
export function imageProblem(
  image: ImageContent,
  limits: ImageLimits | undefined,
  provider: string,
  refused: ReadonlySet<string>,
): string | undefined {
  if (!limits) return `the model in use (${provider}) does not take images`;
  if (refused.has(image.data)) return `${provider} refused it in an earlier request`;
  if (!limits.mimeTypes.includes(image.mimeType)) return `${provider} does not take ${image.mimeType} images`;
  return oversize(image, limits, provider);
}

function oversize(image: ImageContent, limits: ImageLimits, provider: string): string | undefined {
  // The limit applies to the base64 text as sent, which is what `data` holds.
  if (image.data.length > limits.maxBase64Bytes) {
    return `it is ${size(image.data.length)} as base64, over the ${size(limits.maxBase64Bytes)} ${provider} accepts per image`;
  }
  const edge = limits.maxEdgePixels;
  const dims = edge ? dimensionsOf(image) : undefined;
  if (edge && dims && Math.max(dims.width, dims.height) > edge) {
    return `it is ${dims.width}×${dims.height} pixels, over the ${edge} pixels ${provider} accepts on a side`;
  }
  return undefined;
}

/** Width and height from a PNG's IHDR or a JPEG's SOF marker, without decoding the image. */
export function dimensionsOf(image: ImageContent): { width: number; height: number } | undefined {
  const head = Buffer.from(image.data.slice(0, 64 * 1024), 'base64');
  if (image.mimeType === 'image/png' && head.length >= 24) {
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (image.mimeType === 'image/jpeg') {
    for (let i = 2; i + 9 < head.length;) {
      if (head[i] !== 0xff) return undefined;
      const marker = head[i + 1]!;
      const length = head.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: head.readUInt16BE(i + 5), width: head.readUInt16BE(i + 7) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}

/**
 * Scales down, once per image, the PNG and JPEG images of `messages` that are over `limits`, into
 * `cache` (the scaler is loaded only when one is). Images it cannot scale are cached as null.
 */
export async function scaleOversized(
  messages: readonly Message[],
  limits: ImageLimits | undefined,
  provider: string,
  cache: ScaledImages,
): Promise<void> {
  if (!limits) return;
  const todo = imagesOf(messages).filter(
    (i) =>
      !cache.has(i.data) &&
      limits.mimeTypes.includes(i.mimeType) &&
      oversize(i, limits, provider) !== undefined,
  );
  if (todo.length === 0) return;
  const { scaleToFit } = await import('./image-scale.js');
  for (const image of todo) {
    const scaled = scaleToFit(image, limits);
    cache.set(
      image.data,
      scaled
        ? {
            image: scaled.image,
            note: `[The image below was scaled down from ${scaled.fromWidth}×${scaled.fromHeight} to ${scaled.width}×${scaled.height} pixels (${oversize(image, limits, provider)}).]`,
          }
        : null,
    );
  }
}

function note(image: ImageContent, why: string): TextContent {
  return { type: 'text', text: `[An image (${image.mimeType}) was left out: ${why}.]` };
}

/**
 * The messages with every image the target would refuse replaced by its scaled version from
 * `scaled` (after a note saying so) or else by a note; with no `limits`, every image by a note.
 * Does not mutate.
 */
export function fitImages(
  messages: readonly Message[],
  limits: ImageLimits | undefined,
  provider: string,
  refused: ReadonlySet<string> = new Set(),
  scaled: ScaledImages = new Map(),
): Message[] {
  return messages.map((m): Message => {
    if (m.role === 'assistant' || typeof m.content === 'string') return m;
    if (!m.content.some((c) => c.type === 'image' && imageProblem(c, limits, provider, refused))) return m;
    const content = m.content.flatMap((c): (TextContent | ImageContent)[] => {
      if (c.type !== 'image') return [c];
      const why = imageProblem(c, limits, provider, refused);
      if (!why) return [c];
      const smaller = !limits || refused.has(c.data) ? undefined : scaled.get(c.data);
      if (smaller && !refused.has(smaller.image.data))
        return [{ type: 'text', text: smaller.note }, smaller.image];
      return [note(c, why)];
    });
    return { ...m, content } as Message;
  });
}

/** Every image a request carries. */
export function imagesOf(messages: readonly Message[]): ImageContent[] {
  const out: ImageContent[] = [];
  for (const m of messages) {
    if (m.role === 'assistant' || typeof m.content === 'string') continue;
    for (const c of m.content) if (c.type === 'image') out.push(c);
  }
  return out;
}
