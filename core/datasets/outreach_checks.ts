/**
 * The rules that judge an outreach draft and its inputs (spec: Datasets, outreach-drafts
 * Behavior; Outreach drafts result): which stored hook may personalise a message, whether
 * a draft names someone else of the dataset, and how long is too long.
 */
import type { StoredRow } from "./datasets_queries.ts";

/** A draft over this many characters is counted in `long_messages` (spec: "drafts over 500 characters"), still stored. */
export const LONG_MESSAGE_CHARS = 500;

/** The send-time tokens a draft keeps verbatim (spec: "left intact for send-time fill-in"). */
export const SEND_TIME_TOKENS = ["[name]", "[first]", "[handle]"] as const;

/** A hook shorter than this many words says too little to personalise from. */
const MIN_HOOK_WORDS = 3;

/**
 * The first of the row's stored hooks that can personalise a message, or null (the spec's
 * `generic`: "A brief without a usable hook"). Hooks were checked verbatim when the row
 * was researched; here a hook is usable when it has a few words and names no other
 * person of the dataset (quoting it would make the draft name a different recipient).
 */
export function usableHook(row: Pick<StoredRow, "hooks">, others: ReadonlySet<string>): string | null {
  for (const hook of row.hooks ?? []) {
    const quote = typeof hook?.quote === "string" ? hook.quote.trim() : "";
    if (quote.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length < MIN_HOOK_WORDS) continue;
    if (namesAnyOf(quote, others)) continue;
    return quote;
  }
  return null;
}

/**
 * The handles (lowercase, no `@`) of every recipient of the dataset but `own`: a draft
 * naming one of them is discarded (spec: "A message naming a different recipient's handle").
 */
export function otherHandles(handles: ReadonlySet<string>, own: string | null): Set<string> {
  const mine = own?.replace(/^@/, "").toLowerCase();
  return new Set([...handles].filter((handle) => handle !== mine));
}

/** Lowercase handles of `rows`, without `@`. */
export function handlesOf(rows: readonly Pick<StoredRow, "handle">[]): Set<string> {
  return new Set(rows.flatMap((row) => (row.handle ? [row.handle.replace(/^@/, "").toLowerCase()] : [])));
}

/** Whether `text` names `@handle` for one of `handles` (a whole handle, case-insensitive). */
export function namesAnyOf(text: string, handles: ReadonlySet<string>): boolean {
  for (const match of text.matchAll(/(?<![\w@])@(\w+)/g)) {
    if (handles.has(match[1].toLowerCase())) return true;
  }
  return false;
}

/** A draft shortened for `sample_messages` (spec: "a few shortened drafts"). */
export function shortened(message: string, max = 160): string {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}
