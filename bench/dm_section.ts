/**
 * The DM section of `npm run bench` (docs/areas.md "DM campaigns and auto DM"): 10,000 queued
 * messages across 100 accounts on the enterprise plan (generous limits), queued with the
 * API's own create (100 recipients per campaign), then sent by the DM sender the way the
 * job runner's `send_dms` lane runs it: one sender per account, 50 accounts at a time
 * (jobs/task_list.ts). Reports messages/s until every message is sent, and the peak
 * memory (RSS and heap, sampled every 50 ms) while sending. BENCH_DM_ACCOUNTS (default
 * 100), BENCH_DM_PER_ACCOUNT (default 100), BENCH_DM_CONCURRENCY (default 50).
 */
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import type { Services } from "../core/context.ts";
import { createUser } from "../core/accounts/users.ts";
import { enqueueCampaign } from "../core/dm/create_campaign.ts";
import { dmAllowanceOf } from "../core/dm/dm_limits.ts";
import { type DmRunResult, sendDueMessages } from "../core/dm/dm_sender.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface DmTarget {
  services: Services;
}

const ACCOUNTS = Number(process.env.BENCH_DM_ACCOUNTS ?? 100);
const PER_ACCOUNT = Number(process.env.BENCH_DM_PER_ACCOUNT ?? 100);
const CONCURRENCY = Number(process.env.BENCH_DM_CONCURRENCY ?? 50);

/** Seeds the accounts and their campaigns, sends everything, prints and answers the figures. */
export async function measureDms(target: DmTarget, notReal: string | undefined) {
  const { services } = target;
  const { sql, clock } = services;
  const world = (services.network as Partial<SimulatedNetwork>).world;
  if (!world) {
    console.log("DMs: skipped (needs the simulated network: its people accept the bench's 10,000 DMs)");
    return { summary: null, valid: true };
  }
  const total = ACCOUNTS * PER_ACCOUNT;
  console.log("");
  console.log(`DMs: ${total} messages queued across ${ACCOUNTS} accounts (enterprise plan), sent ${CONCURRENCY} accounts at a time ...`);
  const { pop } = world;
  const recipients: string[] = [];
  for (let i = pop.anchorCount; i < pop.size && recipients.length < PER_ACCOUNT; i++) if (pop.canDm[i] === 1) recipients.push(pop.ids[i]);
  const random = randomBytes(4).toString("hex");
  const accounts: string[] = [];
  const queueStart = performance.now();
  for (let i = 0; i < ACCOUNTS; i++) {
    const { mainAccountId } = await createUser(
      sql,
      { name: `Bench DMs ${i}`, email: `bench-dm-${random}-${i}@bench.threadline.local`, plan: "enterprise" },
      { username: `bench_dm_${random}_${i}`, name: `Bench DMs ${i}` },
    );
    const allowance = (await dmAllowanceOf(sql, mainAccountId))!;
    await sql.begin((tx) =>
      enqueueCampaign(tx, {
        accountId: mainAccountId,
        allowance,
        now: clock.now(),
        message: "Hi [first], thanks for the follow",
        recipients: recipients.map((x_user_id) => ({ x_user_id })),
        spread: false,
        source: "api",
      }),
    );
    accounts.push(mainAccountId);
  }
  const queueSeconds = (performance.now() - queueStart) / 1000;

  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 50);
  const results: DmRunResult[] = [];
  const start = performance.now();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, accounts.length) }, async () => {
        while (next < accounts.length) results.push(await sendDueMessages({ sql, network: services.network, clock }, accounts[next++]));
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - start) / 1000;
  const sent = results.reduce((sum, result) => sum + result.sent, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  const mib = (bytes: number) => bytes / 1024 / 1024;
  console.log(
    formatColumns(
      ["queued", "queue s", "sent", "failed", "send s", "messages/s", "peak RSS MiB", "peak heap MiB"],
      [
        [
          String(total),
          queueSeconds.toFixed(2),
          String(sent),
          String(failed),
          seconds.toFixed(2),
          (sent / seconds).toFixed(0),
          mib(peakRss).toFixed(0),
          mib(peakHeap).toFixed(0),
        ],
      ],
    ),
  );
  console.log(
    `(each message: a claim under the account's lock, the filled text recorded, the network's send, the outcome committed; network ${services.network.info.kind})`,
  );
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = sent === total && failed === 0;
  if (!valid) console.log(`INVALID: ${sent} of ${total} sent, ${failed} failed`);
  const summary = {
    accounts: ACCOUNTS,
    messages: total,
    concurrency: CONCURRENCY,
    queue_seconds: round(queueSeconds, 3),
    send_seconds: round(seconds, 3),
    messages_per_s: round(sent / seconds, 1),
    sent,
    failed,
    peak_rss_mib: round(mib(peakRss), 1),
    peak_heap_mib: round(mib(peakHeap), 1),
    valid,
    real_target: notReal === undefined,
  };
  return { summary, valid };
}
