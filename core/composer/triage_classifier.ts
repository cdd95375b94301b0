/**
 * The triage judge (spec: POST /v1/posts/triage; ARCHITECTURE "The local model is
 * honest": scoring from measured features). Deterministic rules over `textFeatures`
 * and word rarity answer the six questions, pick a `kind`, and combine into a
 * worth-reading score; every rule that fired is named in `signals`.
 */
import type { TextFeatures } from "./text_features.ts";
import { PLATITUDES } from "./triage_phrases.ts";

/** The kinds a post is sorted into (spec: triage `kind`). */
export const POST_KINDS = ["insight", "story", "data", "progress", "news", "question", "intro", "launch", "joke", "opinion"] as const;

/** One of `POST_KINDS`. */
export type PostKind = (typeof POST_KINDS)[number];

/** The six questions of triage (supplement: answer keys `r_specific`, `r_new`, `r_reply_room`). */
export interface TriageAnswers {
  r_specific: boolean;
  r_new: boolean;
  r_bait: boolean;
  r_plug: boolean;
  r_platitude: boolean;
  r_reply_room: boolean;
}

/** A post's verdict. */
export interface TriageVerdict {
  kind: PostKind;
  answers: TriageAnswers;
  /** 0 to 1: how worth reading the text is. */
  score: number;
  signals: string[];
}

const BAIT =
  /\b(like|rt|retweet|repost|share|bookmark) (this )?if\b|\bcomment ["“']?[A-Z]{2,}\b|\b(drop|reply with) an? (emoji|🔥|"?yes"?)|\btag (someone|a friend)\b|\bfollow (me|@\w+) for more\b|\bwho else\b|\bagree\s*\?|\bsay less\b|\bi'?ll dm you\b/i;
const PROMO =
  /\b(my|our) (course|newsletter|book|app|product|tool|startup|saas|template|community|podcast)\b|\blink in (bio|comments|replies)\b|\bcheck (it )?out\b|\bsign up\b|\buse code\b|\bwaitlist\b|\b\d+% off\b|\bdm me\b|\bpre-?order\b|\bfree trial\b/gi;
const LAUNCH =
  /^(shipped|launched|launching|introducing|just (shipped|launched|released))\b|\b(i|we) (just )?(shipped|launched|released|open[- ]sourced)\b|\bis (now )?live\b/i;
const PROGRESS =
  /^just (hit|reached|crossed|signed|closed|went|got|passed)\b|\b(i|we) (just )?(hit|reached|crossed|signed|closed|grew|cut|went from)\b|\b(day|week|month) \d+ of\b|\b(mrr|arr)\b/i;
const INTRO = /\b(hi|hello|hey)[,!]? (i'?m|i am|everyone)\b|\bnew here\b|\bintroduce myself\b|\blet me introduce\b/i;
const JOKE = /\b(lol|lmao|rofl|haha+)\b|😂|🤣|💀|^nobody:|\bpov:|\bme:\s|\bmy (therapist|mom)\b/iu;
const NEWS = /\b(announced|announces|breaking|acquired|acquires|raises|raised \$|reportedly|according to|released today|is shutting down)\b/i;
const STORY =
  /\b(years? ago|last (week|month|year)|yesterday|when i|i spent|i asked|we spent|turns out|the secret was|here is what|what actually worked|a thread|how we)\b|🧵/i;
const OPINION = /^(hot take|unpopular opinion|counterpoint)\b|\b(overrated|underrated|i think|i believe|imo|in my opinion|nobody talks about|should|stop)\b/i;
const INSIGHT = /\b(lessons?|learned|advice|tip|secret|rule|habit|mistake|works?|beats?|matters?)\b|:\s*\S/i;

/** Judges one text; `rarity` is the share of its content words that are rare in the reference corpus. */
export function judgePost(text: string, features: TextFeatures, rarity: { rareShare: number; rareWords: number }): TriageVerdict {
  const signals: string[] = [];
  const note = (fired: boolean, signal: string) => {
    if (fired) signals.push(signal);
    return fired;
  };
  const lower = text.toLowerCase();
  const platitudeHits = PLATITUDES.filter((phrase) => lower.includes(phrase)).length;
  const promoHits = (text.match(PROMO) ?? []).length;

  const r_bait = note(BAIT.test(text), "bait pattern");
  const r_plug = note(
    promoHits >= 2 || (promoHits >= 1 && features.links > 0) || (features.links > 0 && /\b(my|our)\b/i.test(text) && LAUNCH.test(text)),
    "links or product mentions",
  );
  const r_platitude = note(
    platitudeHits > 0 || (features.contentWords.length <= 6 && features.numbers === 0 && features.names === 0 && !features.hasQuestion),
    platitudeHits > 0 ? "stock phrase" : "short and general",
  );
  // Specific: a figure, a name or a list, and enough words to carry it; bait is never informative.
  const concrete = features.measures + features.numbers + features.names + (features.listItems > 0 ? 2 : 0);
  const r_specific = note(!r_platitude && !r_bait && concrete >= 1 && features.contentWords.length >= 5, "figures, names or a list");
  const r_new = note(!r_platitude && !r_bait && rarity.rareWords >= 2 && rarity.rareShare >= 0.25, "rare words for the topic");
  const r_reply_room = note(
    !r_bait && !r_plug && (features.endsWithQuestion || (OPINION.test(text) && features.contentWords.length >= 4) || (r_specific && features.listItems === 0)),
    "room to add in a reply",
  );

  const kind = kindOf(text, features, note);
  // Weights are Threadline's choice: substance up, bait, plugs and platitudes down.
  const logit =
    -0.6 +
    1.3 * +r_specific +
    1.1 * +r_new +
    0.5 * +r_reply_room -
    1.8 * +r_bait -
    1.5 * +r_plug -
    1.4 * +r_platitude +
    (kind === "data" || kind === "insight" || kind === "story" ? 0.3 : 0) +
    (kind === "joke" ? -0.2 : 0);
  return { kind, answers: { r_specific, r_new, r_bait, r_plug, r_platitude, r_reply_room }, score: 1 / (1 + Math.exp(-logit)), signals };
}

/** First rule that matches, in a fixed order (the more specific kinds first). */
function kindOf(text: string, features: TextFeatures, note: (fired: boolean, signal: string) => boolean): PostKind {
  if (note(INTRO.test(text), "kind intro: introduces the author")) return "intro";
  if (note(LAUNCH.test(text), "kind launch: shipped or launched")) return "launch";
  if (note(PROGRESS.test(text), "kind progress: a milestone reached")) return "progress";
  if (note(features.endsWithQuestion, "kind question: ends with a question")) return "question";
  if (
    note(
      features.measures >= 2 || (features.measures >= 1 && /\b(data|survey|asked|study|benchmark|measured|results?)\b/i.test(text)),
      "kind data: measured figures",
    )
  )
    return "data";
  if (note(NEWS.test(text), "kind news: reports an event")) return "news";
  if (note(JOKE.test(text), "kind joke: humour markers")) return "joke";
  if (note(STORY.test(text), "kind story: narrative markers")) return "story";
  if (note(OPINION.test(text), "kind opinion: a stance")) return "opinion";
  if (note(features.listItems > 0 || INSIGHT.test(text), "kind insight: a lesson or advice")) return "insight";
  note(true, "kind opinion: no other kind matched");
  return "opinion";
}
