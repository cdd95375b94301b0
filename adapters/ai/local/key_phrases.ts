/**
 * What a post is about, by rule: key phrases (runs of content words scored by how often
 * their words recur) and the topic templates name. No tagger or model: the lists below
 * are the whole method, so a surprising topic can be traced to a word.
 */
import { NON_PROSE_PATTERN, STOPWORDS } from "../../../core/model/text_units.ts";

/** Verbs and other words that are never the topic of a post. */
const NOT_TOPIC = new Set(
  (
    "need make build built ship shipped learn learned learnt start started try tried tries work works worked find found feel " +
    "felt feels keep kept give gave gives tell told ask asked seem seems call called look looked put run ran write wrote read " +
    "reads spend spent grow grew become became show showed stop stopped help helped turn turned change changed happen happens " +
    "happened realise realised realize realized love loved hate hated said tweet post posted posting launch launched took takes " +
    "gets wanted needed means mean meant pay pays paid add adds added cut cuts went goes came comes think thinks knows wants " +
    "uses lose lost win won wins sell sold buy bought hire hired quit move moved remove removed matter matters count counts " +
    "might anyone everyone someone nobody people yes yeah okay lol first last next big small little long short real right " +
    "wrong hard easy fast slow later every"
  ).split(" "),
);

/** A light stem for counting: "fields" and "field" are one word. */
function countKey(word: string): string {
  const lower = word.toLowerCase();
  return lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss") ? lower.slice(0, -1) : lower;
}

/**
 * Key phrases of `text`, most salient first: runs of up to three content words (not
 * function words, common verbs, adverbs or numbers; a lone `-ing`/`-ed` word is a verb),
 * scored by how often their words recur (plurals counted with singulars), longer runs
 * first on ties, then earlier ones. The topic a template names comes from here.
 */
export function keyPhrases(text: string, limit = 5): string[] {
  const prose = text.replace(NON_PROSE_PATTERN, " . ");
  const tokens = prose.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu) ?? [];
  const counts = new Map<string, number>();
  const plurals = new Set<string>();
  for (const token of tokens) {
    counts.set(countKey(token), (counts.get(countKey(token)) ?? 0) + 1);
    if (countKey(token) !== token.toLowerCase()) plurals.add(countKey(token));
  }
  const runs: string[][] = [];
  let run: string[] = [];
  const isContent = (token: string) => {
    const lower = token.toLowerCase().replace(/’/g, "'");
    if (!/\p{L}/u.test(token) || STOPWORDS.has(lower) || NOT_TOPIC.has(lower) || /ly$/.test(lower)) return false;
    return lower.length >= 3 || (token.length >= 2 && token === token.toUpperCase());
  };
  const flush = () => {
    if (run.length && !(run.length === 1 && /(?:ing|ed)$/i.test(run[0]))) runs.push(run.slice(-3));
    run = [];
  };
  for (const token of tokens) {
    if (isContent(token)) run.push(token);
    else flush();
  }
  flush();
  const scored = new Map<string, { score: number; order: number }>();
  runs.forEach((words, order) => {
    // The head noun in the plural when the post uses it so: templates read "about optional fields".
    const surface = words.map((word, i) => {
      if (word.length > 1 && word === word.toUpperCase()) return word;
      const key = countKey(word);
      return i === words.length - 1 && plurals.has(key) ? `${key}s` : word.toLowerCase();
    });
    const phrase = surface.join(" ");
    const score = words.reduce((sum, word) => sum + (counts.get(countKey(word)) ?? 1), 0) / words.length + 0.5 * (words.length - 1);
    const known = scored.get(phrase);
    if (!known) scored.set(phrase, { score, order });
    else known.score += score;
  });
  const ranked = [...scored.entries()].sort(([, a], [, b]) => b.score - a.score || a.order - b.order).map(([phrase]) => phrase);
  // A phrase whose words all appear in a better one ("fields" after "optional fields") adds nothing.
  const kept: string[] = [];
  for (const phrase of ranked) {
    const words = phrase.toLowerCase().split(" ").map(countKey);
    if (!kept.some((better) => words.every((word) => better.toLowerCase().split(" ").map(countKey).includes(word)))) kept.push(phrase);
  }
  return kept.slice(0, limit);
}

/** Nouns that take no article ("about hiring", "about churn"). */
const MASS_NOUNS = new Set(
  (
    "onboarding hiring marketing growth design software content data feedback advice code research money time work sales churn " +
    "revenue traffic distribution pricing product engineering writing fundraising funding focus health fitness sleep music " +
    "education leadership management security infrastructure analytics retention support"
  ).split(" "),
);

/**
 * The post's main topic as templates name it: its top key phrase, with "the" before a
 * singular count noun ("about the working prototype", but "about hiring", "about
 * optional fields", "about MVP"); `this` when it has no content words.
 */
export function topicOf(text: string): string {
  const phrase = keyPhrases(text, 1)[0];
  if (!phrase) return "this";
  const words = phrase.split(" ");
  const head = words[words.length - 1];
  const bare =
    head.endsWith("s") || (words.length === 1 && /ing$/.test(head)) || MASS_NOUNS.has(head) || head === head.toUpperCase() || /^\p{Lu}/u.test(phrase);
  return bare ? phrase : `the ${phrase}`;
}
