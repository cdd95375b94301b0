/**
 * The engage section of `npm run bench` (docs/areas.md "Engage"): through the
 * full REST path, a keyword feed's first page read fresh (`fresh=true`: search, profiles,
 * the account's replies) and cached (the 2-minute candidate cache), and one page of
 * mentions (read live with parents and grandparents), each as p50 / p95 ms over
 * BENCH_ENGAGE_CALLS calls (default 30), one at a time.
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { seedSectionUser } from "./seed.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface EngageTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

const CALLS = Number(process.env.BENCH_ENGAGE_CALLS ?? 30);
const MENTIONS = 30;

/** Seeds a user with a keyword feed and mentions, times the reads, prints and answers the figures. */
export async function measureEngage(target: EngageTarget, notReal: string | undefined) {
  const { services, origin } = target;
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "engage" });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { Authorization: `Bearer ${user.key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const feed = await call("POST", "/v1/engage/feeds", { name: "Bench", type: "keywords", keywords: ["AI agents", "LLM evals"] });
  if (feed.status !== 201) throw new Error(`Creating the bench feed answered ${feed.status}: ${JSON.stringify(feed.body)}`);
  await seedMentions(services, user.ownerId);

  console.log("");
  console.log(`Engage: ${CALLS} calls each, one at a time, on the ${services.network.info.kind} network ...`);
  const rows = [
    await timed("feed first page, fresh", () => call("GET", `/v1/engage/feeds/${feed.body.data.id}/posts?limit=20&fresh=true`)),
    await timed("feed first page, cached", () => call("GET", `/v1/engage/feeds/${feed.body.data.id}/posts?limit=20`)),
    await timed("mentions, first page", () => call("GET", "/v1/engage/mentions?include_replied=true")),
  ];
  console.log(
    formatColumns(
      ["read", "p50 ms", "p95 ms", "items", "non-200"],
      rows.map((row) => [row.label, row.p50.toFixed(2), row.p95.toFixed(2), String(row.items), String(row.failed)]),
    ),
  );
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = rows.every((row) => row.failed === 0 && row.items > 0);
  if (!valid) console.log("INVALID: a read failed or answered no items");
  const summary = Object.fromEntries(
    rows.map((row) => [row.key, { p50_ms: round(row.p50, 3), p95_ms: round(row.p95, 3), items: row.items, failed: row.failed }]),
  );
  return { summary: { calls: CALLS, ...summary, valid, real_target: notReal === undefined }, valid };
}

async function timed(label: string, run: () => Promise<{ status: number; body: any }>) {
  const durations: number[] = [];
  let failed = 0;
  let items = 0;
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    const answer = await run();
    durations.push(performance.now() - start);
    if (answer.status !== 200) failed++;
    else items = answer.body.data.length;
  }
  durations.sort((a, b) => a - b);
  const at = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))];
  return { label, key: label.replace(/[^a-z]+/g, "_").replace(/_$/, ""), p50: at(0.5), p95: at(0.95), items, failed };
}

/** Posts by a few people of the network that name the bench account, so mentions has a page to read. */
async function seedMentions(services: Services, accountId: string): Promise<void> {
  const { network } = services;
  const me = await network.userById(accountId);
  const page = await network.search({ query: "AI agents", limit: 10 });
  const authors = [...new Set(page.items.map((post) => post.authorId))];
  for (let i = 0; i < MENTIONS; i++) {
    const authorId = authors[i % authors.length];
    await network.publishPost({ authorId, text: `@${me.username} what do you think of this? (${i})`, replyToId: page.items[i % page.items.length].id });
  }
}
