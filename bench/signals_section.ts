/**
 * The signals section of `npm run bench` (docs/areas.md "Signals"): one lead
 * search on the simulated network through the full REST path (seconds, queries used;
 * signals_lead_search.ts), then the
 * agent runner over 100 active agents of one account, each with a keyword watch on a
 * different subject of the world's vocabulary (half `high`, half `discovery`), run the way
 * the job runner runs `run_signal_agent` jobs: a few at a time (agents/s, leads found per
 * run, model calls' cost). BENCH_SIGNAL_AGENTS (default 100), BENCH_SIGNAL_CONCURRENCY
 * (default 4).
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { insertList } from "../core/contact_lists/contact_lists_queries.ts";
import { type AgentRunOutcome, runSignalAgent } from "../core/signals/agent_runner.ts";
import { seedSectionUser } from "./seed.ts";
import { measureLeadSearch } from "./signals_lead_search.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface SignalsTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

const AGENTS = Number(process.env.BENCH_SIGNAL_AGENTS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_SIGNAL_CONCURRENCY ?? 4);
const ICP = "B2B SaaS founders struggling with churn";

/** Seeds the agents, runs them, prints and answers the section's figures. */
export async function measureSignals(target: SignalsTarget, notReal: string | undefined) {
  const { services } = target;
  const user = await seedSectionUser(services.sql, { keyPrefix: target.keyPrefix, label: "signals" });
  console.log("");
  console.log(`Signals: one lead search on the ${services.network.info.kind} network ...`);
  const search = await measureLeadSearch(target.origin, user.key);
  console.log(
    formatColumns(
      ["status", "seconds", "queries used", "partial", "leads", "credits"],
      [
        [
          String(search.status),
          search.seconds.toFixed(3),
          String(search.queriesUsed),
          String(search.partial),
          String(search.leads),
          String(search.creditsCharged),
        ],
      ],
    ),
  );
  console.log(`  ${search.request}`);

  const subjects = services.network.vocabulary?.() ?? ["churn", "pricing", "fundraising", "cold email", "SEO"];
  console.log("");
  console.log(`Signals: ${AGENTS} active agents with one keyword watch each, run ${CONCURRENCY} at a time ...`);
  const agentIds = await seedAgents(services, user.ownerId, subjects);
  const outcomes: AgentRunOutcome[] = [];
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < agentIds.length) {
        const agentId = agentIds[next++];
        outcomes.push(await runSignalAgent({ sql: services.sql, clock: services.clock, network: services.network, model: services.model }, agentId));
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const ran = outcomes.filter((outcome) => outcome.ran).length;
  const failed = outcomes.filter((outcome) => outcome.error !== null).length;
  const judged = outcomes.reduce((sum, outcome) => sum + outcome.signals.reduce((n, signal) => n + signal.judged, 0), 0);
  const leads = outcomes.reduce((sum, outcome) => sum + outcome.leads, 0);
  const deposited = outcomes.reduce((sum, outcome) => sum + outcome.deposited, 0);
  const credits = outcomes.reduce((sum, outcome) => sum + outcome.costCredits, 0);
  console.log(
    formatColumns(
      ["agents", "seconds", "agents/s", "people judged/run", "leads/run", "deposited/run", "model credits/run", "failed"],
      [
        [
          String(ran),
          seconds.toFixed(2),
          (ran / seconds).toFixed(1),
          (judged / ran).toFixed(1),
          (leads / ran).toFixed(1),
          (deposited / ran).toFixed(1),
          (credits / ran).toFixed(2),
          String(failed),
        ],
      ],
    ),
  );
  console.log(
    `(first runs: each reads up to 3 pages of its keyword's last 7 days and judges up to 100 people; ICP "${ICP}"; ` +
      `model ${services.model.engine}, network ${services.network.info.kind})`,
  );
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const valid = ran === agentIds.length && failed === 0 && search.status === 200;
  if (!valid) console.log(`INVALID: lead search answered ${search.status}, ${agentIds.length - ran} agents not run, ${failed} runs with errors`);
  const summary = {
    lead_search: {
      request: search.request,
      status: search.status,
      seconds: round(search.seconds, 3),
      queries_used: search.queriesUsed,
      partial: search.partial,
      leads: search.leads,
      credits_charged: search.creditsCharged,
    },
    runner: {
      agents: ran,
      concurrency: CONCURRENCY,
      seconds: round(seconds, 3),
      agents_per_s: round(ran / seconds, 2),
      people_judged_per_run: round(judged / ran, 2),
      leads_per_run: round(leads / ran, 2),
      deposited_per_run: round(deposited / ran, 2),
      model_credits_per_run: round(credits / ran, 3),
      failed_runs: failed,
    },
    valid,
    real_target: notReal === undefined,
  };
  return { summary, valid };
}

/** Writes `AGENTS` active agents due now, each with its list and a keyword watch on one subject. */
async function seedAgents(services: Services, accountId: string, subjects: readonly string[]): Promise<number[]> {
  const { sql } = services;
  const now = new Date(services.clock.now());
  const ids: number[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const name = `Bench agent ${i + 1}`;
    const subject = subjects[i % subjects.length];
    const list = await insertList(sql, accountId, `Leads: ${name}`, now);
    const [agent] = await sql<{ id: number }[]>`
      insert into signal_agents (account_id, name, icp_description, precision_mode, status, destination_list_id, next_run_at, created_at, updated_at)
      values (${accountId}, ${name}, ${ICP}, ${i % 2 === 0 ? "high" : "discovery"}, 'active', ${list.id}, ${now}, ${now}, ${now})
      returning id`;
    await sql`
      insert into agent_signals (agent_id, type, target, target_id, label, dedupe_key, created_at)
      values (${agent.id}, 'keyword_watch', ${subject}, null, ${subject}, ${subject.toLowerCase()}, ${now})`;
    ids.push(agent.id);
  }
  return ids;
}
