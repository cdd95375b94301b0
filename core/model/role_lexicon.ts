/**
 * The role lexicon and light stemming shared by the local engine's audience tasks
 * (keyword suggestion, ICP expansion, lead scoring) and lead search's query plan
 * (core/signals/query_plan.ts): one list of role words, so the ICP "founders" and the bio
 * "Solo founder" are read by the same rule everywhere. Lives in core because the plan
 * needs it whichever model engine is configured.
 */
import { STOPWORDS, wordsOf } from "./text_units.ts";

/** A role: the words that name it and the roles it stands for, with their neighbours. */
export interface RoleEntry {
  pattern: RegExp;
  roles: string[];
}

/** Role words and the roles they stand for, with their neighbours. */
export const ROLES: readonly RoleEntry[] = [
  { pattern: /\b(?:co-?)?founders?\b/i, roles: ["founders", "co-founders", "CEOs"] },
  { pattern: /\bceos?\b/i, roles: ["CEOs", "founders"] },
  { pattern: /\bctos?\b|\bvp (?:of )?engineering\b/i, roles: ["CTOs", "engineering leads"] },
  { pattern: /\b(?:engineers?|developers?|devs?|programmers?)\b/i, roles: ["software engineers", "developers"] },
  { pattern: /\bdesigners?\b|\bux\b/i, roles: ["designers", "UX researchers"] },
  { pattern: /\bmarket(?:ers?|ing)\b|\bcmos?\b/i, roles: ["marketers", "heads of marketing"] },
  { pattern: /\bgrowth\b/i, roles: ["growth leads"] },
  { pattern: /\bsales\b|\bsdrs?\b|\baes?\b/i, roles: ["sales leaders", "account executives"] },
  { pattern: /\brecruit(?:ers?|ing)\b|\btalent\b|\bhiring\b/i, roles: ["recruiters", "hiring managers"] },
  { pattern: /\binvestors?\b|\bvcs?\b|\bangels?\b/i, roles: ["investors", "angel investors"] },
  { pattern: /\bproduct managers?\b|\bpms?\b/i, roles: ["product managers"] },
  { pattern: /\bcreators?\b|\binfluencers?\b/i, roles: ["creators"] },
  { pattern: /\bagenc(?:y|ies)\b/i, roles: ["agency owners"] },
  { pattern: /\bconsultants?\b|\bfreelanc(?:ers?|ing)\b/i, roles: ["consultants", "freelancers"] },
  { pattern: /\bdata (?:scientists?|engineers?|teams?)\b|\banalysts?\b/i, roles: ["data scientists", "analysts"] },
  { pattern: /\bhr\b|\bpeople ops\b/i, roles: ["HR leads"] },
];

/** The role entries `text` names, in lexicon order. */
export function rolesIn(text: string): RoleEntry[] {
  return ROLES.filter(({ pattern }) => pattern.test(text));
}

/** The neighbours of `entries`: other entries whose main role the given ones list (founders -> CEOs). */
export function neighbourRoles(entries: readonly RoleEntry[]): RoleEntry[] {
  const named = new Set(entries.flatMap(({ roles }) => roles.map((role) => role.toLowerCase())));
  return ROLES.filter((entry) => !entries.includes(entry) && named.has(entry.roles[0].toLowerCase()));
}

/** A light stem: plural and common verb endings off, so "founders" meets "founder". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The content words of `text` (no function words), each with its stem, in order. */
export function contentWords(text: string): { word: string; stem: string }[] {
  return wordsOf(text)
    .filter((word) => !STOPWORDS.has(word))
    .map((word) => ({ word, stem: stem(word) }));
}
