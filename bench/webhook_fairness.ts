/**
 * The fairness figure of the webhooks section (docs/webhooks.md, "Fairness"): the delivery lag
 * of one owner's quick endpoint, first alone, then while another owner's endpoint that answers
 * after 9 s receives events at the same rate at the same time. Each phase records
 * BENCH_WEBHOOK_FAIR_RATE events per second per owner (default 20, each in its own
 * transaction) for BENCH_WEBHOOK_FAIR_SECONDS (default 15) while one delivery run keeps
 * claiming (as the job's overlapping runs do) with the fan-out before its claims, after the
 * section's 1,000 idle endpoints were added (every claim looks at each enabled endpoint).
 * Target: the quick endpoint's p99 lag beside the slow one within 2x of its p99 alone
 * (BENCH_WEBHOOK_SLOW_MS, default 9000, sets the slow answer).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import type { Services } from "../core/context.ts";
import { createUser } from "../core/accounts/users.ts";
import { recordEvent } from "../core/events/record_event.ts";
import { currentEventSeq, deleteWebhook, insertWebhook } from "../core/webhooks/webhooks_queries.ts";
import { newWebhookSecret } from "../core/webhooks/webhook_secret.ts";
import { fanOutEvents } from "../core/webhooks/deliver_fan_out.ts";
import { DELIVERY_POLL_MS, deliverDue } from "../core/webhooks/deliver_due.ts";
import type { DeliveryDeps } from "../core/webhooks/deliver_attempt.ts";
import { formatColumns, round } from "./report.ts";

const RATE = Number(process.env.BENCH_WEBHOOK_FAIR_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_WEBHOOK_FAIR_SECONDS ?? 15);
const SLOW_MS = Number(process.env.BENCH_WEBHOOK_SLOW_MS ?? 9_000);
/** The target: p99 beside the slow endpoint over p99 alone. */
const TARGET_RATIO = 2;

/** A receiver on loopback that answers after `delayMs` and records each event's lag once. */
async function lagReceiver(delayMs: number) {
  const lags = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; created_at: string };
      if (!lags.has(event.id)) lags.set(event.id, Date.now() - Date.parse(event.created_at));
      const answer = () => {
        if (!response.destroyed) response.writeHead(200).end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    lags,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** An owner with one enabled endpoint at `url`. */
async function ownerWithEndpoint(services: Services, name: string, url: string) {
  const { sql, clock, secretBox } = services;
  const random = randomBytes(4).toString("hex");
  const { userId, mainAccountId } = await createUser(
    sql,
    { name: `Bench ${name}`, email: `bench-${name}-${random}@bench.threadline.local`, plan: "enterprise" },
    { username: `bench_${name}_${random}`, name: `Bench ${name}` },
  );
  const webhook = await insertWebhook(sql, {
    ownerId: userId,
    url,
    events: ["post.sent"],
    description: `bench ${name}`,
    enabled: true,
    secret: secretBox.seal(newWebhookSecret()),
    cursorSeq: await currentEventSeq(sql),
    now: new Date(clock.now()),
  });
  return { accountId: mainAccountId, remove: () => deleteWebhook(sql, userId, webhook.id) };
}

/** p50/p99/max of `values` (sorted here). */
function quantiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/**
 * One phase: events for each of `accounts` at RATE per second for SECONDS, delivered by one
 * claiming run at a time (started again when it finds nothing to do); answers the quick
 * receiver's lags once it has every one of its events (or a minute after the producer stopped).
 */
async function phase(deps: DeliveryDeps, accounts: string[], quick: { lags: Map<string, number> }, onStop = () => {}): Promise<number[]> {
  const before = quick.lags.size;
  const expected = RATE * SECONDS;
  const stopAt = performance.now() + SECONDS * 1000;
  let producing = true;
  const producer = (async () => {
    for (let n = 0; n < expected; n++) {
      // Paced from the start, so a slow statement is caught up rather than stretching the phase.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, stopAt - SECONDS * 1000 + (n * 1000) / RATE - performance.now())));
      const objectId = `${before}-${n}`;
      await Promise.all(
        accounts.map((accountId) =>
          deps.sql.begin((tx) =>
            recordEvent(tx, { accountId, type: "post.sent", objectType: "scheduled_post", objectId, data: { id: objectId }, now: new Date() }),
          ),
        ),
      );
    }
    producing = false;
  })();
  const stop = new AbortController();
  const deadline = stopAt + 60_000;
  const watch = setInterval(() => {
    if (stop.signal.aborted || !((!producing && quick.lags.size - before >= expected) || performance.now() > deadline)) return;
    stop.abort();
    onStop();
  }, 20);
  let holder = 0;
  while (!stop.signal.aborted) {
    const posted = await deliverDue(deps, { holder: `bench-fair-${++holder}`, signal: stop.signal, queueNew: () => fanOutEvents(deps) });
    if (posted === 0) await new Promise((resolve) => setTimeout(resolve, DELIVERY_POLL_MS));
  }
  clearInterval(watch);
  await producer;
  return [...quick.lags.values()].slice(before);
}

/** Measures and prints the quick endpoint's lag alone and beside the slow one; answers the figures. */
export async function measureWebhookFairness(services: Services, webhookSender: DeliveryDeps["webhookSender"]) {
  console.log("");
  console.log(
    `Webhook fairness: ${RATE} events/s for ${SECONDS} s to a quick endpoint, alone, then beside another owner's endpoint answering after ${SLOW_MS} ms ...`,
  );
  const { sql, clock, secretBox } = services;
  const deps: DeliveryDeps = { sql, clock, webhookSender, secretBox };
  const quickReceiver = await lagReceiver(0);
  const slowReceiver = await lagReceiver(SLOW_MS);
  const quick = await ownerWithEndpoint(services, "quick", quickReceiver.url);
  const alone = await phase(deps, [quick.accountId], quickReceiver);
  const slow = await ownerWithEndpoint(services, "slow", slowReceiver.url);
  // The slow receiver is closed once the quick one has everything: its posts in flight end at once.
  const beside = await phase(deps, [quick.accountId, slow.accountId], quickReceiver, () => slowReceiver.close());
  const slowPosts = slowReceiver.lags.size;
  quickReceiver.close();
  await slow.remove();
  await quick.remove();
  const [a, b] = [quantiles(alone), quantiles(beside)];
  const ratio = a.p99 > 0 ? b.p99 / a.p99 : Number.POSITIVE_INFINITY;
  console.log(
    formatColumns(
      ["quick endpoint", "delivered", "p50 ms", "p99 ms", "max ms"],
      [
        ["alone", `${alone.length}/${RATE * SECONDS}`, String(a.p50), String(a.p99), String(a.max)],
        ["beside a slow one", `${beside.length}/${RATE * SECONDS}`, String(b.p50), String(b.p99), String(b.max)],
      ],
    ),
  );
  console.log(
    `p99 beside / alone: ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? "met" : "NOT met"}); the slow endpoint got ${slowPosts} posts in ${SECONDS} s`,
  );
  const valid = alone.length === RATE * SECONDS && beside.length === RATE * SECONDS;
  const figures = {
    rate_per_s: RATE,
    seconds: SECONDS,
    slow_ms: SLOW_MS,
    alone: { delivered: alone.length, p50_ms: a.p50, p99_ms: a.p99, max_ms: a.max },
    beside_slow: { delivered: beside.length, p50_ms: b.p50, p99_ms: b.p99, max_ms: b.max },
    slow_posts: slowPosts,
    p99_ratio: round(ratio, 2),
    target_ratio: TARGET_RATIO,
    pass: ratio <= TARGET_RATIO,
  };
  return { figures, valid };
}
