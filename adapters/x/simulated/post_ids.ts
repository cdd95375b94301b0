/**
 * Post ids that say how to rebuild the post. Nothing about the generated world is
 * stored, so `postById` must find a post from its id alone: the id packs the UTC day
 * and minute it was posted (so ids sort by time, as X's do, to the minute), a kind, and
 * what that kind needs (author and slot of an original; engager, author and slot of an
 * engagement; the sequence number of a post Threadline's users wrote).
 *
 *   id = 10^18 + day (15 bits) | minute (11) | kind (3) | payload (33)
 *
 * Every post id is 19 digits, so comparing ids as text compares them as numbers.
 */
import { DAY_MS, MINUTE_MS } from "../../../core/time/durations.ts";

const BASE = 1_000_000_000_000_000_000n;
/** Days are counted from 2000-01-01 so 15 bits reach 2089. */
const DAY_ZERO = Date.UTC(2000, 0, 1) / DAY_MS;

/** What a post id says. */
export type PostKey =
  /** An original post or thread part: `slot` of `author`'s posts on `day`. */
  | { type: "original"; author: number; slot: number }
  /** `user` replied to (1), quoted (2) or reposted (3) `author`'s post `slot`, `dayOffset` days earlier. */
  | { type: "engagement"; action: 1 | 2 | 3; user: number; author: number; slot: number; dayOffset: number }
  /** `author` answered `user`'s reply on the author's post `slot`, `dayOffset` days earlier. */
  | { type: "reply_back"; user: number; author: number; slot: number; dayOffset: number }
  /** The author of the post answered by written reply `seq` answered it back. */
  | { type: "reply_back_written"; seq: number }
  /** `user` engaged with written post `seq` (action as above). */
  | { type: "written_engagement"; action: 1 | 2 | 3; user: number; seq: number }
  /** A post Threadline's users wrote (stored, sequence `seq`). */
  | { type: "written"; seq: number };

const KIND = { original: 0n, engagement: 1n, reply_back: 4n, reply_back_written: 5n, written_engagement: 6n, written: 7n } as const;

/** Largest written sequence number whose engagement ids fit (18 bits). */
export const MAX_ENGAGED_SEQ = 2 ** 18 - 1;

/** The id of a post posted at `ms`. */
export function encodePostId(key: PostKey, ms: number): string {
  const day = BigInt(Math.floor(ms / DAY_MS) - DAY_ZERO);
  const minute = BigInt(Math.floor((ms % DAY_MS) / MINUTE_MS));
  let kind: bigint;
  let payload: bigint;
  switch (key.type) {
    case "original":
      kind = KIND.original;
      payload = (BigInt(key.author) << 5n) | BigInt(key.slot);
      break;
    case "engagement":
      kind = BigInt(key.action);
      payload = (BigInt(key.user) << 20n) | (BigInt(key.author) << 7n) | (BigInt(key.slot) << 2n) | BigInt(key.dayOffset);
      break;
    case "reply_back":
      kind = KIND.reply_back;
      payload = (BigInt(key.user) << 20n) | (BigInt(key.author) << 7n) | (BigInt(key.slot) << 2n) | BigInt(key.dayOffset);
      break;
    case "reply_back_written":
      kind = KIND.reply_back_written;
      payload = BigInt(key.seq);
      break;
    case "written_engagement":
      kind = KIND.written_engagement;
      payload = (BigInt(key.action) << 31n) | (BigInt(key.user) << 18n) | BigInt(key.seq);
      break;
    case "written":
      kind = KIND.written;
      payload = BigInt(key.seq);
      break;
  }
  return String(BASE + ((day << 47n) | (minute << 36n) | (kind << 33n) | payload));
}

/** What an id says, or undefined when it cannot be one of ours. `day` is the UTC day number. */
export function decodePostId(id: string): { key: PostKey; day: number; minute: number } | undefined {
  if (!/^\d{19}$/.test(id)) return undefined;
  const value = BigInt(id) - BASE;
  if (value < 0n) return undefined;
  const day = Number(value >> 47n) + DAY_ZERO;
  const minute = Number((value >> 36n) & 0x7ffn);
  const kind = Number((value >> 33n) & 7n);
  const payload = value & 0x1_ffff_ffffn;
  if (minute >= 1440) return undefined;
  const small = Number(payload);
  let key: PostKey;
  if (kind === 0) {
    if (small >= 2 ** 18) return undefined;
    key = { type: "original", author: small >>> 5, slot: small & 31 };
  } else if (kind >= 1 && kind <= 4) {
    const parts = { user: Math.floor(small / 2 ** 20), author: (small >>> 7) & 0x1fff, slot: (small >>> 2) & 31, dayOffset: small & 3 };
    key = kind === 4 ? { type: "reply_back", ...parts } : { type: "engagement", action: kind as 1 | 2 | 3, ...parts };
  } else if (kind === 5) {
    key = { type: "reply_back_written", seq: small };
  } else if (kind === 6) {
    const action = Math.floor(small / 2 ** 31);
    if (action < 1 || action > 3) return undefined;
    key = { type: "written_engagement", action: action as 1 | 2 | 3, user: Math.floor(small / 2 ** 18) & 0x1fff, seq: small & MAX_ENGAGED_SEQ };
  } else {
    key = { type: "written", seq: small };
  }
  return { key, day, minute };
}

/** Orders numeric-text ids as numbers (shorter is smaller). */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
