/**
 * `details`: the post expanded with structure built from its own content, never with
 * invented facts: "Why it matters" (the post's own reason sentence when it has one, else
 * a line on its two key phrases), "How to apply it" (start with its key phrases) and
 * "The takeaway" (its first sentence, tightened) when there is more than one sentence.
 */
import { sentencesOf } from "../../../core/model/text_units.ts";
import { concise } from "./concise.ts";
import { keyPhrases } from "./key_phrases.ts";
import { capitalise } from "./text_tools.ts";

const REASON = /\b(?:because|so that|which means|that's why|that is why|the reason)\b/i;

/** The post followed by its structured expansion. */
export function details(text: string): string {
  const sentences = sentencesOf(text);
  const [main = "this", second] = keyPhrases(text, 2);
  const reason = sentences.find((sentence) => REASON.test(sentence));
  const why = reason ? capitalise(reason) : `${capitalise(main)} affects more than it seems${second ? `, starting with ${second}` : ""}.`;
  const lines = [`Why it matters: ${why}`, `How to apply it: start with ${main}${second ? `, then look at ${second}` : ""}.`];
  if (sentences.length > 1) lines.push(`The takeaway: ${concise(sentences[0])}`);
  return `${text.trimEnd()}\n\n${lines.join("\n")}`;
}
