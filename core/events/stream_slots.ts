/**
 * The cap on open event streams (docs/webhooks.md, "Limits"): a key may hold `perKey` streams
 * and a user `perUser` across all their keys, counted in the database so the cap holds across
 * every process behind a load balancer. A stream holds its slot while it runs and renews it
 * every 30 s; a process that dies leaves slots that stop counting after 90 s. Past the cap:
 * `429 stream_limit_reached` naming the limit and whether the key's or the user's was reached.
 */
import { ApiError } from "../errors.ts";
import type { Sql } from "../db/sql.ts";
import type { Settings } from "../context.ts";
import { deleteStreamRow, renewStreamRow, takeStreamRow } from "./stream_slots_queries.ts";

/** How many streams may be open at once (the operator's `Settings.eventStreamLimits`). */
export type StreamLimits = NonNullable<Settings["eventStreamLimits"]>;

/**
 * The defaults (`EVENT_STREAMS_PER_KEY`, `EVENT_STREAMS_PER_USER`): a browser tab holds one
 * stream, so a dashboard in a few tabs and a worker or two fit on one key; each open stream costs
 * a connection and its reads, so one user cannot hold an unbounded number.
 */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { perKey: 10, perUser: 25 };

/** How often a running stream renews its slot, and how long a slot outlives its last renewal. */
export const SLOT_RENEW_MS = 30_000;
const SLOT_LEASE_SECONDS = 90;

/** A held slot. */
export interface StreamSlot {
  renew(): Promise<void>;
  /** Frees the slot; a second call does nothing. */
  release(): Promise<void>;
}

/** Takes a slot for a stream of `ownerId` on `keyId`, or refuses with `429 stream_limit_reached`. */
export async function takeStreamSlot(sql: Sql, stream: { ownerId: number; keyId: number }, limits: StreamLimits): Promise<StreamSlot> {
  const taken = await takeStreamRow(sql, { ...stream, leaseSeconds: SLOT_LEASE_SECONDS }, (open) => open.key < limits.perKey && open.user < limits.perUser);
  if (taken.id === undefined) {
    const scope = taken.open.key >= limits.perKey ? "key" : "user";
    const limit = scope === "key" ? limits.perKey : limits.perUser;
    const whose = scope === "key" ? "This API key" : "Your keys together";
    throw new ApiError("stream_limit_reached", `${whose} already hold ${limit} open event streams, the most allowed; close one first`, { limit, scope });
  }
  const id = taken.id;
  let released = false;
  return {
    renew: () => renewStreamRow(sql, id, SLOT_LEASE_SECONDS),
    async release() {
      if (released) return;
      released = true;
      await deleteStreamRow(sql, id);
    },
  };
}
