/** The application router: every area's procedures, one source for both surfaces. */
import { router } from "../core/trpc.ts";
import { analyticsRouter } from "./analytics.ts";
import { articlesRouter } from "./articles.ts";
import { audienceRouter } from "./audience.ts";
import { contactListsRouter } from "./contact_lists.ts";
import { contactsRouter } from "./contacts.ts";
import { contentRouter } from "./content.ts";
import { contextRouter } from "./context.ts";
import { coversRouter } from "./covers.ts";
import { datasetsRouter } from "./datasets.ts";
import { datasetRowsRouter } from "./dataset_rows.ts";
import { datasetOutreachRouter } from "./dataset_outreach.ts";
import { engageRouter } from "./engage.ts";
import { eventsRouter } from "./events.ts";
import { dmRouter } from "./dm.ts";
import { identityRouter } from "./identity.ts";
import { inspirationMediaRouter } from "./inspiration_media.ts";
import { keysRouter } from "./keys.ts";
import { inspirationRouter } from "./inspiration.ts";
import { mediaRouter } from "./media.ts";
import { metaRouter } from "./meta.ts";
import { plugTemplatesRouter } from "./plug_templates.ts";
import { postsAnalysisRouter } from "./posts_analysis.ts";
import { postsComposeRouter } from "./posts_compose.ts";
import { queueRouter } from "./queue.ts";
import { scheduledPostsRouter } from "./scheduled_posts.ts";
import { signalsRouter } from "./signals.ts";
import { signalsHelpersRouter } from "./signals_helpers.ts";
import { signalsSearchRouter } from "./signals_search.ts";
import { tagsRouter } from "./tags.ts";
import { webhooksRouter } from "./webhooks.ts";
import { toolsRouter } from "./tools.ts";
import { workersRouter } from "./workers.ts";
import { xLookupsRouter } from "./x_lookups.ts";

export const appRouter = router({
  analytics: analyticsRouter,
  articles: articlesRouter,
  audience: audienceRouter,
  contactLists: contactListsRouter,
  contacts: contactsRouter,
  content: contentRouter,
  context: contextRouter,
  covers: coversRouter,
  datasets: datasetsRouter,
  datasetRows: datasetRowsRouter,
  datasetOutreach: datasetOutreachRouter,
  engage: engageRouter,
  events: eventsRouter,
  dm: dmRouter,
  identity: identityRouter,
  inspirationMedia: inspirationMediaRouter,
  keys: keysRouter,
  inspiration: inspirationRouter,
  media: mediaRouter,
  meta: metaRouter,
  plugTemplates: plugTemplatesRouter,
  posts: postsComposeRouter,
  postsAnalysis: postsAnalysisRouter,
  queue: queueRouter,
  scheduledPosts: scheduledPostsRouter,
  signals: signalsRouter,
  signalsHelpers: signalsHelpersRouter,
  signalsSearch: signalsSearchRouter,
  tags: tagsRouter,
  tools: toolsRouter,
  webhooks: webhooksRouter,
  workers: workersRouter,
  x: xLookupsRouter,
});

/** The router's type, for typed tRPC clients. */
export type AppRouter = typeof appRouter;
