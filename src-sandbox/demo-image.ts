import { crc32, deflateSync } from 'node:zlib';

/**
 * The demo drafts' pictures, drawn in code at seed time: a diagonal gradient with soft discs and a card, encoded as
 * an RGB PNG by hand (node:zlib's deflate and crc32; no image library is installed and the sandbox needs none).
 */

export interface DemoPicture {
  /** Two gradient stops and the discs' colour, as [r, g, b]. */
  readonly from: readonly [number, number, number];
  readonly to: readonly [number, number, number];
  readonly accent: readonly [number, number, number];
  /** Disc centres and radii, as fractions of the side. */
  readonly discs: readonly (readonly [number, number, number])[];
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGB PNG of `rgb` (width × height × 3 bytes, row by row). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 2; // truecolour
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const mix = (a: number, b: number, t: number): number => Math.round(a + (b - a) * t);

/** A square picture `side` pixels wide: gradient, translucent discs, and a light card low in the frame. */
export function drawDemoPicture(p: DemoPicture, side = 480): Buffer {
  const rgb = new Uint8Array(side * side * 3);
  const card = { x0: 0.12 * side, x1: 0.88 * side, y0: 0.66 * side, y1: 0.84 * side };
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const t = (x + y) / (2 * side);
      let r = mix(p.from[0], p.to[0], t);
      let g = mix(p.from[1], p.to[1], t);
      let b = mix(p.from[2], p.to[2], t);
      for (const [cx, cy, cr] of p.discs) {
        const d = Math.hypot(x - cx * side, y - cy * side) / (cr * side);
        if (d < 1) {
          // Soft edge: the last tenth of the radius fades out.
          const a = 0.55 * Math.min(1, (1 - d) * 10);
          r = mix(r, p.accent[0], a);
          g = mix(g, p.accent[1], a);
          b = mix(b, p.accent[2], a);
        }
      }
      if (x >= card.x0 && x < card.x1 && y >= card.y0 && y < card.y1) {
        const inset = x > card.x0 + 0.05 * side;
        const line =
          inset && y > card.y0 + 0.05 * side && y < card.y0 + 0.075 * side && x < card.x0 + 0.5 * side;
        const line2 =
          inset && y > card.y0 + 0.105 * side && y < card.y0 + 0.13 * side && x < card.x0 + 0.36 * side;
        const v = line || line2 ? 0.35 : 0.92;
        r = mix(r, 255 * (line || line2 ? 0.2 : 1), v);
        g = mix(g, 255 * (line || line2 ? 0.2 : 1), v);
        b = mix(b, 255 * (line || line2 ? 0.25 : 1), v);
      }
      const i = (y * side + x) * 3;
      rgb[i] = r;
      rgb[i + 1] = g;
      rgb[i + 2] = b;
    }
  }
  return encodePng(side, side, rgb);
}
