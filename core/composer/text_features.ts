/**
 * Measured features of a post's text, shared by triage (spec: POST /v1/posts/triage,
 * "the model reads text only") and viral score (supplement: Content). Every feature is
 * a count or a pattern match, so a verdict built on them can say what it saw.
 */
import { SEARCH_STOP_WORDS } from "../text/search_stop_words.ts";

/** What was measured in one text. */
export interface TextFeatures {
  chars: number;
  words: string[];
  /** Content words: lower-cased, stop words and numbers left out. */
  contentWords: string[];
  /** Figures: `40%`, `$2k`, `3x`, `20 minutes` (list markers such as `1.` at a line start are not figures). */
  numbers: number;
  /** Figures that measure something (a unit, `%`, `$`, `x`). */
  measures: number;
  /** Lines that open a list item (`1.`, `2/`, `-`, `•`). */
  listItems: number;
  hasQuestion: boolean;
  endsWithQuestion: boolean;
  links: number;
  hashtags: number;
  mentions: number;
  /** Capitalised words inside a sentence: names of people, products, places. */
  names: number;
  /** 0 to 1: how strongly the first line pulls a reader in (short, an opener, a colon, a promise). */
  hookStrength: number;
  /** First person: `I`, `we`, `my`, `our`. */
  firstPerson: boolean;
  emojis: number;
}

/** Words too common to carry meaning: the search index's list, plus pronouns and contraction pieces. */
const CONTENT_STOP_WORDS: ReadonlySet<string> = new Set([
  ...SEARCH_STOP_WORDS,
  "just",
  "about",
  "all",
  "can",
  "do",
  "how",
  "one",
  "out",
  "they",
  "their",
  "them",
  "there",
  "than",
  "then",
  "up",
  "will",
  "more",
  "who",
  "why",
  "when",
  "which",
  "been",
  "were",
  "into",
  "no",
  "any",
  "some",
  "very",
  "really",
  "t",
  "don",
  "ve",
  "re",
  "ll",
  "m",
]);

const OPENERS =
  /^(hot take|unpopular opinion|stop|nobody|everyone|most people|how|why|the secret|here'?s|i spent|i asked|what i learned|the best|the worst|never|don'?t)\b/i;
const MEASURE =
  /(^|[\s(])(?:[$€£]\s?\d[\d,.]*\s?[kmb]?|\d[\d,.]*\s?(?:%|x\b|k\b|m\b|ms\b|s\b|minutes?\b|hours?\b|days?\b|weeks?\b|months?\b|years?\b|users?\b|customers?\b|people\b|signups?\b|followers?\b|mrr\b|arr\b|downloads?\b|stars?\b|requests?\b))/gi;
const FIGURE = /(^|[^\p{L}\p{N}_#@/])[$€£]?\d[\d,.]*(?![.)/]\s)/gu;
const LIST_LINE = /^\s*(?:\d{1,2}[.)/]|[-•*])\s+\S/;
const EMOJI = /\p{Extended_Pictographic}/gu;

/** Measures `text`. */
export function textFeatures(text: string): TextFeatures {
  const words = text.match(/[\p{L}\p{N}_'’]+/gu) ?? [];
  const lower = words.map((word) => word.toLowerCase().replace(/[’']s?$/, ""));
  const contentWords = lower.filter((word) => word.length > 2 && !CONTENT_STOP_WORDS.has(word) && !/^\d/.test(word));
  const lines = text.split("\n");
  const listItems = lines.filter((line) => LIST_LINE.test(line)).length;
  // List markers are structure, not figures: measure on the text with them removed.
  const body = lines
    .map((line) => line.replace(/^\s*\d{1,2}[.)/]\s+/, ""))
    .join("\n")
    .replace(/https?:\/\/\S+/g, " ");
  const trimmed = text.trim();
  return {
    chars: [...text].length,
    words,
    contentWords,
    numbers: (body.match(FIGURE) ?? []).length,
    measures: (body.match(MEASURE) ?? []).length,
    listItems: listItems >= 2 ? listItems : 0,
    hasQuestion: text.includes("?"),
    endsWithQuestion: /\?\s*(?:\p{Extended_Pictographic}|\s|#\w+)*$/u.test(trimmed),
    links: (text.match(/https?:\/\/\S+|\b[a-z0-9-]+\.(?:com|io|ai|dev|app|co)\b/gi) ?? []).length,
    hashtags: (text.match(/(^|\s)#\w+/g) ?? []).length,
    mentions: (text.match(/(^|\s)@\w+/g) ?? []).length,
    names: countNames(text),
    hookStrength: hookStrength(lines.find((line) => line.trim() !== "")?.trim() ?? ""),
    firstPerson: /\b(i|we|my|our|i'm|we're|i've|we've)\b/i.test(text),
    emojis: (text.match(EMOJI) ?? []).length,
  };
}

/** Capitalised words that do not start a sentence (a rough count of proper names). */
function countNames(text: string): number {
  let names = 0;
  for (const sentence of text.split(/[.!?\n]+/)) {
    const tokens = sentence.trim().split(/\s+/).slice(1);
    names += tokens.filter((token) => /^[A-Z][a-z]+[A-Za-z]*$/.test(token) && token !== "I").length;
  }
  return names;
}

/** 0 to 1 from four signals of the first line, a quarter each. */
function hookStrength(first: string): number {
  let score = 0;
  if (first.length > 0 && first.length <= 70) score += 0.25;
  if (OPENERS.test(first)) score += 0.25;
  if (/[:🧵]\s*$/u.test(first) || /\b(thread|here is|here's)\b/i.test(first)) score += 0.25;
  if (/\b(you|your)\b/i.test(first) || /[!]$/.test(first)) score += 0.25;
  return score;
}
