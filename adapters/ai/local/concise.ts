/**
 * `concise`: shorter by rule. Removes filler words (`just`, `really`, `basically`...),
 * opening and trailing hedges (`I think`, `to be honest`, `..., I guess`), and turns
 * wordy phrases into short ones (`in order to` -> `to`). Facts, names, numbers and links
 * are never touched; "not really" and "not just" keep their word (it carries meaning).
 */
import { FILLERS, OPENING_HEDGES, REDUNDANT, TRAILING_HEDGES } from "./edit_lexicons.ts";
import { capitalise, escapeRegExp, fixArticles, mapSentences, onProse, replacePhrases, tidy } from "./text_tools.ts";

const alternatives = (phrases: readonly string[]) =>
  [...phrases]
    .sort((a, b) => b.length - a.length)
    .map((phrase) => escapeRegExp(phrase).replace(/'/g, "['’]").replace(/ /g, "\\s+"))
    .join("|");

// A filler between commas takes one comma with it ("It was, honestly, great" -> "It was great").
const FILLER = new RegExp(
  `(?<!(?:\\bnot|n['’]t)\\s+)(?:,\\s*)?(?<![\\p{L}\\p{N}'’])(?:${alternatives(Object.keys(FILLERS).filter((key) => !FILLERS[key]))})(?![\\p{L}\\p{N}'’])(?:,(?!\\d))?`,
  "giu",
);
const OPENING = new RegExp(
  `^(?:${OPENING_HEDGES.map((hedge) => (hedge.endsWith(",") ? `${alternatives([hedge.slice(0, -1)])},\\s*` : `(?:${alternatives([hedge])})(?:,\\s*|\\s+)`)).join("|")})`,
  "iu",
);
const TRAILING = new RegExp(`,\\s*(?:${alternatives(TRAILING_HEDGES)})(?=\\s*[.!?…]*\\s*$)`, "iu");
const SHORTENED = Object.fromEntries(Object.entries(FILLERS).filter(([, value]) => value));

/** Options of `concise`. */
export interface ConciseOptions {
  /** Remove hedges too (default true; `improve` keeps them: they are part of the voice). */
  hedges?: boolean;
}

/** The text tightened: fillers, hedges and redundant phrases removed. */
export function concise(text: string, options: ConciseOptions = {}): string {
  const hedges = options.hedges ?? true;
  return onProse(text, (prose) =>
    fixArticles(
      tidy(
        mapSentences(prose, (sentence) => {
          let out = tidy(replacePhrases(sentence.replace(FILLER, ""), SHORTENED)).trim();
          if (hedges) {
            for (let i = 0; i < 3 && OPENING.test(out); i += 1) out = out.replace(OPENING, "");
            out = out.replace(TRAILING, "");
          }
          out = tidy(replacePhrases(out, REDUNDANT)).trim();
          return /^[^\p{L}\ue100-\ueeff]*\p{Lu}/u.test(sentence) ? capitalise(out) : out;
        }),
      ),
    ),
  );
}
