/**
 * `draft` (spec: `POST /v1/posts/draft`): one post from a brief. The brief is tightened
 * and split into sentences; the first becomes a hook line (`hook.ts` patterns), the rest
 * the body (a list from three points), and a question closes it. With a mirror, the
 * mirror's measured shape is copied instead (opener kind, list items and their marker,
 * question ending) and none of its words. Products are used only where the brief names
 * them: the local engine does not invent plugs.
 */
import type { DraftInput } from "../../../core/model/task_inputs.ts";
import { sentencesOf } from "../../../core/model/text_units.ts";
import { applyVoice } from "./apply_voice.ts";
import { concise } from "./concise.ts";
import { questionFor } from "./engaging.ts";
import { grammar } from "./grammar.ts";
import { hookParagraph } from "./hook.ts";
import { applyDirectives, directivesOf } from "./instructions.ts";
import { capitalise, LIST_MARKER } from "./text_tools.ts";

/** The shape of a mirror post. */
export interface PostShape {
  opener: "question" | "number" | "statement";
  listItems: number;
  listMarker: string;
  endsWithQuestion: boolean;
}

/** Measures the shape of `post`. */
export function shapeOf(post: string): PostShape {
  const lines = post.split("\n").filter((line) => line.trim());
  const items = lines.filter((line) => LIST_MARKER.test(line));
  const first = lines[0] ?? "";
  return {
    opener: /\?\s*$/.test(first) ? "question" : /\d/.test(first) ? "number" : "statement",
    listItems: items.length,
    listMarker: items[0]?.match(LIST_MARKER)?.[1].trim().replace(/^\d+/, "1") ?? "-",
    endsWithQuestion: /\?["'”’)]*\s*$/.test(post.trim()),
  };
}

/** The drafted post. */
export function draft(input: DraftInput): string {
  const directives = directivesOf(input.instructions);
  // "Write a post about X" is an instruction to us, not part of the post.
  const brief = input.brief
    .trim()
    .replace(/^(?:please\s+)?(?:write|draft|create|make)\s+(?:a|an|one)?\s*(?:short\s+)?(?:post|tweet|thread)?\s*(?:about|on)\s+/i, "");
  const sentences = sentencesOf(grammar(concise(capitalise(brief))));
  const out = input.mirror ? inShape(sentences, brief, shapeOf(input.mirror)) : freeform(sentences, brief);
  return applyVoice(applyDirectives(out, directives, input.voice), input.voice);
}

function freeform(sentences: string[], brief: string): string {
  const head = hookParagraph(sentences[0] ?? brief, brief).split("\n")[0];
  const points = sentences.filter((sentence) => !head.includes(sentence));
  const body = points.length >= 3 ? points.map((point) => `- ${point}`).join("\n") : points.join(" ");
  return [head, body, questionFor(brief)].filter(Boolean).join("\n\n");
}

function inShape(sentences: string[], brief: string, shape: PostShape): string {
  const pickOpener = () => {
    if (shape.opener === "question") return sentences.find((sentence) => sentence.endsWith("?"));
    if (shape.opener === "number") return sentences.find((sentence) => /\d/.test(sentence));
    return undefined;
  };
  const opener = pickOpener() ?? sentences[0] ?? brief;
  const rest = sentences.filter((sentence) => sentence !== opener);
  const parts = [opener];
  if (shape.listItems > 0 && rest.length > 0) {
    const items = rest.slice(0, shape.listItems);
    const marker = (i: number) => (/^\d/.test(shape.listMarker) ? `${i + 1}${shape.listMarker.slice(1)}` : shape.listMarker);
    parts.push(items.map((item, i) => `${marker(i)} ${item}`).join("\n"));
    if (rest.length > items.length) parts.push(rest.slice(items.length).join(" "));
  } else if (rest.length) {
    parts.push(rest.join(" "));
  }
  if (shape.endsWithQuestion && !parts.at(-1)?.endsWith("?")) parts.push(questionFor(brief));
  return parts.join("\n\n");
}
