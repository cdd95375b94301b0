/**
 * Text plumbing the local engine's transforms share: masking links and handles so no
 * rule edits them, case-preserving phrase replacement, sentence mapping that keeps line
 * structure, clean-up after removals, and the stable hash that picks templates
 * (same input, same output: no randomness, no clock). Topics: `key_phrases.ts`.
 */
import { sentencesOf } from "../../../core/model/text_units.ts";
import { trimBlanksEnd } from "../../../core/text/blanks.ts";

/** Links (without trailing punctuation), e-mail addresses, handles, hashtags, cashtags and inline code. */
const MASKED = /(?:https?:\/\/|www\.)[^\s]+?(?=[.,;:!?)\]"'”’]*(?:\s|$))|[\w.+-]+@[\w-]+\.[\w.]+|[@#$][\p{L}\p{N}_]+|`[^`\n]+`/gu;

/** Masked tokens become one private-use character each: not a letter, digit or space to any rule. */
const FIRST_MARK = 0xe100;
const MARK = /[\ue100-\ueeff]/gu;

/** `text` with its links and handles masked, and how to put them back. */
export function masked(text: string): { text: string; restore(text: string): string } {
  const saved: string[] = [];
  const out = text.replace(MASKED, (token) => {
    saved.push(token);
    return String.fromCharCode(FIRST_MARK + saved.length - 1);
  });
  return { text: out, restore: (value) => value.replace(MARK, (mark) => saved[mark.charCodeAt(0) - FIRST_MARK] ?? "") };
}

/** Runs `transform` on `text` with links and handles masked. */
export function onProse(text: string, transform: (prose: string) => string): string {
  const mask = masked(text);
  return mask.restore(transform(mask.text));
}

const phrasePatterns = new WeakMap<object, RegExp>();

/**
 * Replaces whole-word phrases from `table` (lowercase keys), keeping the case of the
 * match: `Utilize` -> `Use`, `UTILIZE` -> `USE`. Longer phrases win over their parts.
 */
export function replacePhrases(text: string, table: Readonly<Record<string, string>>): string {
  if (Object.keys(table).length === 0) return text;
  let pattern = phrasePatterns.get(table);
  if (!pattern) {
    const keys = Object.keys(table).sort((a, b) => b.length - a.length);
    const source = keys.map((key) => escapeRegExp(key).replace(/\\?'/g, "['’]").replace(/ /g, "\\s+")).join("|");
    pattern = new RegExp(`(?<![\\p{L}\\p{N}'’])(?:${source})(?![\\p{L}\\p{N}'’])`, "giu");
    phrasePatterns.set(table, pattern);
  }
  return text.replace(pattern, (match) => matchCase(match, table[match.toLowerCase().replace(/’/g, "'").replace(/\s+/g, " ")] ?? match));
}

/** `replacement` cased like `original`. */
function matchCase(original: string, replacement: string): string {
  if (!replacement) return replacement;
  if (original.length > 1 && original === original.toUpperCase() && original !== original.toLowerCase()) return replacement.toUpperCase();
  if (/^\p{Lu}/u.test(original) && !(replacement.startsWith("I ") || replacement === "I")) return capitalise(replacement);
  return replacement;
}

/** Upper-cases the first letter, after any opening quotes or brackets. */
export function capitalise(value: string): string {
  return value.replace(/^([\s"'“‘([]*)(\p{Ll})/u, (_, lead: string, letter: string) => lead + letter.toUpperCase());
}

/** Lower-cases the first letter unless the first word is `I`, an acronym or a name used capitalised elsewhere in `context`. */
export function decapitalise(value: string, context = ""): string {
  const first = value.match(/^[\s"'“‘([]*([\p{L}'’]+)/u)?.[1];
  if (!first || /^I(?:['’]|$)/.test(first) || (first.length > 1 && first === first.toUpperCase())) return value;
  if (new RegExp(`(?<=\\p{L}[^.!?\\n]*\\s)${escapeRegExp(first)}\\b`, "u").test(context)) return value;
  return value.replace(/^([\s"'“‘([]*)(\p{Lu})/u, (_, lead: string, letter: string) => lead + letter.toLowerCase());
}

/** The list marker of a line (`- `, `• `, `1. `, `2) `), if any. */
export const LIST_MARKER = /^(\s*(?:[-*•·▪→]|\d{1,2}[.)])\s+)/u;

/**
 * Maps every sentence of `text`, keeping blank lines, line breaks and list markers as
 * they are; sentences of one line are re-joined with one space.
 */
export function mapSentences(text: string, transform: (sentence: string) => string): string {
  return text
    .split("\n")
    .map((line) => {
      if (!line.trim()) return line;
      const marker = line.match(LIST_MARKER)?.[1] ?? line.match(/^\s*/)?.[0] ?? "";
      const body = line.slice(marker.length);
      return (
        marker +
        sentencesOf(body)
          .map(transform)
          .filter((sentence) => sentence.trim())
          .join(" ")
      );
    })
    .join("\n");
}

/** Tidies what removals leave behind: doubled spaces, space before punctuation, stray commas. */
export function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .replace(/(?<=\S)[ \t]{2,}/g, " ")
        .replace(/(?<=\S)[ \t]+([,.;:!?])(?=[\s"'”’)\]]|$)/g, "$1")
        .replace(/,\s*,/g, ",")
        .replace(/,\s*([.!?])/g, "$1")
        .replace(/^(\s*(?:(?:[-*•·▪→]|\d{1,2}[.)])\s+)?)[,;:]\s*/u, "$1")
        .replace(/([.!?]\s+)[,;]\s*/g, "$1"),
    )
    .map(trimBlanksEnd)
    .join("\n");
}

/** Fixes `a`/`an` before a word whose first sound a removal changed (`a really awesome` -> `an awesome`). */
export function fixArticles(text: string): string {
  // Lower-case initials only: "an MBA" and "a user" are right as they are, and sound is not spelling.
  return text
    .replace(/\b([Aa]) (?=(?!one\b)[aeio]\p{Ll})/gu, (_, article: string) => `${article}n `)
    .replace(/\b([Aa])n (?=[bcdfgjklmnpqrstvwxyz]\p{Ll})/gu, (_, article: string) => `${article} `);
}

/** FNV-1a: a stable 32-bit hash, so template choices depend only on the text. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The item of `list` that `seed` picks. */
export function pick<T>(list: readonly T[], seed: string): T {
  return list[stableHash(seed) % list.length];
}

/** Escapes `value` for use inside a RegExp. */
export function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
