/**
 * What each task asks of a remote model, one instruction per task. The local engine
 * implements the same intent by rule (adapters/ai/local/), so the two engines do the
 * same job and differ only in how well.
 */
import type { ModelTask } from "./model_task.ts";

/** The instruction of every task. */
export const TASK_RULES: Record<ModelTask, string> = {
  improve: "Improve the post: fix errors, cut filler, sharpen the wording and the first line. Keep its meaning, facts and length roughly the same.",
  hook: "Rewrite only the first paragraph into a hook that makes people read on: lead with a number, a question, a contrarian claim or a story beat that the post itself supports. Return only the new first paragraph.",
  engaging: "Make the post invite replies: keep its content and end with one specific question the audience can answer from experience.",
  humorous: "Rewrite the post with light, self-aware humour. Keep every fact; add no jokes at anyone's expense.",
  positive: "Rewrite the post in a positive, constructive tone: reframe complaints as challenges and progress. Keep every fact.",
  creative: "Rewrite the post creatively: a fresh image or metaphor, varied rhythm, line breaks where they help. Keep every fact.",
  sarcastic: "Rewrite the post with dry sarcasm aimed at the situation, never at a person. Keep every fact.",
  inspirational: "Rewrite the post to inspire action: keep its substance and end with a short line that moves the reader to start.",
  grammar: "Fix grammar, spelling, capitalisation and punctuation only. Change nothing else: not the wording, not the tone, not the line breaks.",
  translate: "Translate the post into the target language (English when none is named). Keep names, handles, links, numbers and line breaks.",
  clarity: "Make the post clearer: split long sentences, replace jargon with plain words, keep the meaning and the facts.",
  details: "Expand the post with concrete structure (why it matters, what to try, the takeaway) using only what the post says; invent no facts or numbers.",
  concise: "Make the post shorter: remove filler, hedges and redundant phrases. Keep every fact, name, number and link.",
  inline_edit: "Edit only the selected text as asked. Return only the edited selection, never the whole post.",
  factcheck:
    'Judge whether the claim is true. Answer JSON only: {"result": "true" | "false" | "unknown", "comment": one sentence, "sources": [URLs you are sure exist]}. Say "unknown" when you cannot be sure.',
  remix:
    "Write a new post from the source post's idea. Closeness 0 keeps only the idea; 100 stays close to the wording. Do not copy the source's names, products or numbers unless told the post is the account's own.",
  draft:
    "Write one post from the brief. When a mirror post is given, copy its shape (length, line breaks, structure, opener, ending) but none of its words or claims.",
  reply_draft:
    "Write one short reply to the post that adds something specific: a question, an experience or a precise agreement. No flattery, no links, no hashtags.",
  outreach_message:
    "Write one direct message following the format. Copy the tokens [name], [first] and [handle] exactly as written wherever the format has them: they are filled in when the message is sent, so never replace them with the recipient's details. Personalise it only with the hook quote given; when there is none, make no personal claims about the recipient. Name no one but the recipient.",
  keyword_suggestion:
    'Suggest search keywords that people matching the ideal customer profile use in their posts. Prefer terms from the vocabulary given. Answer JSON only: {"keywords": [strings, best first]}.',
  icp_expansion:
    'Expand the ideal customer profile into a fuller description (who they are, their roles, what they post about) and a scoring rubric: criteria a person must meet, criteria that make a better fit, and what rules a person out. Take every criterion from the profile itself; invent none. Answer JSON only: {"description": string, "keywords": [strings], "roles": [strings], "must_have": [short criteria], "nice_to_have": [short criteria], "disqualifiers": [short criteria]}.',
  lead_scoring:
    'Judge how well each candidate fits the ideal customer profile (and would want the offer, when one is given), from their bio and the post that made them a candidate. Score 0 to 100: 70 and up a clear fit (the right role and the problem or topic), 50 to 69 a likely fit, below 50 not a fit. When examples of leads marked fit or not fit are given, score people like the fit ones higher and people like the not-fit ones lower. Answer JSON only: {"leads": [{"id": the candidate\'s id, "score": integer, "rationale": one short line naming what matched or what is missing}]}, one entry per candidate.',
  profile_research:
    'Research this person from their profile and recent posts for a first outreach message. Say what they post about, their tone and their recent themes, from the posts only; invent nothing. Hooks are exact quotes, copied character for character from one post (a phrase or sentence worth replying to), each with that post\'s id; give none rather than paraphrase. When a focus is given, favour what bears on it. Answer JSON only: {"summary": one or two sentences, "topics": [short strings], "tone": a few words, "recent_themes": [short strings], "hooks": [{"post_id": string, "quote": string}] (at most 3)}.',
  dataset_refine:
    'Judge whether each row\'s text meets the criterion, from the text alone. "match" when it clearly does, "no_match" when it clearly does not, "unclear" when the text cannot say (too short, off-topic, another language you cannot read). Answer JSON only: {"rows": [{"id": the row\'s id, "verdict": "match" | "no_match" | "unclear"}]}, one entry per row.',
  style_guide:
    "Write a concise style guide for this account from its posts: length, sentence rhythm, casing, emoji, openers, endings, favourite words, formatting. State only what the posts show.",
};
