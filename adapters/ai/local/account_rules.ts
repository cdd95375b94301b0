/**
 * The account's standing rules on the local engine. Unlike a per-call instruction (which
 * the engine refuses when it cannot follow it), rules are standing preferences written
 * for any model: the engine applies the formatting rules it can check in the text and
 * leaves the rest to a language model (AI_BASE_URL), which is told all of them.
 */
import { EMOJI_PATTERN } from "../../../core/model/text_units.ts";
import { onProse, tidy } from "./text_tools.ts";

const FORMAT_RULES: readonly { pattern: RegExp; apply: (text: string) => string }[] = [
  { pattern: /\bno\s+hashtags?\b|\bwithout\s+hashtags?\b|\bnever\s+(?:use\s+)?hashtags?\b/i, apply: (text) => tidy(text.replace(/(^|\s)#(\w+)/gu, "$1$2")) },
  { pattern: /\bno\s+emojis?\b|\bwithout\s+emojis?\b|\bnever\s+(?:use\s+)?emojis?\b/i, apply: (text) => tidy(text.replace(EMOJI_PATTERN, "")).trim() },
  { pattern: /\blower ?case\b/i, apply: (text) => onProse(text, (prose) => prose.toLowerCase()) },
  { pattern: /\bno\s+exclamation/i, apply: (text) => text.replace(/!+/g, ".") },
];

/** `text` with the formatting rules of `rules` applied; other rules are left to a language model. */
export function applyAccountRules(text: string, rules: string | null | undefined): string {
  if (!rules?.trim()) return text;
  return FORMAT_RULES.reduce((out, rule) => (rule.pattern.test(rules) ? rule.apply(out) : out), text);
}
