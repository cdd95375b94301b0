/**
 * Whether a key that authenticated a long-lived answer (an event stream) still works. A request
 * checks its key once; a stream asks again while it runs (the REST adapter's `StreamGuard`,
 * adapters/http/rest_routes.ts; core/message_stream.ts) and ends
 * when the key is revoked, rotated away or its user's subscription stops working: the same
 * rules a new request would meet (authenticate.ts, gates.ts), read from the database rather
 * than the key cache, so a revocation on another server is seen at the next check.
 */
import type { Queryable } from "../db/sql.ts";
import { WORKING_SUBSCRIPTIONS } from "./gates.ts";
import { keyStanding } from "./keys_queries.ts";

/** Why the key no longer works, as a sentence for the stream's last line; undefined while it does. */
export async function keyNoLongerWorks(sql: Queryable, keyId: number): Promise<string | undefined> {
  const row = await keyStanding(sql, keyId);
  if (!row) return "the API key no longer exists";
  if (row.revoked_at && row.replaced_by !== null) return "the API key was rotated; reconnect with its replacement";
  if (row.revoked_at) return "the API key was revoked";
  if (!WORKING_SUBSCRIPTIONS.includes(row.subscription_status)) return "the subscription is no longer active";
  return undefined;
}
