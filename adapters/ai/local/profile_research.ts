/**
 * `profile_research` on the local engine (ARCHITECTURE: "The local model is honest"): a
 * brief read off the person's own posts by counting, and hooks that are sentences copied
 * from those posts, so every claim can be traced to words they wrote.
 *
 * - `topics`: the content words (core/model/role_lexicon.ts `contentWords`, lightly
 *   stemmed) found in the most posts, at least two posts each when there are several
 *   posts; shown in the person's most used spelling.
 * - `recent_themes`: the same count over the newest five posts only.
 * - `tone`: measured: questions, exclamations, first person and length per post.
 * - `summary`: the topics, how many posts were read, and what they say about `focus`.
 * - `hooks`: up to 3 sentences of 4 to 40 words, one per post, ranked by focus words,
 *   then topic words, then recency, leaving out one that mostly repeats a hook already
 *   chosen (the same line reposted in a thread); each names its post.
 */
import type { ProfileResearchInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";
import { contentWords } from "../../../core/model/role_lexicon.ts";
import { sentencesOf, wordsOf } from "../../../core/model/text_units.ts";

const TOPICS = 5;
const THEMES = 3;
const RECENT_POSTS = 5;
const HOOKS = 3;

/** Content words too short or too common in posts to name a topic. */
const MIN_TOPIC_LENGTH = 4;
const FILLER = new Set(
  (
    "just really thing things today week year time people make made good great know think going want need beat stop believe " +
    "talk everyone everything someone something nothing always never still actually start keep sentence short"
  ).split(" "),
);

/** Two hooks sharing this share of their content words say the same thing: the second is not offered. */
const SAME_HOOK = 0.6;

/** The brief and hooks of one person. */
export function researchProfile(input: ProfileResearchInput): TaskOutput<"profile_research"> {
  const posts = input.posts;
  const topics = frequentWords(
    posts.map((post) => post.text),
    TOPICS,
    posts.length > 2 ? 2 : 1,
  );
  const themes = frequentWords(
    posts.slice(0, RECENT_POSTS).map((post) => post.text),
    THEMES,
    1,
  );
  const focusStems = new Set(input.focus ? contentWords(input.focus).map((word) => word.stem) : []);
  const topicStems = new Set(topics.map((topic) => topic.stem));
  return {
    summary: summaryOf(
      input,
      topics.map((topic) => topic.word),
      focusStems,
    ),
    topics: topics.map((topic) => topic.word),
    tone: toneOf(posts.map((post) => post.text)),
    recent_themes: themes.map((theme) => theme.word),
    hooks: hooksOf(posts, focusStems, topicStems),
  };
}

/** Words in the most texts (at least `minTexts`), then the most uses; each in its most used spelling. */
function frequentWords(texts: readonly string[], take: number, minTexts: number): { word: string; stem: string }[] {
  const byStem = new Map<string, { texts: number; uses: number; spellings: Map<string, number> }>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (const { word, stem } of contentWords(text)) {
      if (word.length < MIN_TOPIC_LENGTH || FILLER.has(stem) || /^\d+$/.test(word)) continue;
      const entry = byStem.get(stem) ?? { texts: 0, uses: 0, spellings: new Map() };
      if (!seen.has(stem)) entry.texts += 1;
      seen.add(stem);
      entry.uses += 1;
      entry.spellings.set(word, (entry.spellings.get(word) ?? 0) + 1);
      byStem.set(stem, entry);
    }
  }
  return [...byStem.entries()]
    .filter(([, entry]) => entry.texts >= minTexts)
    .sort((a, b) => b[1].texts - a[1].texts || b[1].uses - a[1].uses || a[0].localeCompare(b[0]))
    .slice(0, take)
    .map(([stem, entry]) => ({ stem, word: [...entry.spellings.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0] }));
}

function summaryOf(input: ProfileResearchInput, topics: string[], focusStems: Set<string>): string {
  const name = input.person.name.trim() || `@${input.person.handle}`;
  const count = `${input.posts.length} recent post${input.posts.length === 1 ? "" : "s"} read`;
  const about =
    topics.length > 0 ? `${name} posts mostly about ${listOf(topics)} (${count}).` : `${name} posts on varied subjects with no recurring topic (${count}).`;
  if (!input.focus) return about;
  const mentioning = input.posts.filter((post) => contentWords(post.text).some((word) => focusStems.has(word.stem))).length;
  return mentioning > 0 ? `${about} ${mentioning} of them touch on "${input.focus}".` : `${about} None of them speaks to "${input.focus}".`;
}

/** The tone as measured: the share of posts asking, exclaiming, in first person, and their length. */
function toneOf(texts: readonly string[]): string {
  if (texts.length === 0) return "unknown";
  const share = (test: (text: string) => boolean) => texts.filter(test).length / texts.length;
  const words = texts.reduce((sum, text) => sum + wordsOf(text).length, 0) / texts.length;
  const traits: string[] = [];
  traits.push(words < 20 ? "concise" : words > 45 ? "long-form" : "measured");
  if (share((text) => text.includes("?")) >= 0.3) traits.push("inquisitive");
  if (share((text) => text.includes("!")) >= 0.3) traits.push("enthusiastic");
  if (share((text) => wordsOf(text).some((word) => word === "i" || word === "my" || word === "we")) >= 0.4) traits.push("personal");
  else traits.push("informative");
  return traits.join(", ");
}

/** Sentences copied from the posts, one per post, best first. */
function hooksOf(posts: ProfileResearchInput["posts"], focusStems: Set<string>, topicStems: Set<string>): { post_id: string; quote: string }[] {
  const candidates: { post_id: string; quote: string; score: number; order: number }[] = [];
  posts.forEach((post, order) => {
    let best: { quote: string; score: number } | undefined;
    for (const sentence of sentencesOf(post.text)) {
      const count = wordsOf(sentence).length;
      // Copied exactly: a sentence the splitter rejoined differently is not offered.
      if (count < 4 || count > 40 || !post.text.includes(sentence)) continue;
      const stems = contentWords(sentence).map((word) => word.stem);
      const score = 3 * stems.filter((stem) => focusStems.has(stem)).length + stems.filter((stem) => topicStems.has(stem)).length;
      if (!best || score > best.score) best = { quote: sentence, score };
    }
    if (best) candidates.push({ post_id: post.id, ...best, order });
  });
  const chosen: { post_id: string; quote: string; stems: Set<string> }[] = [];
  for (const candidate of candidates.sort((a, b) => b.score - a.score || a.order - b.order)) {
    if (chosen.length >= HOOKS) break;
    const stems = new Set(contentWords(candidate.quote).map((word) => word.stem));
    if (chosen.some((hook) => overlap(hook.stems, stems) >= SAME_HOOK)) continue;
    chosen.push({ post_id: candidate.post_id, quote: candidate.quote, stems });
  }
  return chosen.map(({ post_id, quote }) => ({ post_id, quote }));
}

/** Shared words over the smaller set's size (a sentence inside another counts as the same). */
function overlap(a: Set<string>, b: Set<string>): number {
  const smaller = Math.min(a.size, b.size);
  if (smaller === 0) return 0;
  return [...a].filter((stem) => b.has(stem)).length / smaller;
}

function listOf(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
