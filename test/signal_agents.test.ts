/**
 * Signal agents and their signals (docs/areas.md "Signals"; spec: Other endpoints with stated
 * parameters, Idempotency, Limits 4; supplement: Signals): create with warnings, suggested
 * keywords and the destination list, the plan cap, main account only, PATCH, DELETE, adding
 * and removing signals with their enrichment units, through both transports.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import type { BucketName } from "../core/plans/plans.ts";
import type { NetworkDemoFixtures } from "../core/network/network_records.ts";

let harness: Harness;
let x: NetworkDemoFixtures;

before(async () => {
  harness = await startHarness();
  assert.ok(harness.world.x, "the simulated network has its fixtures");
  x = harness.world.x;
});
after(() => harness.close());

async function usedToday(bucket: BucketName): Promise<number> {
  const { requestCounters, clock } = harness.services;
  const check = { key: `rl:${harness.world.accounts.main}:${bucket}:day`, limit: 1_000_000_000, windowSeconds: 86_400, cost: 0 };
  return (await requestCounters.consume([check], clock.now())).windows[0].used;
}

let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}`;

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write, headers?: Record<string, string>) =>
    transport().request(method, path, { key, body, headers });
  const listsNamed = async (listName: string, key = harness.world.keys.write) =>
    (await send("GET", "/v1/contact-lists?limit=100", undefined, key)).body.data.filter((list: any) => list.name === listName);
  const createKeywordAgent = async (agentName = unique("Agent"), extra: Record<string, unknown> = {}) => {
    const answer = await send("POST", "/v1/signals/agents", {
      name: agentName,
      icp_description: "B2B SaaS founders struggling with churn",
      keywords: ["churn"],
      ...extra,
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data;
  };

  describe(`signal agents (${name})`, () => {
    test("a keyword-only create is active, due now, creates its list `Leads: <name>` in one go and costs no enrichment", async () => {
      const before = await usedToday("enrichment");
      const agentName = unique("Churn watcher");
      const answer = await send("POST", "/v1/signals/agents", {
        name: `  ${agentName}  `,
        icp_description: "B2B SaaS founders struggling with churn",
        keywords: ["churn", "  retention  "],
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const agent = answer.body.data;
      assert.equal(agent.name, agentName, "the name is trimmed");
      assert.equal(agent.status, "active");
      assert.equal(agent.precision_mode, "high", "precision defaults to high");
      assert.deepEqual(agent.keywords, ["churn", "retention"]);
      assert.deepEqual(
        agent.signals.map((signal: any) => [signal.type, signal.target, typeof signal.id]),
        [
          ["keyword_watch", "churn", "number"],
          ["keyword_watch", "retention", "number"],
        ],
      );
      assert.ok(Math.abs(Date.parse(agent.next_run_at) - harness.services.clock.now()) < 5_000, "the runner picks it up at once");
      assert.equal(agent.destination_list_created, true);
      assert.deepEqual(agent.warnings, []);
      assert.deepEqual([agent.lead_count, agent.deposited_count, agent.last_run_at], [0, 0, null]);
      const [list] = await listsNamed(`Leads: ${agentName}`);
      assert.equal(list.id, agent.destination_list_id);
      assert.equal(list.is_system, false);
      assert.equal(await usedToday("enrichment"), before, "keyword_watch costs no enrichment (Limits 4)");
      const listed = await send("GET", "/v1/signals/agents");
      assert.equal(listed.status, 200);
      const shown = listed.body.data.find((item: any) => item.id === agent.id);
      assert.deepEqual(shown.signals, agent.signals);
      assert.equal(shown.destination_list_id, list.id);
      assert.equal(listed.body.data[0].id, agent.id, "newest first");
      assert.deepEqual(listed.body.pagination, { page: 1, limit: 50, has_more: false }, "a list answers its pagination (spec rule 4)");
      const walked: number[] = [];
      for (let page = 1; page <= 20; page++) {
        const one = await send("GET", `/v1/signals/agents?limit=1&page=${String(page)}`);
        assert.equal(one.status, 200);
        assert.deepEqual(one.body.pagination, { page, limit: 1, has_more: page < listed.body.data.length });
        walked.push(...one.body.data.map((item: any) => item.id));
        if (!one.body.pagination.has_more) break;
      }
      assert.deepEqual(
        walked,
        listed.body.data.map((item: any) => item.id),
        "pages of one walk the same list",
      );
      await send("DELETE", `/v1/signals/agents/${agent.id}`);
    });

    test("live entries resolve or come back as warnings (user_not_found, x_list_not_found, duplicate_signal) for one enrichment unit in all", async () => {
      const before = await usedToday("enrichment");
      const answer = await send("POST", "/v1/signals/agents", {
        name: unique("Mixed"),
        icp_description: "Indie hackers building developer tools",
        precision_mode: "discovery",
        keywords: [],
        signals: [
          { type: "profile_watch", handle: `@${x.user_handle}` },
          { type: "follower_watch", handle: x.unknown_handle },
          { type: "list_watch", list: `https://x.com/i/lists/${x.public_list_id}` },
          { type: "list_watch", list: x.private_list_id },
          { type: "profile_watch", handle: x.user_handle.toUpperCase() },
        ],
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const agent = answer.body.data;
      assert.equal(agent.precision_mode, "discovery");
      assert.deepEqual(
        agent.signals.map((signal: any) => signal.type),
        ["profile_watch", "list_watch"],
      );
      assert.equal(agent.signals[0].label.toLowerCase(), `@${x.user_handle.toLowerCase()}`);
      assert.equal(agent.signals[1].target, x.public_list_id);
      assert.deepEqual(agent.keywords, [], "keywords: [] asks for no suggestion");
      assert.deepEqual(
        agent.warnings.map((warning: any) => [warning.type, warning.target, warning.code]),
        [
          ["follower_watch", x.unknown_handle, "user_not_found"],
          ["list_watch", x.private_list_id, "x_list_not_found"],
          ["profile_watch", x.user_handle.toUpperCase(), "duplicate_signal"],
        ],
      );
      assert.ok(agent.warnings.every((warning: any) => typeof warning.message === "string" && warning.message.length > 0));
      assert.equal(await usedToday("enrichment"), before + 1, "one unit for the whole create (Limits 4)");
      await send("DELETE", `/v1/signals/agents/${agent.id}`);
    });

    test("omitted keywords are suggested from the ICP: 1 to 3, never past 5 entries in all", async () => {
      const suggested = await send("POST", "/v1/signals/agents", { name: unique("Suggested"), icp_description: "B2B SaaS founders struggling with churn" });
      assert.equal(suggested.status, 201, JSON.stringify(suggested.body));
      const { keywords } = suggested.body.data;
      assert.ok(keywords.length >= 1 && keywords.length <= 3, JSON.stringify(keywords));
      assert.equal(suggested.body.data.signals.length, keywords.length);
      const four = ["a", "b", "c", "d"].map((query) => ({ type: "keyword_watch", query: `topic ${query}` }));
      const topped = await send("POST", "/v1/signals/agents", {
        name: unique("Topped"),
        icp_description: "B2B SaaS founders struggling with churn",
        signals: four,
      });
      assert.equal(topped.status, 201, JSON.stringify(topped.body));
      assert.equal(topped.body.data.signals.length, 5, "four given, one suggested");
      for (const id of [suggested.body.data.id, topped.body.data.id]) await send("DELETE", `/v1/signals/agents/${id}`);
    });

    test("bad bodies are 400 invalid_parameter and create nothing", async () => {
      const icp = "B2B SaaS founders struggling with churn";
      const bodies = [
        { name: unique("None"), icp_description: icp, keywords: [] },
        { name: unique("Six"), icp_description: icp, keywords: ["a", "b", "c"], signals: ["d", "e", "f"].map((query) => ({ type: "keyword_watch", query })) },
        { name: unique("Wrong field"), icp_description: icp, keywords: [], signals: [{ type: "profile_watch", query: "churn" }] },
        { name: unique("Two fields"), icp_description: icp, keywords: [], signals: [{ type: "keyword_watch", query: "churn", handle: "someone" }] },
        { name: unique("Bad list"), icp_description: icp, keywords: [], signals: [{ type: "list_watch", list: "https://example.com/i/lists/12" }] },
        { name: "x".repeat(81), icp_description: icp, keywords: ["churn"] },
        { name: "   ", icp_description: icp, keywords: ["churn"] },
        { name: unique("Long ICP"), icp_description: "x".repeat(501), keywords: ["churn"] },
        { name: unique("Long query"), icp_description: icp, keywords: ["x".repeat(181)] },
        { name: unique("Precision"), icp_description: icp, keywords: ["churn"], precision_mode: "medium" },
        { name: unique("List id"), icp_description: icp, keywords: ["churn"], destination_list_id: "abc" },
      ];
      for (const body of bodies) {
        expectError(await send("POST", "/v1/signals/agents", body), 400, "invalid_parameter");
        assert.deepEqual(await listsNamed(`Leads: ${body.name.trim()}`), [], `no list for ${body.name}`);
      }
    });

    test("destination_list_id: a list of the account (number or text) is used; unknown or another user's is 404 list_not_found; a system list 400", async () => {
      const own = harness.world.contact_lists.user;
      const agent = await createKeywordAgent(unique("Into own list"), { destination_list_id: String(own) });
      assert.equal(agent.destination_list_id, own);
      assert.equal(agent.destination_list_created, false);
      assert.deepEqual(await listsNamed(`Leads: ${agent.name}`), []);
      await send("DELETE", `/v1/signals/agents/${agent.id}`);
      const foreign = await send("POST", "/v1/contact-lists", { name: unique("Cy's list") }, harness.world.keys.other_user);
      assert.equal(foreign.status, 201);
      const body = (list: unknown) => ({ name: unique("Bad list"), icp_description: "B2B SaaS founders", keywords: ["churn"], destination_list_id: list });
      expectError(await send("POST", "/v1/signals/agents", body(foreign.body.data.id)), 404, "list_not_found");
      expectError(await send("POST", "/v1/signals/agents", body(999_999_999)), 404, "list_not_found");
      expectError(await send("POST", "/v1/signals/agents", body(harness.world.contact_lists.system)), 400, "system_list_read_only");
    });

    test("Idempotency-Key replays the first answer without a second agent; the same key with another body is 409 idempotency_key_reuse", async () => {
      const key = `agent-${name}-${Date.now()}`;
      const body = { name: unique("Idempotent"), icp_description: "B2B SaaS founders struggling with churn", keywords: ["churn"] };
      const first = await send("POST", "/v1/signals/agents", body, undefined, { "Idempotency-Key": key });
      assert.equal(first.status, 201);
      const again = await send("POST", "/v1/signals/agents", body, undefined, { "Idempotency-Key": key });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get("Idempotency-Replayed"), "true");
      assert.deepEqual(again.body, first.body);
      const listed = (await send("GET", "/v1/signals/agents")).body.data.filter((agent: any) => agent.name === body.name);
      assert.equal(listed.length, 1);
      assert.equal((await listsNamed(`Leads: ${body.name}`)).length, 1);
      expectError(
        await send("POST", "/v1/signals/agents", { ...body, keywords: ["other"] }, undefined, { "Idempotency-Key": key }),
        409,
        "idempotency_key_reuse",
      );
      await send("DELETE", `/v1/signals/agents/${first.body.data.id}`);
    });

    test("the plan cap is 403 cap_reached and creates nothing, not even the list; two concurrent creates cannot both pass", async () => {
      const trial = harness.world.keys.trial;
      const create = (agentName: string) =>
        send("POST", "/v1/signals/agents", { name: agentName, icp_description: "B2B SaaS founders", keywords: ["churn"] }, trial);
      const racers = [unique("Race"), unique("Race")];
      const raced = await Promise.all(racers.map(create));
      assert.deepEqual(raced.map((answer) => answer.status).sort(), [201, 403], JSON.stringify(raced.map((answer) => answer.body)));
      const refused = raced.find((answer) => answer.status === 403);
      assert.equal(refused?.body.error.code, "cap_reached");
      const over = unique("Over");
      expectError(await create(over), 403, "cap_reached");
      assert.deepEqual(await listsNamed(`Leads: ${over}`, trial), [], "a refused create leaves no list");
      const raceLists = [...(await listsNamed(`Leads: ${racers[0]}`, trial)), ...(await listsNamed(`Leads: ${racers[1]}`, trial))];
      assert.equal(raceLists.length, 1, "only the created agent's list exists");
      const created = raced.find((answer) => answer.status === 201)?.body.data;
      assert.equal((await send("DELETE", `/v1/signals/agents/${created.id}`, undefined, trial)).status, 200);
      assert.equal((await create(unique("After delete"))).status, 201, "deleting frees the slot");
      const [left] = (await send("GET", "/v1/signals/agents", undefined, trial)).body.data;
      await send("DELETE", `/v1/signals/agents/${left.id}`, undefined, trial);
    });

    test("agents live on the main account: a linked or shared account is 403 writes_main_account_only, another user's 404 account_not_found", async () => {
      const body = (account: string) => ({ name: unique("Elsewhere"), icp_description: "B2B SaaS founders", keywords: ["churn"], account_id: account });
      expectError(await send("POST", "/v1/signals/agents", body(harness.world.accounts.linked)), 403, "writes_main_account_only");
      expectError(await send("POST", "/v1/signals/agents", body(harness.world.accounts.shared)), 403, "writes_main_account_only");
      expectError(await send("POST", "/v1/signals/agents", body(harness.world.accounts.other_user)), 404, "account_not_found");
      const main = await send("POST", "/v1/signals/agents", body(harness.world.accounts.main));
      assert.equal(main.status, 201);
      await send("DELETE", `/v1/signals/agents/${main.body.data.id}`);
      const read = await send("POST", "/v1/signals/agents", body(harness.world.accounts.main), harness.world.keys.read);
      expectError(read, 403, "insufficient_scope");
    });

    test("PATCH changes the fields sent; pausing clears next_run_at and resuming makes the agent due now", async () => {
      const agent = await createKeywordAgent();
      const renamed = await send("PATCH", `/v1/signals/agents/${agent.id}`, {
        name: "Renamed agent",
        icp_description: "Heads of growth at fintechs",
        precision_mode: "discovery",
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual(
        [renamed.body.data.name, renamed.body.data.icp_description, renamed.body.data.precision_mode, renamed.body.data.status],
        ["Renamed agent", "Heads of growth at fintechs", "discovery", "active"],
      );
      assert.deepEqual(renamed.body.data.signals, agent.signals, "signals are untouched");
      const paused = await send("PATCH", `/v1/signals/agents/${agent.id}`, { status: "paused" });
      assert.deepEqual([paused.body.data.status, paused.body.data.next_run_at], ["paused", null]);
      await harness.services.sql`update signal_agents set next_run_at = now() + interval '1 day' where id = ${agent.id}`;
      const resumed = await send("PATCH", `/v1/signals/agents/${agent.id}`, { status: "active" });
      assert.equal(resumed.body.data.status, "active");
      assert.ok(Math.abs(Date.parse(resumed.body.data.next_run_at) - harness.services.clock.now()) < 5_000, "resumed agents run at once");
      const moved = await send("PATCH", `/v1/signals/agents/${agent.id}`, { destination_list_id: harness.world.contact_lists.user });
      assert.equal(moved.body.data.destination_list_id, harness.world.contact_lists.user);
      expectError(await send("PATCH", `/v1/signals/agents/${agent.id}`, {}), 400, "invalid_parameter");
      expectError(await send("PATCH", `/v1/signals/agents/${agent.id}`, { status: "stopped" }), 400, "invalid_parameter");
      expectError(await send("PATCH", `/v1/signals/agents/${agent.id}`, { destination_list_id: 999_999_999 }), 404, "list_not_found");
      expectError(
        await send("PATCH", `/v1/signals/agents/${agent.id}`, { destination_list_id: harness.world.contact_lists.system }),
        400,
        "system_list_read_only",
      );
      expectError(await send("PATCH", "/v1/signals/agents/999999999", { status: "paused" }), 404, "agent_not_found");
      expectError(await send("PATCH", `/v1/signals/agents/${agent.id}`, { status: "paused" }, harness.world.keys.other_user), 404, "agent_not_found");
      expectError(
        await send("PATCH", `/v1/signals/agents/${agent.id}`, { status: "paused", account_id: harness.world.accounts.linked }),
        404,
        "agent_not_found",
      );
      await send("DELETE", `/v1/signals/agents/${agent.id}`);
    });

    test("an agent of a shared account reads in the list but refuses writes with 403 writes_main_account_only", async () => {
      const { sql } = harness.services;
      const shared = harness.world.accounts.shared;
      const [row] = await sql<{ id: number }[]>`
        insert into signal_agents (account_id, name, icp_description, precision_mode, next_run_at, created_at, updated_at)
        values (${shared}, ${unique("Shared agent")}, 'Founders', 'high', now(), now(), now()) returning id`;
      const listed = await send("GET", `/v1/signals/agents?account_id=${shared}`);
      assert.ok(listed.body.data.some((agent: any) => agent.id === row.id));
      expectError(await send("PATCH", `/v1/signals/agents/${row.id}`, { status: "paused" }), 403, "writes_main_account_only");
      expectError(await send("POST", `/v1/signals/agents/${row.id}/signals`, { type: "keyword_watch", query: "churn" }), 403, "writes_main_account_only");
      expectError(await send("DELETE", `/v1/signals/agents/${row.id}`), 403, "writes_main_account_only");
      await sql`delete from signal_agents where id = ${row.id}`;
    });

    test("DELETE answers { id, deleted }, keeps the list; a repeat is 404 agent_not_found", async () => {
      const agent = await createKeywordAgent();
      const deleted = await send("DELETE", `/v1/signals/agents/${agent.id}`);
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body, { data: { id: agent.id, deleted: true } });
      assert.equal((await listsNamed(`Leads: ${agent.name}`)).length, 1, "the list stays");
      expectError(await send("DELETE", `/v1/signals/agents/${agent.id}`), 404, "agent_not_found");
      expectError(await send("DELETE", "/v1/signals/agents/abc"), 400, "invalid_parameter");
    });

    test("adding signals: keywords cost nothing, a handle or a list one enrichment unit; 409 duplicate_signal, 403 cap_reached at 5", async () => {
      const agent = await createKeywordAgent();
      const path = `/v1/signals/agents/${agent.id}/signals`;
      let before = await usedToday("enrichment");
      const keyword = await send("POST", path, { type: "keyword_watch", query: "net revenue retention" });
      assert.equal(keyword.status, 201, JSON.stringify(keyword.body));
      assert.deepEqual([keyword.body.data.type, keyword.body.data.target, keyword.body.data.target_id], ["keyword_watch", "net revenue retention", null]);
      assert.equal(await usedToday("enrichment"), before);
      const profile = await send("POST", path, { type: "follower_watch", handle: `@${x.user_handle}` });
      assert.equal(profile.status, 201, JSON.stringify(profile.body));
      assert.equal(profile.body.data.type, "follower_watch");
      assert.match(profile.body.data.target_id, /^[0-9]+$/);
      assert.equal(await usedToday("enrichment"), before + 1);
      before = await usedToday("enrichment");
      const list = await send("POST", path, { type: "list_watch", list: `https://twitter.com/i/lists/${x.public_list_id}` });
      assert.equal(list.status, 201, JSON.stringify(list.body));
      assert.equal(list.body.data.target, x.public_list_id);
      assert.equal(await usedToday("enrichment"), before + 1);
      expectError(await send("POST", path, { type: "keyword_watch", query: "CHURN" }), 409, "duplicate_signal");
      expectError(await send("POST", path, { type: "list_watch", list: x.public_list_id }), 409, "duplicate_signal");
      expectError(await send("POST", path, { type: "profile_watch", handle: x.unknown_handle }), 404, "user_not_found");
      expectError(await send("POST", path, { type: "list_watch", list: x.private_list_id }), 404, "x_list_not_found");
      expectError(await send("POST", path, { type: "profile_watch", query: "churn" }), 400, "invalid_parameter");
      expectError(await send("POST", path, { type: "keyword_watch", query: "churn", handle: "someone" }), 400, "invalid_parameter");
      expectError(await send("POST", path, { type: "keyword_watch", query: "x".repeat(181) }), 400, "invalid_parameter");
      expectError(await send("POST", path, { type: "keyword_watch" }), 400, "invalid_parameter");
      expectError(await send("POST", "/v1/signals/agents/999999999/signals", { type: "keyword_watch", query: "churn" }), 404, "agent_not_found");
      assert.equal((await send("POST", path, { type: "keyword_watch", query: "fifth" })).status, 201);
      before = await usedToday("enrichment");
      expectError(await send("POST", path, { type: "profile_watch", handle: x.user_handle }), 403, "cap_reached");
      assert.equal(await usedToday("enrichment"), before, "a refused add spends no unit");
      const shown = (await send("GET", "/v1/signals/agents")).body.data.find((item: any) => item.id === agent.id);
      assert.equal(shown.signals.length, 5);
      assert.deepEqual(shown.keywords, ["churn", "net revenue retention", "fifth"]);
      await send("DELETE", `/v1/signals/agents/${agent.id}`);
    });

    test("removing signals: 204, a repeat 404 signal_not_found, an unknown agent 404 agent_not_found; the last one may go", async () => {
      const agent = await createKeywordAgent();
      const [signal] = agent.signals;
      const removed = await send("DELETE", `/v1/signals/agents/${agent.id}/signals/${signal.id}`);
      assert.equal(removed.status, 204);
      assert.equal(removed.body, null);
      const shown = (await send("GET", "/v1/signals/agents")).body.data.find((item: any) => item.id === agent.id);
      assert.deepEqual(shown.signals, []);
      expectError(await send("DELETE", `/v1/signals/agents/${agent.id}/signals/${signal.id}`), 404, "signal_not_found");
      expectError(await send("DELETE", `/v1/signals/agents/999999999/signals/${signal.id}`), 404, "agent_not_found");
      expectError(await send("DELETE", `/v1/signals/agents/${agent.id}/signals/abc`), 400, "invalid_parameter");
      expectError(
        await send("DELETE", `/v1/signals/agents/${agent.id}/signals/${signal.id}`, undefined, harness.world.keys.other_user),
        404,
        "agent_not_found",
      );
      await send("DELETE", `/v1/signals/agents/${agent.id}`);
    });
  });
});

describe("with the network and the model unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "ai,x" } });
  });
  after(() => failing.close());

  test("a create that cannot resolve a handle or suggest keywords is 503 upstream_unavailable, makes nothing and gives its unit back", async () => {
    const [transport] = transports(failing);
    const send = (method: string, path: string, body?: unknown) => transport.request(method, path, { key: failing.world.keys.write, body });
    const main = failing.world.accounts.main;
    const enrichment = async () => {
      const check = { key: `rl:${main}:enrichment:day`, limit: 1_000_000_000, windowSeconds: 86_400, cost: 0 };
      return (await failing.services.requestCounters.consume([check], failing.services.clock.now())).windows[0].used;
    };
    const lists = async () => (await send("GET", "/v1/contact-lists?limit=100")).body.data.length;
    const agents = async () => (await send("GET", "/v1/signals/agents")).body.data.length;
    const [listsBefore, unitsBefore, agentsBefore] = [await lists(), await enrichment(), await agents()];
    const icp = "B2B SaaS founders struggling with churn";
    const live = { name: "Live", icp_description: icp, keywords: ["churn"], signals: [{ type: "profile_watch", handle: "kai_on_ai" }] };
    expectError(await send("POST", "/v1/signals/agents", live), 503, "upstream_unavailable");
    expectError(await send("POST", "/v1/signals/agents", { name: "Suggested", icp_description: icp }), 503, "upstream_unavailable");
    assert.equal(await enrichment(), unitsBefore, "the unit of the refused create is given back");
    assert.equal(await lists(), listsBefore, "no Leads list was left behind");
    assert.equal(await agents(), agentsBefore, "no agent was made");
    const keywordOnly = await send("POST", "/v1/signals/agents", { name: "Keywords", icp_description: icp, keywords: ["churn"] });
    assert.equal(keywordOnly.status, 201, "keywords need neither the network nor the model");
    const path = `/v1/signals/agents/${keywordOnly.body.data.id}/signals`;
    expectError(await send("POST", path, { type: "list_watch", list: "1500000000000000001" }), 503, "upstream_unavailable");
    assert.equal(await enrichment(), unitsBefore, "an add that never reached the network costs nothing");
  });
});
