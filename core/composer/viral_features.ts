/**
 * The feature row the viral score models engagement on (supplement: Content,
 * viral-score): measured from the text (`textFeatures`) and the media flags, the same
 * way for a draft and for each post of the account's history.
 */
import { textFeatures } from "./text_features.ts";

/** Feature names, in row order, with the label `helped`/`hurt` show. */
export const VIRAL_FEATURES = [
  { name: "length", label: "Length (log of characters)" },
  { name: "question", label: "Ends with a question" },
  { name: "numbers", label: "Contains figures" },
  { name: "list", label: "List format" },
  { name: "hook", label: "Hook strength of the first line" },
  { name: "image", label: "Has an image" },
  { name: "video", label: "Has a video" },
  { name: "link", label: "Contains a link" },
  { name: "hashtags", label: "Uses hashtags" },
] as const;

/** A feature name. */
export type ViralFeature = (typeof VIRAL_FEATURES)[number]["name"];

/** What a post carries besides its text. */
export interface MediaFlags {
  image: boolean;
  video: boolean;
}

/** The feature row of a text with `media`. */
export function viralFeatureRow(text: string, media: MediaFlags): number[] {
  const features = textFeatures(text);
  const values: Record<ViralFeature, number> = {
    length: Math.log(Math.max(features.chars, 1)),
    question: +features.endsWithQuestion,
    numbers: +(features.numbers > 0),
    list: +(features.listItems > 0),
    hook: features.hookStrength,
    image: +media.image,
    video: +media.video,
    link: +(features.links > 0),
    hashtags: +(features.hashtags > 0),
  };
  return VIRAL_FEATURES.map((feature) => values[feature.name]);
}
