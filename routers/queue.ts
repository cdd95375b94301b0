/**
 * Queue: `GET /v1/queue-settings`, `PUT` and `PATCH /v1/queue-settings` (supplement:
 * Queue; the reference CLI sends PATCH, supplement C1). Writes are exempt from
 * `writes_main_account_only` (spec rule 6), editor shares included.
 */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { queueSettingsInput, queueSettingsReadInput, queueSettingsView } from "../core/queue/queue_settings_schema.ts";
import { patchQueueSettings, readQueueSettings, replaceQueueSettings } from "../core/scheduling/queue_settings.ts";

const REFLOW =
  "A slot change moves a queued post only if it sits exactly on an old slot time: the n-th such occurrence goes to the n-th occurrence of the new slots, so gaps survive and hand-picked times stay. Both slot sets are read in the timezone in force after the call: a timezone-only change never moves posts, and a timezone plus slots change usually moves nothing (change the timezone first, then the slots). `reflow.skipped` counts posts on an old slot left where they were (target taken, or no new slot within 18 months). `reflow.bailed`: settings saved, queue untouched (more than 500 posts on old slots, or one of them is being published); rerunning is safe.";

/** The queue settings endpoints. */
export const queueRouter = router({
  get: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/queue-settings",
        tags: ["Queue"],
        summary: "Read the queue's weekly slots and timezone",
        description: "Defaults until the account sets them: 09:00, 13:00 and 17:00 every day, in UTC (`slots_are_default`, `timezone_is_default`).",
      },
      errors: ["upstream_unavailable"],
    })
    .input(queueSettingsReadInput)
    .use(inAccount)
    .output(dataOf(queueSettingsView))
    .query(({ ctx }) => readQueueSettings(ctx)),

  put: keyProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/v1/queue-settings",
        tags: ["Queue"],
        summary: "Replace the queue settings",
        description: `A field left out returns to its default. ${REFLOW}`,
      },
      sharedWrites: true,
      errors: ["upstream_unavailable"],
    })
    .input(queueSettingsInput)
    .use(inAccount)
    .output(dataOf(queueSettingsView))
    .mutation(({ ctx, input }) => replaceQueueSettings(ctx, input)),

  patch: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/queue-settings",
        tags: ["Queue"],
        summary: "Change the queue's slots, timezone or both",
        description: `Only the fields sent change (send at least one). ${REFLOW}`,
      },
      sharedWrites: true,
      errors: ["upstream_unavailable"],
    })
    .input(queueSettingsInput)
    .use(inAccount)
    .output(dataOf(queueSettingsView))
    .mutation(({ ctx, input }) => patchQueueSettings(ctx, input)),
});
