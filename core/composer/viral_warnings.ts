/**
 * The viral score's `warnings` (supplement: Content, viral-score): what the estimate
 * could not take into account, and text traits that commonly cost reach.
 */
import { textFeatures } from "./text_features.ts";

/** Warnings for a draft and how it was scored. */
export function viralWarnings(
  input: { text: string; is_quote?: boolean; post_at?: string; baseline: "account" | "population" },
  scored: { now: number; usable: number; fromAccount: boolean },
): string[] {
  const warnings: string[] = [];
  const features = textFeatures(input.text);
  if (input.baseline === "account" && !scored.fromAccount) {
    warnings.push(`Only ${scored.usable} usable posts in the last 90 days (excluding the last 3); scored against the population`);
  }
  if (input.post_at === undefined) warnings.push("No post_at: posting hour and weekday were not scored");
  else if (Date.parse(input.post_at) < scored.now) warnings.push("post_at is in the past");
  // The baseline holds originals only, so a quote has nothing of its own kind to compare with.
  if (input.is_quote) warnings.push("Quote posts are not in the baseline (originals only); scored as an original");
  if (features.chars > 280) warnings.push('Longer than 280 characters: most readers see it cut at "Show more"');
  if (features.links > 0) warnings.push("Links in the post body tend to reduce reach on X");
  if (features.hashtags > 2) warnings.push("More than 2 hashtags read as spam to many readers");
  if (features.mentions > 0 && /^@\w+/.test(input.text.trim())) warnings.push("Starting with a mention makes it look like a reply");
  return warnings;
}
