/**
 * The AI call overhead section of `npm run bench`: what the credit step and the request
 * counters add to one AI call. `POST /v1/tools/rephrase` (type `concise`, metered: the
 * up-front pool check (one unlocked read), the model, the charge (one conditional statement
 * moving the pool with its ledger row, whose result gives the headers: core/credits/credits.ts) against
 * the local model called directly, measured three ways:
 *   - in process, one call at a time: the model alone; the model inside `withCredits` (the
 *     credit step exactly as the `chargesCredits` middleware runs it); and that after
 *     `chargeRequestBuckets` (the write bucket's counters), no HTTP;
 *   - over HTTP, one call at a time: a bare h3 route calling only the model, one running the
 *     model inside the same credit step (the same SQL on the same pool), and the full route;
 *   - the same three routes under autocannon: the target (0.5) is the full route's
 *     throughput against the bare route with the credit step, one owner's calls at once.
 * A fresh user: its pool is the enterprise plan's 100,000 credits a month, each call about 1.
 */
import type { Services } from "../core/context.ts";
import { createContextInner } from "../core/context.ts";
import { authenticate } from "../core/auth/authenticate.ts";
import type { Principal } from "../core/request_state/principal.ts";
import { creditOwner, creditState } from "../core/credits/credits.ts";
import { withCredits } from "../core/credits/credit_call.ts";
import { chargeRequestBuckets } from "../core/limits/request_buckets.ts";
import type { ModelRequest } from "../core/model/model.ts";
import { runModel } from "../core/tools/run_model.ts";
import type { AiSettings } from "./bench_settings.ts";
import { BARE_CREDITED_REPHRASE_PATH, BARE_REPHRASE_PATH, createBareModelApp } from "./bare_model_app.ts";
import { runLoad, type LoadOptions, type LoadResult } from "./load_run.ts";
import { formatColumns, formatTable, resultFigures, round } from "./report.ts";
import { seedSectionUser } from "./seed.ts";
import { serveFetch } from "./serve_fetch.ts";
import { formatLoad, formatMicros, sequentialFigures, timeSequential, type SequentialResult } from "./sequential_timing.ts";

const PATH = "/v1/tools/rephrase";
/**
 * The target: one owner's concurrent calls through the full route keep at least half the
 * throughput of the bare route running the same credit step (same SQL, same pool), as the
 * path section compares the full path with a bare route on the same SQL.
 */
const TARGET_RATIO = 0.5;
/** A short post with filler words for `concise` to drop (about 1 credit). */
const TEXT = "Honestly, I think that we should really just basically ship the small fix today and then write up what we learned.";

/** A route to post to. */
interface Route {
  label: string;
  url: string;
  headers: Record<string, string>;
}

/** What the section needs from the routes under test. */
export interface AiTarget {
  services: Services;
  /** The full-path server, `http://127.0.0.1:<port>`. */
  origin: string;
  keyPrefix: string;
}

/** Measures the AI call overhead, prints the section and returns its `BENCH_RESULT` figures and validity. */
export async function measureAiOverhead(target: AiTarget, settings: AiSettings, notReal: string | undefined, signal: AbortSignal) {
  const { services } = target;
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "ai" });
  const principal = await authenticate(createContextInner({ services, headers: { Authorization: `Bearer ${user.key}` } }));
  const request = (text: string): ModelRequest => ({ task: "concise", input: { text } });
  const bareApp = createBareModelApp(services.model, async (text) => {
    const ctx = createContextInner({ services });
    const answer = await withCredits(ctx, principal, { pricing: { metered: 1 }, procedure: "tools.rephrase", background: false }, async (credits) => {
      const result = await runModel({ ...ctx, principal, credits }, request(text));
      return { ok: true, text: result.text, credits: result.creditsCharged };
    });
    return { text: answer.text, credits: answer.credits };
  });
  const bareServer = await serveFetch((request) => bareApp.fetch(request));
  try {
    return await measure(target, settings, notReal, signal, { key: user.key, principal, bareOrigin: bareServer.url });
  } finally {
    await bareServer.close();
  }
}

async function measure(
  target: AiTarget,
  settings: AiSettings,
  notReal: string | undefined,
  signal: AbortSignal,
  run: { key: string; principal: Principal; bareOrigin: string },
) {
  const { services } = target;
  const request: ModelRequest = { task: "concise", input: { text: TEXT } };
  const owner = creditOwner(run.principal);
  const before = await creditState(createContextInner({ services }), owner);
  const body = JSON.stringify({ type: "concise", text: TEXT });
  const full: Route = {
    label: "full route",
    url: `${target.origin}${PATH}`,
    headers: { Authorization: `Bearer ${run.key}`, "Content-Type": "application/json" },
  };
  const bare: Route = { label: "bare route", url: `${run.bareOrigin}${BARE_REPHRASE_PATH}`, headers: { "Content-Type": "application/json" } };
  const bareCredited: Route = {
    label: "bare route + credit step",
    url: `${run.bareOrigin}${BARE_CREDITED_REPHRASE_PATH}`,
    headers: { "Content-Type": "application/json" },
  };
  const statuses: Record<string, number> = {};
  const post = async (route: Route) => {
    const response = await fetch(route.url, { method: "POST", headers: route.headers, body });
    await response.arrayBuffer();
    if (response.status !== 200) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    return response.status === 200;
  };
  await checkRoutes(full, bare, body);
  await checkRoutes(full, bareCredited, body);

  console.log("");
  console.log(
    `AI call overhead: POST ${PATH} (concise, ${TEXT.length} characters) vs the local model called directly; ${settings.calls} calls ` +
      `one at a time per variant, then ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per route`,
  );
  const credited = (ctx: ReturnType<typeof createContextInner>) =>
    withCredits(ctx, run.principal, { pricing: { metered: 1 }, procedure: "tools.rephrase", background: false }, async (credits) => {
      await runModel({ ...ctx, principal: run.principal, credits }, request);
      return { ok: true };
    });
  const variants: [string, (i: number) => Promise<boolean>][] = [
    ["model only (in process)", async () => (await services.model.generate(request)).text.length > 0],
    ["model + credit step (in process)", async () => (await credited(createContextInner({ services }))).ok],
    [
      "model + write bucket + credit step (in process)",
      async () => {
        const ctx = createContextInner({ services });
        await chargeRequestBuckets(ctx, run.principal, { write: true, charge: true });
        return (await credited(ctx)).ok;
      },
    ],
    ["bare route (HTTP)", () => post(bare)],
    ["bare route + credit step (HTTP)", () => post(bareCredited)],
    [`full route (HTTP)`, () => post(full)],
  ];
  const sequential: { label: string; result: SequentialResult }[] = [];
  for (const [label, call] of variants) {
    signal.throwIfAborted();
    console.log(`${label}: ${settings.calls} calls one at a time ...`);
    // A short untimed warm-up, so the first variant does not pay for the JIT of the shared model code.
    for (let i = 0; i < Math.min(50, settings.calls); i++) await call(i);
    sequential.push({ label, result: await timeSequential(settings.calls, call) });
  }

  const loads: { label: string; result: LoadResult }[] = [];
  for (const route of [bare, bareCredited, full]) {
    const options: LoadOptions = {
      url: route.url,
      method: "POST",
      headers: route.headers,
      body,
      durationSeconds: settings.durationSeconds,
      connections: settings.connections,
      pipelining: 1,
      signal,
    };
    if (settings.warmupSeconds > 0) {
      console.log(`${route.label}: warming up for ${settings.warmupSeconds} s ...`);
      const warm = await runLoad({ ...options, durationSeconds: settings.warmupSeconds });
      if (warm.non2xx > 0 || warm.errors > 0) console.log(`  warm-up saw ${JSON.stringify(warm.statusCodes)} and ${warm.errors} errors`);
    }
    console.log(`${route.label}: measuring for ${settings.durationSeconds} s ...`);
    loads.push({ label: `${route.label}, autocannon`, result: await runLoad(options) });
  }
  const after = await creditState(createContextInner({ services }), owner);

  const [modelOnly, withCredit, withCounters, bareSeq, , fullSeq] = sequential.map(({ result }) => result);
  const [bareLoad, bareCreditedLoad, fullLoad] = loads.map(({ result }) => result);
  const ratio = fullLoad.requestsPerSecond / bareCreditedLoad.requestsPerSecond;
  const pass = ratio >= TARGET_RATIO;
  const problems: string[] = [];
  const failed = sequential.filter(({ result }) => result.failed > 0);
  if (failed.length > 0) problems.push(`${failed.map(({ label }) => label).join(", ")} answered ${JSON.stringify(statuses)} (status: count)`);
  for (const { label, result } of loads) {
    if (result.non2xx > 0 || result.errors > 0) problems.push(`${label} saw ${JSON.stringify(result.statusCodes)} and ${result.errors} errors`);
  }

  console.log("");
  console.log("== AI call overhead: credit step and counters ==");
  console.log(formatSequentialTable(sequential));
  console.log(formatTable(loads));
  console.log(
    "(one at a time: timed in this process, the HTTP rows' client included; the credit step is 2 statements and no transaction: " +
      "the up-front pool read and the charge, one conditional update moving the pool with its ledger row and answering the headers' figures; " +
      `one owner's ${settings.connections} connections hold the pool row only for that statement; server CPU is this process's, without PostgreSQL's or Redis's)`,
  );
  console.log(`added per call by the credit step (in process):                      ${describeAdded(withCredit, modelOnly)}`);
  console.log(`added per call by the write bucket + credit step (in process):       ${describeAdded(withCounters, modelOnly)}`);
  console.log(`added per call by the whole request path over the bare route (HTTP): ${describeAdded(fullSeq, bareSeq)}`);
  console.log(
    `under autocannon: full/bare throughput ${(fullLoad.requestsPerSecond / bareLoad.requestsPerSecond).toFixed(3)}, ` +
      `p50 ${signed(fullLoad.latencyP50Ms - bareLoad.latencyP50Ms, 0)} ms, p99 ${signed(fullLoad.latencyP99Ms - bareLoad.latencyP99Ms, 0)} ms, ` +
      `server CPU ${signed(fullLoad.serverCpuMicrosPerRequest - bareLoad.serverCpuMicrosPerRequest, 0)} µs/req`,
  );
  const spent = after.spent - before.spent;
  console.log(
    `credits: the section's user spent ${spent} of its ${after.pool + after.bonus} (${after.remaining} remain; ` +
      `${statuses["429"] ?? 0} + ${fullLoad.statusCodes["429"] ?? 0} answers 429 one at a time + under autocannon)`,
  );
  console.log(
    `under autocannon: full / (bare route + credit step) throughput ${ratio.toFixed(3)}: the request path's share, one owner's ` +
      `${settings.connections} calls at once on one pool (the credit step's SQL on both sides)`,
  );
  console.log(`target: one owner's concurrent AI calls keep >= ${TARGET_RATIO} of the bare route's throughput on the same SQL: ${pass ? "PASS" : "FAIL"}`);
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  for (const problem of problems) console.log(`INVALID: ${problem}`);

  const summary = {
    request: `POST ${PATH}`,
    type: "concise",
    text_length: TEXT.length,
    model: services.model.engine,
    calls: settings.calls,
    connections: settings.connections,
    duration_s: settings.durationSeconds,
    warmup_s: settings.warmupSeconds,
    valid: problems.length === 0,
    real_target: notReal === undefined,
    one_at_a_time: {
      model_only: sequentialFigures(modelOnly),
      model_credit_step: sequentialFigures(withCredit),
      model_write_bucket_credit_step: sequentialFigures(withCounters),
      bare_route: sequentialFigures(bareSeq),
      full_route: sequentialFigures(fullSeq),
    },
    added_per_call_us: {
      credit_step: added(withCredit, modelOnly),
      write_bucket_and_credit_step: added(withCounters, modelOnly),
      request_path_over_bare_route: added(fullSeq, bareSeq),
    },
    bare_route: { ...resultFigures(bareLoad), status_codes: bareLoad.statusCodes },
    bare_route_credit_step: { ...resultFigures(bareCreditedLoad), status_codes: bareCreditedLoad.statusCodes },
    full_route: { ...resultFigures(fullLoad), status_codes: fullLoad.statusCodes },
    throughput_ratio: round(fullLoad.requestsPerSecond / bareLoad.requestsPerSecond, 4),
    throughput_ratio_same_sql: round(ratio, 4),
    target_ratio: TARGET_RATIO,
    pass,
    credits_spent: spent,
  };
  return { summary, valid: problems.length === 0 };
}

/** Both routes answer 200 with the same text before anything is measured; the full one charges 1 credit. */
async function checkRoutes(full: Route, bare: Route, body: string): Promise<void> {
  const answer = async (route: Route) => {
    const response = await fetch(route.url, { method: "POST", headers: route.headers, body });
    const text = await response.text();
    let parsed: { data?: { text?: string } } | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Reported below with the raw text.
    }
    return { status: response.status, charged: response.headers.get("x-credits-charged"), text: parsed?.data?.text, raw: text };
  };
  const [fullAnswer, bareAnswer] = [await answer(full), await answer(bare)];
  const problems: string[] = [];
  if (fullAnswer.status !== 200 || fullAnswer.charged === null)
    problems.push(`full route: status ${fullAnswer.status}, X-Credits-Charged ${fullAnswer.charged}: ${fullAnswer.raw.slice(0, 200)}`);
  if (bareAnswer.status !== 200) problems.push(`bare route: status ${bareAnswer.status}: ${bareAnswer.raw.slice(0, 200)}`);
  if (problems.length === 0 && fullAnswer.text !== bareAnswer.text) problems.push(`the texts differ: "${fullAnswer.text}" and "${bareAnswer.text}"`);
  if (problems.length > 0) throw new Error(`Check of POST ${PATH} failed: ${problems.join("; ")}`);
}

function formatSequentialTable(rows: { label: string; result: SequentialResult }[]): string {
  const header = ["AI call, one at a time", "calls", "calls/s", "p50", "p99", "avg", "failed", "load 1m"];
  const body = rows.map(({ label, result }) => [
    label,
    String(result.calls),
    result.callsPerSecond.toFixed(1),
    formatMicros(result.p50Us),
    formatMicros(result.p99Us),
    formatMicros(result.avgUs),
    String(result.failed),
    formatLoad(result),
  ]);
  return formatColumns(header, body);
}

function added(result: SequentialResult, base: SequentialResult) {
  return { p50: round(result.p50Us - base.p50Us, 0), p99: round(result.p99Us - base.p99Us, 0), avg: round(result.avgUs - base.avgUs, 0) };
}

function describeAdded(result: SequentialResult, base: SequentialResult): string {
  const { p50, p99, avg } = added(result, base);
  return `p50 ${signed(p50, 0)} µs, p99 ${signed(p99, 0)} µs, avg ${signed(avg, 0)} µs; calls/s ${base.callsPerSecond.toFixed(0)} -> ${result.callsPerSecond.toFixed(0)}`;
}

function signed(value: number, digits: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
}
