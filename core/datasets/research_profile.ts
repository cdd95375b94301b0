/**
 * Researching one profile (docs/areas.md "Datasets"), the same for a synchronous run and the job:
 * resolve the person (a handle by name, a stored person by X id), read their recent
 * original posts, ask the model task `profile_research` for a brief and hooks, and keep
 * only the hooks that quote their post verbatim (hook_check.ts). A profile that cannot be
 * researched comes back skipped with its reason (`not_found`, `protected`,
 * `no_recent_posts`, `model_failed`); a network that cannot be reached throws, so the
 * caller gives everything back (request) or retries (job).
 */
import type { Model } from "../model/model.ts";
import { ModelError } from "../model/model_errors.ts";
import { parseTaskOutput } from "../model/task_output.ts";
import { NetworkNotFoundError, NetworkPrivateError } from "../network/network_errors.ts";
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { NewDatasetRow } from "./datasets_queries.ts";
import { verbatimHooks } from "./hook_check.ts";
import { personColumns } from "./row_columns.ts";
import { type ResearchTarget, type SkippedProfile, skippedOf } from "./research_target.ts";
import { DAY_MS } from "../time/durations.ts";

/** Recent posts read per profile at most (the last 20 originals). */
export const RESEARCH_POSTS = 20;

/** How far back "recent" reaches, in days. */
export const RESEARCH_WINDOW_DAYS = 60;

/** Topics and recent themes kept per brief at most. */
const MAX_THEMES = 8;

/** What researching a profile needs. */
export interface ResearchDeps {
  network: SocialNetwork;
  model: Model;
  now: Date;
}

/** A researched profile's row, or why it was skipped. */
export type ProfileOutcome = { row: NewDatasetRow; hooksDropped: number } | { skipped: SkippedProfile };

/** Researches `target` with `focus` (what the caller wants to learn, when given). */
export async function researchTarget(deps: ResearchDeps, target: ResearchTarget, focus: string | null): Promise<ProfileOutcome> {
  let user: NetworkUser;
  try {
    user = target.x_user_id ? await deps.network.userById(target.x_user_id) : await deps.network.userByUsername((target.handle ?? "").replace(/^@/, ""));
  } catch (error) {
    if (error instanceof NetworkNotFoundError) return { skipped: skippedOf(target, "not_found") };
    if (error instanceof NetworkPrivateError) return { skipped: skippedOf(target, "protected") };
    throw error;
  }
  const who = { handle: user.username, x_user_id: user.id };
  // A protected account shows its profile but not its posts: nothing to quote.
  if (user.protected) return { skipped: skippedOf(who, "protected") };
  let posts: NetworkPost[];
  try {
    posts = await recentOriginals(deps, user.id);
  } catch (error) {
    if (error instanceof NetworkPrivateError) return { skipped: skippedOf(who, "protected") };
    if (error instanceof NetworkNotFoundError) return { skipped: skippedOf(who, "not_found") };
    throw error;
  }
  if (posts.length === 0) return { skipped: skippedOf(who, "no_recent_posts") };
  let brief: ReturnType<typeof parseTaskOutput<"profile_research">>;
  try {
    const result = await deps.model.generate({
      task: "profile_research",
      input: {
        ...(focus ? { focus } : {}),
        person: { handle: user.username, name: user.name, bio: user.description },
        posts: posts.map((post) => ({ id: post.id, text: post.text })),
      },
    });
    brief = parseTaskOutput("profile_research", result.text);
  } catch (error) {
    if (error instanceof ModelError) return { skipped: skippedOf(who, "model_failed") };
    throw error;
  }
  const { hooks, dropped } = verbatimHooks(brief.hooks, posts, user.username);
  return {
    row: {
      key: user.id,
      ...personColumns(user),
      brief: {
        summary: brief.summary.trim(),
        topics: tidy(brief.topics),
        tone: brief.tone.trim(),
        recent_themes: tidy(brief.recent_themes),
      },
      hooks,
    },
    hooksDropped: dropped,
  };
}

/**
 * The person's original posts of the last `RESEARCH_WINDOW_DAYS`, newest first, at most
 * `RESEARCH_POSTS`: replies and reposts are left out by the read, quotes here (their text
 * answers someone else's post), and empty posts (media only) have nothing to quote.
 */
async function recentOriginals(deps: ResearchDeps, userId: string): Promise<NetworkPost[]> {
  const since = new Date(deps.now.getTime() - RESEARCH_WINDOW_DAYS * DAY_MS).toISOString();
  const page = await deps.network.timeline(userId, { excludeReplies: true, excludeReposts: true, since, limit: RESEARCH_POSTS });
  return page.items.filter((post) => post.kind === "post" && post.text.trim().length > 0).slice(0, RESEARCH_POSTS);
}

/** Trimmed, non-empty, unique entries, at most `MAX_THEMES`. */
function tidy(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter(Boolean))].slice(0, MAX_THEMES);
}
