/**
 * `POST /v1/signals/leads/search` (spec: Other endpoints with stated parameters; Limits 11;
 * AI credits; supplement: Signals). A one-off search that creates nothing (no contacts, no
 * lead rows). In order:
 *
 * 1. Plan up to 10 queries from the angles (query_plan.ts).
 * 2. ONE allowance call takes a unit of the platform fair-use ceiling per planned query
 *    (Limits 11: "live-data actions (lead search, ...) also draw on a shared daily
 *    ceiling"); full -> `429 ai_action_limited` scope platform, nothing taken.
 * 3. The queries run one after another, newest first, originals only, over the network's
 *    whole search reach (`network.info.searchWindowDays`), one page of 100 each, within a
 *    time budget (55 s; the first query always runs). Posts older than
 *    `max_post_age_days` are skipped and counted (`freshness`). A query that fails after
 *    another succeeded ends the search early (`partial: true`); when the FIRST query
 *    finds the network unreachable, nothing was read: the units go back and no credit is
 *    kept (AI credits: "A lead search that never reaches the social network is not
 *    charged") -> `503 upstream_unavailable`. Units of queries never run go back too.
 * 4. One candidate per person (never the account itself): their best matching post (most
 *    angle and ICP words, then the freshest). Up to 60 people (3 model calls) are judged,
 *    taken round-robin over the queries so every angle is heard.
 * 5. The ICP judge (lead_scoring.ts) scores them; leads at or above the precision's
 *    threshold are kept, best score first, freshest post first within a score, up to
 *    `max_leads`. A person the judge left out is not a lead.
 * 6. Credits: the judge's measured cost, at least 1 once the network was reached.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { chargeCall } from "../credits/credit_call.ts";
import { consumeAllowances, releaseAllowances } from "../limits/allowances.ts";
import { PLATFORM_LIVE_DATA } from "../limits/allowance_catalog.ts";
import { actionCapError } from "../limits/allowance_errors.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { contentWords } from "../model/role_lexicon.ts";
import { networkApiError } from "../network/network_api_error.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { postUrl } from "../network/post_url.ts";
import { leadProfileOf, scoreLeads, type LeadCandidate } from "./lead_scoring.ts";
import { anglesOf, type LeadSearchInput, type LeadSearchOutput } from "./lead_search_schema.ts";
import { planQueries, type PlannedQuery } from "./query_plan.ts";
import { PRECISION_THRESHOLD } from "./signal_schema.ts";
import { DAY_MS } from "../time/durations.ts";

/** The time budget of one search (supplement: "up to a minute"; 5 s left for the answer). */
export const LEAD_SEARCH_BUDGET_MS = 55_000;

/** People judged per search at most: 3 calls of the judge, so a search costs a few credits. */
export const MAX_JUDGED = 60;

/** Posts read per query: one page. */
const PAGE = 100;

/** Options of a search (tests shorten the budget). */
export interface LeadSearchOptions {
  /** Wall-clock budget in ms for the searches (default 55 s). */
  budgetMs?: number;
}

/** What one planned query found. */
interface QueryRun extends PlannedQuery {
  searched: boolean;
  /** Original posts inside the window, newest first. */
  posts: NetworkPost[];
}

/** Runs a lead search for the account in `ctx` (see the order above). */
export async function searchLeads(ctx: AccountContext, input: LeadSearchInput, options: LeadSearchOptions = {}): Promise<LeadSearchOutput> {
  const started = performance.now();
  const budgetMs = options.budgetMs ?? LEAD_SEARCH_BUDGET_MS;
  const { network, clock, model } = ctx.services;
  const plan = planQueries(anglesOf(input.keywords), input.icp_description);

  const owner = ctx.principal.mainAccountId;
  const outcome = await consumeAllowances(ctx, owner, [{ spec: PLATFORM_LIVE_DATA, units: plan.length }]);
  if (outcome.status !== "allowed") throw actionCapError(outcome);
  const giveBack = (units: number) =>
    units > 0 ? releaseAllowances(ctx, owner, [{ spec: PLATFORM_LIVE_DATA, units }], { chargedAt: outcome.checkedAt }) : undefined;

  const now = clock.now();
  const windowStart = now - input.max_post_age_days * DAY_MS;
  const runs: QueryRun[] = plan.map((query) => ({ ...query, searched: false, posts: [] }));
  const stale = new Map<string, number>();
  let partial = false;
  for (const run of runs) {
    const reached = runs.some((other) => other.searched);
    if (reached && performance.now() - started >= budgetMs) {
      partial = true;
      break;
    }
    let items: NetworkPost[];
    try {
      ({ items } = await network.search({ query: run.query, originalsOnly: true, limit: PAGE }));
    } catch (error) {
      const failure = networkApiError(error);
      if (reached) {
        // What was read stands; the rest of the plan is skipped and says so.
        partial = true;
        break;
      }
      if (failure instanceof ApiError && (failure.code === "upstream_unavailable" || failure.code === "upstream_timeout")) await giveBack(plan.length);
      throw failure;
    }
    run.searched = true;
    for (const post of items) {
      // The adapter already filters; this keeps the promise whichever adapter answered.
      if (post.kind !== "post" || post.isThreadContinuation) continue;
      const postedAt = Date.parse(post.createdAt);
      if (postedAt < windowStart) stale.set(post.id, postedAt);
      else run.posts.push(post);
    }
  }
  const ran = runs.filter((run) => run.searched);
  await giveBack(plan.length - ran.length);

  const candidates = pickCandidates(ran, ctx.account.id, [...anglesOf(input.keywords), input.icp_description]);
  const users =
    candidates.length > 0 ? await network.usersByIds(candidates.map(({ post }) => post.authorId)).catch((error) => Promise.reject(networkApiError(error))) : [];
  const byId = new Map(users.map((user) => [user.id, user]));
  const judged: LeadCandidate[] = candidates.flatMap(({ post, run }) => {
    const user = byId.get(post.authorId);
    if (!user || user.protected) return [];
    const postedAt = Date.parse(post.createdAt);
    return [
      {
        user,
        post,
        provenance: {
          action: "posted" as const,
          signal_id: null,
          signal_type: null,
          watched: run.query,
          tweet_id: post.id,
          post_text: post.text,
          post_url: postUrl(user.username, post.id),
          posted_at: new Date(postedAt).toISOString(),
          post_age_days: Math.max(0, Math.floor((now - postedAt) / DAY_MS)),
        },
      },
    ];
  });

  let scored: Awaited<ReturnType<typeof scoreLeads>>;
  try {
    const timeoutMs = Math.max(10_000, budgetMs - (performance.now() - started));
    scored = await scoreLeads(model, { icp: input.icp_description, offer: input.offer, candidates: judged }, { timeoutMs });
  } catch (error) {
    throw modelApiError(error) ?? error;
  }
  // The network was reached: at least 1 credit (supplement: "measured, at least 1 when it reaches X").
  const credits = Math.max(1, scored.costCredits);
  await chargeCall(ctx, credits);

  const minScore = PRECISION_THRESHOLD[input.precision];
  const leads = scored.scored
    .filter((lead) => lead.score >= minScore)
    .sort((a, b) => b.score - a.score || Date.parse(b.candidate.post?.createdAt ?? "") - Date.parse(a.candidate.post?.createdAt ?? ""))
    .slice(0, input.max_leads);
  const staleAges = [...stale.values()].map((postedAt) => Math.floor((now - postedAt) / DAY_MS));
  return {
    data: {
      leads: leads.map(({ candidate, score, rationale }) => ({
        ...leadProfileOf(candidate.user),
        icp_score: score,
        icp_rationale: rationale,
        provenance: candidate.provenance,
      })),
      precision: input.precision,
      min_score: minScore,
      partial,
      queries_used: ran.length,
      query_plan: runs.map((run) => ({
        query: run.query,
        angle: run.angle,
        searched: run.searched,
        posts_found: run.posts.length,
        leads_found: leads.filter((lead) => lead.candidate.provenance.watched === run.query).length,
      })),
      candidates_judged: judged.length,
      freshness: {
        max_post_age_days: input.max_post_age_days,
        posts_in_window: new Set(ran.flatMap((run) => run.posts.map((post) => post.id))).size,
        stale_skipped: stale.size,
        oldest_skipped_days: staleAges.length > 0 ? Math.max(...staleAges) : null,
        search_window_days: network.info.searchWindowDays,
      },
    },
    meta: { credits_charged: ctx.credits?.kept ?? credits, account_id: ctx.account.id },
  };
}

/**
 * One post per person (never `selfId`): the one sharing the most words with the angles
 * and the ICP, then the freshest; people taken round-robin over the queries (each
 * query's newest first) up to `MAX_JUDGED`.
 */
function pickCandidates(runs: readonly QueryRun[], selfId: string, texts: readonly string[]): { post: NetworkPost; run: QueryRun }[] {
  const wanted = new Set(texts.flatMap((text) => contentWords(text).map(({ stem }) => stem)));
  const strength = (post: NetworkPost) =>
    new Set(
      contentWords(post.text)
        .filter(({ stem }) => wanted.has(stem))
        .map(({ stem }) => stem),
    ).size;
  const best = new Map<string, { post: NetworkPost; run: QueryRun; strength: number }>();
  const order: string[] = [];
  const longest = Math.max(0, ...runs.map((run) => run.posts.length));
  for (let i = 0; i < longest; i++) {
    for (const run of runs) {
      const post = run.posts[i];
      if (!post || post.authorId === selfId) continue;
      const found = { post, run, strength: strength(post) };
      const current = best.get(post.authorId);
      if (!current) {
        best.set(post.authorId, found);
        order.push(post.authorId);
      } else if (found.strength > current.strength || (found.strength === current.strength && post.createdAt > current.post.createdAt)) {
        best.set(post.authorId, found);
      }
    }
  }
  return order.slice(0, MAX_JUDGED).flatMap((id) => {
    const found = best.get(id);
    return found ? [{ post: found.post, run: found.run }] : [];
  });
}
