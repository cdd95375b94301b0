/**
 * The `deliver_webhooks` job (every 5 seconds; docs/webhooks.md): gives committed events
 * their `seq`, fans them out into deliveries (core/webhooks/deliver_fan_out.ts), and posts
 * every due delivery, first attempts and retries alike (core/webhooks/deliver_due.ts). While
 * its posts are in flight a run keeps fanning out and claiming for its slot's 5 s, so an
 * event committed meanwhile is not held behind a slow receiver's post until the next run;
 * then it lets its posts end (at most the 10 s bound).
 * Finished deliveries are kept as long as events (30 days), then purged here, and a secret a
 * rotation kept signing is forgotten once its 24 hours are over. The hourly
 * `reseal_webhook_secrets` seals again, under the current `ENCRYPTION_KEY`, every secret stored
 * in plain (before sealing existed) or under the previous key. Several runs
 * at once (two processes, a slow run overlapping the next slot) are safe: the fan-out moves
 * each cursor once and deliveries are claimed under leases.
 */
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { fanOutEvents } from "./deliver_fan_out.ts";
import { deliverDue } from "./deliver_due.ts";
import { deleteDeliveriesBefore } from "./deliveries_queries.ts";
import { clearExpiredSecrets } from "./webhooks_queries.ts";
import { resealSecrets } from "./reseal_secrets.ts";
import { EVENT_RETENTION_DAYS } from "../events/event_types.ts";

/** How often the job runs: a new event is posted about 5 s after it commits, a first retry 5 s after a failure. */
export const DELIVER_WEBHOOKS_EVERY_SECONDS = 5;

/** Finished deliveries deleted per run once past the events' retention (a run every 5 s keeps up). */
const PURGE_BATCH = 1000;

/** Fans out new events, posts due deliveries, and purges finished deliveries past 30 days. */
export async function deliverWebhooks(deps: JobDeps, job: Pick<JobRow, "id" | "locked_by">): Promise<void> {
  if (!deps.webhookSender) throw new Error("deliver_webhooks needs a webhook sender (JobDeps.webhookSender)");
  if (!deps.secretBox) throw new Error("deliver_webhooks needs the secret box (JobDeps.secretBox)");
  await deliverDue(
    { sql: deps.sql, clock: deps.clock, webhookSender: deps.webhookSender, secretBox: deps.secretBox },
    {
      holder: `${job.locked_by ?? "job"}:${job.id}:${crypto.randomUUID().slice(0, 8)}`,
      claimForMs: DELIVER_WEBHOOKS_EVERY_SECONDS * 1000,
      queueNew: () => fanOutEvents(deps),
    },
  );
  await deleteDeliveriesBefore(deps.sql, new Date(deps.clock.now() - EVENT_RETENTION_DAYS * 86_400_000), PURGE_BATCH);
  await clearExpiredSecrets(deps.sql, new Date(deps.clock.now()));
}

/** The webhooks area's job kind (assembled in jobs/task_list.ts). */
export const webhooksJobs = {
  deliver_webhooks: {
    handler: (deps: JobDeps, _payload: unknown, job: JobRow) => deliverWebhooks(deps, job),
    // Every 5 seconds: events are fanned out to webhooks and due deliveries (and retries) posted.
    everySeconds: DELIVER_WEBHOOKS_EVERY_SECONDS,
    // A run claims for 5 s and lets its posts end (each up to 10 s), so up to 3 runs overlap
    // (the next slot's run never waits for a lane); it must never hold up the default loop.
    lane: { batchSize: 2, concurrency: 3 },
  },
  reseal_webhook_secrets: {
    handler: (deps: JobDeps) => {
      if (!deps.secretBox) throw new Error("reseal_webhook_secrets needs the secret box (JobDeps.secretBox)");
      return resealSecrets(deps.sql, deps.secretBox);
    },
    // Hourly: within an hour of a key's replacement every value is sealed under the new one.
    everySeconds: 60 * 60,
  },
} satisfies JobTasks;
