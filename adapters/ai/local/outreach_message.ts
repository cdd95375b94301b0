/**
 * `outreach_message` (spec: Outreach drafts): one message following the user's format for
 * one recipient. Placeholders in the format (`{name}`, `{first_name}`, `{handle}`,
 * `{hook}`, also in `[...]` or `{{...}}`) are filled; a format without them gets a
 * greeting with the first name and, when there is a hook, one line quoting it. Without a
 * hook, sentences that need one are dropped: the message makes no personal claims
 * (the spec's `generic`). Only the recipient is ever named.
 */
import type { OutreachInput } from "../../../core/model/task_inputs.ts";
import { sentencesOf } from "../../../core/model/text_units.ts";
import { applyDirectives, directivesOf } from "./instructions.ts";
import { tidy } from "./text_tools.ts";

const PLACEHOLDER = /\{\{?\s*(first[_ ]?name|name|handle|username|hook|quote)\s*\}?\}|\[\s*(first[_ ]?name|name|handle|username|hook|quote)\s*\]/gi;
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source, "i");
const HOOK_PLACEHOLDER = /\{\{?\s*(?:hook|quote)\s*\}?\}|\[\s*(?:hook|quote)\s*\]/i;

/** The message for one recipient. */
export function outreachMessage(input: OutreachInput): string {
  const directives = directivesOf(input.instructions);
  const { recipient } = input;
  const handle = recipient.handle?.replace(/^@/, "") || null;
  const first = recipient.name?.trim().match(/^[\p{L}'’-]+/u)?.[0] ?? (handle ? `@${handle}` : "there");
  const hook = input.hook?.trim() ? shorten(input.hook.trim(), 140) : null;
  let message: string;
  const format = input.format.trim();
  const hookSentence = hook ? ` Your post "${hook}" stuck with me.` : "";
  if (HAS_PLACEHOLDER.test(format)) {
    const filled = hook ? format : withoutHookSentences(format);
    message = filled.replace(PLACEHOLDER, (_, a?: string, b?: string) => {
      const key = (a ?? b ?? "").toLowerCase().replace(/[_ ]/g, "");
      if (key === "hook" || key === "quote") return hook ?? "";
      if (key === "handle" || key === "username") return handle ? `@${handle}` : first;
      return key === "name" ? recipient.name?.trim() || first : first;
    });
  } else if (/^(?:hi|hey|hello|dear)\b/i.test(format)) {
    // The format greets already: the hook line follows its first line.
    const [opening, ...rest] = format.split("\n");
    message = [`${opening}${hookSentence}`, ...rest].join("\n");
  } else {
    message = `Hey ${first},${hook ? ` your post "${hook}" stuck with me.` : ""}\n\n${format}`;
  }
  return applyDirectives(tidy(message).trim(), directives);
}

function withoutHookSentences(format: string): string {
  return format
    .split("\n")
    .map((line) =>
      sentencesOf(line)
        .filter((sentence) => !HOOK_PLACEHOLDER.test(sentence))
        .join(" "),
    )
    .join("\n");
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}
