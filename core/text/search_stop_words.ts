/**
 * Words too common to carry meaning: the simulated network's recent search does not index
 * them (adapters/x/simulated/search_index.ts), and the composer leaves them, with a few
 * more, out of a draft's content words (core/composer/text_features.ts). One list, so both
 * agree on what a common word is.
 */

/** The short list of English function words. */
export const SEARCH_STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "for",
  "from",
  "has",
  "have",
  "i",
  "if",
  "in",
  "is",
  "it",
  "its",
  "me",
  "my",
  "not",
  "of",
  "on",
  "or",
  "our",
  "s",
  "so",
  "that",
  "the",
  "this",
  "to",
  "was",
  "we",
  "what",
  "with",
  "you",
  "your",
]);
