/**
 * Events: every state change an API user would otherwise poll for, as a JSON list paged by
 * cursor or as a Server-Sent Events stream (`GET /v1/events`; docs/webhooks.md).
 */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { putEventSettings, readEventSettings } from "../core/events/event_settings.ts";
import { eventList, eventsQuery, readEvents } from "../core/events/read_events.ts";
import { EVENT_RETENTION_DAYS, EVENT_TYPES } from "../core/events/event_types.ts";
import { eventSettings, putEventSettingsInput, readEventSettingsInput } from "../core/events/event_schema.ts";

const tags = ["Events"];

export const eventsRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/events",
        tags,
        summary: "Read your events, as a list or a Server-Sent Events stream",
        description:
          "The events of every account you own (accounts shared with you belong to their owner's stream), oldest first, each with " +
          "`id` (`evt_<n>`, increasing in the order events became readable), `type`, `created_at`, `account_id`, `object` and " +
          "`data` (the object as its `GET` answers it). An event exists exactly when its change committed. " +
          `Types: ${EVENT_TYPES.join(", ")}. Events are kept ${EVENT_RETENTION_DAYS} days. ` +
          "JSON: pass `pagination.next_cursor` as `cursor` for the next page; it is set on the last page too, so polling with it " +
          "reads only newer events. `since` keeps events created at or after a time. " +
          "Stream: send `Accept: text/event-stream` for `id:`/`event:`/`data:` messages (data = the event JSON) as events " +
          "happen, a `: heartbeat` comment every 15 s when idle; it resumes after the `Last-Event-ID` header (or `last_event_id`, " +
          "or `cursor`) without gaps or repeats within the retention, else starts from `since` when sent, else from now. " +
          "`types` and `account_id` narrow both forms. One connection counts as one read. A key holds at most 10 open streams and a user 25 " +
          "(operator settings `EVENT_STREAMS_PER_KEY`, `EVENT_STREAMS_PER_USER`); one more answers `429 stream_limit_reached` with `limit` " +
          "and `scope` (`key` or `user`).",
      },
      errors: ["stream_limit_reached"],
      stream: "text/event-stream",
      beyondSpec: "The spec offers no push; events make every polled state change readable as a list or a stream.",
    })
    .input(eventsQuery)
    .use(inAccount)
    .output(eventList)
    .query(({ ctx, input }) => readEvents(ctx, input)),

  settings: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/events/settings",
        tags,
        summary: "Read your event settings",
        description: "`credits_low_threshold`: `credits.low` is recorded when a charge takes the AI credit pool below it (null: off, the default).",
      },
      beyondSpec: "The spec offers no push; this is the threshold of the `credits.low` event.",
    })
    .input(readEventSettingsInput)
    .output(dataOf(eventSettings))
    .query(({ ctx }) => readEventSettings(ctx)),

  putSettings: keyProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/v1/events/settings",
        tags,
        summary: "Replace your event settings",
        description:
          "`credits_low_threshold` (0 to 1,000,000 credits, or null: off): `credits.low` is recorded in the transaction of the charge that " +
          "takes the pool from at least the threshold to below it, at most once per credit period (setting it again re-arms it for the " +
          "current period). Absent fields return to their defaults (PUT replaces). Per user, across all keys and accounts.",
      },
      beyondSpec: "The spec offers no push; this is the threshold of the `credits.low` event.",
    })
    .input(putEventSettingsInput)
    .output(dataOf(eventSettings))
    .mutation(({ ctx, input }) => putEventSettings(ctx, input)),
});
