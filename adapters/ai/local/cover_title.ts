/**
 * Draws an article title onto a cover's pixels with a 5x7 bitmap font drawn for this
 * project (no font files, no dependency): the local engine's covers then show what the
 * article is about instead of an anonymous pattern (docs/areas.md "Articles and Workers": the local engine renders a PNG from
 * the title). Letters are drawn in capitals; accents are folded to their base letter and
 * characters the font lacks become `?`.
 */

/** Glyph rows, top to bottom; `#` is ink. Five columns, seven rows. */
const GLYPHS: Record<string, string> = {
  A: ".###. #...# #...# ##### #...# #...# #...#",
  B: "####. #...# #...# ####. #...# #...# ####.",
  C: ".###. #...# #.... #.... #.... #...# .###.",
  D: "####. #...# #...# #...# #...# #...# ####.",
  E: "##### #.... #.... ####. #.... #.... #####",
  F: "##### #.... #.... ####. #.... #.... #....",
  G: ".###. #...# #.... #.### #...# #...# .####",
  H: "#...# #...# #...# ##### #...# #...# #...#",
  I: ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
  J: "..### ...#. ...#. ...#. ...#. #..#. .##..",
  K: "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
  L: "#.... #.... #.... #.... #.... #.... #####",
  M: "#...# ##.## #.#.# #.#.# #...# #...# #...#",
  N: "#...# #...# ##..# #.#.# #..## #...# #...#",
  O: ".###. #...# #...# #...# #...# #...# .###.",
  P: "####. #...# #...# ####. #.... #.... #....",
  Q: ".###. #...# #...# #...# #.#.# #..#. .##.#",
  R: "####. #...# #...# ####. #.#.. #..#. #...#",
  S: ".#### #.... #.... .###. ....# ....# ####.",
  T: "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
  U: "#...# #...# #...# #...# #...# #...# .###.",
  V: "#...# #...# #...# #...# #...# .#.#. ..#..",
  W: "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
  X: "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
  Y: "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
  Z: "##### ....# ...#. ..#.. .#... #.... #####",
  "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
  "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
  "2": ".###. #...# ....# ...#. ..#.. .#... #####",
  "3": "####. ....# ....# .###. ....# ....# ####.",
  "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
  "5": "##### #.... ####. ....# ....# #...# .###.",
  "6": ".###. #.... #.... ####. #...# #...# .###.",
  "7": "##### ....# ...#. ..#.. .#... .#... .#...",
  "8": ".###. #...# #...# .###. #...# #...# .###.",
  "9": ".###. #...# #...# .#### ....# ....# .###.",
  " ": "..... ..... ..... ..... ..... ..... .....",
  ".": "..... ..... ..... ..... ..... .##.. .##..",
  ",": "..... ..... ..... ..... .##.. ..#.. .#...",
  "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
  "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
  "'": "..#.. ..#.. .#... ..... ..... ..... .....",
  '"': ".#.#. .#.#. ..... ..... ..... ..... .....",
  "-": "..... ..... ..... ##### ..... ..... .....",
  ":": "..... .##.. .##.. ..... .##.. .##.. .....",
  ";": "..... .##.. .##.. ..... .##.. ..#.. .#...",
  "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
  "/": "..... ....# ...#. ..#.. .#... #.... .....",
  "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
  ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
  "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
  "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
  "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
  "@": ".###. #...# #.### #.#.# #.### #.... .###.",
  $: "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
  "*": "..... #.#.# .###. ##### .###. #.#.# .....",
  "=": "..... ..... ##### ..... ##### ..... .....",
  _: "..... ..... ..... ..... ..... ..... #####",
};

/** Glyph cell in font units: 5 columns plus 1 of spacing; 7 rows plus 3 of line spacing. */
const CELL_WIDTH = 6;
const CELL_HEIGHT = 10;
const MAX_LINES = 6;

/** Typographic characters folded to what the font has. */
const FOLDED: Record<string, string> = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\u2026": "..." };

/** The title as the font can draw it: capitals, accents folded, unknown characters as `?`. */
export function drawableTitle(title: string): string {
  const folded = [...title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")].map((char) => FOLDED[char] ?? char).join("");
  return [...folded.toUpperCase().replace(/\s+/g, " ").trim()].map((char) => (char in GLYPHS ? char : "?")).join("");
}

/** Wraps `text` into lines of at most `width` characters, breaking words longer than a line. */
export function wrapTitle(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (let word of text.split(" ")) {
    while (word.length > width) {
      if (line) lines.push(line);
      lines.push(word.slice(0, width));
      word = word.slice(width);
      line = "";
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Draws `title` centred on the RGB pixels (`width` x `height`, 3 bytes a pixel) over a
 * darkened band, at the largest scale that fits in at most six lines; a title longer than
 * six lines at the smallest scale ends in `...`. An image too small for any text is left
 * as it is.
 */
export function drawTitle(rgb: Uint8Array, width: number, height: number, title: string): void {
  const text = drawableTitle(title);
  if (!text) return;
  const boxWidth = Math.floor(width * 0.84);
  const boxHeight = Math.floor(height * 0.7);
  const layout = fit(text, boxWidth, boxHeight);
  if (!layout) return;
  const { scale, lines } = layout;
  const blockHeight = (lines.length * CELL_HEIGHT - 3) * scale;
  const top = Math.floor((height - blockHeight) / 2);
  const pad = 3 * scale;
  shade(rgb, width, height, { x0: Math.floor(width * 0.05), x1: Math.ceil(width * 0.95), y0: top - pad, y1: top + blockHeight + pad });
  lines.forEach((line, row) => {
    const lineWidth = (line.length * CELL_WIDTH - 1) * scale;
    const left = Math.floor((width - lineWidth) / 2);
    const y = top + row * CELL_HEIGHT * scale;
    [...line].forEach((char, column) => {
      const x = left + column * CELL_WIDTH * scale;
      // A shadow one font pixel down and right, then the glyph: legible on any palette.
      drawGlyph(rgb, width, height, GLYPHS[char], { x: x + Math.max(1, scale >> 2), y: y + Math.max(1, scale >> 2), scale, color: [12, 12, 16] });
      drawGlyph(rgb, width, height, GLYPHS[char], { x, y, scale, color: [250, 250, 247] });
    });
  });
}

/** The largest scale (font pixels per image pixel) whose wrapped lines fit the box. */
function fit(text: string, boxWidth: number, boxHeight: number): { scale: number; lines: string[] } | undefined {
  const largest = Math.min(14, Math.floor(boxHeight / CELL_HEIGHT));
  // Below a font pixel per 430 pixels of box width a cover's glyphs stop reading as text.
  const smallest = Math.max(1, Math.round(boxWidth / 430));
  for (let scale = largest; scale >= smallest; scale -= 1) {
    const perLine = Math.floor((boxWidth + scale) / (CELL_WIDTH * scale));
    const maxLines = Math.min(MAX_LINES, Math.floor((boxHeight + 3 * scale) / (CELL_HEIGHT * scale)));
    if (perLine < 4 || maxLines < 1) continue;
    const lines = wrapTitle(text, perLine);
    if (lines.length <= maxLines) return { scale, lines };
    if (scale === smallest) {
      // Smallest sensible scale reached: keep what fits and say it was cut.
      const kept = lines.slice(0, maxLines);
      const last = kept[maxLines - 1];
      kept[maxLines - 1] = `${last.slice(0, Math.max(0, perLine - 3)).trimEnd()}...`;
      return { scale, lines: kept };
    }
  }
  return undefined;
}

function drawGlyph(rgb: Uint8Array, width: number, height: number, glyph: string, at: { x: number; y: number; scale: number; color: readonly number[] }): void {
  const rows = glyph.split(" ");
  for (let row = 0; row < rows.length; row += 1) {
    for (let column = 0; column < 5; column += 1) {
      if (rows[row][column] !== "#") continue;
      fillRect(rgb, width, height, at.x + column * at.scale, at.y + row * at.scale, at.scale, at.color);
    }
  }
}

function fillRect(rgb: Uint8Array, width: number, height: number, x0: number, y0: number, size: number, color: readonly number[]): void {
  for (let y = Math.max(0, y0); y < Math.min(height, y0 + size); y += 1) {
    for (let x = Math.max(0, x0); x < Math.min(width, x0 + size); x += 1) {
      const at = (y * width + x) * 3;
      rgb[at] = color[0];
      rgb[at + 1] = color[1];
      rgb[at + 2] = color[2];
    }
  }
}

/** Darkens a band to 45% of its brightness, so white text reads on light palettes too. */
function shade(rgb: Uint8Array, width: number, height: number, box: { x0: number; x1: number; y0: number; y1: number }): void {
  for (let y = Math.max(0, box.y0); y < Math.min(height, box.y1); y += 1) {
    for (let x = Math.max(0, box.x0); x < Math.min(width, box.x1); x += 1) {
      const at = (y * width + x) * 3;
      for (let c = 0; c < 3; c += 1) rgb[at + c] = Math.round(rgb[at + c] * 0.45);
    }
  }
}
