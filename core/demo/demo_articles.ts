/**
 * The articles part of the demo world: one article in each of `draft`, `scheduled` and
 * `published` on A's main account (which has the premium tier X articles need). Re-runs
 * reuse them (found by title and status); a scheduled one that went out in the meantime
 * is replaced by a new scheduled one.
 */
import type { Services } from "../context.ts";
import { insertArticle, articleIdByTitle } from "../articles/article_writes_queries.ts";
import { normalizeArticleMarkdown } from "../articles/markdown_normalize.ts";
import { publishArticleWith } from "../articles/publish_article_request.ts";
import { scheduleLocked } from "../articles/schedule_article.ts";

/** The demo's article ids by status. */
export interface DemoArticles {
  draft: string;
  scheduled: string;
  published: string;
}

const BODY = [
  "## Why I schedule long posts",
  "Writing on a **schedule** beats writing on a *whim*. Three habits made it stick:",
  "- Draft in Markdown, anywhere\n- Queue the article for the morning\n- Read the replies at lunch",
  "> Consistency compounds.",
  "More in the [Threadline docs](https://threadline.example/docs).",
].join("\n\n");

/** Ensures A's three demo articles; answers their ids. */
export async function ensureDemoArticles(services: Services, mainAccountId: string): Promise<DemoArticles> {
  const { sql, clock, network } = services;
  const now = new Date(clock.now());
  const body = normalizeArticleMarkdown(BODY);
  const ensure = async (title: string, statuses: readonly string[], create: (id: number) => Promise<void>) => {
    const existing = await articleIdByTitle(sql, mainAccountId, title, statuses);
    if (existing !== undefined) return String(existing);
    const row = await insertArticle(sql, mainAccountId, { title, content_markdown: body.markdown, warnings: body.warnings }, now);
    await create(row.id);
    return String(row.id);
  };
  const draft = await ensure("Demo article draft", ["draft"], async () => {});
  const scheduled = await ensure("Demo article scheduled", ["scheduled"], async (id) => {
    const inOneWeek = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 7, 9));
    await sql.begin((tx) => scheduleLocked(tx, id, inOneWeek, now));
  });
  const published = await ensure("Demo article published", ["published", "publishing"], async (id) => {
    // Only the simulated world is written to: a demo never publishes on a real X account.
    if (network.info.kind !== "simulated") return;
    const attempt = await publishArticleWith({ sql, network, clock }, id);
    // A world seeded with the network switched off (THREADLINE_FAULTS=x) keeps it a draft.
    if (attempt.outcome !== "published") console.warn(`Demo world: the "published" demo article stays unpublished (${attempt.reason})`);
  });
  return { draft, scheduled, published };
}
