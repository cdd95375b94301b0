/**
 * The account's own voice on a style preset's output (spec: Tools, "written in the
 * account's own voice"), from its measured `VoiceProfile`: its favourite word of an
 * interchangeable group, its sentence length, its emoji habit and its casing.
 */
import type { VoiceProfile } from "../../../core/model/voice_profile.ts";
import { emojiOf } from "../../../core/model/text_units.ts";
import { SYNONYM_GROUPS } from "./tone_lexicons.ts";
import { splitLong } from "./clarity.ts";
import { capitalise, mapSentences, onProse, replacePhrases } from "./text_tools.ts";

/** `text` rewritten in `voice` (unchanged when no voice is known). */
export function applyVoice(text: string, voice: VoiceProfile | undefined): string {
  if (!voice || voice.posts === 0) return text;
  return onProse(text, (prose) => {
    let out = replacePhrases(prose, favouriteSwaps(voice));
    // Short-sentence writers get long sentences split near their own length.
    if (voice.averageSentenceWords > 0 && voice.averageSentenceWords <= 14) {
      out = mapSentences(out, (sentence) => splitLong(sentence, Math.max(16, Math.round(voice.averageSentenceWords * 2))));
    }
    if (voice.casing === "lowercase") {
      out = out.replace(/[\p{L}'’]+/gu, (word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()));
    } else if (voice.casing === "sentence") {
      out = mapSentences(out, capitalise);
    }
    if (voice.emojiPerPost >= 0.5 && voice.topEmoji.length > 0 && emojiOf(out).length === 0) out = `${out.trimEnd()} ${voice.topEmoji[0]}`;
    return out;
  });
}

function favouriteSwaps(voice: VoiceProfile): Record<string, string> {
  const swaps: Record<string, string> = {};
  for (const group of SYNONYM_GROUPS) {
    const favourite = group.find((word) => voice.favouriteWords.includes(word));
    if (!favourite) continue;
    for (const word of group) if (word !== favourite) swaps[word] = favourite;
  }
  return swaps;
}
