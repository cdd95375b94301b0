/**
 * Splitting post text into the units the voice profile, the style guide and the local
 * engine measure: paragraphs, lines, sentences, words, emoji. Plain rules, no NLP
 * library: posts are short and the rules are explainable.
 */

/** One pictographic emoji (with its variation selector / skin tone / ZWJ sequence). */
export const EMOJI_PATTERN = /\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)*/gu;

/** Links, mentions, hashtags and cashtags: tokens that are not words of the prose. */
export const NON_PROSE_PATTERN = /(?:https?:\/\/|www\.)\S+|[@#$][\p{L}\p{N}_]+/gu;

/** Abbreviations whose period does not end a sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|st|jr|sr|approx|incl|no)\.$/i;

/** Paragraphs: blocks separated by blank lines (trimmed, empty ones dropped). */
export function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
}

/**
 * Sentences of one line or paragraph: a split after `.`, `!`, `?` or `…` (and closing
 * quotes or brackets) followed by whitespace, except after common abbreviations, and at
 * line breaks. Decimals (`3.5`) and links never split: no whitespace follows their dot.
 */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split("\n")) {
    const pieces = line.trim().split(/(?<=[.!?…]["'”’)\]]*)\s+(?=\S)/);
    let pending = "";
    for (const piece of pieces) {
      pending = pending ? `${pending} ${piece}` : piece;
      if (!ABBREVIATIONS.test(pending)) {
        if (pending) sentences.push(pending);
        pending = "";
      }
    }
    if (pending) sentences.push(pending);
  }
  return sentences;
}

/** Words of the prose, lowercased: letters, digits and inner apostrophes; links, mentions and hashtags excluded. */
export function wordsOf(text: string): string[] {
  const prose = text.replace(NON_PROSE_PATTERN, " ").toLowerCase().replace(/[’]/g, "'");
  return prose.match(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu) ?? [];
}

/** Emoji in order of appearance. */
export function emojiOf(text: string): string[] {
  return text.match(EMOJI_PATTERN) ?? [];
}

/**
 * Function words that say nothing about a topic or a voice: excluded from favourite
 * words, key phrases and keyword matching.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all almost also am an and any are aren't around as at be because been before being " +
    "below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each " +
    "even ever every few for from further get gets getting got had hadn't has hasn't have haven't having he he'd he'll " +
    "he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself " +
    "just let's like make made many may me might more most much must mustn't my myself need needs never no nor not now of " +
    "off on once one only or other ought our ours ourselves out over own really same say says she she'd she'll she's " +
    "should shouldn't so some still such than that that's the their theirs them themselves then there there's these " +
    "they they'd they'll they're they've thing things this those through to too under until up upon us very was " +
    "wasn't way we we'd we'll we're we've well were weren't what what's when when's where where's which while who who's " +
    "whom why why's will with won't would wouldn't yet you you'd you'll you're you've your yours yourself yourselves " +
    "actually basically literally honestly simply quite totally definitely certainly lot lots today day week year time " +
    "going want wants know think thought see go went come take took use used new good great best better"
  ).split(" "),
);
