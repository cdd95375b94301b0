/**
 * The audience section of `npm run bench` (docs/areas.md "Audience"): on an account
 * with 100,000 contacts, all in one user list (audience_seed.ts), member search with `q` (a
 * common surname fragment and one person's handle) and `GET /v1/contacts?sort=engagement`
 * (page 1 and a deep page), one request at a time through the full REST path against a bare
 * h3 route answering the same body from the same queries on the same pool, the SQL alone
 * beside (target: p50 under 20 ms and within 2x of the bare route); then bulk add of 500 known
 * people into an empty list and bulk delete of those 500 members (ms, figures only).
 * BENCH_AUDIENCE_CONTACTS (default 100,000), BENCH_AUDIENCE_CALLS (default 200 per case),
 * BENCH_AUDIENCE_BULK_RUNS (default 5).
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { memberPage } from "../core/contact_lists/list_members_queries.ts";
import { contactsPage } from "../core/audience/contacts_queries.ts";
import type { AudienceSettings } from "./bench_settings.ts";
import { seedSectionUser } from "./seed.ts";
import { seedAudience } from "./audience_seed.ts";
import { serveFetch } from "./serve_fetch.ts";
import { BARE_CONTACTS_PATH, BARE_MEMBERS_PATH, createBareAudienceApp } from "./bare_audience_app.ts";
import { type SequentialResult, timeAlternating } from "./sequential_timing.ts";
import { measureBulk } from "./audience_bulk.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface AudienceTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

const TARGET_P50_MS = 20;
const TARGET_MULTIPLE = 2;
const LIMIT = 50;
const DEEP_PAGE = 100;

/** One read measured three ways. */
interface ReadCase {
  name: string;
  /** The full path's path and query. */
  request: string;
  /** The bare route's path and query. */
  bare: string;
  sqlOnly: () => Promise<number>;
  /** Rows (and `total`, when the route reports one) a right answer carries. */
  rows: number;
  total?: number;
}

/** Seeds, measures, prints and answers the section's figures. */
export async function measureAudience(target: AudienceTarget, settings: AudienceSettings, notReal: string | undefined) {
  const { sql, clock } = target.services;
  const user = await seedSectionUser(sql, { keyPrefix: target.keyPrefix, label: "audience" });
  console.log("");
  console.log(`Audience: seeding ${settings.contacts.toLocaleString("en")} contacts, all in one user list ...`);
  const seedStart = performance.now();
  const world = await seedAudience(sql, user.ownerId, settings.contacts, new Date(clock.now()));
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const deepPage = Math.min(DEEP_PAGE, Math.floor(settings.contacts / LIMIT));
  const members = `/v1/contact-lists/${world.listId}/members`;
  const membersTemplate = "/v1/contact-lists/{id}/members";
  const search = (q: string, matches: number): Omit<ReadCase, "name"> => ({
    request: `${members}?q=${q}&limit=${LIMIT}`,
    bare: `${BARE_MEMBERS_PATH}?q=${q}&limit=${LIMIT}`,
    sqlOnly: async () => (await memberPage(sql, world.listId, user.ownerId, q, LIMIT + 1, 0)).length,
    rows: Math.min(LIMIT, matches),
    total: matches,
  });
  const contacts = (page: number): Omit<ReadCase, "name"> => ({
    request: `/v1/contacts?sort=engagement&limit=${LIMIT}&page=${page}`,
    bare: `${BARE_CONTACTS_PATH}?limit=${LIMIT}&page=${page}`,
    sqlOnly: async () => Math.min(LIMIT, (await contactsPage(sql, user.ownerId, "engagement", LIMIT + 1, (page - 1) * LIMIT)).length),
    rows: LIMIT,
  });
  const cases: ReadCase[] = [
    { name: "search_common", ...search(world.commonQ, world.commonMatches) },
    { name: "search_one", ...search(world.oneQ, 1) },
    { name: "contacts_page_1", ...contacts(1) },
    { name: `contacts_page_${deepPage}`, ...contacts(deepPage) },
  ];

  const headers = { Authorization: `Bearer ${user.key}` };
  const bareApp = createBareAudienceApp(sql, user.ownerId, { id: world.listId, memberCount: settings.contacts });
  const bareServer = await serveFetch((request) => bareApp.fetch(request));
  const answered = (readCase: ReadCase) => async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    const body = (await response.json()) as { data?: unknown[]; pagination?: { total?: number } };
    return response.ok && body.data?.length === readCase.rows && body.pagination?.total === readCase.total;
  };
  const rows: { readCase: ReadCase; full: SequentialResult; bare: SequentialResult; sqlOnly: SequentialResult }[] = [];
  try {
    for (const readCase of cases) {
      const check = answered(readCase);
      const [full, bare, sqlOnly] = await timeAlternating(settings.calls, [
        () => check(`${target.origin}${readCase.request}`, { headers }),
        () => check(`${bareServer.url}${readCase.bare}`),
        async () => (await readCase.sqlOnly()) >= readCase.rows,
      ]);
      rows.push({ readCase, full, bare, sqlOnly });
    }
  } finally {
    await bareServer.close();
  }
  const bulk = await measureBulk(target, user, settings.bulkRuns);

  const verdicts = rows.map(({ full, bare }) => ({ p50Ms: full.p50Us / 1000, multiple: full.p50Us / bare.p50Us }));
  const passes = verdicts.map(({ p50Ms, multiple }) => p50Ms < TARGET_P50_MS && multiple <= TARGET_MULTIPLE);
  const pass = passes.every(Boolean);
  console.log("");
  console.log(
    `== Audience reads on ${settings.contacts.toLocaleString("en")} contacts, all in one list (one request at a time, ${settings.calls} each, alternating) ==`,
  );
  console.log(
    formatColumns(
      ["case", "full p50", "full p95", "bare p50", "bare p95", "SQL p50", "SQL p95", "full/bare", "target"],
      rows.map(({ readCase, full, bare, sqlOnly }, i) => [
        readCase.name,
        ms(full.p50Us),
        ms(full.p95Us),
        ms(bare.p50Us),
        ms(bare.p95Us),
        ms(sqlOnly.p50Us),
        ms(sqlOnly.p95Us),
        `${verdicts[i].multiple.toFixed(2)}x`,
        passes[i] ? "PASS" : "FAIL",
      ]),
    ),
  );
  for (const { readCase } of rows) console.log(`  ${readCase.name}: GET ${readCase.request}`);
  console.log(
    `(ms; seeded in ${seedSeconds.toFixed(1)} s: ${world.engaged.toLocaleString("en")} people with engagement; q "${world.commonQ}" matches ` +
      `${world.commonMatches.toLocaleString("en")} people, q "${world.oneQ}" matches 1; bare = an h3 route calling the same memberPage / ` +
      "contactsPage on the same pool and answering the same JSON, no auth, limits, tRPC or zod; SQL only = the query function without HTTP)",
  );
  console.log(
    `target: p50 under ${TARGET_P50_MS} ms and within ${TARGET_MULTIPLE}x the bare route in every case: ${pass ? "PASS" : "FAIL"} ` +
      `(worst p50 ${Math.max(...verdicts.map((v) => v.p50Ms)).toFixed(2)} ms, worst ${Math.max(...verdicts.map((v) => v.multiple)).toFixed(2)}x)`,
  );
  console.log("");
  console.log(`== Bulk member writes of ${bulk.size} on fresh lists (${bulk.repeats} runs each, full REST path) ==`);
  console.log(
    formatColumns(
      ["request", "p50 ms", "min ms", "max ms"],
      [
        [`POST ${membersTemplate}/bulk`, ...bulk.add.map((value) => value.toFixed(2))],
        [`POST ${membersTemplate}/bulk-delete`, ...bulk.remove.map((value) => value.toFixed(2))],
      ],
    ),
  );
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const invalid = rows.reduce((sum, { full, bare, sqlOnly }) => sum + full.failed + bare.failed + sqlOnly.failed, 0) + bulk.failed;
  if (invalid > 0) console.log(`INVALID: ${invalid} calls answered wrongly`);
  const summary = {
    contacts: settings.contacts,
    calls: settings.calls,
    limit: LIMIT,
    seed_s: round(seedSeconds, 2),
    engaged_contacts: world.engaged,
    q_common: world.commonQ,
    q_common_matches: world.commonMatches,
    q_one: world.oneQ,
    target_p50_ms: TARGET_P50_MS,
    target_multiple: TARGET_MULTIPLE,
    pass,
    ...Object.fromEntries(
      rows.map(({ readCase, full, bare, sqlOnly }, i) => [
        readCase.name,
        {
          request: `GET ${readCase.request}`,
          full_p50_ms: round(full.p50Us / 1000, 3),
          full_p95_ms: round(full.p95Us / 1000, 3),
          bare_p50_ms: round(bare.p50Us / 1000, 3),
          bare_p95_ms: round(bare.p95Us / 1000, 3),
          sql_p50_ms: round(sqlOnly.p50Us / 1000, 3),
          sql_p95_ms: round(sqlOnly.p95Us / 1000, 3),
          multiple: round(verdicts[i].multiple, 3),
          pass: passes[i],
        },
      ]),
    ),
    bulk_add_500: { p50_ms: round(bulk.add[0], 2), min_ms: round(bulk.add[1], 2), max_ms: round(bulk.add[2], 2), runs: bulk.repeats },
    bulk_delete_500: { p50_ms: round(bulk.remove[0], 2), min_ms: round(bulk.remove[1], 2), max_ms: round(bulk.remove[2], 2), runs: bulk.repeats },
    valid: invalid === 0,
    real_target: notReal === undefined,
  };
  return { summary, valid: invalid === 0 };
}

function ms(micros: number): string {
  return (micros / 1000).toFixed(2);
}
