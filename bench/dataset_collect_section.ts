/**
 * The dataset collection section of `npm run bench` (docs/areas.md "Datasets"):
 * collecting the repliers of a post through the full REST path (`POST /v1/datasets`, `202`),
 * with the `build_dataset` job run in process the way a job runner runs it while the client
 * polls `GET /v1/datasets/{id}` (every 50 ms here; the real client polls every 5 s): time to
 * `ready` and rows/s. The issue asks for a post with 1,000 repliers; the simulated world's
 * largest fixture post (`x.large_post_id`) has fewer (891 in the default world), so the
 * section collects all of them and prints the count it found. Figures only.
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { seedSectionUser } from "./seed.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface DatasetCollectTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

/** Collects the largest fixture post's repliers, prints and answers the figures. */
export async function measureDatasetCollect(target: DatasetCollectTarget, notReal: string | undefined) {
  const { services } = target;
  const fixtures = services.network.demoFixtures?.();
  if (!fixtures) {
    console.log("Datasets: skipped (the network has no demo fixtures to collect from)");
    return { summary: null, valid: true };
  }
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "datasets" });
  const post = await services.network.postById(fixtures.large_post_id);
  console.log("");
  console.log(`Datasets: collecting the repliers of a post with ${post.metrics.replies} replies (max_rows 1000) ...`);
  const headers = { Authorization: `Bearer ${user.key}`, "Content-Type": "application/json" };
  const start = performance.now();
  const created = await fetch(`${target.origin}/v1/datasets`, {
    method: "POST",
    headers,
    body: JSON.stringify({ source: "repliers", target: fixtures.large_post_id, max_rows: 1000 }),
  });
  const body = (await created.json()) as { data?: { id: string }; error?: unknown };
  const acceptedMs = performance.now() - start;
  if (created.status !== 202 || !body.data) {
    console.log(`INVALID: the create answered ${created.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { summary: { status: created.status }, valid: false };
  }
  const id = body.data.id;
  const { sql, clock, network } = services;
  const handlers = jobHandlers({ sql, clock, network });
  const job = runJobsOnce({ sql, runnerId: "bench-datasets", kinds: ["build_dataset"], handlers });
  let record: { status: string; row_count: number; expected_total: number | null } | undefined;
  let polls = 0;
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
    const answer = await fetch(`${target.origin}/v1/datasets/${id}`, { headers: { Authorization: `Bearer ${user.key}` } });
    polls += 1;
    record = ((await answer.json()) as { data: typeof record }).data;
    if (record?.status !== "collecting") break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - start) / 1000;
  await job;
  const rows = record?.row_count ?? 0;
  const valid = record?.status === "ready";
  console.log(
    formatColumns(
      ["expected", "rows", "202 in ms", "seconds to ready", "rows/s", "polls"],
      [[String(record?.expected_total ?? "?"), String(rows), acceptedMs.toFixed(1), seconds.toFixed(3), (rows / seconds).toFixed(0), String(polls)]],
    ),
  );
  console.log(`(the simulated world's largest fixture post has ${post.metrics.replies} replies, not 1,000; network ${network.info.kind})`);
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  if (!valid) console.log(`INVALID: the dataset ended ${record?.status ?? "unknown"}`);
  const summary = {
    replies_on_post: post.metrics.replies,
    rows,
    accepted_ms: round(acceptedMs, 1),
    seconds_to_ready: round(seconds, 3),
    rows_per_s: round(rows / seconds, 1),
    valid,
    real_target: notReal === undefined,
  };
  return { summary, valid };
}
