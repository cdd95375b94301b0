/**
 * The Workers part of the demo world: on A's main account one Worker of each shape
 * (`formats` on a product, `niche` on a custom topic with keywords, `fresh` from the
 * account's context), one Worker on C's account (another user's: `worker_not_found`
 * from A's key), and a first batch of `to_review` suggestions from A's formats and fresh
 * Workers. Re-runs
 * find the Workers by name and top the review queue up only when fewer than three
 * suggestions wait in it.
 */
import type { Services } from "../context.ts";
import type { Sql } from "../db/sql.ts";
import { activeProducts } from "../account_context/context_queries.ts";
import { createWorker, type WorkerInput } from "../workers/create_worker.ts";
import { writeSuggestions } from "../workers/write_suggestions.ts";
import { insertSuggestions, type NewSuggestion, workerByName, type WorkerRow } from "../workers/workers_queries.ts";
import { demoSuggestionsToReview } from "./demo_queries.ts";

/** The demo's Worker ids by role, and the suggestions waiting for review on A's account. */
export interface DemoWorkers {
  workers: { formats: number; niche: number; fresh: number; foreign: number };
  suggestions: { to_review: number[] };
}

/** Suggestions the demo keeps waiting in A's review queue. */
const MIN_TO_REVIEW = 3;

/**
 * Used only when the model or the network cannot write (a world seeded with
 * THREADLINE_FAULTS=ai or x): the demo still needs a review queue, so these fixed texts
 * stand in, marked as written from a format.
 */
const SEED_TEXTS = [
  "3 things I learned shipping a scheduler:\n\n1. Queue first, write later.\n2. Threads beat single posts.\n3. Consistency compounds.\n\nWhich one surprised you?",
  "Most people plan posts the night before. Plan a week in one sitting instead.",
  "What would you automate first if your posting schedule ran itself?",
];

/** Ensures the demo Workers and at least three `to_review` suggestions on A's main account. */
export async function ensureDemoWorkers(services: Services, ids: { main: string; otherUser: string }): Promise<DemoWorkers> {
  const { sql, clock } = services;
  const now = new Date(clock.now());
  const [product] = await activeProducts(sql, ids.main);
  const productTopic: Pick<WorkerInput, "topic_source" | "product_id" | "topic"> = product
    ? { topic_source: "product", product_id: product.id }
    : { topic_source: "custom", topic: "Scheduling posts from scripts and agents. Planning a week of content in one sitting." };
  const formats = await ensureWorker(sql, ids.main, now, {
    name: "Demo formats",
    shape: "formats",
    ...productTopic,
    batch_size: 3,
    schedule: { days: [1, 3, 5], time: "09:00" },
    timezone: "Europe/London",
  });
  const niche = await ensureWorker(sql, ids.main, now, {
    name: "Demo niche",
    shape: "niche",
    topic_source: "custom",
    topic: "Building with AI agents.",
    keywords: ["AI agents", "prompt engineering"],
    batch_size: 2,
    schedule: { days: [2, 4], time: "08:30" },
    timezone: "America/New_York",
  });
  const fresh = await ensureWorker(sql, ids.main, now, {
    name: "Demo fresh",
    shape: "fresh",
    topic_source: "custom",
    topic: "What I learned building Threadline this week.",
    batch_size: 2,
    schedule: { days: [0], time: "18:00" },
    timezone: "UTC",
  });
  const foreign = await ensureWorker(sql, ids.otherUser, now, {
    name: "Demo formats",
    shape: "formats",
    topic_source: "custom",
    topic: "Keeping a private account useful.",
    batch_size: 1,
    timezone: "UTC",
  });

  let waiting = await toReview(sql, ids.main);
  if (waiting.length < MIN_TO_REVIEW) {
    // The niche Worker writes at its first scheduled run: its search of the network costs
    // about a second on a cold simulated world, which every demo start would otherwise pay.
    for (const worker of [formats, fresh]) await seedBatch(services, worker, now);
    waiting = await toReview(sql, ids.main);
  }
  return {
    workers: { formats: formats.id, niche: niche.id, fresh: fresh.id, foreign: foreign.id },
    suggestions: { to_review: waiting },
  };
}

async function ensureWorker(sql: Sql, accountId: string, now: Date, input: WorkerInput): Promise<WorkerRow> {
  return (await workerByName(sql, accountId, input.name)) ?? (await createWorker(sql, accountId, input, now));
}

/** Writes one batch for `worker` as a run at `now`, outside its schedule (its next run is left as it is). */
async function seedBatch(services: Services, worker: WorkerRow, now: Date): Promise<void> {
  let suggestions: NewSuggestion[];
  try {
    suggestions = await writeSuggestions({ sql: services.sql, network: services.network, model: services.model, now }, worker);
  } catch (error) {
    console.warn(`Demo world: Worker "${worker.name}" could not write (${(error as Error)?.message ?? error}); seeding fixed suggestions`);
    suggestions = SEED_TEXTS.slice(0, worker.batch_size).map((text) => ({ text, reference: { source: "format" }, fallback: false }));
  }
  await insertSuggestions(services.sql, worker, now, now, suggestions);
}

async function toReview(sql: Sql, accountId: string): Promise<number[]> {
  return demoSuggestionsToReview(sql, accountId);
}
