/**
 * The 13 rephrase types of the local engine (spec: Tools). The eight style presets end
 * in the account's voice; `grammar`, `clarity`, `details` and `concise` leave it alone;
 * `translate` cannot be done honestly by rules and names the model it needs
 * (ARCHITECTURE: "The local model is honest").
 */
import type { RephraseType } from "../../../core/model/model_task.ts";
import type { VoiceProfile } from "../../../core/model/voice_profile.ts";
import { ModelCapabilityError } from "../../../core/model/model_errors.ts";
import { splitFirstParagraph, withFirstParagraph } from "../../../core/model/first_paragraph.ts";
import { applyVoice } from "./apply_voice.ts";
import { clarity } from "./clarity.ts";
import { concise } from "./concise.ts";
import { details } from "./details.ts";
import { engaging } from "./engaging.ts";
import { grammar } from "./grammar.ts";
import { hookParagraph } from "./hook.ts";
import { improve } from "./improve.ts";
import { toned } from "./tones.ts";

/** What the local engine says when asked to translate. */
export function translationUnavailable(): ModelCapabilityError {
  return new ModelCapabilityError(
    'Translation needs a language model: the local engine cannot translate honestly. Configure "AI_BASE_URL" and "AI_MODEL" to use one',
    { capability: "translate", requires: "AI_BASE_URL and AI_MODEL" },
  );
}

/** `text` rephrased as `type`. */
export function rephrase(type: RephraseType, text: string, voice?: VoiceProfile): string {
  switch (type) {
    case "grammar":
      return grammar(text);
    case "concise":
      return concise(text);
    case "clarity":
      return clarity(text);
    case "details":
      return details(text);
    case "translate":
      throw translationUnavailable();
    case "hook": {
      // Only the first paragraph changes, voice included; the rest stays byte-identical.
      const split = splitFirstParagraph(text);
      return withFirstParagraph(split, applyVoice(hookParagraph(split.first, text), voice));
    }
    case "improve":
      return applyVoice(improve(text), voice);
    case "engaging":
      return applyVoice(engaging(text), voice);
    case "humorous":
    case "positive":
    case "creative":
    case "sarcastic":
    case "inspirational":
      return applyVoice(toned(text, type), voice);
  }
}
