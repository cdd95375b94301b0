/** The image prompt of a cover: the article's title and the look asked for. */

/** The look used when the request names no style. */
const DEFAULT_LOOK = "clean, modern editorial illustration with one clear focal idea that still reads as a small thumbnail";

/** The prompt for a cover of `title` in `styleText` (a saved style's text or the request's own). */
export function coverPrompt(title: string, styleText?: string): string {
  const look = (styleText?.trim() || DEFAULT_LOOK).replace(/[.\s]+$/, "");
  return `Cover image for an article titled "${title.trim()}". Look: ${look}. Landscape 3:2 framing, no watermark, no logos.`;
}
