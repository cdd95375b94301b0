/**
 * Keyword suggestion and ICP expansion from the world's vocabulary (ARCHITECTURE: "keyword
 * and ICP expansion from the world's vocabulary"). A vocabulary term scores by how many of
 * its words (lightly stemmed) the ICP uses, with a bonus when the ICP contains the whole
 * term; ties go to the term whose words the ICP uses more often, then keep the
 * vocabulary's order. Roles come from a role lexicon, each with its usual neighbours
 * (founders -> co-founders, CEOs: role_lexicon.ts). When no term matches, the ICP's own key phrases are
 * used and nothing is made up. The rubric criteria of an expansion are read from the
 * ICP's own words too (`expandIcp`).
 */
import type { IcpExpansionInput, KeywordSuggestionInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";
import { STOPWORDS, wordsOf } from "../../../core/model/text_units.ts";
import { keyPhrases } from "./key_phrases.ts";
import { rolesIn, stem } from "../../../core/model/role_lexicon.ts";

/** Vocabulary terms ranked by fit with `icp`. */
export function rankVocabulary(icp: string, vocabulary: readonly string[]): string[] {
  const icpWords = wordsOf(icp)
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
  const icpStems = new Set(icpWords);
  const icpText = ` ${wordsOf(icp).join(" ")} `;
  const ranked = vocabulary
    .map((term, order) => {
      const words = wordsOf(term).filter((word) => !STOPWORDS.has(word));
      const hits = words.filter((word) => icpStems.has(stem(word))).length;
      const whole = words.length > 0 && icpText.includes(` ${wordsOf(term).join(" ")} `) ? 2 : 0;
      // How often the ICP uses the term's words breaks ties: a page about churn that mentions pricing once is about churn.
      const uses = icpWords.filter((word) => words.some((termWord) => stem(termWord) === word)).length;
      return { term: term.trim(), score: hits * 2 + whole + (words.length > 0 && hits === words.length ? 1 : 0), uses, order };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || b.uses - a.uses || a.order - b.order)
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

/**
 * Clauses that state a need ("struggling with churn", "looking for a CRM"): each becomes a
 * must-have, quoted from the ICP.
 */
const NEED =
  /\b(?:(?:who (?:are )?)?(?:struggl(?:e|es|ing) with|deal(?:s|ing)? with|frustrated (?:by|with)|tired of|problems? with|looking (?:for|to)|trying to|need(?:s|ing)?|want(?:s|ing)? to))\s+[^,.;!?]+/gi;

/** Clauses that rule people out ("not agencies", "excluding students"). */
const EXCLUSION = /\b(?:but not|not|excluding|except(?: for)?|other than)\s+([^,.;!?]+)/gi;

/**
 * `{ description, keywords, roles, must_have, nice_to_have, disqualifiers }`: the ICP, its
 * roles and neighbours, the vocabulary it matches, and a rubric read from its own words:
 * the role, the segment named before the role ("B2B SaaS" founders) and each stated need
 * are must-haves; matched vocabulary beyond them is nice to have; each exclusion clause
 * is a disqualifier. Nothing the ICP does not say is added.
 */
export function expandIcp(input: IcpExpansionInput): TaskOutput<"icp_expansion"> {
  const excluded = [...input.icp.matchAll(EXCLUSION)].map((match) => match[1].trim()).filter(Boolean);
  const positive = input.icp.replace(EXCLUSION, " ");
  const matchedRoles = rolesIn(positive);
  const roles = [...new Set(matchedRoles.flatMap(({ roles }) => roles))];
  const ranked = rankVocabulary(positive, input.vocabulary);
  const keywords = (ranked.length ? ranked : keyPhrases(positive, 5)).slice(0, 8);
  const parts = [`${input.icp.trim().replace(/[.!\s]+$/, "")}.`];
  if (roles.length) parts.push(`Typical roles: ${roles.join(", ")}.`);
  if (keywords.length) parts.push(`They post about ${keywords.join(", ")}.`);

  const mustHave: string[] = [];
  // The role named first is who the ICP is about ("founders hiring engineers" wants founders).
  const first = matchedRoles.map((role) => ({ role, at: positive.search(role.pattern) })).sort((a, b) => a.at - b.at)[0]?.role;
  if (first) mustHave.push(`Role: ${first.roles.join(", ")}`);
  const segment = segmentBefore(positive, first?.pattern);
  if (segment) mustHave.push(`Segment: ${segment}`);
  const needs = [...positive.matchAll(NEED)].map((match) => match[0].trim().replace(/^who (?:are )?/i, ""));
  for (const need of needs) mustHave.push(`States the need: "${need}"`);
  const said = ` ${wordsOf(mustHave.join(" ")).join(" ")} `;
  const unsaid = keywords.filter((keyword) => !said.includes(` ${wordsOf(keyword).join(" ")} `));
  // With neither a role nor a need to go on, the best-matching topic is what a fit must post about.
  if (mustHave.length === 0 && unsaid.length) mustHave.push(`Posts about ${unsaid.shift()}`);
  const niceToHave = unsaid.slice(0, 3).map((keyword) => `Posts about ${keyword}`);
  return {
    description: parts.join(" "),
    keywords,
    roles,
    must_have: mustHave,
    nice_to_have: niceToHave,
    disqualifiers: excluded.map((phrase) => `Is ${phrase}`),
  };
}

/** The content words just before the first role word: "B2B SaaS" in "B2B SaaS founders struggling with churn". */
function segmentBefore(icp: string, role: RegExp | undefined): string | null {
  if (!role) return null;
  const at = icp.search(role);
  if (at <= 0) return null;
  const clause =
    icp
      .slice(0, at)
      .split(/[,.;:!?]|\b(?:of|for|at|in|and|or|with|who)\b/i)
      .pop() ?? "";
  const words = clause.split(/\s+/).filter((word) => word && !STOPWORDS.has(word.toLowerCase()));
  return words.length ? words.join(" ") : null;
}
