/**
 * One lead search for the signals section of the bench. Until `searchLeads` (the
 * `POST /v1/signals/leads/search` core) is available, it times the same work done by hand:
 * one recent search per angle of the keywords (originals of the last 30 days, one page of
 * 100), one candidate per author (their newest post), judged with `scoreLeads` against the
 * ICP; leads are the candidates scoring 50 and up.
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import type { NetworkPost } from "../core/network/network_records.ts";
import { type LeadCandidate, scoreLeads } from "../core/signals/lead_scoring.ts";
import { PRECISION_THRESHOLD } from "../core/signals/signal_schema.ts";

const KEYWORDS = ["churn", "pricing", "customer discovery"];
const ICP = "B2B SaaS founders struggling with churn";
const DAY_MS = 86_400_000;

/** What one search took and found. */
export interface LeadSearchFigures {
  label: string;
  seconds: number;
  queriesUsed: number;
  postsRead: number;
  judged: number;
  leads: number;
}

/** Runs and times one search. */
export async function measureLeadSearch(services: Services): Promise<LeadSearchFigures> {
  const { network, model, clock } = services;
  const start = performance.now();
  const since = new Date(clock.now() - Math.min(30, network.info.searchWindowDays) * DAY_MS).toISOString();
  const posts: NetworkPost[] = [];
  for (const query of KEYWORDS) posts.push(...(await network.search({ query, originalsOnly: true, since, limit: 100 })).items);
  const newest = new Map<string, NetworkPost>();
  for (const post of posts.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))) if (!newest.has(post.authorId)) newest.set(post.authorId, post);
  const users = await network.usersByIds([...newest.keys()]);
  const candidates: LeadCandidate[] = users.map((user) => {
    const post = newest.get(user.id)!;
    return {
      user,
      post,
      provenance: {
        action: "posted",
        signal_id: null,
        signal_type: null,
        watched: null,
        tweet_id: post.id,
        post_text: post.text,
        post_url: null,
        posted_at: post.createdAt,
        post_age_days: Math.floor((clock.now() - Date.parse(post.createdAt)) / DAY_MS),
      },
    };
  });
  const { scored } = await scoreLeads(model, { icp: ICP, candidates });
  return {
    label: `by hand: ${KEYWORDS.length} searches + scoreLeads ("${KEYWORDS.join(", ")}")`,
    seconds: (performance.now() - start) / 1000,
    queriesUsed: KEYWORDS.length,
    postsRead: posts.length,
    judged: candidates.length,
    leads: scored.filter((lead) => lead.score >= PRECISION_THRESHOLD.discovery).length,
  };
}
