/**
 * The event settings (`GET`/`PUT /v1/events/settings`): the user's `credits.low` threshold,
 * which the credits area reads when a charge moves the pool (core/credits/credits_low.ts).
 */
import type { KeyContext } from "../context.ts";
import type { PutEventSettingsInput } from "./event_schema.ts";
import { eventSettingsOf, putCreditsLowThreshold } from "./event_settings_queries.ts";

/** The event settings as `GET /v1/events/settings` answers them. */
export async function readEventSettings(ctx: KeyContext) {
  const row = await eventSettingsOf(ctx.services.sql, ctx.principal.userId);
  return { data: { credits_low_threshold: row?.credits_low_threshold ?? null } };
}

/** `PUT /v1/events/settings`: replaces the settings (an absent threshold turns `credits.low` off). */
export async function putEventSettings(ctx: KeyContext, input: PutEventSettingsInput) {
  const threshold = input.credits_low_threshold ?? null;
  await putCreditsLowThreshold(ctx.services.sql, ctx.principal.userId, threshold, new Date(ctx.services.clock.now()));
  return { data: { credits_low_threshold: threshold } };
}
