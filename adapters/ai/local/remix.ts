/**
 * `remix` (spec: `POST /v1/posts/remix`): a new post from a source post's idea, by
 * closeness. 70 to 100 stays close to the wording (the `improve` rules); 35 to 69 keeps
 * the points in a new shape (hook line, points as lines, a question); below 35 keeps only
 * the idea (the main claim, tightened, and a question). Close remixes keep every word
 * but put each sentence on its own line (a new shape, same wording). Someone else's post
 * loses its sentences naming people (handles) and its links, and below 70 its sentences
 * with numbers (their specific claims, not ours to repeat); the account's own post keeps
 * its subject, products, names, numbers and links.
 */
import type { RemixInput } from "../../../core/model/task_inputs.ts";
import { paragraphsOf, sentencesOf } from "../../../core/model/text_units.ts";
import { applyVoice } from "./apply_voice.ts";
import { concise } from "./concise.ts";
import { questionFor } from "./engaging.ts";
import { hookParagraph } from "./hook.ts";
import { improve } from "./improve.ts";
import { applyDirectives, directivesOf } from "./instructions.ts";
import { CONTRARIAN } from "./tone_lexicons.ts";
import { tidy } from "./text_tools.ts";

const LINK = /(?:https?:\/\/|www\.)\S+/g;

/** The remixed post. */
export function remix(input: RemixInput): string {
  const directives = directivesOf(input.instructions);
  const closeness = Math.min(100, Math.max(0, input.closeness));
  const links = input.ownPost ? (input.text.match(LINK) ?? []) : [];
  const prose = input.ownPost
    ? input.text
    : tidy(
        sentencesOf(input.text)
          .filter((sentence) => !/@\w/.test(sentence))
          .join(" "),
      );
  const source = tidy(prose.replace(LINK, "")).trim();
  let out: string;
  if (closeness >= 70) {
    out = paragraphsOf(improve(source))
      .map((paragraph) => sentencesOf(paragraph).join("\n"))
      .join("\n\n");
  } else {
    const all = sentencesOf(concise(source));
    const kept = input.ownPost ? all : all.filter((sentence) => !/\d/.test(sentence));
    const sentences = kept.length ? kept : all;
    const basis = sentences.join(" ");
    if (closeness >= 35) {
      const head = hookParagraph(sentences[0] ?? basis, basis).split("\n")[0];
      const points = sentences.filter((sentence) => !head.toLowerCase().includes(sentence.toLowerCase()));
      const body = points.length >= 3 ? points.map((point) => `- ${point}`).join("\n") : points.join("\n");
      out = [head, body, questionFor(basis)].filter(Boolean).join("\n\n");
    } else {
      const claim = sentences.find((sentence) => CONTRARIAN.test(sentence)) ?? sentences[0] ?? source;
      out = `${claim}\n\n${questionFor(basis)}`;
    }
  }
  const styled = applyVoice(applyDirectives(out, directives, input.voice), input.voice);
  return links.length ? `${styled}\n\n${links.join("\n")}` : styled;
}
