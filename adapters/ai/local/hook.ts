/**
 * `hook`: the first paragraph rewritten into a hook, ahead of the unchanged rest (spec:
 * Tools). The pattern is chosen from features of the post, first match wins:
 *
 * 1. list items (2 or more) -> "N lessons/ways/tools/things about <topic>:"
 * 2. a question later in the paragraph -> the question moves first, on its own line
 * 3. a contrarian claim -> "Unpopular opinion: <claim>"
 * 4. a number -> the sentence with the number leads ("Real numbers: ..." when it already does)
 * 5. a first-person story -> "A quick story about <topic>:"
 * 6. otherwise -> "Quick thought on <topic>:"
 *
 * The paragraph's other sentences follow the hook line, tightened (`concise`), so nothing
 * it said is lost and the opening stays lean.
 */
import { sentencesOf } from "../../../core/model/text_units.ts";
import { concise } from "./concise.ts";
import { CONTRARIAN, STORY } from "./tone_lexicons.ts";
import { topicOf } from "./key_phrases.ts";
import { capitalise, decapitalise, LIST_MARKER } from "./text_tools.ts";

/** The hook paragraph for `first`, the first paragraph of `whole`. */
export function hookParagraph(first: string, whole: string): string {
  const sentences = sentencesOf(first);
  const topic = topicOf(whole);
  const others = (used?: string) => sentences.filter((sentence) => sentence !== used);
  const lines = (head: string, rest: string[]) => [head, concise(rest.join(" "))].filter(Boolean).join("\n");

  const listItems = whole.split("\n").filter((line) => LIST_MARKER.test(line)).length;
  if (listItems >= 2) {
    const noun = /\b(?:learn|learned|learnt|lesson|mistake)/i.test(whole)
      ? "lessons"
      : /\b(?:how to|ways?|steps?)\b/i.test(whole)
        ? "ways"
        : /\b(?:tools?|apps?|stack)\b/i.test(whole)
          ? "tools"
          : "things";
    // The old list intro ("Here's what I learned:") says what the hook line now says.
    return lines(
      `${listItems} ${noun} about ${topic}:`,
      others().filter((sentence) => !/^here(?:'|’)?s\b/i.test(sentence)),
    );
  }
  const question = sentences.find((sentence, i) => i > 0 && /\?["'”’)]*$/.test(sentence));
  if (question) return lines(question, others(question));
  const contrarian = sentences.find((sentence) => CONTRARIAN.test(sentence));
  if (contrarian) return lines(`Unpopular opinion: ${decapitalise(contrarian, whole)}`, others(contrarian));
  const numbered = sentences.find((sentence) => /\d/.test(sentence));
  if (numbered) {
    if (numbered !== sentences[0]) return lines(numbered, others(numbered));
    return lines(`Real numbers: ${decapitalise(numbered, whole)}`, others(numbered));
  }
  if (STORY.test(first)) return lines(`A quick story about ${topic}:`, sentences);
  return lines(capitalise(`Quick thought on ${topic}:`), sentences);
}
