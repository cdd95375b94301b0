/**
 * The outreach-drafts section of `npm run bench` (docs/areas.md "Datasets":
 * outreach drafts for 25 researched rows on the local engine, ms per row). A research
 * dataset of 25 people of the simulated network (the repliers of the demo's large post,
 * each with a hook that is a sentence of their own post) is drafted through the full REST
 * path, `POST /v1/datasets/{id}/outreach-drafts`, once to warm up and then
 * BENCH_OUTREACH_RUNS times (default 5), each run overwriting the last (ms per run and per
 * row, credits per run).
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { accountById } from "../core/accounts/accounts_queries.ts";
import { expiryOf, newDatasetId } from "../core/datasets/dataset_access.ts";
import { appendRows, insertDataset, type NewDatasetRow } from "../core/datasets/datasets_queries.ts";
import { personColumns } from "../core/datasets/row_columns.ts";
import { sentencesOf } from "../core/model/text_units.ts";
import { postUrl } from "../core/network/post_url.ts";
import { seedSectionUser } from "./seed.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface OutreachTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

const ROWS = 25;
const RUNS = Number(process.env.BENCH_OUTREACH_RUNS ?? 5);
const FORMAT = "Hi [first], I run a small studio that builds onboarding flows for SaaS teams. Open to a quick chat next week?";

/** Seeds the dataset, drafts it RUNS times, prints and answers the figures. */
export async function measureDatasetOutreach(target: OutreachTarget, notReal: string | undefined) {
  const { services } = target;
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "outreach" });
  console.log("");
  console.log(`Dataset outreach: drafts for ${ROWS} researched rows, model ${services.model.engine}, ${RUNS} runs ...`);
  const datasetId = await seedResearchDataset(services, user.ownerId);
  const draft = async () => {
    const start = performance.now();
    const response = await fetch(`${target.origin}/v1/datasets/${datasetId}/outreach-drafts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ format: FORMAT }),
    });
    const body = (await response.json()) as { data?: { total: number; drafted: number; generic: number }; meta?: { credits_charged: number } };
    return { ms: performance.now() - start, status: response.status, body };
  };
  await draft();
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await draft());
  const rows = runs[0]?.body.data?.total ?? 0;
  const ms = runs.map((run) => run.ms).sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)] ?? 0;
  const credits = runs[0]?.body.meta?.credits_charged ?? 0;
  const drafted = runs[0]?.body.data?.drafted ?? 0;
  console.log(
    formatColumns(
      ["rows", "drafted", "median ms/run", "ms/row", "best ms/run", "credits/run"],
      [[String(rows), String(drafted), median.toFixed(1), (median / Math.max(1, rows)).toFixed(2), (ms[0] ?? 0).toFixed(1), String(credits)]],
    ),
  );
  console.log(`(POST /v1/datasets/{id}/outreach-drafts through the full REST path, rows drafted 5 at a time; network ${services.network.info.kind})`);
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = runs.every((run) => run.status === 200) && rows === ROWS;
  if (!valid) console.log(`INVALID: statuses ${runs.map((run) => run.status).join(",")}, ${rows} rows of ${ROWS}`);
  return {
    valid,
    summary: { rows, drafted, runs: RUNS, median_ms_per_run: round(median, 2), ms_per_row: round(median / Math.max(1, rows), 3), credits_per_run: credits },
  };
}

/** A ready research dataset of `accountId` with 25 people who replied to the large demo post, each with one verbatim hook. */
async function seedResearchDataset(services: Services, accountId: string): Promise<string> {
  const account = await accountById(services.sql, accountId);
  const { network } = services;
  const postId = network.demoFixtures?.().large_post_id;
  if (!postId || !account) throw new Error("The outreach bench needs the simulated network's demo fixtures");
  const rows: NewDatasetRow[] = [];
  const seen = new Set<string>();
  const { items } = await network.replies(postId, { limit: 100 });
  for (const user of await network.usersByIds([...new Set(items.map((post) => post.authorId))])) {
    if (rows.length >= ROWS || seen.has(user.id)) continue;
    seen.add(user.id);
    const { items: posts } = await network.timeline(user.id, { excludeReplies: true, excludeReposts: true, limit: 10 });
    const post = posts.find((item) => sentencesOf(item.text).some((sentence) => sentence.length >= 20));
    const quote = post && sentencesOf(post.text).find((sentence) => sentence.length >= 20 && !sentence.includes("@"));
    const hooks = post && quote ? [{ quote, post_id: post.id, post_url: postUrl(user.username, post.id), posted_at: post.createdAt }] : [];
    const brief = { summary: `${user.name}'s recent posts`, topics: [], tone: "conversational", recent_themes: [] };
    rows.push({ key: user.id, ...personColumns(user), brief, hooks });
  }
  const now = new Date(services.clock.now());
  const id = newDatasetId();
  await services.sql.begin(async (tx) => {
    await insertDataset(tx, {
      id,
      owner_id: Number(account.user_id),
      account_id: accountId,
      source: "research",
      title: "Bench: 25 researched repliers",
      status: "ready",
      params: { max_rows: ROWS },
      created_at: now,
      expires_at: expiryOf(now.getTime()),
      finished_at: now,
    });
    await appendRows(tx, id, 0, rows);
  });
  return id;
}
