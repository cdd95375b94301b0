/**
 * The account's voice, measured from its own posts, so the style presets write "in the
 * account's own voice" (spec: Tools) by rule rather than by guess: favourite words,
 * sentence length, emoji use and casing. Both engines read it; the prompts describe it.
 */
import { emojiOf, sentencesOf, STOPWORDS, wordsOf } from "./text_units.ts";

/** Measured features of an account's writing. */
export interface VoiceProfile {
  /** How many posts were measured. */
  posts: number;
  /** Up to 8 content words the account reuses most (by posts using them, then by count). */
  favouriteWords: string[];
  /** Mean words per sentence, to one decimal. */
  averageSentenceWords: number;
  /** Mean emoji per post, to two decimals. */
  emojiPerPost: number;
  /** Up to 3 emoji the account uses most. */
  topEmoji: string[];
  /** `lowercase` when at least 70% of posts have no capital letter, `sentence` when 70% start sentences with one, else `mixed`. */
  casing: "lowercase" | "sentence" | "mixed";
}

const SHARE = 0.7;

/** Measures the voice of `posts` (empty posts are ignored). */
export function voiceProfile(posts: readonly string[]): VoiceProfile {
  const texts = posts.map((post) => post.trim()).filter(Boolean);
  const documentFrequency = new Map<string, number>();
  const termFrequency = new Map<string, number>();
  const emojiCounts = new Map<string, number>();
  let sentenceCount = 0;
  let sentenceWords = 0;
  let emojiTotal = 0;
  let lowercasePosts = 0;
  let sentenceCasePosts = 0;

  for (const text of texts) {
    const seen = new Set<string>();
    for (const word of wordsOf(text)) {
      if (word.length < 3 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
      termFrequency.set(word, (termFrequency.get(word) ?? 0) + 1);
      if (!seen.has(word)) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
      seen.add(word);
    }
    const sentences = sentencesOf(text).filter((sentence) => wordsOf(sentence).length > 0);
    sentenceCount += sentences.length;
    for (const sentence of sentences) sentenceWords += wordsOf(sentence).length;
    for (const emoji of emojiOf(text)) {
      emojiTotal += 1;
      emojiCounts.set(emoji, (emojiCounts.get(emoji) ?? 0) + 1);
    }
    const letters = text.replace(/(?:https?:\/\/|www\.)\S+|[@#$][\p{L}\p{N}_]+/gu, "");
    if (/\p{Ll}/u.test(letters) && !/\p{Lu}/u.test(letters)) lowercasePosts += 1;
    const starts = sentences.map((sentence) => sentence.match(/\p{L}/u)?.[0]).filter((letter) => letter !== undefined);
    if (starts.length > 0 && starts.every((letter) => letter === letter.toUpperCase())) sentenceCasePosts += 1;
  }

  // With a single post every word is "used in one post": fall back to words repeated within it.
  const minimumPosts = texts.length > 1 ? 2 : 1;
  const minimumCount = texts.length > 1 ? 1 : 2;
  const favouriteWords = [...documentFrequency.entries()]
    .filter(([word, posts]) => posts >= minimumPosts && (termFrequency.get(word) ?? 0) >= minimumCount)
    .sort(([a, postsA], [b, postsB]) => postsB - postsA || (termFrequency.get(b) ?? 0) - (termFrequency.get(a) ?? 0) || (a < b ? -1 : 1))
    .slice(0, 8)
    .map(([word]) => word);
  const topEmoji = [...emojiCounts.entries()]
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1))
    .slice(0, 3)
    .map(([emoji]) => emoji);
  const count = texts.length;
  return {
    posts: count,
    favouriteWords,
    averageSentenceWords: sentenceCount ? Math.round((sentenceWords / sentenceCount) * 10) / 10 : 0,
    emojiPerPost: count ? Math.round((emojiTotal / count) * 100) / 100 : 0,
    topEmoji,
    casing: count && lowercasePosts / count >= SHARE ? "lowercase" : count && sentenceCasePosts / count >= SHARE ? "sentence" : "mixed",
  };
}
