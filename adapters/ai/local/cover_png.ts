/**
 * Covers on the local engine: a PNG whose palette, angle and bands come from a hash of
 * the prompt, with the article's title set on it when the request names one (docs/areas.md "Articles and Workers":
 * the local engine renders a PNG from the title; cover_title.ts), so the same article always gets
 * the same cover. It does not depict the prompt (no image model runs here): a
 * deterministic title card is what an offline engine can honestly make.
 */
import { deflateSync } from "node:zlib";
import { ModelFailedError } from "../../../core/model/model_errors.ts";
import type { ImageSize } from "../../../core/model/model.ts";
import { stableHash } from "./text_tools.ts";
import { drawTitle } from "./cover_title.ts";

/** Colour pairs that read well as a gradient. */
const PALETTES: readonly [number, number, number][][] = [
  [
    [20, 30, 72],
    [94, 114, 235],
  ],
  [
    [12, 74, 110],
    [125, 211, 192],
  ],
  [
    [88, 28, 135],
    [236, 72, 153],
  ],
  [
    [17, 24, 39],
    [245, 158, 11],
  ],
  [
    [6, 78, 59],
    [190, 242, 100],
  ],
  [
    [127, 29, 29],
    [251, 191, 36],
  ],
  [
    [30, 41, 59],
    [148, 163, 184],
  ],
  [
    [67, 56, 202],
    [56, 189, 248],
  ],
];

/** Parses `WIDTHxHEIGHT` (16 to 2048 pixels each side). */
export function parseImageSize(size: ImageSize): { width: number; height: number } {
  const match = /^(\d{2,4})x(\d{2,4})$/.exec(size);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 16 || height < 16 || width > 2048 || height > 2048) {
    throw new ModelFailedError(`Unsupported image size "${size}" (expected WIDTHxHEIGHT, 16 to 2048 pixels each)`);
  }
  return { width, height };
}

/** The cover for `prompt` at `size`, as PNG bytes, with `title` drawn on it when given. */
export function coverPng(prompt: string, size: ImageSize, title?: string): Uint8Array {
  const { width, height } = parseImageSize(size);
  const hash = stableHash(prompt.trim().toLowerCase());
  const [from, to] = PALETTES[hash % PALETTES.length];
  const angle = ((hash >>> 8) % 360) * (Math.PI / 180);
  const bands = 3 + ((hash >>> 16) % 5);
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const span = Math.abs(dx) * width + Math.abs(dy) * height;
  const offset = (dx < 0 ? -dx * width : 0) + (dy < 0 ? -dy * height : 0);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const t = (x * dx + y * dy + offset) / span;
      // Soft bands across the gradient: a gentle sine on the mix, never a hard edge.
      const mix = Math.min(1, Math.max(0, t + 0.06 * Math.sin(t * bands * 2 * Math.PI)));
      const at = (y * width + x) * 3;
      for (let c = 0; c < 3; c += 1) rgb[at + c] = Math.round(from[c] + (to[c] - from[c]) * mix);
    }
  }
  if (title) drawTitle(rgb, width, height, title);
  return encodePng(width, height, rgb);
}

/** Encodes 8-bit RGB pixels as a PNG (filter `Sub` on every row: gradients compress to almost nothing). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const stride = width * 3;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (stride + 1);
    raw[row] = 1;
    for (let i = 0; i < stride; i += 1) {
      const value = rgb[y * stride + i];
      raw[row + 1 + i] = (value - (i >= 3 ? rgb[y * stride + i - 3] : 0)) & 0xff;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  return concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array(0))]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i += 1) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
