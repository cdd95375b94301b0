/**
 * Lead scoring by rule (ARCHITECTURE: "The local model is honest"): the ICP is read into
 * role terms (the role lexicon: "founders" -> founder, with CEOs as neighbours) and topic
 * terms (its other content words, lightly stemmed, less the filler every ICP has:
 * "struggling with", "teams", "B2B"-style words stay as topics). A candidate scores from
 *
 * - the role in the bio (who they are, not what they write about: `roleMatch`): 45 points
 *   for a role the ICP names, 34 for a neighbour;
 * - the topic in the triggering post: 37 points for one ICP topic word (an offer word
 *   alone counts 40% of that), more words do not add (one clear match is the signal);
 * - the topic in the bio: 18 points.
 *
 * An ICP with no role words puts the role's weight on the topics (post 65, bio 35); one
 * with no topic words scores the role alone (85). Feedback examples then move the score:
 * +5 for each word (up to 3) the candidate shares only with leads marked fit, -5 for each
 * (up to 3) shared only with leads marked not fit (the ICP's own role and topic words
 * left out: they already counted). The rationale names every part that
 * counted, so a score can be traced to words: "Founder in bio; posted about churn".
 */
import type { LeadScoringCandidate, LeadScoringInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";
import { contentWords, neighbourRoles, type RoleEntry, rolesIn } from "../../../core/model/role_lexicon.ts";

/**
 * Words that describe how an ICP is phrased rather than who or what it is about, and bio
 * boilerplate of the simulated world and of X in general ("Writing about", "Opinions are
 * my own"): never topic or feedback evidence.
 */
const FILLER = new Set(
  (
    "struggl struggle looking look want trying try company companie team business people person folk anyone someone " +
    "small early stage based interested work run build who whose use user customer client ideal profile lead prospect " +
    "writing writ write thought helping help into opinion temporary own view newsletter below building public ex new " +
    "dad mom day time year love lover fan"
  ).split(" "),
);

const WEIGHTS = {
  both: { role: 45, neighbour: 34, post: 37, bio: 18 },
  topicsOnly: { role: 0, neighbour: 0, post: 65, bio: 35 },
  rolesOnly: { role: 85, neighbour: 64, post: 0, bio: 0 },
};

/** Points per word shared with feedback examples, and the most words that count each way. */
const FEEDBACK_POINTS = 5;
const FEEDBACK_WORDS = 3;

/** What the ICP asks for, read once per call. */
interface IcpTerms {
  roles: RoleEntry[];
  neighbours: RoleEntry[];
  /** Topic stems -> the ICP's own spelling, for the rationale. */
  topics: Map<string, string>;
  /** Offer stems not already topics. */
  offer: Map<string, string>;
  /** Stems only fit examples use / only not-fit examples use, each with a spelling. */
  fitOnly: Map<string, string>;
  notFitOnly: Map<string, string>;
}

/** `{ leads }`: a score and a one-line rationale for every candidate, in input order. */
export function scoreLeadCandidates(input: LeadScoringInput): TaskOutput<"lead_scoring"> {
  const terms = readIcp(input);
  return { leads: input.candidates.map((candidate) => ({ id: candidate.id, ...scoreOne(candidate, terms) })) };
}

function readIcp(input: LeadScoringInput): IcpTerms {
  const roles = rolesIn(input.icp);
  const topics = termsOf(withoutRoleWords(input.icp, roles));
  const offer = termsOf(input.offer ?? "");
  for (const key of topics.keys()) offer.delete(key);
  // The ICP's own roles and topics already count; feedback adds what it says beyond them.
  const fit = termsOf(withoutRoleWords((input.examples?.fit ?? []).join("\n"), roles));
  const notFit = termsOf(withoutRoleWords((input.examples?.notFit ?? []).join("\n"), roles));
  const fitOnly = new Map([...fit].filter(([key]) => !notFit.has(key) && !topics.has(key)));
  const notFitOnly = new Map([...notFit].filter(([key]) => !fit.has(key) && !topics.has(key)));
  return { roles, neighbours: neighbourRoles(roles), topics, offer, fitOnly, notFitOnly };
}

/** The text with every role word blanked, so "founders" is not also a topic. */
function withoutRoleWords(text: string, roles: readonly RoleEntry[]): string {
  return roles.reduce((rest, { pattern }) => rest.replace(new RegExp(pattern.source, "gi"), " "), text);
}

/** Content stems of `text` worth matching (no filler, no one- or two-letter words), each with its first spelling. */
function termsOf(text: string): Map<string, string> {
  const terms = new Map<string, string>();
  for (const { word, stem } of contentWords(text)) {
    if (stem.length < 3 || FILLER.has(stem) || FILLER.has(word) || /^\d+$/.test(word)) continue;
    if (!terms.has(stem)) terms.set(stem, word);
  }
  return terms;
}

function scoreOne(candidate: LeadScoringCandidate, terms: IcpTerms): { score: number; rationale: string } {
  const weights = terms.roles.length === 0 ? WEIGHTS.topicsOnly : terms.topics.size === 0 && terms.offer.size === 0 ? WEIGHTS.rolesOnly : WEIGHTS.both;
  const reasons: string[] = [];
  let score = 0;

  const role = roleMatch(candidate.bio, terms);
  if (role) {
    score += role.neighbour ? weights.neighbour : weights.role;
    reasons.push(`${capitalise(role.word)} in bio${role.neighbour ? " (a neighbour of the ICP's role)" : ""}`);
  } else if (terms.roles.length > 0) {
    reasons.push("no ICP role in bio");
  }

  const postStems = candidate.text === null ? new Set<string>() : new Set(termsOf(candidate.text).keys());
  const postTopics = shared(postStems, terms.topics);
  const postOffer = shared(postStems, terms.offer);
  if (postTopics.length > 0) {
    score += weights.post;
    reasons.push(`posted about ${list(postTopics)}`);
  } else if (postOffer.length > 0) {
    score += Math.round(weights.post * 0.4);
    reasons.push(`posted about ${list(postOffer)} (the offer)`);
  } else if (terms.topics.size > 0 && candidate.text !== null) {
    reasons.push("post not on the ICP's topics");
  }

  const bioStems = new Set(termsOf(candidate.bio).keys());
  const bioTopics = shared(bioStems, terms.topics);
  if (bioTopics.length > 0) {
    score += weights.bio;
    reasons.push(`bio mentions ${list(bioTopics)}`);
  }

  const own = new Set([...postStems, ...bioStems]);
  const likeFit = shared(own, terms.fitOnly).slice(0, FEEDBACK_WORDS);
  const likeNotFit = shared(own, terms.notFitOnly).slice(0, FEEDBACK_WORDS);
  if (likeFit.length > 0) {
    score += FEEDBACK_POINTS * likeFit.length;
    reasons.push(`like leads marked fit (${list(likeFit)})`);
  }
  if (likeNotFit.length > 0) {
    score -= FEEDBACK_POINTS * likeNotFit.length;
    reasons.push(`like leads marked not fit (${list(likeNotFit)})`);
  }

  const rationale = reasons.length > 0 ? capitalise(reasons.join("; ")) : "Nothing in the ICP could be matched in the bio or the post";
  return { score: Math.max(0, Math.min(100, Math.round(score))), rationale };
}

/**
 * The first ICP role (else neighbour) the bio says the person IS, as the bio spells it: a
 * role word in the bio's first segment (up to the first `.`, `|`, `·`, `•` or line break:
 * "Solo founder at Kite."), or anywhere when followed by `@`, `at` or `of` ("Dad. Founder
 * @Acme"). A role word in what they write about ("Helping teams with founder burnout")
 * is a topic, not their role.
 */
function roleMatch(bio: string, terms: IcpTerms): { word: string; neighbour: boolean } | null {
  const head = bio.split(/[.|·•\n]/)[0] ?? "";
  for (const [entries, neighbour] of [
    [terms.roles, false],
    [terms.neighbours, true],
  ] as const) {
    for (const { pattern } of entries) {
      const found = head.match(pattern) ?? bio.match(new RegExp(`(?:${pattern.source})(?=\\s*(?:@|at\\b|of\\b))`, "i"));
      if (found) return { word: found[0], neighbour };
    }
  }
  return null;
}

/** The spellings of the stems both sides have, in the terms' order. */
function shared(stems: ReadonlySet<string>, terms: ReadonlyMap<string, string>): string[] {
  return [...terms].filter(([key]) => stems.has(key)).map(([, word]) => word);
}

function list(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
