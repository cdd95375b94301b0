/**
 * `dataset_refine` by rule (ARCHITECTURE: "The local model is honest"): the criterion is read
 * into its content words (the role lexicon's `contentWords`, lightly stemmed), less the words
 * that say how a criterion is phrased rather than what it is about ("mentions", "asking",
 * "people who"). A row `match`es when its text shares one of those stems (a stem of 4 or more
 * letters also meets a longer spelling of it: "pric" meets "pricey"); `unclear` when the text
 * is empty, has fewer than `MIN_WORDS` content words to judge, or the criterion names
 * nothing to look for; `no_match` otherwise.
 */
import type { DatasetRefineInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";
import { contentWords } from "../../../core/model/role_lexicon.ts";

/** Content words a text needs before a missing match means `no_match`. */
const MIN_WORDS = 3;

/** Stems of criterion phrasing, never evidence ("replies that mention ..."). */
const PHRASING = new Set(
  (
    "mention talk talk about say said ask asked asking want wanting people person who whose someone anyone user row reply replie repli post " +
    "tweet quote quoting text write wrote about express show something thing like interest interested kind sort"
  ).split(" "),
);

/** A verdict per row. */
export function judgeRows(input: DatasetRefineInput): TaskOutput<"dataset_refine"> {
  const wanted = [...new Set(contentWords(input.criterion).map(({ stem }) => stem))].filter((stem) => !PHRASING.has(stem));
  return {
    rows: input.rows.map(({ id, text }) => ({ id, verdict: verdictOf(wanted, text) })),
  };
}

function verdictOf(wanted: readonly string[], text: string): "match" | "no_match" | "unclear" {
  const words = contentWords(text).map(({ stem }) => stem);
  if (wanted.length === 0 || words.length === 0) return "unclear";
  if (words.some((word) => wanted.some((stem) => meets(word, stem)))) return "match";
  return words.length < MIN_WORDS ? "unclear" : "no_match";
}

/** Same stem, or one a prefix of the other when the shorter has 4 letters or more. */
function meets(word: string, stem: string): boolean {
  if (word === stem) return true;
  const [short, long] = word.length < stem.length ? [word, stem] : [stem, word];
  return short.length >= 4 && long.startsWith(short);
}
