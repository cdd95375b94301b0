/**
 * The scheduled-post listing section of `npm run bench` (docs/operations.md "Scripts": `GET /v1/scheduled-posts`
 * on an account with 100,000 posts, page 1 and a deep page, vs the bare SQL, target within
 * 2x). One account of its own gets 100,000 posts (drafts, queued and sent, some tagged) in
 * one statement; then each page is read one request at a time through the full REST path and
 * through a bare h3 route running the same two queries (page + tags) on the same pool
 * (bare_scheduled_list_app.ts), the way the main section compares `GET /v1/tags`; the SQL
 * alone, without HTTP, is printed beside them.
 */
import type { Services } from "../core/context.ts";
import { listPostRows, tagsOfPosts } from "../core/scheduling/scheduled_posts_queries.ts";
import { POST_STATUSES } from "../core/scheduling/scheduled_post_schema.ts";
import { seedSectionUser } from "./seed.ts";
import { serveFetch } from "./serve_fetch.ts";
import { BARE_LIST_PATH, createBareListApp } from "./bare_scheduled_list_app.ts";
import { timeSequential, type SequentialResult } from "./sequential_timing.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface ListTarget {
  services: Services;
  /** The full-path server, `http://127.0.0.1:<port>`. */
  origin: string;
  keyPrefix: string;
}

/** Settings: posts seeded, page size, calls per case. */
export interface ListSettings {
  posts: number;
  limit: number;
  calls: number;
}

/** The full path may take at most this multiple of the bare SQL's time. */
const TARGET_MULTIPLE = 2;

/** Seeds, measures, prints and answers the section's figures. */
export async function measureScheduledList(target: ListTarget, settings: ListSettings, notReal: string | undefined) {
  const { sql } = target.services;
  const user = await seedSectionUser(sql, { keyPrefix: target.keyPrefix, label: "scheduled-list" });
  console.log("");
  console.log(`Scheduled posts list: seeding ${settings.posts.toLocaleString("en")} posts on one account ...`);
  const seedStart = performance.now();
  await seedPosts(target.services, user.ownerId, settings.posts);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const deepPage = Math.floor((settings.posts - settings.limit) / settings.limit);
  const cases = [
    { name: "page_1", page: 1 },
    { name: "deep_page", page: deepPage },
  ];
  const headers = { Authorization: `Bearer ${user.key}` };
  const bareApp = createBareListApp(sql, user.ownerId);
  const bareServer = await serveFetch((request) => bareApp.fetch(request));
  const rows: { name: string; page: number; full: SequentialResult; bare: SequentialResult; sqlOnly: SequentialResult }[] = [];
  let invalid = 0;
  const pageOf = async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    const body = (await response.json()) as { data?: unknown[] };
    return response.ok && body.data?.length === settings.limit;
  };
  try {
    for (const { name, page } of cases) {
      const query = `limit=${settings.limit}&page=${page}`;
      const full = await timeSequential(settings.calls, () => pageOf(`${target.origin}/v1/scheduled-posts?${query}`, { headers }));
      const bare = await timeSequential(settings.calls, () => pageOf(`${bareServer.url}${BARE_LIST_PATH}?${query}`));
      const sqlOnly = await timeSequential(settings.calls, async () => {
        const found = await listPostRows(sql, { accountId: user.ownerId, statuses: POST_STATUSES, limit: settings.limit, offset: (page - 1) * settings.limit });
        await tagsOfPosts(
          sql,
          found.slice(0, settings.limit).map((row) => row.id),
        );
        return found.length >= settings.limit;
      });
      invalid += full.failed + bare.failed + sqlOnly.failed;
      rows.push({ name, page, full, bare, sqlOnly });
    }
  } finally {
    await bareServer.close();
  }

  console.log("");
  console.log(`== GET /v1/scheduled-posts on ${settings.posts.toLocaleString("en")} posts vs the bare SQL (one request at a time, ${settings.calls} each) ==`);
  console.log(
    formatColumns(
      ["case", "page", "full p50 ms", "full p99 ms", "bare p50 ms", "bare p99 ms", "SQL only p50 ms", "full/bare p50"],
      rows.map(({ name, page, full, bare, sqlOnly }) => [
        name,
        String(page),
        ms(full.p50Us),
        ms(full.p99Us),
        ms(bare.p50Us),
        ms(bare.p99Us),
        ms(sqlOnly.p50Us),
        (full.p50Us / bare.p50Us).toFixed(2),
      ]),
    ),
  );
  console.log(
    `(seeded in ${seedSeconds.toFixed(1)} s; bare = an h3 route running listPostRows + tagsOfPosts on the same pool and answering the same JSON, ` +
      "no auth, limits, tRPC or zod; SQL only = the two queries without HTTP)",
  );
  const worst = Math.max(...rows.map(({ full, bare }) => full.p50Us / bare.p50Us));
  const pass = worst <= TARGET_MULTIPLE;
  console.log(
    `target: full path within ${TARGET_MULTIPLE}x the bare route (same SQL) at p50 on page 1 and page ${deepPage}: ${pass ? "PASS" : "FAIL"} (worst ${worst.toFixed(2)}x)`,
  );
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  if (invalid > 0) console.log(`INVALID: ${invalid} calls answered wrongly`);
  const summary = {
    posts: settings.posts,
    limit: settings.limit,
    calls: settings.calls,
    seed_s: round(seedSeconds, 2),
    pass,
    worst_multiple: round(worst, 3),
    valid: invalid === 0,
    real_target: notReal === undefined,
    ...Object.fromEntries(
      rows.map(({ name, page, full, bare, sqlOnly }) => [
        name,
        {
          page,
          sql_only_p50_ms: round(sqlOnly.p50Us / 1000, 3),
          full_p50_ms: round(full.p50Us / 1000, 3),
          full_p99_ms: round(full.p99Us / 1000, 3),
          bare_p50_ms: round(bare.p50Us / 1000, 3),
          bare_p99_ms: round(bare.p99Us / 1000, 3),
        },
      ]),
    ),
  };
  return { summary, valid: invalid === 0 };
}

function ms(micros: number): string {
  return (micros / 1000).toFixed(2);
}

/** `count` posts in one statement: 60% sent, 30% queued, 10% drafts, updated over the past year. */
async function seedPosts(services: Services, accountId: string, count: number): Promise<void> {
  const { sql } = services;
  await sql`
    insert into scheduled_posts (account_id, status, scheduled_for, parts, created_at, updated_at, sent_at, x_post_ids)
    select ${accountId},
           case when i % 10 = 0 then 'draft' when i % 10 < 4 then 'scheduled' else 'sent' end,
           case when i % 10 = 0 then null else now() + ((i % 10 < 4)::int * 2 - 1) * (i || ' minutes')::interval end,
           jsonb_build_array(jsonb_build_object('text', 'Bench post ' || i, 'media', '[]'::jsonb)),
           now() - (i || ' seconds')::interval,
           now() - (i || ' seconds')::interval,
           case when i % 10 >= 4 then now() - (i || ' minutes')::interval end,
           case when i % 10 >= 4 then array[(1000000000000000000 + i)::text] end
      from generate_series(1, ${count}) as i`;
  await sql`analyze scheduled_posts`;
}
