// Draws the app icons of the web manifest (public/icons/*.png) from the logo's shapes: the blue
// rounded square and the white four-pointed star of public/logo.svg. Plain Node (zlib), so the
// icons can be made again anywhere: node apps/web/scripts/make-icons.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const BLUE = [0x1f, 0x6f, 0xeb];
const WHITE = [0xff, 0xff, 0xff];
// The star of logo.svg on its 64-unit grid.
const STAR = [
  [32, 10],
  [37.6, 26.4],
  [54, 32],
  [37.6, 37.6],
  [32, 54],
  [26.4, 37.6],
  [10, 32],
  [26.4, 26.4],
];

function inPolygon(x, y, points) {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i];
    const [xj, yj] = points[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

function inRoundedSquare(x, y, radius) {
  const cx = Math.min(Math.max(x, radius), 64 - radius);
  const cy = Math.min(Math.max(y, radius), 64 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** RGBA pixels of the icon: `radius` 0 fills the square (maskable), `starScale` shrinks the star into the safe zone. */
function draw(size, { radius, starScale }) {
  const pixels = Buffer.alloc(size * size * 4);
  const star = STAR.map(([x, y]) => [32 + (x - 32) * starScale, 32 + (y - 32) * starScale]);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) * 64) / size;
          const y = ((py + (sy + 0.5) / samples) * 64) / size;
          if (inRoundedSquare(x, y, radius)) {
            bg++;
            if (inPolygon(x, y, star)) {
              fg++;
            }
          }
        }
      }
      const n = samples * samples;
      const o = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) {
        pixels[o + c] = bg ? Math.round((BLUE[c] * (bg - fg) + WHITE[c] * fg) / bg) : 0;
      }
      pixels[o + 3] = Math.round((255 * bg) / n);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) {
    c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const dir = new URL("../public/icons/", import.meta.url);
mkdirSync(dir, { recursive: true });
const icons = [
  ["icon-192.png", 192, { radius: 14, starScale: 1 }],
  ["icon-512.png", 512, { radius: 14, starScale: 1 }],
  // Maskable: the launcher crops to its own shape, so the square is full and the star stays in the middle 80%.
  ["icon-maskable-512.png", 512, { radius: 0, starScale: 0.62 }],
  // iOS rounds the corners itself and shows no transparency.
  ["apple-touch-icon.png", 180, { radius: 0, starScale: 0.8 }],
];
for (const [name, size, shape] of icons) {
  writeFileSync(new URL(name, dir), png(size, draw(size, shape)));
  console.log(`icons/${name}: ${size}×${size}`);
}
