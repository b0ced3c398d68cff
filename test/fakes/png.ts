// Real PNG files for tests of images, made with pngjs.
import { PNG } from 'pngjs';

/** A PNG of `width` × `height`, its pixels noise from `seed` (noise compresses badly: big files). */
export function pngOf(width: number, height: number, seed = 1): Buffer {
  const png = new PNG({ width, height });
  let x = seed;
  for (let i = 0; i < png.data.length; i += 4) {
    x = (x * 1103515245 + 12345) >>> 0;
    png.data[i] = x & 0xff;
    png.data[i + 1] = (x >> 8) & 0xff;
    png.data[i + 2] = (x >> 16) & 0xff;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}
