/**
 * The `ingest_inspiration` job: reads a bounded window of recent public posts through the
 * network port into the inspiration corpus and measures the tier rates again
 * (core/inspiration/ingest_inspiration.ts). Idempotent upserts, so a retry or an
 * overlapping run only refreshes metrics.
 */
import { ingestInspiration, type IngestDeps } from "./ingest_inspiration.ts";

/** How often the corpus is refreshed. */
export const INGEST_INSPIRATION_EVERY_SECONDS = 30 * 60;

/** Runs one ingest; answers how many posts were stored. */
export async function ingestInspirationJob(deps: IngestDeps): Promise<number> {
  return ingestInspiration(deps);
}
