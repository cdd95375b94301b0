/**
 * The registry of job kinds: an area adds its kind here, in one place, as its payload type,
 * its handler and (when it runs on a clock) its period. Workers run exactly the handlers
 * `jobHandlers` builds and claim nothing else; the scheduler enqueues `periodicJobs`.
 * (Several exports, one thing: the registry is only useful read together.)
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { JobHandler } from "./job_runner.ts";
import type { JobRow } from "./jobs_queries.ts";
import type { PeriodicJob } from "./enqueue_periodic_jobs.ts";
import { purgeIdempotencyKeys } from "./kinds/purge_idempotency_keys.ts";
import { resetCreditPools } from "./kinds/reset_credit_pools.ts";
import { purgeFinishedJobs } from "./kinds/purge_finished_jobs.ts";
import { purgeUnattachedMedia } from "./kinds/purge_unattached_media.ts";
import type { MediaStore } from "../ports/media_store.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { publishFromJob } from "../scheduling/publish_post.ts";
import { workerHolderPrefix } from "../publishing/lease_queries.ts";
import type { PublishJobPayload } from "../scheduling/schedule_publication.ts";
import { type FollowUpPayload, runFollowUp } from "../scheduling/post_follow_ups.ts";
import type { Model } from "../model/model.ts";
import type { CoverJobPayload } from "../covers/cover_job.ts";
import { generateArticleCover } from "./kinds/generate_article_cover.ts";
import { DISPATCH_WORKERS_EVERY_SECONDS, dispatchWorkersJob, runWorkerJob } from "./kinds/run_worker.ts";
import type { RunWorkerPayload } from "../workers/run_worker.ts";
import { publishArticleFromJob } from "../articles/publish_article.ts";
import type { ArticleJobPayload } from "../articles/article_publication.ts";
import type { JobEventListener } from "./job_events.ts";
import {
  DISPATCH_CONTENT_SYNC_EVERY_SECONDS,
  dispatchContentSync,
  type SyncAccountContentPayload,
  syncAccountContentJob,
} from "./kinds/sync_account_content.ts";
import {
  DISPATCH_AUDIENCE_SYNC_EVERY_SECONDS,
  dispatchAudienceSync,
  type SyncAccountAudiencePayload,
  syncAccountAudienceJob,
} from "./kinds/sync_account_audience.ts";
import { INGEST_INSPIRATION_EVERY_SECONDS, ingestInspirationJob } from "./kinds/ingest_inspiration.ts";
import { DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS } from "../signals/agent_run_queue.ts";
import { dispatchSignalAgents, type RunSignalAgentPayload, runSignalAgentJob } from "./kinds/run_signal_agents.ts";
import type { BuildDatasetPayload } from "../datasets/dataset_job.ts";
import { buildDataset } from "./kinds/build_dataset.ts";
import { purgeExpiredDatasets } from "./kinds/purge_expired_datasets.ts";
import { DISPATCH_DM_SENDS_EVERY_SECONDS, type SendDmsPayload } from "../dm/dm_sending_jobs.ts";
import { dispatchAutoDmsJob, dispatchDmSendsJob, sendDmsJob } from "./kinds/send_dms.ts";
import { DISPATCH_AUTO_DMS_EVERY_SECONDS } from "../dm/auto_dm_engagers.ts";
import { purgeOldEvents } from "./kinds/purge_old_events.ts";
import type { WebhookSender } from "../ports/webhook_sender.ts";
import { DELIVER_WEBHOOKS_EVERY_SECONDS, deliverWebhooksJob } from "./kinds/deliver_webhooks.ts";

/** The payload of each job kind. */
export interface JobPayloads {
  purge_idempotency_keys: Record<string, never>;
  reset_credit_pools: Record<string, never>;
  purge_finished_jobs: Record<string, never>;
  purge_unattached_media: Record<string, never>;
  publish_scheduled_post: PublishJobPayload;
  post_follow_up: FollowUpPayload;
  generate_article_cover: CoverJobPayload;
  dispatch_workers: Record<string, never>;
  run_worker: RunWorkerPayload;
  publish_scheduled_article: ArticleJobPayload;
  dispatch_content_sync: Record<string, never>;
  sync_account_content: SyncAccountContentPayload;
  ingest_inspiration: Record<string, never>;
  dispatch_audience_sync: Record<string, never>;
  sync_account_audience: SyncAccountAudiencePayload;
  dispatch_signal_agents: Record<string, never>;
  run_signal_agent: RunSignalAgentPayload;
  build_dataset: BuildDatasetPayload;
  purge_expired_datasets: Record<string, never>;
  send_dms: SendDmsPayload;
  dispatch_dm_sends: Record<string, never>;
  dispatch_auto_dms: Record<string, never>;
  purge_old_events: Record<string, never>;
  deliver_webhooks: Record<string, never>;
}

/** A job kind this server knows. */
export type JobKind = keyof JobPayloads;

/** What handlers may use: a worker thread has its own pool, not the server's Services. */
export interface JobDeps {
  sql: Sql;
  clock: Clock;
  /** The social network the publisher posts through (a worker thread opens its own). */
  network: SocialNetwork;
  /** The media store uploads are deleted from (absent: MEDIA_STORE=none; only rows go). */
  media?: MediaStore;
  /** The model article covers are generated with (a worker thread opens its own from the same settings). */
  model?: Model;
  /** Posts webhook deliveries through the outbound guard (absent: `deliver_webhooks` fails). */
  webhookSender?: WebhookSender;
  /** Hears what handlers report (publisher lateness); absent: nothing reported. */
  events?: JobEventListener;
}

/** A handler per kind, typed by the kind's payload. */
export type KnownJobHandlers = { [K in JobKind]: JobHandler<JobPayloads[K]> };

/** Builds the handler of every kind. */
export function jobHandlers(deps: JobDeps): KnownJobHandlers {
  const now = () => new Date(deps.clock.now());
  return {
    purge_idempotency_keys: async () => {
      await purgeIdempotencyKeys(deps.sql);
    },
    reset_credit_pools: async () => {
      await resetCreditPools(deps.sql, now());
    },
    purge_finished_jobs: async () => {
      await purgeFinishedJobs(deps.sql, now());
    },
    purge_unattached_media: async () => {
      await purgeUnattachedMedia(deps.sql, deps.media, now());
    },
    publish_scheduled_post: async (payload, job) => {
      const result = await publishFromJob(deps, payload, job, { holderPrefix: holderPrefixOf(job) });
      if (result.outcome === "sent" && result.scheduledFor) {
        const latenessSeconds = Math.max(0, (deps.clock.now() - result.scheduledFor.getTime()) / 1000);
        deps.events?.({ event: "post_sent", jobId: job.id, latenessSeconds });
      }
    },
    post_follow_up: async (payload) => {
      await runFollowUp(deps, payload);
    },
    generate_article_cover: async (payload, job) => {
      await generateArticleCover(deps, payload, job);
    },
    dispatch_workers: async () => {
      await dispatchWorkersJob(deps);
    },
    run_worker: async (payload) => {
      await runWorkerJob(deps, payload);
    },
    publish_scheduled_article: async (payload, job) => {
      await publishArticleFromJob(deps, payload, job, { holderPrefix: holderPrefixOf(job) });
    },
    dispatch_content_sync: async () => {
      await dispatchContentSync(deps);
    },
    sync_account_content: async (payload) => {
      await syncAccountContentJob(deps, payload);
    },
    ingest_inspiration: async () => {
      await ingestInspirationJob(deps);
    },
    dispatch_audience_sync: async () => {
      await dispatchAudienceSync(deps);
    },
    sync_account_audience: async (payload) => {
      await syncAccountAudienceJob(deps, payload);
    },
    dispatch_signal_agents: async () => {
      await dispatchSignalAgents(deps);
    },
    run_signal_agent: async (payload) => {
      await runSignalAgentJob(deps, payload);
    },
    build_dataset: async (payload, job) => {
      await buildDataset(deps, payload, job);
    },
    purge_expired_datasets: async () => {
      await purgeExpiredDatasets(deps.sql, now());
    },
    send_dms: async (payload, job) => {
      await sendDmsJob(deps, payload, job);
    },
    dispatch_dm_sends: async () => {
      await dispatchDmSendsJob(deps);
    },
    dispatch_auto_dms: async () => {
      await dispatchAutoDmsJob(deps);
    },
    purge_old_events: async () => {
      await purgeOldEvents(deps.sql, now());
    },
    deliver_webhooks: async (_payload, job) => {
      await deliverWebhooksJob(deps, job);
    },
  };
}

/** The lease holder prefix of the worker running `job` (graceful shutdown releases its leases). */
function holderPrefixOf(job: Pick<JobRow, "locked_by">): string | undefined {
  return job.locked_by ? workerHolderPrefix(job.locked_by) : undefined;
}

/** A claim loop of its own for some kinds (core/jobs/job_loop.ts `runJobLanes`). */
export interface JobLane {
  kinds: readonly JobKind[];
  batchSize: number;
  concurrency: number;
}

/**
 * Kinds that run in a lane of their own. Publishing is mostly waiting on the network, and
 * many posts fall due in the same minute (docs/areas.md "Scheduling": posts due together go out in parallel; the bench: 10,000
 * due at once, all sent within 15 s), so it gets wide batches; the other kinds keep the
 * default loop and are never queued behind a burst of posts.
 */
export const jobLanes: readonly JobLane[] = [
  { kinds: ["publish_scheduled_post"], batchSize: 100, concurrency: 100 },
  // Covers take 60-100 s on a real image model and hold an image in memory each, so their
  // own lane keeps them from blocking the default loop, and a bounded width bounds memory
  // (bench/cover_jobs_section.ts: 100 queued at once).
  { kinds: ["generate_article_cover"], batchSize: 8, concurrency: 8 },
  // DM sending: one job per account, each mostly waiting on the network, message after message.
  { kinds: ["send_dms"], batchSize: 50, concurrency: 50 },
  // Webhook delivery: a run posts batches of deliveries (each up to 10 s) and must never hold up the default loop.
  { kinds: ["deliver_webhooks"], batchSize: 2, concurrency: 2 },
];

const HOUR = 3600;

/**
 * Kinds enqueued on a clock. Each slot's run is keyed by the slot's start, so however many
 * processes schedule, each hour's run is enqueued once (`enqueueJobOnce`).
 */
export const periodicJobs: readonly PeriodicJob[] = [
  { kind: "purge_idempotency_keys", everySeconds: HOUR },
  // Hourly so a pool whose billing date passed is reset within the hour.
  { kind: "reset_credit_pools", everySeconds: HOUR },
  { kind: "purge_finished_jobs", everySeconds: 24 * HOUR },
  // Hourly, so an upload no post attached is gone at most an hour after its 24 hours.
  { kind: "purge_unattached_media", everySeconds: HOUR },
  // Every 5 minutes: a Worker's run starts at most 5 minutes after its scheduled time.
  { kind: "dispatch_workers", everySeconds: DISPATCH_WORKERS_EVERY_SECONDS },
  // Every 5 minutes: an account's content is synced about every 15 (core/content/content_sync.ts).
  { kind: "dispatch_content_sync", everySeconds: DISPATCH_CONTENT_SYNC_EVERY_SECONDS },
  // Every 30 minutes: the inspiration corpus follows the network's recent posts and metrics.
  { kind: "ingest_inspiration", everySeconds: INGEST_INSPIRATION_EVERY_SECONDS },
  // Every 5 minutes: a walk in progress continues every 5, an up-to-date list is re-read hourly (core/audience/audience_sync.ts).
  { kind: "dispatch_audience_sync", everySeconds: DISPATCH_AUDIENCE_SYNC_EVERY_SECONDS },
  // Every 5 minutes: an active agent runs hourly, at most 5 minutes late (core/signals/agent_run_rhythm.ts).
  { kind: "dispatch_signal_agents", everySeconds: DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS },
  // Hourly: a dataset is gone at most an hour after its 30 days (reads 404 it at once).
  { kind: "purge_expired_datasets", everySeconds: HOUR },
  // Every minute: a DM placed over coming days goes out at most a minute after it is due.
  { kind: "dispatch_dm_sends", everySeconds: DISPATCH_DM_SENDS_EVERY_SECONDS },
  // Every 5 minutes: people who reply to or repost a sent post with an auto DM are queued.
  { kind: "dispatch_auto_dms", everySeconds: DISPATCH_AUTO_DMS_EVERY_SECONDS },
  // Hourly: an event is gone at most an hour after its 30 days (docs/webhooks.md).
  { kind: "purge_old_events", everySeconds: HOUR },
  // Every 5 seconds: events are fanned out to webhooks and due deliveries (and retries) posted.
  { kind: "deliver_webhooks", everySeconds: DELIVER_WEBHOOKS_EVERY_SECONDS },
];
