/**
 * Word rarity against a reference corpus (triage "says something new"): a word is rare
 * when few other posts on the topic use it, so a post repeating what every other post
 * says scores low and one bringing its own vocabulary scores high.
 */

/** Rarity of each text's content words among the others. */
export interface Rarity {
  /** Share of the text's distinct content words that are rare. */
  rareShare: number;
  rareWords: number;
}

/**
 * For each entry of `texts` (its distinct content words), how many of its words occur
 * in at most 5% of the other texts (at least: in none of them).
 */
export function wordRarity(texts: readonly string[][]): Rarity[] {
  const sets = texts.map((words) => new Set(words));
  const documentFrequency = new Map<string, number>();
  for (const set of sets) for (const word of set) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const others = Math.max(texts.length - 1, 0);
  const allowed = Math.floor(others * 0.05);
  return sets.map((set) => {
    if (set.size === 0) return { rareShare: 0, rareWords: 0 };
    let rare = 0;
    for (const word of set) if ((documentFrequency.get(word) ?? 1) - 1 <= allowed) rare += 1;
    return { rareShare: rare / set.size, rareWords: rare };
  });
}
