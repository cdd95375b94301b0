/**
 * `grammar`: fixes by rule and changes nothing else. Misspellings from a word list
 * (`teh`, `recieve`, `dont`...), the pronoun `i`, repeated words (`the the`), doubled
 * spaces, space before punctuation, a missing space after a comma or a sentence's end,
 * sentence-start capitals, and a missing final period on prose lines. Links, handles,
 * list items and lines ending in an emoji or a link are left as they are.
 */
import { MISSPELLINGS } from "./edit_lexicons.ts";
import { capitalise, LIST_MARKER, mapSentences, onProse, replacePhrases, tidy } from "./text_tools.ts";

/** Doubled words that are correct English ("had had", "that that"). */
const REPEAT_OK = new Set(["had", "that", "is", "bye", "no", "so", "ha", "haha", "very", "really"]);

/**
 * A sentence end with no space after it ("feedback.We", "feedback.we"); file names and
 * bare domains that links masking missed ("node.js", "example.com") are not sentence ends.
 */
const MISSING_SPACE = /(?<=\p{Ll}{2})([.!?])(?=\p{Lu}\p{Ll}|(?!(?:js|ts|io|com|net|org|ai|dev|app|co|py|md|so|ly|me|sh|rs|go|html|json|txt|csv)\b)\p{Ll}{2})/gu;

/** The text with its grammar, spelling, spacing and punctuation fixed. */
export function grammar(text: string): string {
  return onProse(text, (prose) => {
    let out = replacePhrases(prose, MISSPELLINGS);
    out = out.replace(/(?<![\p{L}\p{N}'’])i(?=['’](?:m|ve|ll|d)(?![\p{L}])|(?![\p{L}\p{N}'’]))/gu, "I");
    out = out.replace(/(?<![\p{L}'’])([\p{L}'’]+)([ \t]+)\1(?![\p{L}'’])/giu, (match, word: string) => (REPEAT_OK.has(word.toLowerCase()) ? match : word));
    out = out.replace(/,(?=\p{L})/gu, ", ").replace(MISSING_SPACE, "$1 ");
    out = tidy(out);
    out = mapSentences(out, capitalise);
    return punctuateLines(out);
  });
}

/** Adds a final period to prose lines of three words or more that end in a letter or digit. */
function punctuateLines(text: string): string {
  const lines = text.split("\n");
  return lines
    .map((line, i) => {
      if (LIST_MARKER.test(line)) return line;
      const next = lines.slice(i + 1).find((candidate) => candidate.trim());
      // A line that introduces a list keeps its open end ("Here's what I learned").
      if (next !== undefined && LIST_MARKER.test(next) && lines[i + 1]?.trim()) return line;
      if (line.trim().split(/\s+/).length < 3 || !/[\p{L}\p{N}]$/u.test(line.trimEnd())) return line;
      return `${line.trimEnd()}.`;
    })
    .join("\n");
}
