/**
 * Keyword suggestion and ICP expansion from the world's vocabulary (ARCHITECTURE: "keyword
 * and ICP expansion from the world's vocabulary"). A vocabulary term scores by how many of
 * its words (lightly stemmed) the ICP uses, with a bonus when the ICP contains the whole
 * term; ties keep the vocabulary's order. Roles come from a role lexicon, each with its
 * usual neighbours (founders -> co-founders, CEOs: role_lexicon.ts). When no term matches, the ICP's own
 * key phrases are used and nothing is made up.
 */
import type { IcpExpansionInput, KeywordSuggestionInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";
import { STOPWORDS, wordsOf } from "../../../core/model/text_units.ts";
import { keyPhrases } from "./key_phrases.ts";
import { rolesIn, stem } from "../../../core/model/role_lexicon.ts";

/** Vocabulary terms ranked by fit with `icp`. */
export function rankVocabulary(icp: string, vocabulary: readonly string[]): string[] {
  const icpStems = new Set(
    wordsOf(icp)
      .filter((word) => !STOPWORDS.has(word))
      .map(stem),
  );
  const icpText = ` ${wordsOf(icp).join(" ")} `;
  const ranked = vocabulary
    .map((term, order) => {
      const words = wordsOf(term).filter((word) => !STOPWORDS.has(word));
      const hits = words.filter((word) => icpStems.has(stem(word))).length;
      const whole = words.length > 0 && icpText.includes(` ${wordsOf(term).join(" ")} `) ? 2 : 0;
      return { term: term.trim(), score: hits * 2 + whole + (words.length > 0 && hits === words.length ? 1 : 0), order };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ term }) => term);
  // The same term twice in the vocabulary (any casing) is one suggestion.
  return ranked.filter((term, i) => ranked.findIndex((other) => other.toLowerCase() === term.toLowerCase()) === i);
}

/** `{ keywords }` for the ICP: up to `max` (default 3) vocabulary terms, else its own key phrases. */
export function suggestKeywords(input: KeywordSuggestionInput): TaskOutput<"keyword_suggestion"> {
  const max = Math.max(1, input.max ?? 3);
  const ranked = rankVocabulary(input.icp, input.vocabulary);
  const keywords = (ranked.length ? ranked : keyPhrases(input.icp, max)).slice(0, max);
  return { keywords: keywords.length ? keywords : [input.icp.trim().split(/\s+/).slice(0, 3).join(" ")] };
}

/** `{ description, keywords, roles }`: the ICP, its roles and neighbours, and the vocabulary it matches. */
export function expandIcp(input: IcpExpansionInput): TaskOutput<"icp_expansion"> {
  const roles = [...new Set(rolesIn(input.icp).flatMap(({ roles }) => roles))];
  const ranked = rankVocabulary(input.icp, input.vocabulary);
  const keywords = (ranked.length ? ranked : keyPhrases(input.icp, 5)).slice(0, 8);
  const parts = [`${input.icp.trim().replace(/[.!\s]+$/, "")}.`];
  if (roles.length) parts.push(`Typical roles: ${roles.join(", ")}.`);
  if (keywords.length) parts.push(`They post about ${keywords.join(", ")}.`);
  return { description: parts.join(" "), keywords, roles };
}
