/**
 * Stored leads and lead feedback (docs/areas.md "Signals"; spec: GET /v1/signals/leads;
 * supplement: Signals, section 5): filters, order and pagination, the contact's profile, and
 * feedback mirrored onto the list row, through both transports. Leads are written with
 * test/support/signal_rows.ts (finding them is the runner's suite).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { insertTestLead } from "./support/signal_rows.ts";

let harness: Harness;
const DAY = 86_400_000;
/** Two agents of the main account, and leads: `old` and `fresh` deposited, `middle` not, `orphan` of a deleted agent, `foreign` another user's. */
let agents: { first: any; second: any };
let leads: { old: number; middle: number; fresh: number; orphan: number; foreign: number; shared: number };
let times: { old: Date; middle: Date; fresh: Date };

before(async () => {
  harness = await startHarness();
  const { sql, clock } = harness.services;
  const [transport] = transports(harness);
  const create = async (name: string, key = harness.world.keys.write) => {
    const answer = await transport.request("POST", "/v1/signals/agents", { key, body: { name, icp_description: "B2B SaaS founders", keywords: ["churn"] } });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data;
  };
  agents = { first: await create("Lead finder one"), second: await create("Lead finder two") };
  const gone = await create("Deleted finder");
  const foreignAgent = await create("Cy's finder", harness.world.keys.other_user);
  const now = clock.now();
  times = { old: new Date(now - 3 * DAY), middle: new Date(now - 2 * DAY), fresh: new Date(now - DAY) };
  const main = harness.world.accounts.main;
  leads = {
    old: await insertTestLead(sql, {
      accountId: main,
      agentId: agents.first.id,
      xUserId: "1910000000000000001",
      discoveredAt: times.old,
      depositedListId: agents.first.destination_list_id,
      score: 91,
    }),
    middle: await insertTestLead(sql, { accountId: main, agentId: agents.first.id, xUserId: "1910000000000000002", discoveredAt: times.middle, score: 55 }),
    fresh: await insertTestLead(sql, {
      accountId: main,
      agentId: agents.second.id,
      xUserId: "1910000000000000003",
      discoveredAt: times.fresh,
      depositedListId: agents.second.destination_list_id,
    }),
    orphan: await insertTestLead(sql, { accountId: main, agentId: gone.id, xUserId: "1910000000000000004", discoveredAt: new Date(now - 10 * DAY) }),
    shared: await insertTestLead(sql, { accountId: harness.world.accounts.shared, agentId: null, xUserId: "1910000000000000006", discoveredAt: times.fresh }),
    foreign: await insertTestLead(sql, {
      accountId: harness.world.accounts.other_user,
      agentId: foreignAgent.id,
      xUserId: "1910000000000000005",
      discoveredAt: times.fresh,
      depositedListId: foreignAgent.destination_list_id,
    }),
  };
  assert.equal((await transport.request("DELETE", `/v1/signals/agents/${gone.id}`, { key: harness.world.keys.write })).status, 200);
});
after(() => harness.close());

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });
  // Only this suite's leads: the demo world may hold leads of its own.
  // Up to this suite's freshest lead: the demo agent's leads are found at start-up, after them.
  const ours = () => `until=${times.fresh.toISOString()}&limit=100`;
  const ids = (answer: { body: any }) => answer.body.data.map((lead: any) => lead.id).filter((id: number) => Object.values(leads).includes(id));

  describe(`signal leads (${name})`, () => {
    test("GET /v1/signals/leads lists the account's leads newest first with the contact's profile, score and provenance", async () => {
      const answer = await send("GET", `/v1/signals/leads?${ours()}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(ids(answer), [leads.fresh, leads.middle, leads.old, leads.orphan], "newest discovery first; another user's lead is not shown");
      const byId = (id: number) => answer.body.data.find((lead: any) => lead.id === id);
      const old = byId(leads.old);
      assert.equal(old.agent_id, agents.first.id);
      assert.equal(old.x_user_id, "1910000000000000001");
      assert.equal(old.posts_count, 420, "posts_count comes from the contact");
      assert.equal(old.bio, "Founder of a B2B SaaS");
      assert.deepEqual([old.icp_score, old.deposited, old.destination_list_id], [91, true, agents.first.destination_list_id]);
      assert.equal(old.deposited_at, times.old.toISOString());
      assert.equal(old.discovered_at, times.old.toISOString());
      assert.equal(old.provenance.action, "posted");
      assert.deepEqual([old.feedback, old.feedback_at], [null, null]);
      const middle = byId(leads.middle);
      assert.deepEqual([middle.deposited, middle.deposited_at, middle.destination_list_id], [false, null, null]);
      assert.equal(byId(leads.orphan).agent_id, null, "a deleted agent's lead stays, without its agent");
      assert.equal(answer.body.pagination.total, answer.body.data.length);
      await harness.services.sql`update contacts set posts_count = 421 where account_id = ${harness.world.accounts.main} and x_user_id = '1910000000000000001'`;
      const refreshed = (await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}&deposited=true`)).body.data;
      assert.equal(refreshed[0].posts_count, 421, "the profile is the contact's as last read");
      await harness.services.sql`update contacts set posts_count = 420 where account_id = ${harness.world.accounts.main} and x_user_id = '1910000000000000001'`;
    });

    test("filters: agent_id, deposited (true/false), since and until on discovery time; limit and page", async () => {
      assert.deepEqual(ids(await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}`)), [leads.middle, leads.old]);
      assert.deepEqual(ids(await send("GET", `/v1/signals/leads?deposited=true&${ours()}`)), [leads.fresh, leads.old]);
      assert.deepEqual(ids(await send("GET", `/v1/signals/leads?deposited=false&${ours()}`)), [leads.middle, leads.orphan]);
      assert.deepEqual(ids(await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}&deposited=false`)), [leads.middle]);
      assert.deepEqual(
        ids(await send("GET", `/v1/signals/leads?since=${times.middle.toISOString()}&${ours()}`)),
        [leads.fresh, leads.middle],
        "since is inclusive",
      );
      assert.deepEqual(
        ids(await send("GET", `/v1/signals/leads?until=${times.middle.toISOString()}&limit=100`)),
        [leads.middle, leads.old, leads.orphan],
        "until is inclusive",
      );
      assert.deepEqual(
        ids(
          await send(
            "GET",
            `/v1/signals/leads?since=${encodeURIComponent(times.old.toISOString().replace("Z", "+00:00"))}&until=${times.middle.toISOString()}`,
          ),
        ),
        [leads.middle, leads.old],
      );
      const first = await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}&limit=1`);
      assert.deepEqual(ids(first), [leads.middle]);
      assert.deepEqual(first.body.pagination, { page: 1, limit: 1, has_more: true, total: 2 });
      const second = await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}&limit=1&page=2`);
      assert.deepEqual(ids(second), [leads.old]);
      assert.deepEqual(second.body.pagination, { page: 2, limit: 1, has_more: false, total: 2 });
      const defaults = await send("GET", "/v1/signals/leads");
      assert.equal(defaults.body.pagination.limit, 50);
    });

    test("an unknown agent, another user's agent or a bad filter is refused", async () => {
      expectError(await send("GET", "/v1/signals/leads?agent_id=999999999"), 404, "agent_not_found");
      const theirs = (await send("GET", "/v1/signals/agents", undefined, harness.world.keys.other_user)).body.data[0];
      expectError(await send("GET", `/v1/signals/leads?agent_id=${theirs.id}`), 404, "agent_not_found");
      for (const query of ["deposited=yes", "since=yesterday", "until=2026-01-01", "limit=0", "limit=101", "agent_id=abc", "page=0"]) {
        expectError(await send("GET", `/v1/signals/leads?${query}`), 400, "invalid_parameter");
      }
      expectError(await send("GET", `/v1/signals/leads?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
      const other = await send("GET", "/v1/signals/leads", undefined, harness.world.keys.other_user);
      assert.deepEqual(ids(other), [leads.foreign]);
    });

    test("the agents list counts each agent's leads and deposits", async () => {
      const listed = (await send("GET", "/v1/signals/agents")).body.data;
      const first = listed.find((agent: any) => agent.id === agents.first.id);
      assert.deepEqual([first.lead_count, first.deposited_count], [2, 1]);
      const second = listed.find((agent: any) => agent.id === agents.second.id);
      assert.deepEqual([second.lead_count, second.deposited_count], [1, 1]);
    });

    test("an ICP edit judges only new leads: the stored ones keep their score and rationale", async () => {
      const before = (await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}`)).body.data;
      const edited = await send("PATCH", `/v1/signals/agents/${agents.first.id}`, { icp_description: `Heads of growth at fintechs (${name})` });
      assert.equal(edited.status, 200);
      const after = (await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}`)).body.data;
      assert.deepEqual(
        after.map((lead: any) => [lead.id, lead.icp_score, lead.icp_rationale]),
        before.map((lead: any) => [lead.id, lead.icp_score, lead.icp_rationale]),
      );
    });

    test("feedback is stamped on the lead and mirrored onto its list row in one write; null clears both", async () => {
      const path = `/v1/signals/leads/${leads.old}/feedback`;
      const members = async () =>
        (await send("GET", `/v1/contact-lists/${agents.first.destination_list_id}/members`)).body.data.find(
          (member: any) => member.x_user_id === "1910000000000000001",
        );
      const before = await members();
      assert.deepEqual([before.icp_score, before.icp_rationale, before.feedback, before.feedback_at], [91, "Runs a SaaS and talks about churn", null, null]);
      const fit = await send("POST", path, { feedback: "fit" });
      assert.equal(fit.status, 200, JSON.stringify(fit.body));
      assert.equal(fit.body.data.id, leads.old);
      assert.equal(fit.body.data.feedback, "fit");
      assert.ok(Math.abs(Date.parse(fit.body.data.feedback_at) - harness.services.clock.now()) < 5_000);
      const mirrored = await members();
      assert.deepEqual([mirrored.feedback, mirrored.feedback_at], ["fit", fit.body.data.feedback_at]);
      const notFit = await send("POST", path, { feedback: "not_fit", account_id: harness.world.accounts.main });
      assert.equal(notFit.body.data.feedback, "not_fit");
      assert.equal((await members()).feedback, "not_fit");
      const listed = (await send("GET", `/v1/signals/leads?agent_id=${agents.first.id}`)).body.data.find((lead: any) => lead.id === leads.old);
      assert.equal(listed.feedback, "not_fit");
      const cleared = await send("POST", path, { feedback: null });
      assert.deepEqual([cleared.body.data.feedback, cleared.body.data.feedback_at], [null, null]);
      const clearedRow = await members();
      assert.deepEqual([clearedRow.feedback, clearedRow.feedback_at], [null, null]);
    });

    test("feedback on a lead never deposited touches no list; a deleted agent's lead still takes feedback", async () => {
      const answer = await send("POST", `/v1/signals/leads/${leads.middle}/feedback`, { feedback: "not_fit" });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.feedback, "not_fit");
      const [{ count }] = await harness.services.sql<{ count: number }[]>`
        select count(*)::int as count from contact_list_members where x_user_id = '1910000000000000002'`;
      assert.equal(count, 0);
      const orphan = await send("POST", `/v1/signals/leads/${leads.orphan}/feedback`, { feedback: "fit" });
      assert.equal(orphan.body.data.feedback, "fit");
      await send("POST", `/v1/signals/leads/${leads.middle}/feedback`, { feedback: null });
      await send("POST", `/v1/signals/leads/${leads.orphan}/feedback`, { feedback: null });
    });

    test("feedback errors: unknown or another user's lead 404 lead_not_found; a bad value 400; a read key 403", async () => {
      expectError(await send("POST", "/v1/signals/leads/999999999/feedback", { feedback: "fit" }), 404, "lead_not_found");
      expectError(await send("POST", `/v1/signals/leads/${leads.foreign}/feedback`, { feedback: "fit" }), 404, "lead_not_found");
      expectError(
        await send("POST", `/v1/signals/leads/${leads.old}/feedback`, { feedback: "fit", account_id: harness.world.accounts.linked }),
        404,
        "lead_not_found",
      );
      expectError(await send("POST", `/v1/signals/leads/${leads.shared}/feedback`, { feedback: "fit" }), 403, "writes_main_account_only");
      const sharedLeads = await send("GET", `/v1/signals/leads?account_id=${harness.world.accounts.shared}`);
      assert.deepEqual(ids(sharedLeads), [leads.shared], "a shared account's leads read");
      expectError(await send("POST", `/v1/signals/leads/${leads.old}/feedback`, { feedback: "maybe" }), 400, "invalid_parameter");
      expectError(await send("POST", `/v1/signals/leads/${leads.old}/feedback`, {}), 400, "invalid_parameter");
      expectError(await send("POST", "/v1/signals/leads/abc/feedback", { feedback: "fit" }), 400, "invalid_parameter");
      expectError(await send("POST", `/v1/signals/leads/${leads.old}/feedback`, { feedback: "fit" }, harness.world.keys.read), 403, "insufficient_scope");
    });
  });
});
