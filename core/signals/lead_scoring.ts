/**
 * The ICP judge that lead search and the signal agents share: candidates go to the Model
 * port's `lead_scoring` task in batches, and the scores come back tied to the candidates.
 *
 * Each batch numbers its candidates `1`..`n`, so a model never has to copy a long X id
 * (and two candidates of the same person stay apart). A candidate the model left out of
 * its answer is NOT judged: it is missing from `scored`, never given a made-up score, and
 * the caller treats it like a lead below the threshold. Unknown or repeated ids in the
 * answer are ignored (the first entry for an id counts). A malformed answer fails the
 * whole call with `ModelFailedError` (parseTaskOutput), so a caller refunds or retries.
 */
import type { CallOptions, Model } from "../model/model.ts";
import type { LeadScoringCandidate } from "../model/task_inputs.ts";
import { parseTaskOutput } from "../model/task_output.ts";
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import type { LeadProvenance } from "./signal_schema.ts";

/** A person who may be a lead: their profile, the post that surfaced them (if any) and how. */
export interface LeadCandidate {
  user: NetworkUser;
  post: NetworkPost | null;
  provenance: LeadProvenance;
}

/** Profile and post texts of leads the user marked fit or not fit (lead feedback). */
export interface FeedbackExamples {
  fit: string[];
  notFit: string[];
}

/** A candidate with the judge's verdict. */
export interface ScoredLead {
  candidate: LeadCandidate;
  /** Fit with the ICP, 0 to 100. */
  score: number;
  /** One line on why. */
  rationale: string;
}

/** Candidates per model call: small enough for a short, reliable JSON answer. */
export const LEAD_SCORING_BATCH = 20;

/**
 * Scores `candidates` against the ICP, in batches of `LEAD_SCORING_BATCH` run one after
 * another (a remote model's rate limit is the usual bound, and the order of costs stays
 * simple). `scored` keeps the input order; `costCredits` is the sum of every call's cost.
 */
export async function scoreLeads(
  model: Model,
  input: { icp: string; offer?: string; examples?: FeedbackExamples; candidates: readonly LeadCandidate[] },
  options: CallOptions = {},
): Promise<{ scored: ScoredLead[]; costCredits: number }> {
  const scored: ScoredLead[] = [];
  let costCredits = 0;
  const examples = input.examples && (input.examples.fit.length > 0 || input.examples.notFit.length > 0) ? input.examples : undefined;
  for (let start = 0; start < input.candidates.length; start += LEAD_SCORING_BATCH) {
    const batch = input.candidates.slice(start, start + LEAD_SCORING_BATCH);
    const result = await model.generate({
      task: "lead_scoring",
      input: {
        icp: input.icp,
        ...(input.offer?.trim() ? { offer: input.offer } : {}),
        ...(examples ? { examples } : {}),
        candidates: batch.map((candidate, i) => candidateInput(String(i + 1), candidate)),
      },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    costCredits += result.costCredits;
    const verdicts = new Map<string, { score: number; rationale: string }>();
    for (const lead of parseTaskOutput("lead_scoring", result.text).leads) {
      if (!verdicts.has(lead.id)) verdicts.set(lead.id, { score: lead.score, rationale: lead.rationale });
    }
    batch.forEach((candidate, i) => {
      const verdict = verdicts.get(String(i + 1));
      if (verdict) scored.push({ candidate, ...verdict });
    });
  }
  return { scored, costCredits };
}

/** A candidate as the model task reads it. */
function candidateInput(id: string, { user, post }: LeadCandidate): LeadScoringCandidate {
  return { id, name: user.name, username: user.username, bio: user.description, followers: user.followersCount, text: post?.text ?? null };
}

/** The profile fields of a lead (`leadProfileFields`), as the network shows the person now. */
export function leadProfileOf(user: NetworkUser) {
  return {
    x_user_id: user.id,
    username: user.username,
    name: user.name,
    bio: user.description,
    avatar_url: user.avatarUrl,
    location: user.location ?? "",
    url: user.url,
    verified: user.verified,
    followers_count: user.followersCount,
    following_count: user.followingCount,
    posts_count: user.postCount,
  };
}
