/**
 * The agent runner's bounds and rhythm (docs/areas.md "Signals"): what one run of one agent may
 * read, how far back a first run looks, and when the agent is due again. The spec leaves
 * all of these to us; docs/areas.md ("Signals") lists them.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { Model } from "../model/model.ts";
import type { SocialNetwork } from "../network/social_network.ts";

/** What a run uses: the job runner's deps (or the server's services, for the demo). */
export interface AgentRunDeps {
  sql: Sql;
  clock: Clock;
  network: SocialNetwork;
  model: Model;
}

/** The runner's bounds and rhythm. */
export const AGENT_RUN_LIMITS = {
  /** Pages one keyword or list watch reads per run at most (newest first). */
  pagesPerPostWatch: 3,
  /** Items asked per page of posts or followers. */
  pageSize: 100,
  /**
   * How far back a first run of a keyword, list or profile watch looks (the network's
   * search window when it is shorter): a new agent starts from the last week's signals.
   */
  firstRunLookbackDays: 7,
  /** A profile watch reads the replies and quotes of this many of the profile's newest posts. */
  profilePosts: 4,
  /** A follower watch reads this many pages of the newest followers per run at most. */
  followerPages: 2,
  /** A first follower watch takes the newest page of this size as "recent followers". */
  firstFollowers: 50,
  /** Followers remembered at the head of the list, to find where the new ones end. */
  followerHeadIds: 20,
  /** Candidates one signal sends to the model per run at most (newest first). */
  candidatesPerSignal: 100,
  /** Time between two runs of an agent. */
  everySeconds: 60 * 60,
  /** Time before the next run after a network or model failure. */
  retrySeconds: 15 * 60,
  /**
   * How long a claimed run holds the agent: no other runner starts it before, and a runner
   * that died mid-run is replaced after it.
   */
  leaseSeconds: 10 * 60,
  /** Feedback examples of each kind (fit, not fit) the scorer sees, newest first. */
  feedbackExamples: 10,
} as const;
