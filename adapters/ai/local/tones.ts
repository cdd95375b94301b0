/**
 * The tone presets `positive`, `inspirational`, `humorous`, `sarcastic` and `creative`:
 * each swaps words from its lexicon and adds a line from its templates, naming the
 * post's topic. The account's voice is applied afterwards (`apply_voice.ts`).
 */
import { sentencesOf } from "../../../core/model/text_units.ts";
import { CLOSERS, HUMOROUS_SWAPS, INSPIRATIONAL_SWAPS, POSITIVE_SWAPS, SARCASTIC_OPENERS } from "./tone_lexicons.ts";
import { topicOf } from "./key_phrases.ts";
import { capitalise, decapitalise, fixArticles, onProse, pick, replacePhrases } from "./text_tools.ts";

/** A tone preset. */
export type Tone = keyof typeof CLOSERS;

/** The post in `tone`. */
export function toned(text: string, tone: Tone): string {
  const body = text.trimEnd();
  const topic = topicOf(body);
  const closer = fill(pick(CLOSERS[tone], `${tone}:${body}`), topic);
  switch (tone) {
    case "positive":
      return `${swap(body, POSITIVE_SWAPS)}\n\n${closer}`;
    case "inspirational":
      return `${swap(body, INSPIRATIONAL_SWAPS)}\n\n${closer}`;
    case "humorous":
      return `${swap(body, HUMOROUS_SWAPS)}\n\n${closer}`;
    case "sarcastic": {
      const opener = pick(SARCASTIC_OPENERS, `opener:${body}`);
      return `${opener}${decapitalise(body, body)}\n\n${closer}`;
    }
    case "creative":
      // A metaphor opens; each sentence gets its own line, for rhythm.
      return `${closer}\n\n${body
        .split(/\n\s*\n/)
        .map((paragraph) => sentencesOf(paragraph).join("\n"))
        .join("\n\n")}`;
  }
}

function swap(text: string, table: Readonly<Record<string, string>>): string {
  return onProse(text, (prose) => fixArticles(replacePhrases(prose, table)));
}

function fill(template: string, topic: string): string {
  return template.replace(/\{Topic\}/g, capitalise(topic)).replace(/\{topic\}/g, topic);
}
