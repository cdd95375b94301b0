/**
 * Free-form instructions (inline-edit `instruction`, remix/draft/reply/outreach
 * `instructions`) on the local engine: each clause must name a transform the engine has
 * ("shorter", "fix typos", "add a question", "more playful", "lowercase", "no emoji"...).
 * A clause it cannot follow is refused with a capability error quoting it, rather than
 * silently ignored (ARCHITECTURE: "The local model is honest").
 */
import type { RephraseType } from "../../../core/model/model_task.ts";
import type { VoiceProfile } from "../../../core/model/voice_profile.ts";
import { ModelCapabilityError } from "../../../core/model/model_errors.ts";
import { EMOJI_PATTERN } from "../../../core/model/text_units.ts";
import { rephrase, translationUnavailable } from "./rephrase.ts";
import { onProse, tidy } from "./text_tools.ts";

/** One step an instruction asks for. */
export type Directive = RephraseType | "lowercase" | "no_emoji";

const DIRECTIVES: readonly { pattern: RegExp; directive: Directive }[] = [
  { pattern: /translat|\bin (?:spanish|french|german|italian|portuguese|japanese|chinese|korean|dutch|hindi|arabic)\b/i, directive: "translate" },
  { pattern: /short|concise|tight|brief|trim|cut|fewer words|less wordy/i, directive: "concise" },
  { pattern: /grammar|spelling|typo|proofread|punctuation/i, directive: "grammar" },
  { pattern: /clear|simpl|plain|jargon|easier to read/i, directive: "clarity" },
  { pattern: /hook|opening|opener|first line|attention/i, directive: "hook" },
  { pattern: /question|engag|call to action|\bcta\b|replies/i, directive: "engaging" },
  { pattern: /funn|humou?r|joke|playful|witty/i, directive: "humorous" },
  { pattern: /sarcas|snark|iron/i, directive: "sarcastic" },
  { pattern: /positive|upbeat|optimis|cheerful|friendl/i, directive: "positive" },
  { pattern: /inspir|motivat|uplift/i, directive: "inspirational" },
  { pattern: /creative|poetic|metaphor|vivid/i, directive: "creative" },
  { pattern: /detail|expand|elaborat|longer|more context/i, directive: "details" },
  { pattern: /improve|better|polish|punch/i, directive: "improve" },
  { pattern: /lower ?case/i, directive: "lowercase" },
  { pattern: /no emoji|without emoji|remove (?:the )?emoji|drop (?:the )?emoji/i, directive: "no_emoji" },
];

/** Words that carry no instruction of their own ("please make it a bit more ..."). */
const GLUE =
  /\b(?:please|make|it|this|the|a|an|bit|more|less|little|slightly|much|way|also|keep|sound|be|to|and|then|post|text|tweet|thread|version|some|very)\b/gi;

/** The directives of `instructions`, in order; refuses clauses the engine cannot follow. */
export function directivesOf(instructions: string | undefined): Directive[] {
  const directives: Directive[] = [];
  for (const clause of (instructions ?? "").split(/[,.;:!\n]+|\band\b|\bthen\b/i)) {
    if (!clause.replace(GLUE, "").trim()) continue;
    const found = DIRECTIVES.find(({ pattern }) => pattern.test(clause));
    if (!found) {
      throw new ModelCapabilityError(
        `The local engine cannot follow the instruction "${clause.trim()}": free-form instructions need a language model. Configure "AI_BASE_URL" and "AI_MODEL" to use one`,
        { capability: "instructions", requires: "AI_BASE_URL and AI_MODEL" },
      );
    }
    if (found.directive === "translate") throw translationUnavailable();
    if (!directives.includes(found.directive)) directives.push(found.directive);
  }
  return directives;
}

/** `text` with `directives` applied in order. */
export function applyDirectives(text: string, directives: readonly Directive[], voice?: VoiceProfile): string {
  let out = text;
  for (const directive of directives) {
    if (directive === "lowercase") out = onProse(out, (prose) => prose.toLowerCase());
    else if (directive === "no_emoji") out = tidy(out.replace(EMOJI_PATTERN, "")).trim();
    else out = rephrase(directive, out, voice);
  }
  return out;
}
