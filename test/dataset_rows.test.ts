/**
 * Dataset rows, the CSV export and copying people into a contact list (docs/areas.md "Datasets";
 * spec rule 8, Datasets, Limits 7; supplement: Datasets rows, export, contacts, and section
 * 1 on the export's `Content-Disposition`). Every case runs in process and over HTTP; the
 * datasets are the demo world's and ones written here through the dataset queries.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { insertTestDataset, ownerOf, parseCsv, replierRow, setMessage } from "./support/dataset_rows.ts";
import type { Sql } from "../core/db/sql.ts";
import { openApiDocument } from "./support/response_schemas.ts";
import { randomIp } from "./support/harness.ts";

const storage = process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite";

/** Texts that need CSV quoting. */
const TRICKY = ['Price, "per seat", is steep', "Line one\nline two", "Plain text", 'Only "quotes"'];

describe(`dataset rows, export and contacts (${storage})`, { timeout: 180_000 }, () => {
  let harness: Harness;
  let sql: Sql;
  let ownerId: number;
  /** A ready repliers dataset of 1,000 rows. */
  let large: string;
  /** A ready repliers dataset: 6 people, a repeat row of person 1, two rows without a usable id. */
  let people: string;
  /** Own posts (no people). */
  let ownPosts: string;
  /** A research dataset with one drafted message. */
  let drafted: string;
  /** People whose text a spreadsheet would run as formulas. */
  let formulas: string;

  before(async () => {
    harness = await startHarness();
    sql = harness.services.sql;
    ownerId = await ownerOf(sql, harness.world.datasets.not_research);
    const main = harness.world.accounts.main;
    const rows = Array.from({ length: 1000 }, (_, i) => replierRow(i + 1, TRICKY[i % TRICKY.length]));
    large = await insertTestDataset(sql, { ownerId, accountId: main, title: "Repliers of: the launch post!", rows });
    people = await insertTestDataset(sql, {
      ownerId,
      accountId: main,
      rows: [
        ...Array.from({ length: 6 }, (_, i) => replierRow(i + 1, `Reply ${i + 1}`)),
        replierRow(1, "Second reply of person 1", { key: "repeat-1" }),
        replierRow(50, "No id", { key: "no-id", x_user_id: null }),
        replierRow(51, "Not numeric", { key: "bad-id", x_user_id: "abc" }),
      ],
    });
    ownPosts = await insertTestDataset(sql, {
      ownerId,
      accountId: main,
      source: "my_posts",
      rows: [{ key: "p1", post_id: "p1", post_text: "My post" }],
    });
    drafted = await insertTestDataset(sql, {
      ownerId,
      accountId: main,
      source: "research",
      title: "Research",
      rows: [
        {
          ...replierRow(1, null),
          brief: { summary: "Writes about design", topics: ["design", "ai"], tone: "warm", recent_themes: ["tools"] },
          hooks: [{ quote: "Design is a verb", post_id: "1", post_url: "https://x.com/a/status/1", posted_at: null }],
        },
        replierRow(2, null),
      ],
    });
    await setMessage(sql, drafted, 1, "Hi [first], loved your take, truly.");
    formulas = await insertTestDataset(sql, {
      ownerId,
      accountId: main,
      rows: [
        replierRow(1, "+1 agreed", { name: '=HYPERLINK("https://evil.example","Click")', bio: "@SUM(A1:A9)" }),
        replierRow(2, "-2 points, cmd|' /C calc'!A0", { name: "\tTabbed", bio: "Plain = fine", location: "\rReturn" }),
      ],
    });
  });
  after(() => harness.close());

  describeMatrix(({ name, transport }) => {
    const get = (path: string, key = harness.world.keys.write) => transport(harness).request("GET", path, { key });

    describe(`rows (${name})`, () => {
      test("pages rows in order with the total; limit defaults to 100", async () => {
        const first = await get(`/v1/datasets/${large}/rows`);
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.data.length, 100);
        assert.deepEqual(first.body.pagination, { page: 1, limit: 100, has_more: true, total: 1000 });
        const third = await get(`/v1/datasets/${large}/rows?limit=50&page=3`);
        assert.deepEqual(
          third.body.data.map((row: { position: number }) => row.position),
          Array.from({ length: 50 }, (_, i) => 101 + i),
        );
        const last = await get(`/v1/datasets/${large}/rows?limit=100&page=10`);
        assert.equal(last.body.pagination.has_more, false);
        const row = third.body.data[0];
        assert.equal(row.handle, "replier_101");
        assert.equal(row.post_text, TRICKY[100 % TRICKY.length]);
        assert.equal(row.brief, null);
        assert.equal(row.message, null);
      });

      test("limit 1-100, a malformed id is 400; unknown, foreign or expired is 404; not ready is 409 with the status", async () => {
        expectError(await get(`/v1/datasets/${large}/rows?limit=101`), 400, "invalid_parameter", "limit 101");
        expectError(await get(`/v1/datasets/${large}/rows?limit=0`), 400, "invalid_parameter", "limit 0");
        expectError(await get(`/v1/datasets/${large}/rows?page=0`), 400, "invalid_parameter", "page 0");
        expectError(await get(`/v1/datasets/${"x".repeat(65)}/rows`), 400, "invalid_parameter", "id too long");
        expectError(await get("/v1/datasets/bad.id/rows"), 400, "invalid_parameter", "id with a dot");
        expectError(await get("/v1/datasets/ds_unknown/rows"), 404, "not_found", "unknown");
        expectError(await get(`/v1/datasets/${large}/rows`, harness.world.keys.other_user), 404, "not_found", "another user's");
        const collecting = await get(`/v1/datasets/${harness.world.datasets.collecting}/rows`);
        expectError(collecting, 409, "dataset_not_ready", "collecting");
        assert.equal(collecting.body.error.dataset_status, "collecting");
        const failed = await get(`/v1/datasets/${harness.world.datasets.failed}/rows`);
        expectError(failed, 409, "dataset_not_ready", "failed");
        assert.equal(failed.body.error.dataset_status, "failed");
      });
    });

    describe(`export (${name})`, () => {
      test("answers the whole dataset as CSV with the file name from the title and the day, and rate headers", async () => {
        const answer = await get(`/v1/datasets/${large}/export?format=csv`);
        assert.equal(answer.status, 200, String(answer.body).slice(0, 300));
        assert.equal(answer.headers.get("content-type"), "text/csv; charset=utf-8");
        const day = new Date().toISOString().slice(0, 10);
        assert.equal(answer.headers.get("content-disposition"), `attachment; filename="superx-dataset-repliers-of-the-launch-post-${day}.csv"`);
        // The real client's match (supplement section 1): the quoted form.
        assert.equal(/filename="([^"]+)"/.exec(answer.headers.get("content-disposition") ?? "")?.[1], `superx-dataset-repliers-of-the-launch-post-${day}.csv`);
        assert.match(answer.headers.get("x-ratelimit-remaining") ?? "", /^\d+$/);
        const records = parseCsv(answer.body);
        assert.equal(records.length, 1001, "a header and 1,000 rows");
        const header = records[0];
        assert.deepEqual(header.slice(0, 3), ["x_user_id", "handle", "name"]);
        for (const column of ["post_text", "post_url", "likes", "followers_count", "verified"]) assert.ok(header.includes(column), column);
        assert.ok(!header.includes("message"), "no message column before any draft");
        assert.ok(!header.includes("summary"), "no brief columns for a collection");
        const text = header.indexOf("post_text");
        assert.deepEqual(
          records.slice(1, 5).map((record) => record[text]),
          TRICKY,
          "commas, quotes and line breaks survive",
        );
        assert.equal(records[2][header.indexOf("verified")], "true");
        assert.equal(records[1][header.indexOf("verified")], "false");
        assert.equal(records[1000][header.indexOf("handle")], "replier_1000");
        assert.ok(
          records.every((record) => record.length === header.length),
          "every record has every column",
        );
      });

      test("text a spreadsheet would run as a formula gets a leading quote; numbers and other text are as stored", async () => {
        const [header, first, second] = parseCsv((await get(`/v1/datasets/${formulas}/export`)).body);
        const cell = (record: string[], column: string) => record[header.indexOf(column)];
        assert.equal(cell(first, "name"), `'=HYPERLINK("https://evil.example","Click")`);
        assert.equal(cell(first, "bio"), "'@SUM(A1:A9)");
        assert.equal(cell(first, "post_text"), "'+1 agreed");
        assert.equal(cell(second, "post_text"), "'-2 points, cmd|' /C calc'!A0");
        assert.equal(cell(second, "name"), "'\tTabbed");
        assert.equal(cell(second, "location"), "'\rReturn");
        assert.equal(cell(second, "bio"), "Plain = fine");
        assert.equal(cell(first, "x_user_id"), "9100000001");
        assert.equal(cell(second, "followers_count"), "20");
        assert.equal(cell(first, "handle"), "replier_1");
      });

      test("format defaults to csv; any other format is 400", async () => {
        const answer = await get(`/v1/datasets/${people}/export`);
        assert.equal(answer.status, 200);
        expectError(await get(`/v1/datasets/${people}/export?format=xlsx`), 400, "invalid_parameter", "xlsx");
      });

      test("own posts export the post columns only; research adds the brief and, once drafted, message", async () => {
        const own = parseCsv((await get(`/v1/datasets/${ownPosts}/export`)).body);
        assert.equal(own[0][0], "post_id");
        assert.ok(!own[0].includes("handle"));
        const research = parseCsv((await get(`/v1/datasets/${drafted}/export`)).body);
        const header = research[0];
        for (const column of ["handle", "summary", "topics", "hooks", "message"]) assert.ok(header.includes(column), column);
        assert.ok(!header.includes("post_text"));
        assert.equal(research[1][header.indexOf("topics")], "design; ai");
        assert.equal(research[1][header.indexOf("hooks")], "Design is a verb");
        assert.equal(research[1][header.indexOf("message")], "Hi [first], loved your take, truly.");
        assert.equal(research[2][header.indexOf("message")], "");
      });

      test("the same refusals as rows: 404, 409 with the status, 400", async () => {
        expectError(await get("/v1/datasets/ds_unknown/export?format=csv"), 404, "not_found", "unknown");
        expectError(await get(`/v1/datasets/${large}/export`, harness.world.keys.other_user), 404, "not_found", "another user's");
        const collecting = await get(`/v1/datasets/${harness.world.datasets.collecting}/export?format=csv`);
        expectError(collecting, 409, "dataset_not_ready", "collecting");
        assert.equal(collecting.body.error.dataset_status, "collecting");
        expectError(await get("/v1/datasets/a%20b/export"), 400, "invalid_parameter", "id with a space");
        expectError(await get(`/v1/datasets/${large}/export`, harness.world.keys.revoked), 401, "invalid_api_key", "revoked key");
      });
    });
  });

  test("the MCP export tool answers the CSV as text (whole rows), with no structured content", async () => {
    const tool = openApiDocument().paths["/v1/datasets/{id}/export"].get["x-mcp-tool"];
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: tool, arguments: { id: people, format: "csv" } } };
    const response = await fetch(`${harness.baseUrl}/v1/mcp`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${harness.world.keys.write}`,
        "X-Forwarded-For": randomIp(),
      },
      body: JSON.stringify(call),
    });
    const raw = await response.text();
    const message = JSON.parse(raw.startsWith("{") ? raw : (raw.split("\n").find((line) => line.startsWith("data: ")) ?? "").slice(6));
    const result = message.result;
    assert.ok(result, raw.slice(0, 500));
    assert.equal(result.isError, undefined, raw.slice(0, 500));
    assert.equal(result.structuredContent, undefined);
    const records = parseCsv(result.content[0].text);
    assert.equal(records.length, 10, "a header and 9 rows");
    assert.equal(records[0][1], "handle");
    assert.equal(result.content.length, 1, "not truncated");
  });

  test("the tRPC surface answers the export's file name and columns (the file itself is REST's)", async () => {
    const input = encodeURIComponent(JSON.stringify({ id: people }));
    const answer = await transports(harness)[0].request("GET", `/trpc/datasetRows.export?input=${input}`, { key: harness.world.keys.write });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const data = answer.body.result.data;
    assert.match(data.filename, /^superx-dataset-test-dataset-\d{4}-\d{2}-\d{2}\.csv$/);
    assert.equal(data.columns[1], "handle");
    assert.equal(data.records, undefined);
  });

  test("an expired dataset (past its 30 days) is 404 on rows and export", async () => {
    const expired = await insertTestDataset(sql, {
      ownerId,
      accountId: harness.world.accounts.main,
      rows: [replierRow(1, "old")],
      now: new Date(Date.now() - 31 * 86_400_000),
    });
    for (const transport of transports(harness)) {
      expectError(await transport.request("GET", `/v1/datasets/${expired}/rows`, { key: harness.world.keys.write }), 404, "not_found", "rows");
      expectError(await transport.request("GET", `/v1/datasets/${expired}/export`, { key: harness.world.keys.write }), 404, "not_found", "export");
    }
  });

  describe("into a contact list", () => {
    const post = (index: number, path: string, body: unknown, key = harness.world.keys.write) =>
      transports(harness)[index].request("POST", path, { key, body });
    let listId: string;
    before(async () => {
      const created = await post(0, "/v1/contact-lists", { name: "From the dataset" });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      listId = String(created.body.data.id);
    });

    test("adds each person once, counts rows without an id, and a rerun adds nobody", async () => {
      const first = await post(0, `/v1/datasets/${people}/contacts`, { list_id: listId });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body.data, { dataset_id: people, list_id: listId, added: 6, duplicates: 0, skipped_without_id: 2, total_in_list_after: 6 });
      const again = await post(1, `/v1/datasets/${people}/contacts`, { list_id: Number(listId) });
      assert.deepEqual(again.body.data, { dataset_id: people, list_id: listId, added: 0, duplicates: 6, skipped_without_id: 2, total_in_list_after: 6 });
      const members = await transports(harness)[0].request("GET", `/v1/contact-lists/${listId}/members?limit=100`, { key: harness.world.keys.write });
      assert.equal(members.status, 200);
      assert.deepEqual(members.body.data.map((member: { username: string }) => member.username).sort(), [
        "replier_1",
        "replier_2",
        "replier_3",
        "replier_4",
        "replier_5",
        "replier_6",
      ]);
      const [{ count }] = await sql<{ count: number }[]>`
        select count(*)::int as count from contact_list_members where list_id = ${Number(listId)} and source = 'dataset'`;
      assert.equal(count, 6);
    });

    test("people already in the list count as duplicates; a larger dataset adds the rest", async () => {
      const answer = await post(1, `/v1/datasets/${large}/contacts`, { list_id: listId });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.data, { dataset_id: large, list_id: listId, added: 994, duplicates: 6, skipped_without_id: 0, total_in_list_after: 1000 });
    });

    describeMatrix(({ index, name }) => {
      test(`refusals (${name}): list 404, system list 400, own posts 400, not ready 409, unknown 404, bad body 400`, async () => {
        const path = `/v1/datasets/${people}/contacts`;
        expectError(await post(index, path, { list_id: 999_999_999 }), 404, "list_not_found", "unknown list");
        expectError(await post(index, path, { list_id: harness.world.contact_lists.system }), 400, "system_list_read_only", "system list");
        expectError(await post(index, `/v1/datasets/${ownPosts}/contacts`, { list_id: listId }), 400, "invalid_parameter", "own posts");
        const collecting = await post(index, `/v1/datasets/${harness.world.datasets.collecting}/contacts`, { list_id: listId });
        expectError(collecting, 409, "dataset_not_ready", "collecting");
        assert.equal(collecting.body.error.dataset_status, "collecting");
        expectError(await post(index, "/v1/datasets/ds_unknown/contacts", { list_id: listId }), 404, "not_found", "unknown dataset");
        expectError(await post(index, path, {}), 400, "invalid_parameter", "no list_id");
        expectError(await post(index, path, { list_id: "abc" }), 400, "invalid_parameter", "list_id not an id");
        expectError(await post(index, path, { list_id: listId }, harness.world.keys.read), 403, "insufficient_scope", "read-only key");
        expectError(await post(index, path, { list_id: listId, account_id: harness.world.accounts.other_user }), 404, "account_not_found", "foreign account");
        // The account rule comes before the dataset's state.
        expectError(
          await post(index, `/v1/datasets/${harness.world.datasets.collecting}/contacts`, { list_id: listId, account_id: harness.world.accounts.other_user }),
          404,
          "account_not_found",
          "foreign account on a dataset still collecting",
        );
      });
    });
  });
});
