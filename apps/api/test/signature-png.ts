import { PNG } from 'pngjs';

/** A PNG of `width`×`height`, transparent, with a dark stroke across when `ink`: a drawn signature. */
export function signaturePng(width = 400, height = 150, ink = true): Buffer {
  const png = new PNG({ width, height });
  if (ink) {
    for (let x = 20; x < width - 20; x += 1) {
      const y = Math.round(height / 2 + Math.sin(x / 15) * (height / 4));
      for (let dy = -1; dy <= 1; dy += 1) {
        const offset = ((y + dy) * width + x) * 4;
        png.data[offset] = 20;
        png.data[offset + 1] = 20;
        png.data[offset + 2] = 60;
        png.data[offset + 3] = 255;
      }
    }
  }
  return PNG.sync.write(png);
}

/** The PNG as the `data:` URL a signature is sent in. */
export const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
