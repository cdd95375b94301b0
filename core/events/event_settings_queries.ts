/** SQL of the event settings (table `event_settings`, migration 0030). */
import type { Queryable } from "../db/sql.ts";

/** A user's event settings. */
export interface EventSettingsRow {
  owner_id: number;
  credits_low_threshold: number | null;
  credits_low_period_start: Date | null;
}

/** The settings of user `ownerId`, or undefined when never set. */
export async function eventSettingsOf(sql: Queryable, ownerId: number): Promise<EventSettingsRow | undefined> {
  const [row] = await sql<EventSettingsRow[]>`
    select owner_id::int as owner_id, credits_low_threshold, credits_low_period_start from event_settings where owner_id = ${ownerId}`;
  return row;
}

/** The settings of the user whose main account is `accountId` (a credit pool's owner). */
export async function eventSettingsOfAccount(sql: Queryable, accountId: string): Promise<EventSettingsRow | undefined> {
  const [row] = await sql<EventSettingsRow[]>`
    select s.owner_id::int as owner_id, s.credits_low_threshold, s.credits_low_period_start
      from event_settings s join accounts a on a.user_id = s.owner_id
     where a.id = ${accountId}`;
  return row;
}

/** Sets the `credits.low` threshold (null: off); a new threshold may be announced again this period. */
export async function putCreditsLowThreshold(sql: Queryable, ownerId: number, threshold: number | null, now: Date): Promise<void> {
  await sql`
    insert into event_settings (owner_id, credits_low_threshold, credits_low_period_start, updated_at)
    values (${ownerId}, ${threshold}, null, ${now})
    on conflict (owner_id) do update
      set credits_low_threshold = excluded.credits_low_threshold, credits_low_period_start = null, updated_at = excluded.updated_at`;
}

/** Notes that `credits.low` was recorded for the period starting at `periodStart`. */
export async function markCreditsLowAnnounced(sql: Queryable, ownerId: number, periodStart: Date): Promise<void> {
  await sql`update event_settings set credits_low_period_start = ${periodStart} where owner_id = ${ownerId}`;
}
