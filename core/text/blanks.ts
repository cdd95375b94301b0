/**
 * Trimming spaces and tabs (not line breaks) in linear time. The obvious regular expression,
 * `/[ \t]+$/`, is quadratic: searched from every position of a long run of blanks that does not
 * reach the end, each attempt scans the run again (100,000 blanks before one letter take
 * seconds), and every text a user sends reaches these.
 */

const isBlank = (code: number) => code === 0x20 || code === 0x09;

/** `text` without the spaces and tabs at its end. */
export function trimBlanksEnd(text: string): string {
  let end = text.length;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the spaces and tabs at either end. */
export function trimBlanks(text: string): string {
  let start = 0;
  while (start < text.length && isBlank(text.charCodeAt(start))) start++;
  return trimBlanksEnd(text.slice(start));
}
