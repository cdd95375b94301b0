/**
 * The webhooks section of `npm run bench` (docs/webhooks.md): 10,000
 * `post.sent` events recorded by a producer (100 per transaction, like the publisher's batches
 * committing), offered at BENCH_WEBHOOK_RATE a second (default 2,200: above the target, so a
 * delivery that keeps up passes and one that falls behind shows in the lag), while the delivery path runs beside
 * it the way the `deliver_webhooks` job does (sequence, fan out, claim and post under the
 * caps in flight), to one endpoint: a receiver on loopback in its own process
 * (webhook_receiver_process.ts) that answers 200. Reports events/s from the first event
 * recorded to the last delivered, and the p50/p99/max lag from an event's `created_at` to its
 * arrival, with PASS when at least 2,000 a second arrive with the lag's p99 under 250 ms. The
 * same path first delivers BENCH_WEBHOOK_WARMUP events (default 2,000) the same way, not
 * counted, so the figures are a running server's: the endpoint proven quick, code compiled,
 * connections open, the queue's statistics taken. Then
 * BENCH_WEBHOOK_IDLE endpoints of other users with nothing new are added, and an idle fan-out
 * pass (what the job does every 5 s when nothing happened) is timed. Figures only. Last, the
 * fairness figure (webhook_fairness.ts: a quick endpoint's lag beside another owner's endpoint
 * answering after 9 s; target p99 within 2x of alone).
 * BENCH_WEBHOOK_EVENTS (default 10000), BENCH_WEBHOOK_RATE (2200), BENCH_WEBHOOK_WARMUP (2000),
 * BENCH_WEBHOOK_IDLE (1000).
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import type { Services } from "../core/context.ts";
import { createUser } from "../core/accounts/users.ts";
import { recordEvents } from "../core/events/record_event.ts";
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
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 2_200);
const WARMUP = Number(process.env.BENCH_WEBHOOK_WARMUP ?? 2_000);
/** The target (docs/webhooks.md, "Bench"): at least 2,000 deliveries a second, the lag's p99 under 250 ms. */
const TARGET = { perSecond: 2_000, p99Ms: 250 };
const RECEIVER = new URL("./webhook_receiver_process.ts", import.meta.url);
const IDLE_ENDPOINTS = Number(process.env.BENCH_WEBHOOK_IDLE ?? 1000);
/** Endpoints per idle user (the API's cap). */
const IDLE_PER_USER = 10;

/** Records the events, delivers them, prints and answers the figures. */
export async function measureWebhooks(target: WebhooksTarget, notReal: string | undefined) {
  const { sql, clock } = target.services;
  console.log("");
  console.log(`Webhooks: ${EVENTS} post.sent events recorded and delivered to a local receiver ...`);
  const receiver = fork(RECEIVER, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let seen = 0;
  receiver.on("message", (message: { seen?: number }) => {
    if (typeof message.seen === "number") seen = message.seen;
  });
  const [{ port }] = (await once(receiver, "message")) as [{ port: number }];
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

  let nextObject = 0;
  let holder = 0;
  /** Offers `count` events at RATE while the delivery path runs, until the receiver has seen `seenAfter`; answers when it started and when the last transaction committed. */
  const offer = async (count: number, seenAfter: number) => {
    let producing = true;
    const startedWall = Date.now();
    const started = performance.now();
    let producedIn = 0;
    const producer = (async () => {
      try {
        for (let done = 0; done < count; done += PER_TRANSACTION) {
          // Offered at RATE: the transaction of the events from `done` on starts no earlier than its time.
          const due = started + (done / RATE) * 1000;
          if (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
          await sql.begin(async (tx) => {
            const now = new Date();
            const ids = Array.from({ length: Math.min(PER_TRANSACTION, count - done) }, () => ++nextObject);
            await recordEvents(
              tx,
              ids.map((id) => ({ accountId: mainAccountId, type: "post.sent", objectType: "scheduled_post", objectId: id, data: { id, status: "sent" }, now })),
            );
          });
        }
      } finally {
        producing = false;
        producedIn = (performance.now() - started) / 1000;
      }
    })();
    const deadline = Date.now() + 600_000;
    while ((producing || seen < seenAfter) && Date.now() < deadline) {
      const posted = await deliverDue(deps, { holder: `bench-${++holder}`, claimForMs: 5_000, queueNew: () => fanOutEvents(deps) });
      if (posted === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await producer;
    return { startedWall, producedIn };
  };
  let measured: { startedWall: number; producedIn: number; report: { seen: number; lastArrival: number; lags: number[] } };
  try {
    // Warm, as a server that has been running is; then the receiver forgets what it saw.
    await offer(WARMUP, WARMUP);
    receiver.send("reset");
    await answerOf(receiver, "reset");
    seen = 0;
    const offered = await offer(EVENTS, EVENTS);
    receiver.send("report");
    measured = { ...offered, report: (await answerOf(receiver, "done")) as typeof measured.report };
  } finally {
    receiver.kill();
  }
  const { startedWall, producedIn, report } = measured;
  const { lags } = report;
  const delivered = report.seen;
  const seconds = (report.lastArrival - startedWall) / 1000;
  await deleteWebhook(sql, userId, webhook.id);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0;
  console.log(
    formatColumns(
      ["events", "delivered", "seconds", "events/s", "p50 ms", "p99 ms", "max ms"],
      [[String(EVENTS), String(delivered), seconds.toFixed(2), (delivered / seconds).toFixed(0), String(at(0.5)), String(at(0.99)), String(lags.at(-1) ?? 0)]],
    ),
  );
  console.log(
    `(offered ${RATE} events/s, recorded in ${producedIn.toFixed(2)} s after ${WARMUP} events to warm up; lag: from the event's created_at, inside the producer's transaction, to its arrival at the receiver; one endpoint, under the caps in flight)`,
  );
  const pass = delivered / seconds >= TARGET.perSecond && at(0.99) < TARGET.p99Ms;
  console.log(`Target: >= ${TARGET.perSecond} deliveries/s with p99 lag < ${TARGET.p99Ms} ms: ${pass ? "PASS" : "FAIL"}`);
  const idlePassMs = await timeIdleFanOut(deps, random);
  console.log(`Idle fan-out pass with ${IDLE_ENDPOINTS} more enabled endpoints and nothing new: ${idlePassMs.toFixed(1)} ms (mean of 20)`);
  const fairness = await measureWebhookFairness(target.services, deps.webhookSender);
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = delivered === EVENTS && fairness.valid;
  if (!valid) console.log(`INVALID: ${delivered} of ${EVENTS} delivered${fairness.valid ? "" : ", and the fairness phases missed deliveries"}`);
  const summary = {
    events: EVENTS,
    offered_per_s: RATE,
    delivered,
    seconds: round(seconds, 3),
    events_per_s: round(delivered / seconds, 1),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    max_ms: lags.at(-1) ?? 0,
    target: TARGET,
    pass,
    idle_endpoints: IDLE_ENDPOINTS,
    idle_fan_out_ms: round(idlePassMs, 2),
    fairness: fairness.figures,
    valid,
    real_target: notReal === undefined,
  };
  return { summary, valid };
}

/** The receiver's next message carrying `key` (its progress reports pass by), within 10 s. */
function answerOf(receiver: ChildProcess, key: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The webhook receiver did not answer "${key}" within 10 s`)), 10_000);
    const listen = (message: Record<string, unknown>) => {
      if (!(key in message)) return;
      clearTimeout(timer);
      receiver.off("message", listen);
      resolve(message);
    };
    receiver.on("message", listen);
  });
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
