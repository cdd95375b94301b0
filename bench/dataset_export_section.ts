/**
 * The dataset export section of `npm run bench` (docs/areas.md "Datasets":
 * exporting 1,000 rows as CSV, ms, and peak memory flat with rows: streamed): a ready
 * repliers dataset of 1,000 rows exported over REST (`GET /v1/datasets/{id}/export`, the full
 * request path), timed over BENCH_EXPORT_RUNS runs (default 5); then the heap growth while
 * exporting 1,000 and 10,000 rows (sampled every few ms while the body is read and dropped
 * chunk by chunk). Streamed, the 10,000-row export should need about what the 1,000-row one
 * does (valid when under 3x for 10x the rows).
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { accountById } from "../core/accounts/accounts_queries.ts";
import { expiryOf, newDatasetId } from "../core/datasets/dataset_access.ts";
import { appendRows, insertDataset, type NewDatasetRow } from "../core/datasets/datasets_queries.ts";
import { seedSectionUser } from "./seed.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface DatasetExportTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 5);

/** Seeds the datasets, exports them, prints and answers the section's figures. */
export async function measureDatasetExport(target: DatasetExportTarget, notReal: string | undefined) {
  const { services } = target;
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "datasets" });
  const account = await accountById(services.sql, user.ownerId);
  const small = await seedDataset(services, account.user_id, user.ownerId, 1_000);
  const large = await seedDataset(services, account.user_id, user.ownerId, 10_000);
  const url = (id: string) => `${target.origin}/v1/datasets/${id}/export?format=csv`;
  const headers = { Authorization: `Bearer ${user.key}` };

  console.log("");
  console.log(`Datasets: exporting 1,000 rows as CSV over REST, ${RUNS} runs ...`);
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const start = performance.now();
    bytes = await download(url(small), headers);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    formatColumns(
      ["rows", "bytes", "median ms", "best ms", "rows/s"],
      [["1000", String(bytes), median.toFixed(1), times[0].toFixed(1), String(Math.round(1000 / (median / 1000)))]],
    ),
  );

  console.log("");
  console.log("Datasets: heap growth while exporting 1,000 vs 10,000 rows (streamed) ...");
  const peakSmall = await peakHeapGrowth(() => download(url(small), headers));
  const peakLarge = await peakHeapGrowth(() => download(url(large), headers));
  const ratio = peakLarge / Math.max(peakSmall, 1);
  console.log(
    formatColumns(
      ["rows", "peak heap growth MB"],
      [
        ["1000", (peakSmall / 1e6).toFixed(1)],
        ["10000", (peakLarge / 1e6).toFixed(1)],
      ],
    ),
  );
  const valid = ratio < 3;
  console.log(`  10x the rows took ${ratio.toFixed(2)}x the memory: ${valid ? "flat (streamed)" : "NOT flat"}${notReal ? ` (${notReal})` : ""}`);
  return {
    valid,
    summary: {
      rows: 1000,
      bytes,
      median_ms: round(median, 1),
      peak_heap_mb_1000: round(peakSmall / 1e6, 1),
      peak_heap_mb_10000: round(peakLarge / 1e6, 1),
      memory_ratio: round(ratio, 2),
    },
  };
}

/** Reads the answer chunk by chunk, keeping nothing; answers the bytes read. */
async function download(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { headers });
  if (response.status !== 200 || !response.body) throw new Error(`Export answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.byteLength;
  return bytes;
}

/** The largest heap growth over the heap before `run`, sampled every 2 ms. */
async function peakHeapGrowth(run: () => Promise<unknown>): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  }, 2);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().heapUsed - base);
}

/** A ready repliers dataset of `count` rows with realistic text. */
async function seedDataset(services: Services, ownerId: number, accountId: string, count: number): Promise<string> {
  const id = newDatasetId();
  const now = new Date(services.clock.now());
  await insertDataset(services.sql, {
    id,
    owner_id: ownerId,
    account_id: accountId,
    source: "repliers",
    title: `Bench export ${count}`,
    status: "ready",
    params: { max_rows: count },
    created_at: now,
    finished_at: now,
    expires_at: expiryOf(now.getTime()),
  });
  for (let start = 0; start < count; start += 1_000) {
    const rows: NewDatasetRow[] = Array.from({ length: Math.min(1_000, count - start) }, (_, i) => {
      const n = start + i + 1;
      return {
        key: String(7_000_000_000 + n),
        x_user_id: String(7_000_000_000 + n),
        handle: `bench_person_${n}`,
        name: `Bench Person ${n}`,
        bio: `Founder at Company ${n}, writing about pricing, "growth", and churn; based in Lisbon`,
        website: `https://company${n}.example`,
        followers_count: n * 3,
        following_count: 120,
        verified: n % 2 === 0,
        can_dm: n % 3 === 0,
        post_id: String(6_000_000_000 + n),
        post_text: `Reply ${n}: how does the pricing work for teams of 5, 10, or 50?\nAsking for a friend.`,
        post_url: `https://x.com/bench_person_${n}/status/${6_000_000_000 + n}`,
        posted_at: now,
        likes: n % 40,
        replies: 1,
        reposts: 0,
        quotes: 0,
        impressions: 200,
      };
    });
    await appendRows(services.sql, id, start, rows);
  }
  return id;
}
