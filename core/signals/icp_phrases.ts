/**
 * The ICP's own searchable phrases, for completing a keyword list the model left short
 * (docs/areas.md "Signals": 2 or 3 ideas): runs of content words between punctuation and
 * function words, then their single words. Taken from the ICP's own text, never made up.
 */
import { STOPWORDS } from "../model/text_units.ts";

/** Words that state a need or an action rather than a topic someone posts about. */
const NOT_SEARCHABLE = new Set(
  (
    "struggle struggles struggling deal deals dealing looking trying try frustrated tired problem problems want wanting " +
    "needing run running runs build building builds using ideal customer customers people person someone anyone"
  ).split(" "),
);

/** Tokens: words (with inner apostrophes and hyphens) and single punctuation marks. */
const TOKEN = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;

/** Longer "words" are not words (no dictionary word comes near), so three of them still fit a 180-character query. */
const MAX_WORD_CHARS = 50;

/** Whether `token` can be part of a search phrase. */
function isSearchable(token: string): boolean {
  const lower = token.toLowerCase().replace(/’/g, "'");
  if (!/\p{L}/u.test(token) || token.length > MAX_WORD_CHARS || STOPWORDS.has(lower) || NOT_SEARCHABLE.has(lower)) return false;
  return lower.length >= 3 || (token.length === 2 && token === token.toUpperCase());
}

/**
 * Phrases of `icp`, in order of appearance: each run of up to three searchable words
 * (a longer run keeps its last three, where the head noun is), then each searchable word
 * of four letters or more on its own. Case kept; duplicates (any case) dropped.
 */
export function icpPhrases(icp: string): string[] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const token of icp.match(TOKEN) ?? []) {
    if (isSearchable(token)) run.push(token);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  const phrases = [...runs.map((words) => words.slice(-3).join(" ")), ...runs.flat().filter((word) => word.length >= 4 || word === word.toUpperCase())];
  return phrases.filter((phrase, i) => phrases.findIndex((other) => other.toLowerCase() === phrase.toLowerCase()) === i);
}

/** Whether `icp` has at least one searchable word (an ICP of function words only gives nothing to search for). */
export function hasSearchableWord(icp: string): boolean {
  return (icp.match(TOKEN) ?? []).some(isSearchable);
}
