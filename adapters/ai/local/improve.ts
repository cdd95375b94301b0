/**
 * `improve`: the editing rules in sequence, keeping meaning and voice: grammar fixes,
 * then tightening without removing hedges (they are part of how the account talks),
 * then jargon replaced and sentences over 30 words split.
 */
import { JARGON } from "./edit_lexicons.ts";
import { splitLong } from "./clarity.ts";
import { concise } from "./concise.ts";
import { grammar } from "./grammar.ts";
import { fixArticles, mapSentences, onProse, replacePhrases } from "./text_tools.ts";

/** The post improved. */
export function improve(text: string): string {
  const tightened = concise(grammar(text), { hedges: false });
  return onProse(tightened, (prose) => fixArticles(mapSentences(replacePhrases(prose, JARGON), (sentence) => splitLong(sentence, 30))));
}
