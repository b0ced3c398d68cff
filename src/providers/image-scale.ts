import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { ImageContent } from '../protocol/types.js';
import type { ImageLimits } from './capabilities.js';

/*
 * Scaling an image down to what a provider accepts, in pure JavaScript (pngjs, jpeg-js: no native
 * build on the runner). PNG and JPEG are decoded, reduced by an area average to fit the edge limit
 * and, as JPEG, the size limit; GIF and WebP are not decoded here and are left to the caller (who
 * replaces them by a note). Loaded only when an image is over a limit.
 */

interface Bitmap {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel */
  data: Uint8Array;
}

function decode(image: ImageContent): Bitmap | undefined {
  const bytes = Buffer.from(image.data, 'base64');
  if (image.mimeType === 'image/png') {
    const png = PNG.sync.read(bytes);
    return { width: png.width, height: png.height, data: png.data };
  }
  if (image.mimeType === 'image/jpeg') {
    const raw = jpeg.decode(bytes, { useTArray: true, maxMemoryUsageInMB: 1024 });
    return { width: raw.width, height: raw.height, data: raw.data };
  }
  return undefined;
}

/** Area-average reduction to `width` × `height`; transparent pixels are put on white (for JPEG). */
function reduce(src: Bitmap, width: number, height: number): Bitmap {
  const out = new Uint8Array(width * height * 4);
  const sx = src.width / width;
  const sy = src.height / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let yy = y0; yy < y1; yy++) {
        let i = (yy * src.width + x0) * 4;
        for (let xx = x0; xx < x1; xx++, i += 4) {
          const a = src.data[i + 3]! / 255;
          r += src.data[i]! * a + 255 * (1 - a);
          g += src.data[i + 1]! * a + 255 * (1 - a);
          b += src.data[i + 2]! * a + 255 * (1 - a);
          n++;
        }
      }
      const o = (y * width + x) * 4;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

export interface Scaled {
  image: ImageContent;
  width: number;
  height: number;
  fromWidth: number;
  fromHeight: number;
}

/**
 * The image as a JPEG within `limits` (edge and base64 size), or undefined when it cannot be
 * decoded here or does not fit even at a small size.
 */
export function scaleToFit(image: ImageContent, limits: ImageLimits): Scaled | undefined {
  let src: Bitmap | undefined;
  try {
    src = decode(image);
  } catch {
    return undefined;
  }
  if (!src || src.width === 0 || src.height === 0) return undefined;
  const edge = limits.maxEdgePixels ?? Infinity;
  // Start from the edge limit and the size ratio (JPEG of a photo is a fraction of its PNG);
  // shrink further until the base64 text fits.
  let factor = Math.min(1, edge / Math.max(src.width, src.height));
  for (let tries = 0; tries < 6; tries++) {
    const width = Math.max(1, Math.floor(src.width * factor));
    const height = Math.max(1, Math.floor(src.height * factor));
    const bitmap = factor === 1 ? reduce(src, src.width, src.height) : reduce(src, width, height);
    const encoded = jpeg.encode({ width, height, data: bitmap.data }, 85).data;
    const data = Buffer.from(encoded).toString('base64');
    if (data.length <= limits.maxBase64Bytes) {
      return {
        image: { type: 'image', mimeType: 'image/jpeg', data },
        width,
        height,
        fromWidth: src.width,
        fromHeight: src.height,
      };
    }
    factor *= Math.max(0.5, Math.sqrt(limits.maxBase64Bytes / data.length) * 0.9);
    if (width < 64 || height < 64) break;
  }
  return undefined;
}
