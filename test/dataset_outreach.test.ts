/**
 * Outreach drafts (spec: POST /v1/datasets/{id}/outreach-drafts; Outreach drafts result;
 * rule 7; AI credits; Errors `generation_failed`) on the local engine and, for crafted bad
 * drafts, on the loopback fake OpenAI-compatible server; and the demo world's datasets
 * (shared/spec/demo_world.md `datasets.*`).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { createContextInner } from "../core/context.ts";
import { expiryOf, newDatasetId } from "../core/datasets/dataset_access.ts";
import { appendRows, insertDataset, rowsPage, type NewDatasetRow, type StoredRow } from "../core/datasets/datasets_queries.ts";
import { consumeAllowances, releaseAllowances } from "../core/limits/allowances.ts";
import { dailyActionCap } from "../core/limits/allowance_catalog.ts";
import { createLocalModel } from "../adapters/ai/local/local_model.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const path = (id: string) => `/v1/datasets/${id}/outreach-drafts`;
const FORMAT = "Hi [first], I run a small studio that builds onboarding flows for SaaS teams. Open to a quick chat, [name]? (for [handle])";

/** Every row of a dataset, in order. */
async function rowsOf(h: Harness, id: string): Promise<StoredRow[]> {
  return rowsPage(h.services.sql, id, { limit: 100, offset: 0 });
}

/** A ready research dataset of A's main account with `rows` (each person: handle and hooks). */
async function researchDataset(h: Harness, people: { handle: string; hooks: string[] }[]): Promise<string> {
  const [{ user_id }] = await h.services.sql<{ user_id: number }[]>`select user_id::int as user_id from accounts where id = ${h.world.accounts.main}`;
  const now = new Date(h.services.clock.now());
  const id = newDatasetId();
  await insertDataset(h.services.sql, {
    id,
    owner_id: user_id,
    account_id: h.world.accounts.main,
    source: "research",
    title: `Test research ${id}`,
    status: "ready",
    params: { max_rows: 25 },
    created_at: now,
    expires_at: expiryOf(now.getTime()),
    finished_at: now,
  });
  const rows: NewDatasetRow[] = people.map((person, i) => ({
    key: `u${i}_${person.handle}`,
    x_user_id: `9${i}`,
    handle: person.handle,
    name: `${person.handle[0].toUpperCase()}${person.handle.slice(1)} Tester`,
    bio: "Builds things",
    brief: { summary: "Posts about onboarding", topics: ["onboarding"], tone: "direct", recent_themes: [] },
    hooks: person.hooks.map((quote, j) => ({ quote, post_id: `${i}${j}`, post_url: `https://x.com/${person.handle}/status/${i}${j}`, posted_at: null })),
  }));
  await appendRows(h.services.sql, id, 0, rows);
  return id;
}

/** Units of A's daily outreach cap used today. */
async function capUsed(h: Harness): Promise<number> {
  const outcome = await consumeAllowances(createContextInner({ services: h.services }), h.world.accounts.main, [
    { spec: dailyActionCap("outreach_drafts", "ultra"), units: 0 },
  ]);
  assert.equal(outcome.status, "allowed");
  return outcome.status === "allowed" ? outcome.allowances[0].used : -1;
}

describeMatrix(({ name, transport }) => {
  describe(`outreach drafts over ${name} (local engine)`, () => {
    const send = (id: string, body: unknown, key = harness.world.keys.write) => transport(harness).request("POST", path(id), { key, body });

    test("the demo research dataset: one personalised draft per person, tokens intact, written onto the rows, credits charged", async () => {
      const id = harness.world.datasets.research_ready;
      const before = await rowsOf(harness, id);
      const answer = await send(id, { format: FORMAT });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { data, meta, note } = answer.body;
      assert.equal(data.dataset_id, id);
      assert.equal(data.total, before.length);
      assert.ok(data.total >= 3);
      assert.deepEqual(
        [data.drafted, data.generic, data.failed, data.contaminated, data.long_messages],
        [before.length, 0, 0, 0, 0],
        "every demo person has a hook",
      );
      assert.ok(data.sample_messages.length >= 1 && data.sample_messages.length <= 3);
      for (const sample of data.sample_messages) assert.ok(sample.message.length <= 160 && before.some((row) => row.handle === sample.handle));
      assert.ok(meta.credits_charged >= 1);
      assert.equal(answer.headers.get("x-credits-charged"), String(meta.credits_charged));
      assert.match(answer.headers.get("x-credits-remaining") ?? "", /^-?\d+$/);
      assert.match(answer.headers.get("x-credits-reset") ?? "", /^\d+$/);
      assert.match(note, /Nothing was sent/);
      const rows = await rowsOf(harness, id);
      for (const row of rows) {
        assert.equal(row.message_kind, "drafted");
        assert.ok(row.message_at instanceof Date);
        const message = row.message ?? "";
        for (const token of ["[first]", "[name]", "[handle]"]) assert.ok(message.includes(token), `${token} left intact: ${message}`);
        assert.ok(!message.includes(row.name ?? "\u0000"), "the name is filled at send time, not here");
        assert.ok(message.includes(row.hooks?.[0]?.quote ?? "\u0000"), "personalised from the first stored hook, verbatim");
      }
    });

    test("a rerun overwrites every draft", async () => {
      const id = harness.world.datasets.research_ready;
      assert.equal((await send(id, { format: FORMAT })).status, 200);
      const first = await rowsOf(harness, id);
      const second = await send(id, { format: "Hey [first], we make churn dashboards for small SaaS teams. Worth a look?" });
      assert.equal(second.status, 200);
      const rows = await rowsOf(harness, id);
      assert.equal(rows.length, first.length);
      for (const [i, row] of rows.entries()) {
        assert.match(row.message ?? "", /churn dashboards/);
        assert.notEqual(row.message, first[i].message);
      }
    });
  });
});

describe("outreach drafts: generic, long and refused (local engine)", () => {
  const send = (id: string, body: unknown, key = harness.world.keys.write) => transports(harness)[0].request("POST", path(id), { key, body });

  test("no usable hook gives a generic message with no personal claims; a hook naming another recipient is not usable", async () => {
    const id = await researchDataset(harness, [
      { handle: "hooked", hooks: ["Onboarding is where most SaaS products lose their users"] },
      { handle: "nohooks", hooks: [] },
      { handle: "tooshort", hooks: ["So true"] },
      { handle: "namesother", hooks: ["Ask @hooked how onboarding went for them"] },
    ]);
    const answer = await send(id, { format: FORMAT, instructions: "shorter" });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual([answer.body.data.total, answer.body.data.drafted, answer.body.data.generic], [4, 1, 3]);
    const rows = await rowsOf(harness, id);
    assert.deepEqual(
      rows.map((row) => row.message_kind),
      ["drafted", "generic", "generic", "generic"],
    );
    for (const row of rows.slice(1)) {
      assert.ok(!/your post|"/i.test(row.message ?? ""), `no personal claim: ${row.message}`);
      assert.ok(!/@hooked/.test(row.message ?? ""));
    }
  });

  test("drafts over 500 characters are stored and counted in long_messages", async () => {
    const id = await researchDataset(harness, [
      { handle: "longa", hooks: ["Pricing pages are the most honest page a startup has"] },
      { handle: "longb", hooks: [] },
    ]);
    const format = `Hi [first], ${"we help teams ship onboarding that keeps users around. ".repeat(11)}`.slice(0, 620);
    const answer = await send(id, { format });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.long_messages, 2);
    assert.ok((await rowsOf(harness, id)).every((row) => (row.message ?? "").length > 500));
  });

  test("a research dataset with no rows answers zero counts, charges nothing and gives the cap run back", async () => {
    const id = await researchDataset(harness, []);
    const used = await capUsed(harness);
    const answer = await send(id, { format: FORMAT });
    assert.equal(answer.status, 200);
    assert.deepEqual([answer.body.data.total, answer.body.data.drafted, answer.body.data.sample_messages], [0, 0, []]);
    assert.equal(answer.headers.get("x-credits-charged"), "0");
    assert.equal(await capUsed(harness), used);
  });

  test("bad input answers 400 invalid_parameter and charges nothing", async () => {
    const id = harness.world.datasets.research_ready;
    for (const [target, body] of [
      [id, { format: "too short" }],
      [id, { format: "x".repeat(1001) }],
      [id, { format: FORMAT, instructions: "y".repeat(501) }],
      [id, {}],
      ["bad.id", { format: FORMAT }],
      [harness.world.datasets.not_research, { format: FORMAT }],
    ] as const) {
      const answer = await send(target, body);
      assert.equal(answer.status, 400, `${target} ${JSON.stringify(body).slice(0, 40)}`);
      assert.equal(answer.body.error.code, "invalid_parameter");
      assert.ok([null, "0"].includes(answer.headers.get("x-credits-charged")));
    }
    const notResearch = await send(harness.world.datasets.not_research, { format: FORMAT });
    assert.match(notResearch.body.error.message, /research/);
  });

  test("an unknown or another user's dataset answers 404 not_found", async () => {
    assert.equal((await send("ds_doesnotexist", { format: FORMAT })).body.error.code, "not_found");
    const foreign = await send(harness.world.datasets.research_ready, { format: FORMAT }, harness.world.keys.other_user);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "not_found");
  });

  test("collecting and failed datasets answer 409 dataset_not_ready with error.dataset_status", async () => {
    for (const state of ["collecting", "failed"] as const) {
      const answer = await send(harness.world.datasets[state], { format: FORMAT });
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error.code, "dataset_not_ready");
      assert.equal(answer.body.error.dataset_status, state);
    }
  });

  test("no key answers 401, a read-only key 403 insufficient_scope", async () => {
    const anonymous = await transports(harness)[0].request("POST", path(harness.world.datasets.research_ready), { body: { format: FORMAT } });
    assert.equal(anonymous.status, 401);
    const read = await send(harness.world.datasets.research_ready, { format: FORMAT }, harness.world.keys.read);
    assert.equal(read.status, 403);
    assert.equal(read.body.error.code, "insufficient_scope");
  });

  test("an empty credit pool answers 429 ai_credits_exhausted", async () => {
    const answer = await send(harness.world.datasets.research_ready, { format: FORMAT }, harness.world.keys.no_credits);
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, "ai_credits_exhausted");
  });

  test("the daily cap used answers 429 ai_action_limited with scope account, and the rows are untouched", async () => {
    const id = harness.world.datasets.research_ready;
    const spec = dailyActionCap("outreach_drafts", "ultra");
    const charge = [{ spec, units: spec.limit - (await capUsed(harness)) }];
    const ctx = createContextInner({ services: harness.services });
    assert.equal((await consumeAllowances(ctx, harness.world.accounts.main, charge)).status, "allowed");
    try {
      const before = await rowsOf(harness, id);
      const answer = await send(id, { format: FORMAT });
      assert.equal(answer.status, 429);
      assert.equal(answer.body.error.code, "ai_action_limited");
      assert.equal(answer.body.error.scope, "account");
      assert.match(answer.headers.get("retry-after") ?? "", /^\d+$/);
      assert.deepEqual(
        (await rowsOf(harness, id)).map((row) => row.message),
        before.map((row) => row.message),
      );
    } finally {
      await releaseAllowances(ctx, harness.world.accounts.main, charge);
    }
  });

  test("instructions the local engine cannot follow answer 503 upstream_unavailable, charge nothing and give the cap run back", async () => {
    const id = harness.world.datasets.research_ready;
    const used = await capUsed(harness);
    const answer = await send(id, { format: FORMAT, instructions: "write it like a pirate captain" });
    assert.equal(answer.status, 503);
    assert.equal(answer.body.error.code, "upstream_unavailable");
    assert.match(answer.body.error.message, /AI_BASE_URL/);
    assert.deepEqual([answer.body.error.retryable, answer.body.error.capability], [false, "instructions"]);
    assert.equal(answer.headers.get("x-credits-charged"), "0");
    assert.equal(await capUsed(harness), used);
  });
});

describe("outreach drafts against an OpenAI-compatible server (crafted drafts)", () => {
  let fake: FakeOpenAiServer;
  let remote: Harness;
  before(async () => {
    fake = await startFakeOpenAiServer();
    remote = await startHarness({ config: { aiBaseUrl: fake.baseUrl, aiModel: "fake-chat" } });
  });
  after(async () => {
    await remote.close();
    await fake.close();
  });
  const send = (id: string, body: unknown) => transports(remote)[1].request("POST", path(id), { key: remote.world.keys.write, body });
  const recipientOf = (body: any): string => {
    const user = body?.messages?.find((message: { role: string }) => message.role === "user")?.content ?? "";
    return user.match(/Recipient:\n<data>\n.*@(\w+)/)?.[1] ?? "";
  };
  const draft = (text: string) => ({ kind: "chat" as const, text, usage: { prompt_tokens: 300, completion_tokens: 80 } });
  /** Runs `call` while the fake answers with `responder`. */
  const answering = async <T>(responder: Parameters<FakeOpenAiServer["respondWith"]>[0], call: () => Promise<T>): Promise<T> => {
    fake.respondWith(responder);
    try {
      return await call();
    } finally {
      fake.respondWith(undefined);
    }
  };

  test("the prompt carries the token rule, the hook and the format; the cost of all rows is rounded once", async () => {
    const id = await researchDataset(remote, [
      { handle: "alma", hooks: ["Most onboarding flows ask for too much too soon"] },
      { handle: "bruno", hooks: [] },
    ]);
    const from = fake.requests.length;
    const answer = await answering(
      (body) => draft(`Hi [first], about your work, @${recipientOf(body)}: ${FORMAT}`),
      () => send(id, { format: FORMAT, instructions: "Keep it warm" }),
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual([answer.body.data.drafted, answer.body.data.generic], [1, 1]);
    // 2 calls of 300 + 80 tokens at the default prices: 0.31 cents in all, so 1 credit, not 2.
    assert.equal(answer.body.meta.credits_charged, 1);
    assert.equal(answer.headers.get("x-credits-charged"), "1");
    const sent = fake.requests.slice(from).map((request) => request.body);
    assert.equal(sent.length, 2);
    const system = sent[0].messages.find((message: { role: string }) => message.role === "system").content;
    assert.match(system, /\[name\], \[first\] and \[handle\] exactly as written/);
    const alma = sent.find((body) => recipientOf(body) === "alma");
    const user = alma.messages.find((message: { role: string }) => message.role === "user").content;
    assert.match(user, /Most onboarding flows ask for too much too soon/);
    assert.match(user, /Keep it warm/);
    const bruno = sent.find((body) => recipientOf(body) === "bruno");
    assert.match(bruno.messages.find((message: { role: string }) => message.role === "user").content, /make no personal claims/);
  });

  test("a draft naming another recipient is contaminated, a model error fails its row; both clear the previous message", async () => {
    const people = ["carla", "dmitri", "erin", "femi"].map((handle) => ({ handle, hooks: [`The hardest part of ${handle}'s launch was pricing`] }));
    const id = await researchDataset(remote, people);
    const first = await answering(
      (body) => draft(`Hi [first], loved your pricing post, @${recipientOf(body)}.`),
      () => send(id, { format: FORMAT }),
    );
    assert.equal(first.status, 200);
    assert.ok(
      (await rowsOf(remote, id)).every((row) => row.message !== null),
      "every row drafted once",
    );

    const long = `Hi [first], ${"pricing is a product decision as much as a finance one. ".repeat(10)}`;
    const answer = await answering(
      (body) => {
        const who = recipientOf(body);
        if (who === "carla") return draft("Hi [first], @dmitri told me about your pricing post.");
        if (who === "dmitri") return { kind: "status", status: 400 };
        if (who === "erin") return draft(long);
        return draft("Hi [first], your pricing post stuck with me.");
      },
      () => send(id, { format: FORMAT }),
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const { data } = answer.body;
    assert.deepEqual([data.total, data.drafted, data.generic, data.failed, data.contaminated, data.long_messages], [4, 2, 0, 1, 1, 1]);
    assert.ok(data.sample_messages.every((sample: { message: string }) => !sample.message.includes("@dmitri")));
    const rows = await rowsOf(remote, id);
    assert.deepEqual(
      rows.map((row) => [row.handle, row.message === null, row.message_kind]),
      [
        ["carla", true, null],
        ["dmitri", true, null],
        ["erin", false, "drafted"],
        ["femi", false, "drafted"],
      ],
    );
    assert.equal(rows[2].message, long.trim());
    assert.equal(rows[0].message_at, null);
  });

  test("every draft failing answers 502 generation_failed: nothing charged, nothing written", async () => {
    const id = await researchDataset(remote, [
      { handle: "gita", hooks: ["Churn is a lagging signal"] },
      { handle: "hugo", hooks: [] },
    ]);
    assert.equal(
      (
        await answering(
          () => draft("Hi [first], a first draft."),
          () => send(id, { format: FORMAT }),
        )
      ).status,
      200,
    );
    const before = await rowsOf(remote, id);
    const me = await transports(remote)[1].request("GET", "/v1/me", { key: remote.world.keys.write });
    const answer = await answering(
      () => ({ kind: "status", status: 400 }),
      () => send(id, { format: FORMAT }),
    );
    assert.equal(answer.status, 502);
    assert.equal(answer.body.error.code, "generation_failed");
    assert.equal(answer.headers.get("x-credits-charged"), "0");
    const after = await transports(remote)[1].request("GET", "/v1/me", { key: remote.world.keys.write });
    assert.equal(after.body.data.credits.remaining, me.body.data.credits.remaining, "the pool did not move");
    assert.deepEqual(
      (await rowsOf(remote, id)).map((row) => row.message),
      before.map((row) => row.message),
    );
  });
});

describe("the local engine's outreach_message", () => {
  const model = createLocalModel();
  const write = async (input: { format: string; hook?: string | null; instructions?: string }) =>
    (await model.generate({ task: "outreach_message", input: { recipient: { name: "Ana Lopez", handle: "ana" }, hook: null, ...input } })).text;
  const hook = "Onboarding is where SaaS loses half its signups";

  test("[name], [first] and [handle] stay verbatim, through instructions too; other placeholders are filled", async () => {
    const format = "Hi [first]! Quick one for [name] (@[handle]) about {hook}. Open to a chat?";
    assert.equal(await write({ format, hook }), `Hi [first]! Quick one for [name] (@[handle]) about ${hook}. Open to a chat?`);
    const lower = await write({ format: "Hi [first], we build onboarding flows. Open to a chat, [name]?", hook, instructions: "lowercase and shorter" });
    assert.ok(lower.includes("[first]") && lower.includes("[name]"), lower);
    assert.ok(!/Ana|@ana\b/.test(lower));
    assert.equal(await write({ format: "Hi {first_name}, open to a chat about {hook}?", hook }), `Hi Ana, open to a chat about ${hook}?`);
  });

  test("a hook the format has no place for follows its greeting; without a hook nothing personal is said", async () => {
    const format = "Hi [first], I build onboarding flows for SaaS teams. Open to a chat?";
    assert.equal(await write({ format, hook }), `Hi [first], your post "${hook}" stuck with me. I build onboarding flows for SaaS teams. Open to a chat?`);
    assert.equal(await write({ format }), format);
    assert.equal(await write({ format: "Hi [first]! Loved {hook}. Open to a chat?" }), "Hi [first]! Open to a chat?");
  });
});

describe("the demo world's datasets", () => {
  test("research_ready, not_research, collecting and failed are in their states", async () => {
    const get = (id: string) => transports(harness)[0].request("GET", `/v1/datasets/${id}`, { key: harness.world.keys.write });
    const { datasets } = harness.world;
    const ready = (await get(datasets.research_ready)).body.data;
    assert.deepEqual([ready.source, ready.status], ["research", "ready"]);
    assert.ok(ready.row_count >= 3);
    const other = (await get(datasets.not_research)).body.data;
    assert.equal(other.status, "ready");
    assert.notEqual(other.source, "research");
    assert.ok(other.row_count >= 1);
    const collecting = (await get(datasets.collecting)).body.data;
    assert.equal(collecting.status, "collecting");
    const [{ jobs }] = await harness.services.sql<
      { jobs: number }[]
    >`select count(*)::int as jobs from jobs where payload::text like ${`%${datasets.collecting}%`}`;
    assert.equal(jobs, 0, "no job will finish it: it stays collecting for clients to see");
    const failed = (await get(datasets.failed)).body.data;
    assert.equal(failed.status, "failed");
    assert.ok(failed.error && failed.error.length > 10);
  });

  test("research_ready's briefs and hooks: every hook is a verbatim sentence of the post it names, by that person", async () => {
    const rows = await rowsOf(harness, harness.world.datasets.research_ready);
    assert.ok(rows.length >= 3);
    for (const row of rows) {
      assert.ok(row.brief && row.brief.summary.length > 0 && row.brief.topics.length > 0, `${row.handle} has a brief`);
      assert.ok((row.hooks ?? []).length >= 1, `${row.handle} has hooks`);
      for (const hook of row.hooks ?? []) {
        const post = await harness.services.network.postById(hook.post_id);
        assert.equal(post.authorId, row.x_user_id);
        assert.ok(post.text.includes(hook.quote), `"${hook.quote}" is in the post`);
        assert.match(hook.post_url, new RegExp(`/${row.handle}/status/${hook.post_id}$`));
      }
    }
  });
});
