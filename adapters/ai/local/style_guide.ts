/**
 * `style_guide` on the local engine: a guide made only of what the posts measurably do
 * (length, line breaks, sentence length, casing, emoji, openers, endings, hashtags,
 * links, favourite words), each line with its number so a reader can check it.
 */
import type { StyleGuideInput } from "../../../core/model/task_inputs.ts";
import { ModelFailedError } from "../../../core/model/model_errors.ts";
import { voiceProfile } from "../../../core/model/voice_profile.ts";

/** The style guide, as Markdown text. */
export function styleGuide(input: StyleGuideInput): string {
  const posts = input.posts.map((post) => post.trim()).filter(Boolean);
  if (posts.length === 0) throw new ModelFailedError("A style guide needs at least one post");
  const voice = voiceProfile(posts);
  const share = (test: (post: string) => boolean) => Math.round((posts.filter(test).length / posts.length) * 100);
  const lengths = posts.map((post) => post.length).sort((a, b) => a - b);
  const median = lengths[Math.floor(lengths.length / 2)];
  const lineBreaks = share((post) => post.includes("\n"));
  const questionOpeners = share((post) => /\?/.test(post.split(/(?<=[.!?])\s|\n/)[0] ?? ""));
  const numberOpeners = share((post) => /^\D{0,3}\d/.test(post));
  const questionEndings = share((post) => /\?["'”’)]*$/.test(post));
  const hashtags = share((post) => /#[\p{L}\p{N}_]+/u.test(post));
  const links = share((post) => /https?:\/\//.test(post));
  const rhythm = voice.averageSentenceWords <= 10 ? "short, punchy" : voice.averageSentenceWords <= 18 ? "medium-length" : "long, flowing";
  const casing = voice.casing === "lowercase" ? "all lowercase" : voice.casing === "sentence" ? "standard sentence capitalisation" : "mixed capitalisation";
  const emoji =
    voice.emojiPerPost < 0.2 ? "almost never" : `${voice.emojiPerPost} per post${voice.topEmoji.length ? `, mostly ${voice.topEmoji.join(" ")}` : ""}`;
  const lines = [
    `Style guide measured from ${posts.length} post${posts.length === 1 ? "" : "s"}:`,
    `- Length: about ${median} characters (median); ${lineBreaks}% of posts use line breaks.`,
    `- Sentences: ${rhythm}, about ${voice.averageSentenceWords} words on average.`,
    `- Casing: ${casing}.`,
    `- Emoji: ${emoji}.`,
    `- Openers: ${questionOpeners}% open with a question, ${numberOpeners}% with a number.`,
    `- Endings: ${questionEndings}% end with a question.`,
    `- Hashtags in ${hashtags}% of posts; links in ${links}%.`,
  ];
  if (voice.favouriteWords.length) lines.push(`- Favourite words: ${voice.favouriteWords.join(", ")}.`);
  return lines.join("\n");
}
