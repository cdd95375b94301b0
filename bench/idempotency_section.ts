/**
 * The idempotency section of `npm run bench`: the added latency of the idempotency check
 * (issue "Platform II": "the added latency of the idempotency check"; no target given) on
 * the full-path server. Three variants of `POST /v1/tags` with the read-write key, each
 * creating a distinct tag (names are unique per workspace, else `409 duplicate_name`):
 *   (a) no `Idempotency-Key`;
 *   (b) a fresh key per request: reservation, handler, stored answer;
 *   (c) one key replayed: the stored answer, without the handler.
 */
import { randomBytes } from "node:crypto";
import type { Sql } from "../core/db/sql.ts";
import type { WriteSettings } from "./bench_settings.ts";
import { runLoad, type LoadOptions, type LoadResult } from "./load_run.ts";
import { formatTable, resultFigures, round } from "./report.ts";

const PATH = "/v1/tags";

/** What the section needs from the routes under test. */
export interface WriteTarget {
  sql: Sql;
  /** The full-path server, `http://127.0.0.1:<port>`. */
  origin: string;
  /** A key with the `write` scope on the enterprise plan (writes 100,000/min: no 429s). */
  writeKey: string;
  workspaceId: string;
}

interface Variant {
  label: string;
  /** What autocannon sends besides the key's Authorization. */
  load: Pick<LoadOptions, "body" | "idReplacement"> & { headers: Record<string, string> };
}

/** Measures the three variants, prints the section and returns its figures and validity. */
export async function measureIdempotency(target: WriteTarget, settings: WriteSettings, notReal: string | undefined, signal: AbortSignal) {
  const random = randomBytes(4).toString("hex");
  const replayKey = `replay-${random}`;
  const replayBody = JSON.stringify({ name: `replayed ${random}` });
  // `[<id>]` becomes one id per request in the body and the header alike (autocannon -I);
  // the id is 33 characters, so names stay within 40 and keys within 64. A header value
  // must not end with it (see LoadOptions.idReplacement), hence the `-k` suffix.
  const variants: Variant[] = [
    { label: "(a) no key", load: { body: '{"name":"a-[<id>]"}', idReplacement: true, headers: {} } },
    { label: "(b) fresh key", load: { body: '{"name":"b-[<id>]"}', idReplacement: true, headers: { "Idempotency-Key": "fresh-[<id>]-k" } } },
    { label: "(c) replay", load: { body: replayBody, headers: { "Idempotency-Key": replayKey } } },
  ];

  console.log("");
  console.log(
    `Idempotency check: POST ${PATH} on the full path, ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per variant`,
  );
  await checkWritePath(target, random, replayKey, replayBody);

  const results: { variant: Variant; result: LoadResult }[] = [];
  for (const variant of variants) {
    const options = loadOptions(target, variant, settings, signal);
    if (settings.warmupSeconds > 0) {
      console.log(`${variant.label}: warming up for ${settings.warmupSeconds} s ...`);
      const warm = await runLoad({ ...options, durationSeconds: settings.warmupSeconds });
      if (warm.non2xx > 0 || warm.errors > 0) console.log(`  warm-up saw ${warm.non2xx} non-2xx answers (${describeStatuses(warm)}) and ${warm.errors} errors`);
    }
    console.log(`${variant.label}: measuring for ${settings.durationSeconds} s ...`);
    results.push({ variant, result: await runLoad(options) });
  }
  const [rows] = await target.sql<{ tags: number; keys: number }[]>`
    select (select count(*)::int from tags where workspace_id = ${target.workspaceId}) as tags,
           (select count(*)::int from idempotency_keys where owner_id = ${target.workspaceId}) as keys`;

  const [base, fresh, replay] = results.map(({ result }) => result);
  const invalid = results.filter(({ result }) => result.non2xx > 0 || result.errors > 0);

  console.log("");
  console.log("== Idempotency check: added latency ==");
  console.log(formatTable(results.map(({ variant, result }) => ({ label: variant.label, result }))));
  console.log(
    `(a) POST ${PATH} without Idempotency-Key; (b) a fresh key per request: reserve (delete expired + insert) and store the answer (update), ` +
      "3 statements more than (a); (c) one key replayed: delete expired + insert (conflict) + select of the stored answer, " +
      "instead of input validation, account resolution and the tag insert",
  );
  console.log(
    `(latency is autocannon's, in whole milliseconds, with ${settings.connections} connections queueing on the server: a difference below 1 ms ` +
      "shows in avg ms and CPU µs/req before p50)",
  );
  console.log(`added by (b) fresh key over (a): ${describeAdded(fresh, base)}`);
  console.log(`added by (c) replay over (a):    ${describeAdded(replay, base)}`);
  console.log(`tables after: ${rows.tags} tags in the bench workspace, ${rows.keys} idempotency keys of its owner`);
  console.log("target: none given (figures only)");
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  for (const { variant, result } of invalid) {
    console.log(`INVALID: ${variant.label} answered ${describeStatuses(result)}, ${result.errors} errors; its figures do not measure the intended path`);
  }
  if (invalid.some(({ result }) => result.statusCodes["429"])) {
    // All three variants charge the owner's one writes bucket (fixed clock-minute window).
    console.log("(429: the enterprise plan's 100,000 writes per minute were used up; lower BENCH_WRITE_DURATION or BENCH_WRITE_CONNECTIONS)");
  }

  const summary = {
    request: `POST ${PATH}`,
    connections: settings.connections,
    duration_s: settings.durationSeconds,
    warmup_s: settings.warmupSeconds,
    valid: invalid.length === 0,
    real_target: notReal === undefined,
    without_key: writeFigures(base),
    fresh_key: writeFigures(fresh),
    replay: writeFigures(replay),
    added_over_without_key: { fresh_key: added(fresh, base), replay: added(replay, base) },
    rows_after: { tags: rows.tags, idempotency_keys: rows.keys },
  };
  return { summary, valid: invalid.length === 0 };
}

function loadOptions(target: WriteTarget, variant: Variant, settings: WriteSettings, signal: AbortSignal): LoadOptions {
  return {
    url: `${target.origin}${PATH}`,
    method: "POST",
    headers: { Authorization: `Bearer ${target.writeKey}`, "Content-Type": "application/json", ...variant.load.headers },
    body: variant.load.body,
    idReplacement: variant.load.idReplacement,
    durationSeconds: settings.durationSeconds,
    connections: settings.connections,
    pipelining: 1,
    signal,
  };
}

/**
 * Before anything is measured: a keyless POST creates a tag, a keyed POST creates one,
 * and the replay key is primed so that every measured (c) request is a replay (checked
 * with a second request: same tag, `Idempotency-Replayed: true`).
 */
async function checkWritePath(target: WriteTarget, random: string, replayKey: string, replayBody: string): Promise<void> {
  const post = async (body: string, key?: string) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${target.writeKey}`, "Content-Type": "application/json" };
    if (key) headers["Idempotency-Key"] = key;
    const response = await fetch(`${target.origin}${PATH}`, { method: "POST", headers, body });
    const text = await response.text();
    let id: unknown;
    try {
      id = (JSON.parse(text) as { data?: { id?: unknown } }).data?.id;
    } catch {
      // Reported below with the raw text.
    }
    return { status: response.status, replayed: response.headers.get("idempotency-replayed"), id, text };
  };
  const problems: string[] = [];
  const plain = await post(JSON.stringify({ name: `check a ${random}` }));
  if (plain.status !== 201) problems.push(`without a key: status ${plain.status}: ${plain.text.slice(0, 200)}`);
  const keyed = await post(JSON.stringify({ name: `check b ${random}` }), `check-${random}`);
  if (keyed.status !== 201 || keyed.replayed !== null)
    problems.push(`with a fresh key: status ${keyed.status}, replayed ${keyed.replayed}: ${keyed.text.slice(0, 200)}`);
  const first = await post(replayBody, replayKey);
  const again = await post(replayBody, replayKey);
  if (first.status !== 201 || again.status !== 201 || again.replayed !== "true" || again.id !== first.id) {
    problems.push(
      `replay: statuses ${first.status} then ${again.status}, replayed "${again.replayed}", ids ${first.id} and ${again.id}: ${again.text.slice(0, 200)}`,
    );
  }
  if (problems.length > 0) throw new Error(`Check of POST ${PATH} failed: ${problems.join("; ")}`);
}

function writeFigures(result: LoadResult) {
  return { ...resultFigures(result), status_codes: result.statusCodes };
}

function added(result: LoadResult, base: LoadResult) {
  return {
    latency_p50_ms: result.latencyP50Ms - base.latencyP50Ms,
    latency_p99_ms: result.latencyP99Ms - base.latencyP99Ms,
    latency_avg_ms: round(result.latencyAverageMs - base.latencyAverageMs, 2),
    server_cpu_us_per_request: round(result.serverCpuMicrosPerRequest - base.serverCpuMicrosPerRequest, 1),
  };
}

function describeAdded(result: LoadResult, base: LoadResult): string {
  const { latency_p50_ms, latency_p99_ms, latency_avg_ms, server_cpu_us_per_request } = added(result, base);
  const signed = (value: number, digits: number) => `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
  return (
    `p50 ${signed(latency_p50_ms, 0)} ms, p99 ${signed(latency_p99_ms, 0)} ms, avg ${signed(latency_avg_ms, 2)} ms, ` +
    `server CPU ${signed(server_cpu_us_per_request, 0)} µs/req, req/s ${signed((result.requestsPerSecond / base.requestsPerSecond - 1) * 100, 1)}%`
  );
}

function describeStatuses(result: LoadResult): string {
  return (
    Object.entries(result.statusCodes)
      .map(([status, count]) => `${count} × ${status}`)
      .join(", ") || "no answers"
  );
}
