/**
 * `clarity`: plain words and shorter sentences. Jargon from a list becomes its plain
 * form (`leverage` -> `use`); a sentence over 20 words (the usual plain-language ceiling) splits at the conjunction point
 * nearest its middle (`, but` -> `. But`, `, which` -> `. That`), when both halves keep
 * five words or more. Questions are not split (half a question is a statement).
 */
import { JARGON, SPLIT_POINTS } from "./edit_lexicons.ts";
import { capitalise, fixArticles, mapSentences, onProse, replacePhrases, tidy } from "./text_tools.ts";

/** Longest sentence `clarity` leaves whole. */
export const CLEAR_SENTENCE_WORDS = 20;

/** The text with jargon replaced and long sentences split. */
export function clarity(text: string): string {
  return onProse(text, (prose) => fixArticles(tidy(mapSentences(replacePhrases(prose, JARGON), (sentence) => splitLong(sentence, CLEAR_SENTENCE_WORDS)))));
}

/** Splits `sentence` into shorter sentences while any part is over `maxWords` words. */
export function splitLong(sentence: string, maxWords: number): string {
  const count = (value: string) => value.split(/\s+/).filter(Boolean).length;
  if (count(sentence) <= maxWords || /\?["'”’)]*$/.test(sentence.trim())) return sentence;
  const half = count(sentence) / 2;
  let best: { index: number; length: number; start: string; distance: number } | undefined;
  for (const point of SPLIT_POINTS) {
    for (const match of sentence.matchAll(point.pattern)) {
      const left = sentence.slice(0, match.index);
      const right = sentence.slice(match.index + match[0].length);
      if (count(left) < 5 || count(right) < 5) continue;
      const distance = Math.abs(count(left) - half);
      if (!best || distance < best.distance) best = { index: match.index, length: match[0].length, start: point.start, distance };
    }
  }
  if (!best) return sentence;
  const left = `${sentence.slice(0, best.index).replace(/[,;:\s]+$/, "")}.`;
  const rest = sentence.slice(best.index + best.length);
  const right = best.start ? best.start + rest : capitalise(rest);
  return `${splitLong(left, maxWords)} ${splitLong(right, maxWords)}`;
}
