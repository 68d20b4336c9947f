/**
 * Draws Postdesk's icons and writes them as PNG, ICO and ICNS, with no image tool beyond Node.
 * Run it again after changing the drawing: `npx tsx resources/make-icons.ts`. The outputs are committed.
 *
 * ICO and ICNS both allow PNG payloads (Windows Vista+, macOS 10.7+), so each is a small container
 * around the PNGs drawn here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

type Rgba = readonly [number, number, number, number];
type Point = readonly [number, number];
/** A shape in unit coordinates (0..1 across the icon): coverage test for one sample point. */
type Inside = (x: number, y: number) => boolean;
interface Layer {
  readonly inside: Inside;
  readonly colour: (x: number, y: number) => Rgba;
}

const here = dirname(fileURLToPath(import.meta.url));

// --- shapes -------------------------------------------------------------------------------------

function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number): Inside {
  return (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
}

function circle(cx: number, cy: number, r: number): Inside {
  return (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function polygon(points: readonly Point[]): Inside {
  return (x, y) => {
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i] as Point;
      const [xj, yj] = points[j] as Point;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
}

const solid = (c: Rgba) => (): Rgba => c;

/** The paper plane: a post on its way. `s` scales it around the centre, `dx`/`dy` move it. */
function plane(s: number, dx: number, dy: number, fill: Rgba, fold: Rgba): Layer[] {
  const p = (x: number, y: number): Point => [0.5 + (x - 0.5) * s + dx, 0.5 + (y - 0.5) * s + dy];
  const tip = p(0.82, 0.18);
  const left = p(0.14, 0.47);
  const inner = p(0.43, 0.57);
  const tail = p(0.55, 0.86);
  const notch = p(0.5, 0.6);
  return [
    { inside: polygon([tip, left, inner]), colour: solid(fill) },
    // The far wing, in shade, gives the fold its depth.
    { inside: polygon([tip, inner, notch]), colour: solid(fold) },
    { inside: polygon([tip, notch, tail]), colour: solid(fill) },
  ];
}

// --- raster -------------------------------------------------------------------------------------

/** Renders the layers with 4x4 supersampling, compositing "over" in straight alpha. */
function render(size: number, layers: readonly Layer[]): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          let cr = 0;
          let cg = 0;
          let cb = 0;
          let ca = 0;
          for (const layer of layers) {
            if (!layer.inside(x, y)) continue;
            const [lr, lg, lb, la] = layer.colour(x, y);
            const alpha = la / 255;
            const outA = alpha + ca * (1 - alpha);
            if (outA === 0) continue;
            cr = (lr * alpha + cr * ca * (1 - alpha)) / outA;
            cg = (lg * alpha + cg * ca * (1 - alpha)) / outA;
            cb = (lb * alpha + cb * ca * (1 - alpha)) / outA;
            ca = outA;
          }
          // Accumulate premultiplied so edge pixels do not darken.
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
      out[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return out;
}

const crcTable = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function ico(images: ReadonlyArray<{ size: number; data: Buffer }>): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // icon
  head.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const e = Buffer.alloc(16);
    e[0] = size >= 256 ? 0 : size; // 0 means 256
    e[1] = size >= 256 ? 0 : size;
    e.writeUInt16LE(1, 4); // planes
    e.writeUInt16LE(32, 6); // bits per pixel
    e.writeUInt32LE(data.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += data.length;
    return e;
  });
  return Buffer.concat([head, ...entries, ...images.map((i) => i.data)]);
}

function icns(images: ReadonlyArray<{ type: string; data: Buffer }>): Buffer {
  const parts = images.map(({ type, data }) => {
    const h = Buffer.alloc(8);
    h.write(type, 0, 'ascii');
    h.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([h, data]);
  });
  const body = Buffer.concat(parts);
  const h = Buffer.alloc(8);
  h.write('icns', 0, 'ascii');
  h.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([h, body]);
}

// --- the icons ----------------------------------------------------------------------------------

const WHITE: Rgba = [255, 255, 255, 255];
const FOLD: Rgba = [186, 200, 255, 255];

function appIconLayers(): Layer[] {
  // Indigo to blue, top to bottom, on a macOS-like rounded square with a margin.
  const top: Rgba = [79, 70, 229, 255];
  const bottom: Rgba = [37, 99, 235, 255];
  const gradient = (_x: number, y: number): Rgba => {
    const t = Math.min(Math.max((y - 0.1) / 0.8, 0), 1);
    return [
      top[0] + (bottom[0] - top[0]) * t,
      top[1] + (bottom[1] - top[1]) * t,
      top[2] + (bottom[2] - top[2]) * t,
      255,
    ];
  };
  return [
    { inside: roundedRect(0.1, 0.1, 0.9, 0.9, 0.18), colour: gradient },
    ...plane(0.7, -0.01, 0.01, WHITE, FOLD),
  ];
}

const TRAY_STATES = ['ok', 'running', 'attention'] as const;
const TRAY_DOT: Record<(typeof TRAY_STATES)[number], Rgba | null> = {
  ok: null,
  running: [34, 197, 94, 255],
  attention: [245, 158, 11, 255],
};

/**
 * The tray glyph: the plane in a neutral grey that reads on light and dark panels, plus a state dot
 * cut out of the glyph with a transparent ring so it stays legible at 16 px.
 */
function trayLayers(state: (typeof TRAY_STATES)[number]): Layer[] {
  const dot = TRAY_DOT[state];
  const glyph = plane(1.08, -0.02, 0.02, [120, 124, 140, 255], [90, 94, 110, 255]);
  if (!dot) return glyph;
  const ring = circle(0.76, 0.76, 0.26);
  return [
    ...glyph.map((l) => ({
      inside: (x: number, y: number) => l.inside(x, y) && !ring(x, y),
      colour: l.colour,
    })),
    { inside: circle(0.76, 0.76, 0.2), colour: solid(dot) },
  ];
}

const BLACK: Rgba = [0, 0, 0, 255];

/**
 * The macOS menu-bar glyph: a template image, black on transparent, of which macOS uses only the
 * alpha (painted to suit a light or dark menu bar). Colour cannot carry the state there, so the shape
 * does: a ring while work is in progress, a solid dot when something needs attention.
 */
function trayTemplateLayers(state: (typeof TRAY_STATES)[number]): Layer[] {
  // One colour for the whole plane: the fold has no shade to show in a template.
  const glyph = plane(1.08, -0.02, 0.02, BLACK, BLACK);
  if (state === 'ok') return glyph;
  const cut = circle(0.76, 0.76, 0.26);
  const badge: Inside =
    state === 'attention'
      ? circle(0.76, 0.76, 0.2)
      : (x, y) => circle(0.76, 0.76, 0.2)(x, y) && !circle(0.76, 0.76, 0.11)(x, y);
  return [
    ...glyph.map((l) => ({
      inside: (x: number, y: number) => l.inside(x, y) && !cut(x, y),
      colour: l.colour,
    })),
    { inside: badge, colour: solid(BLACK) },
  ];
}

function write(path: string, data: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  console.log(`${path.slice(here.length + 1)}  ${data.length} bytes`);
}

function main(): void {
  const app = appIconLayers();
  const pngs = new Map<number, Buffer>();
  for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) pngs.set(size, png(size, render(size, app)));
  const get = (s: number): Buffer => pngs.get(s) as Buffer;

  write(join(here, 'icon.png'), get(512));
  // electron-builder's Linux icon set: a folder of NxN.png files.
  for (const size of [16, 32, 48, 64, 128, 256, 512])
    write(join(here, 'icons', `${size}x${size}.png`), get(size));
  write(
    join(here, 'icon.ico'),
    ico([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, data: get(size) }))),
  );
  write(
    join(here, 'icon.icns'),
    icns([
      { type: 'icp4', data: get(16) },
      { type: 'icp5', data: get(32) },
      { type: 'icp6', data: get(64) },
      { type: 'ic07', data: get(128) },
      { type: 'ic08', data: get(256) },
      { type: 'ic09', data: get(512) },
      { type: 'ic10', data: get(1024) },
    ]),
  );

  for (const state of TRAY_STATES) {
    const layers = trayLayers(state);
    write(join(here, 'tray', `tray-${state}.png`), png(16, render(16, layers)));
    write(join(here, 'tray', `tray-${state}@2x.png`), png(32, render(32, layers)));
    // macOS: Electron marks a file whose name ends in "Template" as a template image.
    const template = trayTemplateLayers(state);
    write(join(here, 'tray', `tray-${state}Template.png`), png(16, render(16, template)));
    write(join(here, 'tray', `tray-${state}Template@2x.png`), png(32, render(32, template)));
  }
}

main();
