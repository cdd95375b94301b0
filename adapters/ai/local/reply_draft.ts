/**
 * `reply_draft` (engage reply drafts): a short reply that engages with what the post
 * itself says, chosen by the kind of post: a number asks what drove it, a question gets
 * interest and a follow-up (the engine has no answer of its own to give), a story asks what they would do
 * differently, an opinion agrees on the hard part, anything else picks out its key
 * phrase and asks how they got there. The user's own `thoughts`, when given, lead the reply
 * in their words. No flattery, links or hashtags.
 */
import type { ReplyDraftInput } from "../../../core/model/task_inputs.ts";
import { applyVoice } from "./apply_voice.ts";
import { applyDirectives, directivesOf } from "./instructions.ts";
import { CONTRARIAN, STORY } from "./tone_lexicons.ts";
import { topicOf } from "./key_phrases.ts";

/** The reply. */
export function replyDraft(input: ReplyDraftInput): string {
  const directives = directivesOf(input.instructions);
  const post = input.post.replace(/(?:https?:\/\/|www\.)\S+/g, "");
  const topic = topicOf(post);
  const number = post.match(/(?<![\w.])\d[\d,.]*(?:%|k|x|m)?(?![\w])/i)?.[0];
  let reply: string;
  if (/\?\s*$/.test(post.trim())) reply = `Curious what people say about ${topic} here. What have you tried so far?`;
  else if (number) reply = `${number} is a bigger jump than it looks. What drove most of it?`;
  else if (STORY.test(post)) reply = `Thanks for writing this up. What would you do differently with ${topic} next time?`;
  else if (CONTRARIAN.test(post)) reply = `Agree on ${topic}. The hard part is doing it consistently. Where do you start?`;
  else reply = `The point about ${topic} is the one most people skip. How did you get there?`;
  // The user's own view leads, in their words; the engine adds only its question.
  if (input.thoughts?.trim()) reply = `${asSentence(input.thoughts)} ${reply}`;
  return applyVoice(applyDirectives(reply, directives, input.voice), input.voice);
}

/** `text` as one sentence: trimmed, capitalised, ending in punctuation. */
function asSentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, " ");
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
