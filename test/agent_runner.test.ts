/**
 * The signal agent runner (docs/areas.md "Signals") on the simulated world, where the expected
 * leads are known: a person is one when their generated topic is `startups` and their bio
 * opens with a founder role. Precision and recall of `high` against `discovery` are
 * printed; then the rules: no duplicate on a second run, paused agents stay still, a
 * deleted destination list keeps leads undeposited, feedback shifts later scores, a failing
 * network writes nothing and keeps the cursor, the dispatch job enqueues once per slot, and
 * two runners at once deposit each person once.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { pollUntil } from "./support/child_node.ts";
import { startJobs } from "../adapters/runtime/start_jobs.ts";
import { manualClock } from "./support/manual_clock.ts";
import { insertAgentRow, insertSignalRow } from "./support/agent_rows.ts";
import type { Sql } from "../core/db/sql.ts";
import { runSignalAgent, type AgentRunOutcome } from "../core/signals/agent_runner.ts";
import { AGENT_RUN_LIMITS } from "../core/signals/agent_run_rhythm.ts";
import { DAY_MS } from "../core/time/durations.ts";
import { jobHandlers, periodicJobs } from "../jobs/task_list.ts";
import { enqueueJob, type JobRow } from "../core/jobs/jobs_queries.ts";
import { dispatchSignalAgents } from "../core/signals/signals_jobs.ts";
import { DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS } from "../core/signals/agent_run_queue.ts";
import { NetworkUnavailableError } from "../core/network/network_errors.ts";
import type { NetworkUser } from "../core/network/network_records.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { TOPICS } from "../adapters/x/simulated/vocabulary_topics.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const ICP = "B2B SaaS founders struggling with churn";
const FOUNDER_ROLE = /^(Founder|Cofounder & CEO|Solo founder)\b/;

const sql = (): Sql => harness.services.sql;
const account = () => harness.world.accounts.main;
const network = () => harness.services.network as SimulatedNetwork;

/** The world's truth: a founder whose generated topic is startups. */
function expectedLead(user: Pick<NetworkUser, "id" | "description">): boolean {
  const { pop } = network().world;
  const index = pop.byId.get(user.id);
  return index !== undefined && TOPICS[pop.topic[index]].key === "startups" && FOUNDER_ROLE.test(user.description);
}

/** Runs an agent with `clock` (default: now) and the harness's network and model. */
function run(agentId: number, options: { clock?: { now(): number }; net?: SocialNetwork; on?: Sql } = {}): Promise<AgentRunOutcome> {
  const clock = options.clock ?? manualClock(Date.now());
  return runSignalAgent({ sql: options.on ?? sql(), clock, network: options.net ?? network(), model: harness.services.model }, agentId);
}

/** A keyword agent of the demo's main account, with its destination list. */
async function keywordAgent(name: string, query: string, options: { precision?: "high" | "discovery"; icp?: string; status?: "active" | "paused" } = {}) {
  const agent = await insertAgentRow(sql(), { accountId: account(), name, icp: options.icp ?? ICP, precision: options.precision, status: options.status });
  const signalId = await insertSignalRow(sql(), agent.id, { type: "keyword_watch", query });
  return { ...agent, signalId };
}

interface LeadRow {
  id: number;
  x_user_id: string;
  icp_score: number;
  deposited: boolean;
  deposited_list_id: number | null;
  provenance: { action: string; watched: string; tweet_id: string | null; signal_id: number };
}

const leadsOf = (agentId: number) => sql()<LeadRow[]>`select * from signal_leads where agent_id = ${agentId} order by id`;

/** Members of a list and the count the list keeps. */
async function listState(listId: number) {
  const members = await sql()<{ x_user_id: string; source: string; icp_score: number | null }[]>`
    select x_user_id, source, icp_score from contact_list_members where list_id = ${listId}`;
  const [list] = await sql()<{ member_count: number }[]>`select member_count from contact_lists where id = ${listId}`;
  return { members, memberCount: list.member_count };
}

/** The people whose posts match `query` in the first run's window (what the watch can see), newest first. */
async function matchingAuthors(query: string): Promise<NetworkUser[]> {
  const now = Date.now();
  const since = new Date(now - Math.min(AGENT_RUN_LIMITS.firstRunLookbackDays, network().info.searchWindowDays) * DAY_MS).toISOString();
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < AGENT_RUN_LIMITS.pagesPerPostWatch; page++) {
    const found = await network().search({ query, originalsOnly: true, since, limit: AGENT_RUN_LIMITS.pageSize, cursor });
    for (const post of found.items) if (!ids.includes(post.authorId) && post.authorId !== account()) ids.push(post.authorId);
    if (!found.nextCursor) break;
    cursor = found.nextCursor;
  }
  return network().usersByIds(ids.slice(0, AGENT_RUN_LIMITS.candidatesPerSignal));
}

describe("the agent runner on the simulated world", () => {
  test("the demo world's signals.agent has signals and leads, deposited and not", async () => {
    const agentId = harness.world.signals.agent;
    const signals = await sql()<{ type: string }[]>`select type from agent_signals where agent_id = ${agentId} order by id`;
    assert.deepEqual(
      signals.map((signal) => signal.type),
      ["keyword_watch", "profile_watch"],
    );
    const leads = await leadsOf(agentId);
    assert.ok(
      leads.some((lead) => lead.deposited),
      "some leads deposited",
    );
    assert.ok(
      leads.some((lead) => !lead.deposited),
      "some leads kept for review",
    );
    const [agent] = await sql()<{ account_id: string; destination_list_id: number; name: string }[]>`
      select account_id, destination_list_id, name from signal_agents where id = ${agentId}`;
    assert.equal(agent.account_id, account());
    const [list] = await sql()<{ name: string; member_count: number }[]>`select name, member_count from contact_lists where id = ${agent.destination_list_id}`;
    assert.equal(list.name, `Leads: ${agent.name}`);
    assert.equal(list.member_count, leads.filter((lead) => lead.deposited).length);
  });

  test("a churn agent finds founders and deposits them; high is the more precise, discovery finds more", async () => {
    const high = await keywordAgent("Churn high", "churn", { precision: "high" });
    const discovery = await keywordAgent("Churn discovery", "churn", { precision: "discovery" });
    const seen = await matchingAuthors("churn");
    const expected = new Set(seen.filter(expectedLead).map((user) => user.id));
    assert.ok(expected.size >= 5, `the world has founders posting about churn (${expected.size})`);

    const figures: Record<string, { precision: number; recall: number; deposited: number; leads: number }> = {};
    for (const [mode, agent] of [
      ["high", high],
      ["discovery", discovery],
    ] as const) {
      const outcome = await run(agent.id);
      assert.equal(outcome.ran, true);
      assert.equal(outcome.error, null);
      const leads = await leadsOf(agent.id);
      const deposited = leads.filter((lead) => lead.deposited);
      const hits = deposited.filter((lead) => expected.has(lead.x_user_id)).length;
      figures[mode] = {
        precision: deposited.length === 0 ? 0 : hits / deposited.length,
        recall: hits / expected.size,
        deposited: deposited.length,
        leads: leads.length,
      };
      assert.equal(outcome.leads, leads.length);
      assert.equal(outcome.deposited, deposited.length);
      // Deposited leads carry their list and score there; the list's count is exact.
      const { members, memberCount } = await listState(agent.listId!);
      assert.equal(memberCount, members.length);
      assert.deepEqual(members.map((member) => member.x_user_id).sort(), deposited.map((lead) => lead.x_user_id).sort());
      for (const member of members) assert.equal(member.source, "signal");
      for (const lead of deposited) {
        assert.equal(lead.deposited_list_id, agent.listId);
        assert.equal(members.find((member) => member.x_user_id === lead.x_user_id)?.icp_score, lead.icp_score);
        assert.ok(lead.icp_score >= (mode === "high" ? 70 : 50));
      }
      for (const lead of leads) {
        assert.ok(lead.icp_score >= 50, "only scores at the discovery threshold become leads");
        assert.deepEqual([lead.provenance.action, lead.provenance.watched, lead.provenance.signal_id], ["posted", "churn", agent.signalId]);
        assert.ok(lead.provenance.tweet_id);
      }
      // The people are contacts of the account now.
      const [{ contacts }] = await sql()<{ contacts: number }[]>`
        select count(*)::int as contacts from contacts where account_id = ${account()} and x_user_id = any(${leads.map((lead) => lead.x_user_id)}::text[])`;
      assert.equal(contacts, leads.length);
    }
    console.log(
      `signals runner, ICP "${ICP}", keyword "churn": ${seen.length} people seen, ${expected.size} expected leads\n` +
        Object.entries(figures)
          .map(([mode, f]) => `  ${mode}: precision ${f.precision.toFixed(2)}, recall ${f.recall.toFixed(2)} (${f.deposited} deposited of ${f.leads} leads)`)
          .join("\n"),
    );
    assert.ok(figures.discovery.deposited > 0 && figures.high.deposited > 0, "both agents deposit");
    assert.ok(figures.high.precision >= figures.discovery.precision, "high is at least as precise as discovery");
    assert.ok(figures.discovery.recall >= figures.high.recall, "discovery finds at least as many expected leads as high");
    assert.ok(figures.high.precision >= 0.5, `high precision ${figures.high.precision}`);
    assert.ok(figures.discovery.recall >= 0.3, `discovery recall ${figures.discovery.recall}`);

    // The agent is due again an hour later, its cursor at the newest post it read.
    const [row] = await sql()<{ last_run_at: Date; next_run_at: Date; last_run_error: string | null }[]>`
      select last_run_at, next_run_at, last_run_error from signal_agents where id = ${high.id}`;
    assert.equal(row.last_run_error, null);
    assert.equal(row.next_run_at.getTime() - row.last_run_at.getTime(), AGENT_RUN_LIMITS.everySeconds * 1000);
    const [signal] = await sql()<{ cursor: { newest_at: string; newest_ids: string[] } }[]>`select cursor from agent_signals where id = ${high.signalId}`;
    assert.match(signal.cursor.newest_at, /^\d{4}-\d\d-\d\dT/);
    assert.ok(signal.cursor.newest_ids.length >= 1);
  });

  test("a high agent keeps likely fits (50 to 69) as undeposited leads", async () => {
    const agent = await keywordAgent("Pricing high", "pricing", { precision: "high" });
    await run(agent.id);
    const leads = await leadsOf(agent.id);
    const kept = leads.filter((lead) => !lead.deposited);
    assert.ok(kept.length > 0, "some leads under 70 stay undeposited");
    for (const lead of kept) assert.ok(lead.icp_score >= 50 && lead.icp_score < 70, `score ${lead.icp_score}`);
    for (const lead of leads.filter((row) => row.deposited)) assert.ok(lead.icp_score >= 70);
  });

  test("a second run finds no duplicates, and a run before the agent is due does nothing", async () => {
    const agent = await keywordAgent("Churn twice", "churn", { precision: "discovery" });
    const clock = manualClock(Date.now());
    const first = await run(agent.id, { clock });
    assert.ok(first.leads > 0);
    const early = await run(agent.id, { clock });
    assert.equal(early.ran, false, "not due again within the hour");
    clock.advance(AGENT_RUN_LIMITS.everySeconds * 1000 + 1000);
    const second = await run(agent.id, { clock });
    assert.equal(second.ran, true);
    const leads = await leadsOf(agent.id);
    assert.equal(new Set(leads.map((lead) => lead.x_user_id)).size, leads.length, "one lead per person");
    assert.equal(leads.length, first.leads + second.leads);
    // Nothing new was posted in the (simulated) hour that the first run had not judged.
    assert.ok(second.signals[0].judged <= first.signals[0].judged);
    const { members, memberCount } = await listState(agent.listId!);
    assert.equal(members.length, memberCount);
    assert.equal(new Set(members.map((member) => member.x_user_id)).size, members.length);
    assert.equal(memberCount, leads.filter((lead) => lead.deposited).length);
  });

  test("a paused agent is neither dispatched nor run", async () => {
    const agent = await keywordAgent("Churn paused", "churn", { status: "paused", precision: "discovery" });
    const clock = manualClock(Date.now() + 1000);
    await dispatchSignalAgents({ sql: sql(), clock });
    const [{ jobs }] = await sql()<{ jobs: number }[]>`
      select count(*)::int as jobs from jobs where kind = 'run_signal_agent' and (payload ->> 'agentId')::bigint = ${agent.id}`;
    assert.equal(jobs, 0);
    const outcome = await run(agent.id, { clock });
    assert.equal(outcome.ran, false);
    assert.equal((await leadsOf(agent.id)).length, 0);
    const [row] = await sql()<{ last_run_at: Date | null }[]>`select last_run_at from signal_agents where id = ${agent.id}`;
    assert.equal(row.last_run_at, null);
  });

  test("a deleted destination list stores leads undeposited", async () => {
    const agent = await keywordAgent("Churn listless", "churn", { precision: "discovery" });
    await sql()`delete from contact_lists where id = ${agent.listId}`;
    const outcome = await run(agent.id);
    assert.ok(outcome.leads > 0);
    assert.equal(outcome.deposited, 0);
    const leads = await leadsOf(agent.id);
    assert.ok(leads.every((lead) => !lead.deposited && lead.deposited_list_id === null));
    const [row] = await sql()<{ destination_list_id: number | null }[]>`select destination_list_id from signal_agents where id = ${agent.id}`;
    assert.equal(row.destination_list_id, null);
  });

  test("feedback on an agent's leads shifts its later scores", async () => {
    // Two agents with the same ICP; one has its churn leads marked fit (the founders) and
    // not fit (everyone else), then both judge the same new people (a "pricing" watch).
    const taught = await keywordAgent("Taught", "churn", { precision: "discovery" });
    const twin = await insertAgentRow(sql(), { accountId: account(), name: "Untaught", icp: ICP, precision: "discovery" });
    await run(taught.id);
    const users = await network().usersByIds((await leadsOf(taught.id)).map((lead) => lead.x_user_id));
    const fit = users.filter(expectedLead).map((user) => user.id);
    const notFit = users.filter((user) => !expectedLead(user)).map((user) => user.id);
    assert.ok(fit.length > 0 && notFit.length > 0, `feedback of both kinds (${fit.length} fit, ${notFit.length} not fit)`);
    await sql()`update signal_leads set feedback = 'fit', feedback_at = now() where agent_id = ${taught.id} and x_user_id = any(${fit}::text[])`;
    await sql()`update signal_leads set feedback = 'not_fit', feedback_at = now() where agent_id = ${taught.id} and x_user_id = any(${notFit}::text[])`;
    await sql()`delete from agent_signals where agent_id = ${taught.id}`;
    await insertSignalRow(sql(), taught.id, { type: "keyword_watch", query: "pricing" });
    await insertSignalRow(sql(), twin.id, { type: "keyword_watch", query: "pricing" });
    const clock = manualClock(Date.now() + AGENT_RUN_LIMITS.everySeconds * 1000 + 1000);
    await run(taught.id, { clock });
    await run(twin.id, { clock });
    const taughtScores = new Map(
      (await leadsOf(taught.id)).filter((lead) => lead.provenance.watched === "pricing").map((lead) => [lead.x_user_id, lead.icp_score]),
    );
    const twinScores = new Map((await leadsOf(twin.id)).map((lead) => [lead.x_user_id, lead.icp_score]));
    // People already the taught agent's leads (from churn) are not judged again: left out.
    const churnLeads = new Set(users.map((user) => user.id));
    for (const id of churnLeads) twinScores.delete(id);
    const both = [...twinScores.keys()].filter((id) => taughtScores.has(id));
    const changed = both.filter((id) => taughtScores.get(id) !== twinScores.get(id));
    const onlyOne = new Set([...twinScores.keys(), ...taughtScores.keys()]).size - both.length;
    console.log(`signals feedback: ${both.length} people judged by both agents, ${changed.length} scored differently, ${onlyOne} a lead of one only`);
    assert.ok(changed.length + onlyOne > 0, "the taught agent scores some people differently");
  });

  test("each signal type finds candidates: profile engagers, new followers, list posts", async () => {
    const fixtures = network().demoFixtures!();
    const watched = await network().userByUsername(fixtures.user_handle);
    const list = await network().listById(fixtures.public_list_id);
    const agent = await insertAgentRow(sql(), {
      accountId: account(),
      name: "Every watch",
      icp: "engineers, founders and product managers building with AI, LLMs and agents",
      precision: "discovery",
    });
    await insertSignalRow(sql(), agent.id, { type: "profile_watch", handle: watched.username, userId: watched.id });
    await insertSignalRow(sql(), agent.id, { type: "follower_watch", handle: watched.username, userId: watched.id });
    await insertSignalRow(sql(), agent.id, { type: "list_watch", listId: list.id, listName: list.name });
    const outcome = await run(agent.id);
    assert.equal(outcome.error, null);
    assert.deepEqual(
      outcome.signals.map((signal) => signal.type),
      ["profile_watch", "follower_watch", "list_watch"],
    );
    for (const signal of outcome.signals) assert.ok(signal.judged > 0, `${signal.type} saw people`);
    const leads = await leadsOf(agent.id);
    const actions = new Set(leads.map((lead) => lead.provenance.action));
    console.log(`signals watches: ${outcome.signals.map((signal) => `${signal.type} judged ${signal.judged}, ${signal.leads} leads`).join("; ")}`);
    assert.ok(actions.size >= 2, `leads from several watches: ${[...actions].join(", ")}`);
    for (const lead of leads) {
      assert.notEqual(lead.x_user_id, watched.id, "the watched person is no lead");
      if (lead.provenance.action === "followed") assert.equal(lead.provenance.tweet_id, null);
      else assert.ok(lead.provenance.tweet_id);
    }
    const cursors = await sql()<
      { type: string; cursor: Record<string, unknown> }[]
    >`select type, cursor from agent_signals where agent_id = ${agent.id} order by id`;
    assert.ok(Array.isArray(cursors[1].cursor.head_ids) && (cursors[1].cursor.head_ids as string[]).length > 0, "followers remember the head of the list");
    assert.ok(cursors[0].cursor.newest_at && cursors[2].cursor.newest_at);
  });

  test("a failing network writes nothing, keeps the cursor, records the error, and the next run resumes", async () => {
    const agent = await keywordAgent("Churn offline", "churn", { precision: "discovery" });
    const real = network();
    const down: SocialNetwork = {
      ...real,
      search: async () => {
        throw new NetworkUnavailableError("X is down");
      },
    };
    const clock = manualClock(Date.now());
    const failed = await run(agent.id, { clock, net: down });
    assert.equal(failed.ran, true);
    assert.match(failed.error ?? "", /churn: X is down/);
    assert.equal((await leadsOf(agent.id)).length, 0);
    const [signal] = await sql()<{ cursor: unknown }[]>`select cursor from agent_signals where id = ${agent.signalId}`;
    assert.equal(signal.cursor, null);
    const [row] = await sql()<{ last_run_error: string; next_run_at: Date; last_run_at: Date }[]>`
      select last_run_error, next_run_at, last_run_at from signal_agents where id = ${agent.id}`;
    assert.match(row.last_run_error, /X is down/);
    assert.equal(row.next_run_at.getTime() - row.last_run_at.getTime(), AGENT_RUN_LIMITS.retrySeconds * 1000);
    // A failure after the page was read (the profiles) writes nothing either.
    clock.advance(AGENT_RUN_LIMITS.retrySeconds * 1000);
    const halfway: SocialNetwork = {
      ...real,
      usersByIds: async () => {
        throw new NetworkUnavailableError("X went down mid-run");
      },
    };
    const again = await run(agent.id, { clock, net: halfway });
    assert.match(again.error ?? "", /mid-run/);
    assert.equal((await leadsOf(agent.id)).length, 0);
    assert.equal((await sql()<{ cursor: unknown }[]>`select cursor from agent_signals where id = ${agent.signalId}`)[0].cursor, null);
    // Back up: the next run resumes from the old cursor and clears the error.
    clock.advance(AGENT_RUN_LIMITS.retrySeconds * 1000);
    const resumed = await run(agent.id, { clock });
    assert.equal(resumed.error, null);
    assert.ok(resumed.leads > 0);
    const [after] = await sql()<{ last_run_error: string | null }[]>`select last_run_error from signal_agents where id = ${agent.id}`;
    assert.equal(after.last_run_error, null);
  });

  test("dispatch_signal_agents enqueues one run per due agent and slot; run_signal_agent runs it", async () => {
    assert.ok(periodicJobs.some((job) => job.kind === "dispatch_signal_agents" && job.everySeconds === DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS));
    const agent = await keywordAgent("Churn dispatched", "churn", { precision: "discovery" });
    const slotStart = Math.floor(Date.now() / 1000 / DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS) * DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS * 1000;
    const clock = manualClock(slotStart + 2 * DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS * 1000 + 1000);
    const jobsOf = () => sql()<JobRow[]>`select * from jobs where kind = 'run_signal_agent' and (payload ->> 'agentId')::bigint = ${agent.id} order by id`;
    await dispatchSignalAgents({ sql: sql(), clock });
    await dispatchSignalAgents({ sql: sql(), clock });
    assert.equal((await jobsOf()).length, 1, "once per slot, however often dispatched");
    const [job] = await jobsOf();
    assert.equal(job.unique_key, `run_signal_agent:${agent.id}:${Math.floor(clock.now() / 1000 / DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS)}`);
    clock.advance(DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS * 1000);
    await dispatchSignalAgents({ sql: sql(), clock });
    assert.equal((await jobsOf()).length, 2, "still due in the next slot: enqueued again");
    const handlers = jobHandlers({ sql: sql(), clock, network: network(), model: harness.services.model });
    await handlers.run_signal_agent(job.payload as { agentId: number }, job);
    await handlers.run_signal_agent(job.payload as { agentId: number }, job);
    const leads = await leadsOf(agent.id);
    assert.ok(leads.length > 0, "the job ran the agent");
    assert.equal(new Set(leads.map((lead) => lead.x_user_id)).size, leads.length);
    clock.advance(DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS * 1000);
    await dispatchSignalAgents({ sql: sql(), clock });
    assert.equal((await jobsOf()).length, 2, "ran: not due for an hour");
    // Without a model the job fails (and retries), as run_worker does.
    const modelless = jobHandlers({ sql: sql(), clock, network: network() });
    await assert.rejects(modelless.run_signal_agent({ agentId: agent.id }, job), /no model/);
  });

  test("two runners on the same due agent run it once and deposit each person once", async () => {
    const agent = await keywordAgent("Churn raced", "churn", { precision: "discovery" });
    // PostgreSQL: a second instance, its own pool (another process's view); embedded: one pool, concurrent calls.
    const second = harness.database.url ? await startHarness({ share: harness }) : undefined;
    try {
      const pools = [sql(), second?.services.sql ?? sql(), sql(), second?.services.sql ?? sql()];
      const outcomes = await Promise.all(pools.map((on) => run(agent.id, { on })));
      assert.equal(outcomes.filter((outcome) => outcome.ran).length, 1, "one runner claimed the agent");
      const leads = await leadsOf(agent.id);
      assert.ok(leads.length > 0);
      assert.equal(new Set(leads.map((lead) => lead.x_user_id)).size, leads.length);
      const { members, memberCount } = await listState(agent.listId!);
      assert.equal(new Set(members.map((member) => member.x_user_id)).size, members.length, "each person deposited once");
      assert.equal(memberCount, members.length);
      assert.equal(members.length, leads.filter((lead) => lead.deposited).length);
    } finally {
      await second?.close();
    }
  });

  test("the job runner runs a due agent on its own: dispatch, run, deposit", async () => {
    // The runner `serve` starts (a worker thread with its own pool and ports on PostgreSQL,
    // the server's pool in embedded mode), without the periodic scheduler: the dispatch the
    // scheduler would enqueue in the next 5-minute slot is enqueued here.
    const agent = await keywordAgent("Served", "churn", { precision: "discovery" });
    await enqueueJob(sql(), { kind: "dispatch_signal_agents" });
    const runner = await startJobs(
      harness.config.databaseUrl
        ? { databaseUrl: harness.config.databaseUrl, periodic: false, pollIntervalMs: 100, ports: { model: {} } }
        : { sql: sql(), deps: { network: network(), model: harness.services.model }, periodic: false, pollIntervalMs: 100 },
    );
    try {
      await pollUntil(
        "the agent's leads to be deposited",
        async () => {
          const [{ deposited }] = await sql()<{ deposited: number }[]>`
            select count(*)::int as deposited from signal_leads where agent_id = ${agent.id} and deposited`;
          return deposited > 0 ? deposited : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
    } finally {
      await runner.stop();
    }
    const [row] = await sql()<{ last_run_at: Date | null; last_run_error: string | null }[]>`
      select last_run_at, last_run_error from signal_agents where id = ${agent.id}`;
    assert.ok(row.last_run_at);
    assert.equal(row.last_run_error, null);
    const statuses = await sql()<{ kind: string; status: string }[]>`
      select kind, status from jobs where kind = 'run_signal_agent' and (payload ->> 'agentId')::bigint = ${agent.id}`;
    assert.deepEqual(
      statuses.map((job) => job.status),
      ["done"],
    );
  });
});
