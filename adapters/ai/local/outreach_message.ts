/**
 * `outreach_message` (spec: Outreach drafts): one message following the user's format for
 * one recipient.
 *
 * - `[name]`, `[first]` and `[handle]` are left exactly as written: the companion app fills
 *   them at send time (spec: "tokens `[name]`, `[first]`, `[handle]` are left intact for
 *   send-time fill-in"), and the directives below never touch them.
 * - Other placeholders (`{name}`, `{first_name}`, `{handle}`, `[first_name]`, `{{hook}}`,
 *   `{quote}`...) are filled here; a hook placeholder takes the hook quote.
 * - A hook the format has no place for goes after the format's greeting ("Hi [first],"), or
 *   in a greeting of its own when the format has none, as one line quoting it.
 * - Without a hook, sentences that need one are dropped: the message makes no personal
 *   claims (the spec's `generic`). Only the recipient is ever named.
 */
import type { OutreachInput } from "../../../core/model/task_inputs.ts";
import { sentencesOf } from "../../../core/model/text_units.ts";
import { applyDirectives, directivesOf } from "./instructions.ts";
import { tidy } from "./text_tools.ts";

/** The send-time tokens (kept verbatim). */
const SEND_TIME_TOKEN = /\[(?:name|first|handle)\]/g;
const FILLED = /\{\{?\s*(first[_ ]?name|name|handle|username|hook|quote)\s*\}?\}|\[\s*(first[_ ]?name|username|hook|quote)\s*\]/gi;
const HOOK_PLACEHOLDER = /\{\{?\s*(?:hook|quote)\s*\}?\}|\[\s*(?:hook|quote)\s*\]/i;
/** A greeting clause that opens the format: "Hi [first]," or "Hey {first_name}!" or "Hello there,". */
const GREETING = /^(?:hi|hey|hello|dear|howdy|yo)\b[^,!.\n]{0,40}[,!.]?/i;

/** The message for one recipient. */
export function outreachMessage(input: OutreachInput): string {
  const directives = directivesOf(input.instructions);
  const { recipient } = input;
  const handle = recipient.handle?.replace(/^@/, "") || null;
  const first = recipient.name?.trim().match(/^[\p{L}'’-]+/u)?.[0] ?? (handle ? `@${handle}` : "there");
  const hook = input.hook?.trim() ? shorten(input.hook.trim(), 140) : null;
  const format = input.format.trim();
  const templated = HOOK_PLACEHOLDER.test(format) || hasToken(format) || new RegExp(FILLED.source, "i").test(format);
  let message: string;
  if (HOOK_PLACEHOLDER.test(format)) {
    message = hook ? format : withoutHookSentences(format);
  } else if (GREETING.test(format)) {
    // The format greets already: the hook line follows its greeting.
    const greeting = format.match(GREETING)![0];
    const rest = format.slice(greeting.length);
    message = hook ? `${greeting} your post "${hook}" stuck with me.${rest.startsWith("\n") ? rest : ` ${capitalised(rest.trimStart())}`}` : format;
  } else if (templated) {
    // Tokens but no greeting: the hook line opens the message.
    message = hook ? `Your post "${hook}" stuck with me.\n\n${format}` : format;
  } else {
    message = `Hey ${first},${hook ? ` your post "${hook}" stuck with me.` : ""}\n\n${format}`;
  }
  message = message.replace(FILLED, (_, a?: string, b?: string) => {
    const key = (a ?? b ?? "").toLowerCase().replace(/[_ ]/g, "");
    if (key === "hook" || key === "quote") return hook ?? "";
    if (key === "handle" || key === "username") return handle ? `@${handle}` : first;
    return key === "name" ? recipient.name?.trim() || first : first;
  });
  // The directives (shorter, lowercase, grammar...) see the tokens as opaque marks, so none is reworded or recased.
  const kept: string[] = [];
  const protectedText = tidy(message)
    .trim()
    .replace(SEND_TIME_TOKEN, (token) => `\uE000${kept.push(token) - 1}\uE001`);
  return applyDirectives(protectedText, directives).replace(/\uE000(\d+)\uE001/g, (_, i: string) => kept[Number(i)]);
}

function hasToken(text: string): boolean {
  return new RegExp(SEND_TIME_TOKEN.source).test(text);
}

function capitalised(text: string): string {
  return text.replace(/^\p{Ll}/u, (letter) => letter.toUpperCase());
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
