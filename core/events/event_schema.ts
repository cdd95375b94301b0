/**
 * The event as API users see it (docs/webhooks.md): on `GET /v1/events` (JSON and
 * Server-Sent Events) and as the body of a webhook delivery. One schema, registered as the
 * OpenAPI component `Event`, so the document names the payload once for both.
 */
import { z } from "zod";
import { EVENT_TYPES } from "./event_types.ts";

/** An event id: `evt_` and the event's place in the owner's stream (its `seq`). */
export const EVENT_ID_PATTERN = /^evt_[1-9][0-9]{0,15}$/;

/** The event types as a zod enum. */
export const eventType = z.enum(EVENT_TYPES).meta({ id: "EventType", description: "What changed: `<object>.<change>`" });

/** One event. */
export const event = z
  .object({
    id: z
      .string()
      .meta({ description: "`evt_<n>`: increasing in the order events became readable; what `Last-Event-ID` and `cursor` carry", example: "evt_42" }),
    type: eventType,
    created_at: z.string().meta({ description: "When the change committed (ISO-8601, UTC)" }),
    account_id: z.string().meta({ description: "The account the change belongs to" }),
    object: z
      .object({
        type: z
          .string()
          .meta({ description: "`scheduled_post`, `article`, `cover`, `suggestion`, `dataset`, `dm`, `dm_campaign`, `lead`, `credits`, `webhook`" }),
        id: z.string().meta({ description: "The object's id, as text" }),
      })
      .meta({ description: "The object the event is about; events of one object are in order" }),
    data: z.unknown().meta({ description: "The object as its `GET` answers it at the time of the change (for `post.deleted`: `{ id }`)" }),
  })
  .meta({ id: "Event", description: "A state change: the same payload on `GET /v1/events` and in webhook deliveries" });

/** An event as answered. */
export type EventPayload = z.infer<typeof event>;

const THRESHOLD_MESSAGE = "must be an integer from 0 to 1000000, or null";

/** `credits_low_threshold` in a settings body: credits, 0 to 1,000,000. */
export const creditsLowThreshold = z.number({ error: THRESHOLD_MESSAGE }).int(THRESHOLD_MESSAGE).min(0, THRESHOLD_MESSAGE).max(1_000_000, THRESHOLD_MESSAGE);

/** `GET /v1/events/settings`: nothing to send (the settings are the user's). */
export const readEventSettingsInput = z.object({}).prefault({});

/** `PUT /v1/events/settings`: absent fields return to their defaults. */
export const putEventSettingsInput = z.object({ credits_low_threshold: creditsLowThreshold.nullable().optional() }).prefault({});

/** What a settings replace sends. */
export type PutEventSettingsInput = z.infer<typeof putEventSettingsInput>;

/** The event settings (`GET`/`PUT /v1/events/settings`). */
export const eventSettings = z
  .object({ credits_low_threshold: z.number().int().nullable().meta({ description: "Credits; null: no `credits.low` events" }) })
  .meta({ id: "EventSettings" });
