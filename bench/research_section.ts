/**
 * The research section of `npm run bench` (docs/areas.md "Datasets"): research runs through the
 * full REST path on the simulated network and the configured model. A synchronous run of
 * 5 handles (`201`: ms, ms per profile) and a background run of 25 (`202`, then the
 * `build_dataset` job run here as the job runner runs it: seconds to `ready`, ms per
 * profile), with the profiles researched and skipped and the verbatim hooks kept per row.
 * The people are the first followers of the world's largest account who post.
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { datasetById, rowsPage } from "../core/datasets/datasets_queries.ts";
import { seedSectionUser } from "./seed.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface ResearchTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

const LARGE_ACCOUNT = "kai_on_ai";

/** Runs the two research runs, prints and answers the section's figures. */
export async function measureResearch(target: ResearchTarget, notReal: string | undefined) {
  const { services } = target;
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "research" });
  const handles = await postingHandles(services, 30);
  console.log("");
  console.log(`Research: 5 profiles synchronously, then 25 in the background, on the ${services.network.info.kind} network ...`);

  const syncStart = performance.now();
  const sync = await post(target.origin, user.key, handles.slice(0, 5));
  const syncMs = performance.now() - syncStart;

  const asyncStart = performance.now();
  const background = await post(target.origin, user.key, handles.slice(5, 30));
  const id = background.body?.data?.id as string | undefined;
  const { sql, clock, network, model } = services;
  if (id) {
    const handlers = jobHandlers({ sql, clock, network, model });
    while ((await datasetById(sql, id))?.status === "collecting") {
      const ran = await runJobsOnce({ sql, runnerId: "bench-research", kinds: ["build_dataset"], handlers });
      if (ran.claimed === 0) break;
    }
  }
  const asyncMs = performance.now() - asyncStart;
  const stored = id ? await datasetById(sql, id) : undefined;
  const rows = id ? await rowsPage(sql, id, { limit: 100, offset: 0 }) : [];
  const hooks = rows.reduce((sum, row) => sum + (row.hooks?.length ?? 0), 0);

  const syncCounts = sync.body?.data?.counts ?? {};
  const asyncCounts = stored?.counts ?? {};
  console.log(
    formatColumns(
      ["run", "status", "ms", "ms/profile", "researched", "skipped", "credits kept"],
      [
        [
          "5 sync",
          String(sync.status),
          syncMs.toFixed(0),
          (syncMs / 5).toFixed(1),
          String(syncCounts.researched ?? 0),
          String(syncCounts.skipped ?? 0),
          sync.charged ?? "-",
        ],
        [
          "25 background",
          `${background.status} -> ${stored?.status ?? "?"}`,
          asyncMs.toFixed(0),
          (asyncMs / 25).toFixed(1),
          String(asyncCounts.researched ?? 0),
          String(asyncCounts.skipped ?? 0),
          "-",
        ],
      ],
    ),
  );
  console.log(`(hooks kept per researched row: ${rows.length > 0 ? (hooks / rows.length).toFixed(2) : "0"}; model ${services.model.engine})`);
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = sync.status === 201 && background.status === 202 && stored?.status === "ready";
  if (!valid) console.log(`INVALID: sync answered ${sync.status}, background ${background.status} ending ${stored?.status ?? "unknown"}`);
  const summary = {
    sync: { profiles: 5, status: sync.status, ms: round(syncMs, 1), ms_per_profile: round(syncMs / 5, 2), researched: syncCounts.researched ?? 0 },
    background: {
      profiles: 25,
      status: background.status,
      final_status: stored?.status ?? null,
      ms_to_ready: round(asyncMs, 1),
      ms_per_profile: round(asyncMs / 25, 2),
      researched: asyncCounts.researched ?? 0,
      skipped: asyncCounts.skipped ?? 0,
      hooks_per_row: rows.length > 0 ? round(hooks / rows.length, 2) : 0,
    },
    valid,
    real_target: notReal === undefined,
  };
  return { summary, valid };
}

async function post(origin: string, key: string, handles: string[]): Promise<{ status: number; body: any; charged: string | null }> {
  const response = await fetch(`${origin}/v1/datasets`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ source: "research", handles, focus: "what they are building" }),
  });
  return { status: response.status, body: await response.json().catch(() => null), charged: response.headers.get("X-Credits-Charged") };
}

/** `count` handles of public people who post: the first followers of the world's largest account. */
async function postingHandles(services: Services, count: number): Promise<string[]> {
  const { network } = services;
  const large = await network.userByUsername(LARGE_ACCOUNT);
  const page = await network.followers(large.id, { limit: 200 });
  const handles = page.items.filter((user) => !user.protected && user.postCount > 0).map((user) => user.username);
  return handles.slice(0, count);
}
