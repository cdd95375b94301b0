/**
 * The webhooks section of `npm run bench` (docs/webhooks.md): 10,000
 * `post.sent` events recorded by a producer (100 per transaction, like changes committing)
 * while the delivery path runs beside it the way the `deliver_webhooks` job does (sequence,
 * fan out, claim and post, at most 10 in flight to one endpoint), to one endpoint: a local
 * receiver on loopback that answers 200. Reports events/s from the first event recorded to the
 * last delivered, and the p50/p99/max lag from an event's `created_at` to its arrival. Then
 * BENCH_WEBHOOK_IDLE endpoints of other users with nothing new are added, and an idle fan-out
 * pass (what the job does every 5 s when nothing happened) is timed. Figures only. Last, the
 * fairness figure (webhook_fairness.ts: a quick endpoint's lag beside another owner's endpoint
 * answering after 9 s; target p99 within 2x of alone).
 * BENCH_WEBHOOK_EVENTS (default 10000), BENCH_WEBHOOK_IDLE (default 1000).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import type { Services } from "../core/context.ts";
import { createUser } from "../core/accounts/users.ts";
import { recordEvent } from "../core/events/record_event.ts";
import { currentEventSeq, deleteWebhook, insertWebhook } from "../core/webhooks/webhooks_queries.ts";
import { newWebhookSecret } from "../core/webhooks/webhook_secret.ts";
import { fanOutEvents } from "../core/webhooks/deliver_fan_out.ts";
import { deliverDue } from "../core/webhooks/deliver_due.ts";
import { createGuardedWebhookSender } from "../adapters/outbound/guarded_post.ts";
import { formatColumns, round } from "./report.ts";
import { measureWebhookFairness } from "./webhook_fairness.ts";
import type { SecretBox } from "../core/ports/secret_box.ts";

/** What the section needs. */
export interface WebhooksTarget {
  services: Services;
}

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const PER_TRANSACTION = 100;
const IDLE_ENDPOINTS = Number(process.env.BENCH_WEBHOOK_IDLE ?? 1000);
/** Endpoints per idle user (the API's cap). */
const IDLE_PER_USER = 10;

/** Records the events, delivers them, prints and answers the figures. */
export async function measureWebhooks(target: WebhooksTarget, notReal: string | undefined) {
  const { sql, clock } = target.services;
  console.log("");
  console.log(`Webhooks: ${EVENTS} post.sent events recorded and delivered to a local receiver ...`);
  const lags: number[] = [];
  const seen = new Set<string>();
  let lastArrival = 0;
  let allArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; created_at: string };
      if (!seen.has(event.id)) {
        seen.add(event.id);
        lags.push(at - Date.parse(event.created_at));
        lastArrival = performance.now();
        if (seen.size >= EVENTS) allArrived();
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  const random = randomBytes(4).toString("hex");
  const { userId, mainAccountId } = await createUser(
    sql,
    { name: "Bench webhooks", email: `bench-webhooks-${random}@bench.threadline.local`, plan: "enterprise" },
    { username: `bench_wh_${random}`, name: "Bench webhooks" },
  );
  const now = new Date(clock.now());
  const webhook = await insertWebhook(sql, {
    ownerId: userId,
    url: `http://127.0.0.1:${port}/hook`,
    events: ["post.sent"],
    description: "bench",
    enabled: true,
    secret: target.services.secretBox.seal(newWebhookSecret()),
    cursorSeq: await currentEventSeq(sql),
    now,
  });
  const deps = { sql, clock, webhookSender: createGuardedWebhookSender({ allowHosts: "127.0.0.1" }), secretBox: target.services.secretBox };

  let producing = true;
  const start = performance.now();
  const producer = (async () => {
    try {
      for (let done = 0; done < EVENTS; done += PER_TRANSACTION) {
        await sql.begin(async (tx) => {
          for (let n = done; n < Math.min(EVENTS, done + PER_TRANSACTION); n++) {
            await recordEvent(tx, {
              accountId: mainAccountId,
              type: "post.sent",
              objectType: "scheduled_post",
              objectId: n + 1,
              data: { id: n + 1, status: "sent" },
              now: new Date(),
            });
          }
        });
      }
    } finally {
      producing = false;
    }
  })();
  const deadline = Date.now() + 600_000;
  const deliverer = (async () => {
    let holder = 0;
    while ((producing || seen.size < EVENTS) && Date.now() < deadline) {
      const posted = await deliverDue(deps, { holder: `bench-${++holder}`, concurrency: 50, claimForMs: 5_000, queueNew: () => fanOutEvents(deps) });
      if (posted === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await Promise.all([producer, deliverer, Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())))])]);
  const seconds = (lastArrival - start) / 1000;
  receiver.close();
  await deleteWebhook(sql, userId, webhook.id);
  lags.sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0;
  console.log(
    formatColumns(
      ["events", "delivered", "seconds", "events/s", "p50 ms", "p99 ms", "max ms"],
      [[String(EVENTS), String(seen.size), seconds.toFixed(2), (seen.size / seconds).toFixed(0), String(at(0.5)), String(at(0.99)), String(lags.at(-1) ?? 0)]],
    ),
  );
  console.log(
    "(lag: from the event's created_at, inside the producer's transaction, to its arrival at the receiver; one endpoint, at most 10 posts in flight: the per-endpoint cap)",
  );
  const idlePassMs = await timeIdleFanOut(deps, random);
  console.log(`Idle fan-out pass with ${IDLE_ENDPOINTS} more enabled endpoints and nothing new: ${idlePassMs.toFixed(1)} ms (mean of 20)`);
  const fairness = await measureWebhookFairness(target.services, deps.webhookSender);
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = seen.size === EVENTS && fairness.valid;
  if (!valid) console.log(`INVALID: ${seen.size} of ${EVENTS} delivered${fairness.valid ? "" : ", and the fairness phases missed deliveries"}`);
  const summary = {
    events: EVENTS,
    delivered: seen.size,
    seconds: round(seconds, 3),
    events_per_s: round(seen.size / seconds, 1),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    max_ms: lags.at(-1) ?? 0,
    idle_endpoints: IDLE_ENDPOINTS,
    idle_fan_out_ms: round(idlePassMs, 2),
    fairness: fairness.figures,
    valid,
    real_target: notReal === undefined,
  };
  return { summary, valid };
}

/** Adds `IDLE_ENDPOINTS` enabled endpoints (10 per user) whose owners have no new events; answers the mean time of an idle fan-out pass. */
async function timeIdleFanOut(deps: Parameters<typeof fanOutEvents>[0] & { secretBox: SecretBox }, random: string): Promise<number> {
  const { sql, clock } = deps;
  const cursorSeq = await currentEventSeq(sql);
  for (let user = 0; user * IDLE_PER_USER < IDLE_ENDPOINTS; user++) {
    const { userId } = await createUser(
      sql,
      { name: `Bench idle ${user}`, email: `bench-idle-${random}-${user}@bench.threadline.local`, plan: "enterprise" },
      { username: `bench_idle_${random}_${user}`, name: `Bench idle ${user}` },
    );
    for (let n = 0; n < Math.min(IDLE_PER_USER, IDLE_ENDPOINTS - user * IDLE_PER_USER); n++) {
      const endpoint = { url: `https://idle-${n}.bench.example/hook`, events: ["*"], description: "idle", enabled: true };
      await insertWebhook(sql, { ownerId: userId, ...endpoint, secret: deps.secretBox.seal(newWebhookSecret()), cursorSeq, now: new Date(clock.now()) });
    }
  }
  await fanOutEvents(deps);
  const passes = 20;
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) await fanOutEvents(deps);
  return (performance.now() - started) / passes;
}
