/**
 * The demo world's datasets (shared/spec/demo_world.md `datasets.*`; docs/areas.md "Datasets"), on A's
 * main account: a `ready` research dataset whose rows carry briefs and hooks quoted verbatim
 * from the people's own posts on the network, a `ready` collection of the repliers of the
 * demo post (`not_research`), and one dataset `collecting` and one `failed`. Re-runs find
 * them by title and leave them as they are (a purged one is made again).
 */
import type { Services } from "../context.ts";
import { expiryOf, newDatasetId } from "../datasets/dataset_access.ts";
import { appendRows, insertDataset, type NewDatasetRow } from "../datasets/datasets_queries.ts";
import { personColumns, postColumns } from "../datasets/row_columns.ts";
import { contentWords } from "../model/role_lexicon.ts";
import { sentencesOf } from "../model/text_units.ts";
import { NetworkError } from "../network/network_errors.ts";
import type { NetworkUser } from "../network/network_records.ts";
import { postUrl } from "../network/post_url.ts";
import { demoDatasetIdTitled } from "./demo_datasets_queries.ts";

/** The ids of the demo datasets. */
export interface DemoDatasets {
  research_ready: string;
  collecting: string;
  failed: string;
  not_research: string;
}

// Made in this order, so newest first lists the ready research dataset first.
const TITLES = {
  failed: "Demo: collection that failed",
  collecting: "Demo: research still collecting",
  not_research: "Demo: repliers of the demo post",
  research_ready: "Demo: research of design and AI voices",
} as const;

/** Ensures A's demo datasets; answers their ids. */
export async function ensureDemoDatasets(services: Services, owner: { userId: number; accountId: string }): Promise<DemoDatasets> {
  const ids: Partial<DemoDatasets> = {};
  for (const [key, title] of Object.entries(TITLES) as [keyof DemoDatasets, string][]) {
    ids[key] =
      (await demoDatasetIdTitled(services.sql, owner.userId, title, new Date(services.clock.now()))) ?? (await createDemoDataset(services, owner, key, title));
  }
  return ids as DemoDatasets;
}

async function createDemoDataset(services: Services, owner: { userId: number; accountId: string }, key: keyof DemoDatasets, title: string): Promise<string> {
  const { sql, clock } = services;
  const now = new Date(clock.now());
  const fixtures = services.network.demoFixtures?.();
  const id = newDatasetId();
  const base = { id, owner_id: owner.userId, account_id: owner.accountId, title, created_at: now, expires_at: expiryOf(now.getTime()) };
  const rows =
    key === "research_ready"
      ? await researchRows(services, [fixtures?.user_handle ?? "kai_on_ai", "nina_designs", ...(await replierHandles(services, fixtures?.post_id))])
      : key === "not_research"
        ? await replierRows(services, fixtures?.post_id)
        : [];
  await sql.begin(async (tx) => {
    if (key === "research_ready") {
      await insertDataset(tx, {
        ...base,
        source: "research",
        status: "ready",
        params: { max_rows: 10, research: { handles: rows.map((row) => row.handle ?? "") } },
        counts: { researched: rows.length, skipped: 0 },
        finished_at: now,
      });
    } else if (key === "not_research") {
      await insertDataset(tx, {
        ...base,
        source: "repliers",
        status: "ready",
        target: fixtures?.post_id ?? null,
        target_id: fixtures?.post_id ?? null,
        params: { max_rows: 100 },
        counts: { scanned: rows.length, matched: rows.length },
        finished_at: now,
      });
    } else if (key === "collecting") {
      // No job: it stays `collecting` so clients (and black-box tests) can see the state and
      // its `409 dataset_not_ready`; like every dataset it is purged after 30 days. Research,
      // so it does not hold the account's one background collection (datasets_one_collecting).
      await insertDataset(tx, {
        ...base,
        source: "research",
        status: "collecting",
        params: { max_rows: 10, research: { handles: ["kai_on_ai"] } },
        expected_total: 10,
      });
    } else {
      await insertDataset(tx, {
        ...base,
        source: "repliers",
        status: "failed",
        target: fixtures?.post_id ?? null,
        params: { max_rows: 500 },
        error: "The network could not be reached while collecting; build the dataset again",
        finished_at: now,
      });
    }
    await appendRows(tx, id, 0, rows);
  });
  return id;
}

/** People researched at most (kai, nina, then repliers of the demo post). */
const RESEARCHED = 5;

/**
 * Research rows: the demo's public figures, then people who replied to the demo post, each
 * with a plain brief drawn from their own recent posts and up to two hooks that are whole
 * sentences of those posts, copied verbatim (checked with `includes` before they are kept;
 * a sentence naming an `@handle` is passed over, so a hook never names someone else). A
 * person with no quotable sentence is left out: every row of this dataset has hooks.
 */
async function researchRows(services: Services, handles: string[]): Promise<NewDatasetRow[]> {
  const rows: NewDatasetRow[] = [];
  for (const handle of handles) {
    if (rows.length >= RESEARCHED) break;
    if (rows.some((row) => row.handle?.toLowerCase() === handle.toLowerCase())) continue;
    const read = await readPerson(services, handle);
    if (!read || read.user.protected) continue;
    const { user, posts } = read;
    const hooks = posts.flatMap((post) => {
      const quote = sentencesOf(post.text).find((sentence) => sentence.length >= 20 && !sentence.includes("@") && post.text.includes(sentence));
      return quote ? [{ quote, post_id: post.id, post_url: postUrl(user.username, post.id), posted_at: post.createdAt }] : [];
    });
    if (hooks.length === 0) continue;
    rows.push({ key: user.id, ...personColumns(user), brief: briefOf(services, user, posts), hooks: hooks.slice(0, 2) });
  }
  return rows;
}

/**
 * A brief from the posts alone: the network's own topic terms they use most (the simulated
 * world's vocabulary; their most used words where the adapter has none) as topics, each of
 * the three newest posts' main term as a recent theme.
 */
function briefOf(services: Services, user: NetworkUser, posts: readonly { text: string }[]): NonNullable<NewDatasetRow["brief"]> {
  const vocabulary = services.network.vocabulary?.() ?? [];
  const termsOf = (text: string): string[] => {
    const lower = text.toLowerCase();
    const terms = vocabulary.filter((term) => new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(lower));
    return terms.length > 0 ? terms : contentWords(text).flatMap(({ word }) => (word.length > 3 ? [word] : []));
  };
  const counts = new Map<string, number>();
  for (const post of posts) for (const term of new Set(termsOf(post.text))) counts.set(term, (counts.get(term) ?? 0) + 1);
  const ranked = (terms: Iterable<string>) => [...terms].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || a.localeCompare(b));
  const topics = ranked(counts.keys()).slice(0, 4);
  const themes = [...new Set(posts.slice(0, 3).flatMap((post) => ranked(new Set(termsOf(post.text))).slice(0, 1)))];
  const questions = posts.filter((post) => post.text.includes("?")).length;
  const tone = questions * 2 >= posts.length ? "curious, asks the audience" : "direct, matter-of-fact";
  return {
    summary: `${user.name} posts about ${topics.slice(0, 3).join(", ") || "their work"} (${posts.length} recent original posts read).`,
    topics,
    tone,
    recent_themes: themes,
  };
}

async function readPerson(
  services: Services,
  handle: string,
): Promise<{ user: NetworkUser; posts: { id: string; text: string; createdAt: string }[] } | undefined> {
  try {
    const user = await services.network.userByUsername(handle);
    const { items } = await services.network.timeline(user.id, { excludeReplies: true, excludeReposts: true, limit: 10 });
    return { user, posts: items.filter((post) => post.kind === "post") };
  } catch (error) {
    if (error instanceof NetworkError) return undefined;
    throw error;
  }
}

/** Handles of the people who replied to `postId` (one page), in reply order. */
async function replierHandles(services: Services, postId: string | undefined): Promise<string[]> {
  return (await replierRows(services, postId)).flatMap((row) => (row.handle ? [row.handle] : []));
}

/** One page of the repliers of `postId`, one row per person. */
async function replierRows(services: Services, postId: string | undefined): Promise<NewDatasetRow[]> {
  if (!postId) return [];
  try {
    const { items } = await services.network.replies(postId, { limit: 50 });
    const users = new Map((await services.network.usersByIds([...new Set(items.map((post) => post.authorId))])).map((user) => [user.id, user]));
    const seen = new Set<string>();
    return items.flatMap((post) => {
      const user = users.get(post.authorId);
      if (!user || seen.has(user.id)) return [];
      seen.add(user.id);
      return [{ key: user.id, ...personColumns(user), ...postColumns(post, user.username) }];
    });
  } catch (error) {
    if (error instanceof NetworkError) return [];
    throw error;
  }
}
