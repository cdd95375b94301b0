/**
 * Creating a Worker. The API never does (spec rule 7: "Workers ... are created, edited
 * and run only in the companion app"); this repository has no companion app, so the
 * operator's CLI (`threadline workers create`), the demo world and tests call this.
 * It holds the Worker rules the list reports: a niche-shaped Worker remixes a reference
 * (`reference_remix`) and carries `keywords` (spec: Worker (list shape)).
 */
import { z } from "zod";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { productById } from "../account_context/context_queries.ts";
import { queueSlot, timeZoneName } from "../queue/queue_settings_schema.ts";
import { MAX_BATCH_SIZE, STYLE_MODES, TOPIC_SOURCES, WORKER_SHAPES, WORKER_VOICES } from "./worker_schema.ts";
import { insertWorker, type WorkerRow } from "./workers_queries.ts";
import { nextRunAfter } from "./worker_schedule.ts";

const keyword = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

/** What an operator sends to create a Worker. */
export const workerInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters"),
  shape: z.enum(WORKER_SHAPES, { error: `must be one of ${WORKER_SHAPES.join(", ")}` }),
  topic_source: z.enum(TOPIC_SOURCES, { error: `must be one of ${TOPIC_SOURCES.join(", ")}` }),
  product_id: z.number().int().positive().optional(),
  topic: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters").optional(),
  keywords: z.array(keyword).max(5, "must have at most 5 keywords").optional(),
  style_mode: z.enum(STYLE_MODES, { error: `must be one of ${STYLE_MODES.join(", ")}` }).optional(),
  voice: z.enum(WORKER_VOICES, { error: `must be one of ${WORKER_VOICES.join(", ")}` }).default("mine"),
  creator: z
    .string()
    .regex(/^@?[A-Za-z0-9_]{1,15}$/, "must be an X username")
    .transform((handle) => handle.replace(/^@/, ""))
    .optional(),
  batch_size: z.number().int().min(1, `must be from 1 to ${MAX_BATCH_SIZE}`).max(MAX_BATCH_SIZE, `must be from 1 to ${MAX_BATCH_SIZE}`).default(3),
  schedule: queueSlot.default({ days: [1, 2, 3, 4, 5], time: "09:00" }),
  timezone: timeZoneName.default("UTC"),
  active: z.boolean().default(true),
});

/** A Worker as an operator describes it (before defaults). */
export type WorkerInput = z.input<typeof workerInput>;

/** Creates a Worker on `accountId`; its first run is its next scheduled time after `now`. */
export async function createWorker(sql: Queryable, accountId: string, input: WorkerInput, now: Date): Promise<WorkerRow> {
  const parsed = workerInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError("invalid_parameter", `Invalid "${issue.path.join(".") || "worker"}": ${issue.message}`);
  }
  const worker = parsed.data;
  // De-duplicated case-insensitively, the first spelling kept.
  const keywords = worker.keywords?.filter((word, index, all) => all.findIndex((other) => other.toLowerCase() === word.toLowerCase()) === index);
  const config: WorkerRow["topic_config"] = {};
  if (worker.topic_source === "product") {
    if (worker.product_id === undefined) throw new ApiError("invalid_parameter", 'Invalid "product_id": required with topic source "product"');
    const product = await productById(sql, accountId, worker.product_id);
    if (!product || product.deleted_at)
      throw new ApiError("invalid_parameter", `Invalid "product_id": cannot find product "${worker.product_id}" on this account`);
    config.product_id = worker.product_id;
  }
  if (worker.topic_source === "custom") {
    if (!worker.topic) throw new ApiError("invalid_parameter", 'Invalid "topic": required with topic source "custom"');
    config.topic = worker.topic;
  }
  // Spec (Worker (list shape)): a Worker shaped on a niche carries `keywords` and
  // reports `reference_remix`, whatever its topic source.
  if (worker.topic_source === "niche" || worker.shape === "niche") {
    if (!keywords?.length)
      throw new ApiError("invalid_parameter", `Invalid "keywords": a niche ${worker.shape === "niche" ? "shape" : "topic source"} needs 1 to 5 keywords`);
    config.keywords = keywords;
  }
  if (worker.shape === "niche" && worker.style_mode === "voice_match") {
    throw new ApiError("invalid_parameter", 'Invalid "style_mode": a niche-shaped Worker remixes popular posts ("reference_remix")');
  }
  if (worker.voice !== "mine" && !worker.creator) throw new ApiError("invalid_parameter", `Invalid "creator": required with voice "${worker.voice}"`);
  const schedule = { days: [...new Set(worker.schedule.days)].sort((a, b) => a - b), time: worker.schedule.time };
  return insertWorker(sql, {
    account_id: accountId,
    name: worker.name,
    voice: worker.voice,
    creator_handle: worker.voice === "mine" ? null : worker.creator!,
    topic_source: worker.topic_source,
    topic_config: config,
    style_mode: worker.shape === "niche" ? "reference_remix" : (worker.style_mode ?? "voice_match"),
    batch_size: worker.batch_size,
    schedule_days: schedule.days,
    schedule_time: schedule.time,
    timezone: worker.timezone,
    next_run_at: nextRunAfter(schedule, worker.timezone, now.getTime()),
    shape: worker.shape,
    active: worker.active,
  });
}
