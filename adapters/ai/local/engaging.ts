/**
 * `engaging`: the post ends with a question its readers can answer from experience,
 * chosen by what the post is: a list asks what to add, a contrarian claim asks for a
 * side, a story asks whether it happened to them, numbers ask for theirs, anything else
 * asks for their experience with the post's topic. A post that already ends with a
 * question gets an explicit invitation instead of a second question.
 */
import { CONTRARIAN, STORY } from "./tone_lexicons.ts";
import { topicOf } from "./key_phrases.ts";
import { LIST_MARKER } from "./text_tools.ts";

/** The post with a question ending. */
export function engaging(text: string): string {
  const body = text.trimEnd();
  if (/\?["'”’)]*$/.test(body)) return `${body}\n\nReply with yours, I read every one.`;
  return `${body}\n\n${questionFor(body)}`;
}

/** The closing question for `text`. */
export function questionFor(text: string): string {
  const topic = topicOf(text);
  if (text.split("\n").filter((line) => LIST_MARKER.test(line)).length >= 2) return "Which one would you add?";
  if (CONTRARIAN.test(text)) return "Agree or disagree?";
  if (STORY.test(text)) return "Has this happened to you?";
  if (/\d/.test(text.replace(/(?:https?:\/\/|www\.)\S+/g, ""))) return `What numbers are you seeing with ${topic}?`;
  return `What's your experience with ${topic}?`;
}
