/**
 * The recent-search query language (a subset of X's): words that must all appear,
 * `"exact phrases"`, `-excluded` words, and `OR` between alternatives. Matching is on
 * lower-cased word tokens, so `#AI`, `@ada_builds` and `ai,` all contain the token `ai`
 * or `ada_builds`.
 */
import { SEARCH_STOP_WORDS } from "../../../core/text/search_stop_words.ts";

/** One alternative: everything in it must hold. */
export interface SearchClause {
  words: string[];
  phrases: string[][];
  excluded: string[];
}

/** Lower-cased word tokens of a text. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** Parses a query into alternatives; an empty query has none (matches nothing). */
export function parseSearchQuery(query: string): SearchClause[] {
  const clauses: SearchClause[] = [];
  let current: SearchClause = { words: [], phrases: [], excluded: [] };
  const pattern = /(-?)"([^"]*)"|(\S+)/g;
  for (let match = pattern.exec(query); match; match = pattern.exec(query)) {
    if (match[3] === "OR") {
      clauses.push(current);
      current = { words: [], phrases: [], excluded: [] };
      continue;
    }
    if (match[2] !== undefined) {
      const phrase = tokenize(match[2]);
      if (phrase.length === 0) continue;
      if (match[1]) current.excluded.push(...phrase);
      else if (phrase.length === 1) current.words.push(phrase[0]);
      else current.phrases.push(phrase);
      continue;
    }
    const raw = match[3];
    if (raw.startsWith("-") && raw.length > 1) current.excluded.push(...tokenize(raw.slice(1)));
    else {
      // A word that tokenizes into several ("e-mail", "node.js") must appear as that sequence.
      const tokens = tokenize(raw);
      if (tokens.length === 1) current.words.push(tokens[0]);
      else if (tokens.length > 1) current.phrases.push(tokens);
    }
  }
  clauses.push(current);
  return clauses.filter((clause) => clause.words.length > 0 || clause.phrases.length > 0);
}

/** Tokens worth looking up in an index for this clause (at least one when the clause can match anything). */
export function indexTokens(clause: SearchClause): string[] {
  return [...clause.words, ...clause.phrases.flat()].filter((token) => !SEARCH_STOP_WORDS.has(token));
}

/** Whether text with these tokens satisfies the clause. */
export function clauseMatches(clause: SearchClause, tokens: string[]): boolean {
  const present = new Set(tokens);
  if (!clause.words.every((word) => present.has(word))) return false;
  if (clause.excluded.some((word) => present.has(word))) return false;
  if (clause.phrases.length === 0) return true;
  const joined = ` ${tokens.join(" ")} `;
  return clause.phrases.every((phrase) => joined.includes(` ${phrase.join(" ")} `));
}
