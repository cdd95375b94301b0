/**
 * The events section of `npm run bench` (docs/webhooks.md): a burst of BENCH_EVENTS (default 10,000)
 * events recorded in transactions of 100, the way changes record them (events/s), while a
 * Server-Sent Events client follows `GET /v1/events` on the full route: p50/p99 from each
 * event's commit (its transaction's `COMMIT` returning to the producer) to its arrival on the
 * stream, woken by the process's one listener (core/events/event_feed.ts; target: p99 under
 * 100 ms), and from the event's insert inside its transaction (how the figure was counted
 * before the listener); then the same events read back as JSON pages of 100 (events/s). Webhook
 * delivery is measured by its own section.
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { recordEvent } from "../core/events/record_event.ts";
import { seedSectionUser } from "./seed.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface EventsTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const BATCH = 100;

/** Records the burst, follows it on a stream, reads it back; prints and answers the figures. */
export async function measureEvents(target: EventsTarget, notReal: string | undefined) {
  const { services } = target;
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "events" });
  const headers = { Authorization: `Bearer ${user.key}` };
  console.log("");
  console.log(`Events: ${EVENTS} recorded in transactions of ${BATCH}, followed on a Server-Sent Events stream ...`);
  const stream = await followStream(`${target.origin}/v1/events`, headers, EVENTS);
  // When each transaction's COMMIT returned, by the index of its first event.
  const committedAt = new Map<number, number>();
  const start = performance.now();
  for (let sent = 0; sent < EVENTS; sent += BATCH) {
    await services.sql.begin(async (tx) => {
      for (let i = sent; i < Math.min(sent + BATCH, EVENTS); i++) {
        // The commit time travels in the event, so the stream measures commit-to-arrival.
        await recordEvent(tx, {
          accountId: user.ownerId,
          type: "post.sent",
          objectType: "scheduled_post",
          objectId: i,
          data: { i, at: Date.now() },
          now: new Date(),
        });
      }
    });
    committedAt.set(sent, Date.now());
  }
  const recordSeconds = (performance.now() - start) / 1000;
  const arrivals = await stream.done;
  const latencies = arrivals.map((arrival) => arrival.at - arrival.recordedAt);
  const fromCommit = arrivals.map((arrival) => arrival.at - (committedAt.get(arrival.i - (arrival.i % BATCH)) ?? arrival.recordedAt));
  const readStart = performance.now();
  let read = 0;
  let cursor: string | null = null;
  for (;;) {
    const response = await fetch(`${target.origin}/v1/events?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { headers });
    const page = (await response.json()) as { data: unknown[]; pagination: { has_more: boolean; next_cursor: string | null } };
    read += page.data.length;
    cursor = page.pagination.next_cursor;
    if (!page.pagination.has_more) break;
  }
  const readSeconds = (performance.now() - readStart) / 1000;
  const pick = (values: number[], share: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
  };
  const figures = {
    events: EVENTS,
    recorded_per_s: round(EVENTS / recordSeconds, 0),
    streamed: latencies.length,
    commit_p50_ms: round(pick(fromCommit, 0.5), 1),
    commit_p99_ms: round(pick(fromCommit, 0.99), 1),
    stream_p50_ms: round(pick(latencies, 0.5), 1),
    stream_p99_ms: round(pick(latencies, 0.99), 1),
    read_json_per_s: round(read / readSeconds, 0),
  };
  console.log(
    formatColumns(
      ["events", "recorded/s", "streamed", "commit->stream p50 ms", "p99 ms", "insert->stream p50 ms", "p99 ms", "JSON read/s"],
      [
        [
          String(EVENTS),
          String(figures.recorded_per_s),
          String(latencies.length),
          String(figures.commit_p50_ms),
          String(figures.commit_p99_ms),
          String(figures.stream_p50_ms),
          String(figures.stream_p99_ms),
          String(figures.read_json_per_s),
        ],
      ],
    ),
  );
  const meets = figures.commit_p99_ms < 100;
  console.log(`commit->stream p99 under 100 ms: ${meets ? "PASS" : "FAIL"}`);
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = latencies.length === EVENTS && read === EVENTS;
  if (!valid) console.log(`INVALID: ${latencies.length} streamed and ${read} read of ${EVENTS}`);
  return { summary: { ...figures, commit_p99_under_100ms: meets, valid, real_target: notReal === undefined }, valid };
}

/** Opens the stream and collects each event's arrival (its index, when it was recorded, when it arrived) until `count` events arrived or 60 s passed. */
async function followStream(url: string, headers: Record<string, string>, count: number) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { ...headers, Accept: "text/event-stream" }, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const latencies: { i: number; recordedAt: number; at: number }[] = [];
  const timer = setTimeout(() => controller.abort(), 60_000 + count);
  const done = (async () => {
    let buffer = "";
    try {
      while (latencies.length < count) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, { stream: true });
        for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
          const data = buffer
            .slice(0, cut)
            .split("\n")
            .find((line) => line.startsWith("data: "));
          buffer = buffer.slice(cut + 2);
          if (data) {
            const event = (JSON.parse(data.slice(6)) as { data: { i: number; at: number } }).data;
            latencies.push({ i: event.i, recordedAt: event.at, at: Date.now() });
          }
        }
      }
    } catch {
      // Aborted at the deadline: the figures say how many arrived.
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    return latencies;
  })();
  return { done };
}
