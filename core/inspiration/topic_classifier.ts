/**
 * The topic classifier behind `exclude_topics` (GET /v1/inspiration): a linear scorer over
 * the words, phrases and patterns of a weighted lexicon (topic_lexicon.ts). Each feature
 * found in a post adds its weight once; a topic whose sum reaches TOPIC_THRESHOLD is
 * assigned. It runs at ingest and its answer is stored as a bitmask, so the filter is one
 * predicate on a column. Precision and recall per topic are measured on a labelled set
 * (test/fixtures/topic_examples.ts) in test/inspiration.test.ts.
 *
 * @example
 * classifyTopics("Bitcoin ETF flows are wild this week").topics; // ["crypto"]
 */
import { INSPIRATION_TOPICS, type InspirationTopic, PROMOTIONAL_THRESHOLD, TOPIC_LEXICONS, TOPIC_THRESHOLD, type TopicLexicon } from "./topic_lexicon.ts";

/** What the classifier says about one text. */
export interface TopicVerdict {
  topics: InspirationTopic[];
  scores: Record<InspirationTopic, number>;
  /** A plug strong enough to drop from search results. */
  promotional: boolean;
}

/** Classifies a post's text. */
export function classifyTopics(text: string): TopicVerdict {
  const lower = text.toLowerCase();
  const words = lower.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const joined = ` ${words.join(" ")} `;
  const folded = new Set(words.flatMap((word) => (word.length > 3 && word.endsWith("s") ? [word, word.slice(0, -1)] : [word])));
  const scores = {} as Record<InspirationTopic, number>;
  for (const topic of INSPIRATION_TOPICS) scores[topic] = scoreOf(TOPIC_LEXICONS[topic], folded, joined, lower);
  return {
    topics: INSPIRATION_TOPICS.filter((topic) => scores[topic] >= TOPIC_THRESHOLD),
    scores,
    promotional: scores.selfpromo >= PROMOTIONAL_THRESHOLD,
  };
}

/** The bitmask a set of topics is stored as (bit i = INSPIRATION_TOPICS[i]). */
export function topicMask(topics: readonly InspirationTopic[]): number {
  return topics.reduce((mask, topic) => mask | (1 << INSPIRATION_TOPICS.indexOf(topic)), 0);
}

/** The topics a stored bitmask holds. */
export function topicsOfMask(mask: number): InspirationTopic[] {
  return INSPIRATION_TOPICS.filter((_, i) => (mask & (1 << i)) !== 0);
}

function scoreOf(lexicon: TopicLexicon, words: Set<string>, joined: string, lower: string): number {
  let score = 0;
  for (const word of words) if (Object.hasOwn(lexicon.words, word)) score += lexicon.words[word];
  for (const [phrase, weight] of Object.entries(lexicon.phrases)) if (joined.includes(` ${phrase} `)) score += weight;
  for (const [pattern, weight] of lexicon.patterns) if (pattern.test(lower)) score += weight;
  return Math.round(score * 100) / 100;
}
