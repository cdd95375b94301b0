/**
 * Signals as the API shows them (spec: Other endpoints with stated parameters; supplement:
 * Signals). The spec leaves the agent and lead records "not shown"; these are Threadline's,
 * built from the fields the supplement names.
 */
import { z } from "zod";

/** How strict an agent or a search is: `high` deposits only clear fits, `discovery` casts wider. */
export const precisionMode = z
  .enum(["high", "discovery"], { error: "must be high or discovery" })
  .meta({ description: "`high`: only clear fits (score 70 and up); `discovery`: likely fits too (score 50 and up)" });

/** The lowest score a lead needs under each precision. */
export const PRECISION_THRESHOLD: Record<PrecisionMode, number> = { high: 70, discovery: 50 };

/** What an agent can watch (supplement: Signals). */
export const SIGNAL_TYPES = ["keyword_watch", "profile_watch", "follower_watch", "list_watch"] as const;

/** A signal's type. */
export const signalType = z.enum(SIGNAL_TYPES, { error: `must be one of ${SIGNAL_TYPES.join(", ")}` });

/** Keywords and signals one agent watches at most, together (supplement: "together 1-5"). */
export const MAX_AGENT_SIGNALS = 5;

/** An ICP description: trimmed, 3 to 500 characters (supplement: keywords/suggest, icp/expand; agents: max 500). */
export const icpDescription = z
  .string({ error: "must be a string of 3 to 500 characters" })
  .trim()
  .min(3, "must be at least 3 characters")
  .max(500, "must be at most 500 characters");

/** The person a lead is, as the network showed them when the lead was found. */
export const leadProfileFields = {
  x_user_id: z.string(),
  username: z.string(),
  name: z.string(),
  bio: z.string(),
  avatar_url: z.string(),
  location: z.string(),
  url: z.string().nullable(),
  verified: z.boolean(),
  followers_count: z.number().int(),
  following_count: z.number().int(),
  posts_count: z.number().int().meta({ description: "Lifetime posts (volume)" }),
};

/** What made someone a lead: the action, the watch that saw it and the triggering post. */
export const leadProvenance = z
  .object({
    action: z.enum(["posted", "engaged_with_profile", "followed", "list_post"]).meta({
      description:
        "`posted` (a keyword match), `engaged_with_profile` (replied to or quoted a watched profile), `followed` (newly followed a watched handle), `list_post` (posted as a member of a watched list)",
    }),
    signal_id: z.number().int().nullable().meta({ description: "The agent's signal that saw it; null in lead search" }),
    signal_type: signalType.nullable(),
    watched: z.string().nullable().meta({ description: "The keyword query, the watched @handle or the list's name" }),
    tweet_id: z.string().nullable().meta({ description: "The triggering post; null for a new follower" }),
    post_text: z.string().nullable(),
    post_url: z.string().nullable(),
    posted_at: z.string().nullable(),
    post_age_days: z.number().int().nullable().meta({ description: "Whole days between the post and the discovery" }),
  })
  .meta({ id: "LeadProvenance" });

/** A stored lead (`GET /v1/signals/leads`). */
export const signalLead = z
  .object({
    id: z.number().int(),
    agent_id: z.number().int().nullable().meta({ description: "Null once the agent was deleted (its leads stay)" }),
    ...leadProfileFields,
    icp_score: z.number().int().meta({ description: "Fit with the agent's ICP, 0 to 100" }),
    icp_rationale: z.string().meta({ description: "One line on why" }),
    deposited: z.boolean().meta({ description: "Added to the agent's destination list" }),
    deposited_at: z.string().nullable(),
    destination_list_id: z.number().int().nullable().meta({ description: "The list it was deposited into" }),
    discovered_at: z.string(),
    provenance: leadProvenance,
    feedback: z.enum(["fit", "not_fit"]).nullable(),
    feedback_at: z.string().nullable(),
    account_id: z.string(),
  })
  .meta({ id: "SignalLead" });

/** One watch of an agent. */
export const agentSignal = z
  .object({
    id: z.number().int(),
    type: signalType,
    target: z.string().meta({ description: "The keyword query, the handle (without `@`) or the list id" }),
    target_id: z.string().nullable().meta({ description: "The resolved X user id or list id; null for keywords" }),
    label: z.string().meta({ description: "How to show it: the query, `@handle` or the list's name" }),
    created_at: z.string(),
  })
  .meta({ id: "AgentSignal" });

/** A standing lead agent. */
export const signalAgent = z
  .object({
    id: z.number().int(),
    name: z.string(),
    icp_description: z.string(),
    precision_mode: precisionMode,
    status: z.enum(["active", "paused"]),
    destination_list_id: z.number().int().nullable().meta({ description: "Null when the list was deleted: deposits stop until repointed" }),
    signals: z.array(agentSignal),
    keywords: z.array(z.string()).meta({ description: "The queries of its `keyword_watch` signals" }),
    lead_count: z.number().int(),
    deposited_count: z.number().int(),
    last_run_at: z.string().nullable(),
    next_run_at: z.string().nullable().meta({ description: "When the runner next reads its signals; null while paused" }),
    last_run_error: z.string().nullable(),
    account_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "SignalAgent" });

/** A signal entry refused while the agent was still created (supplement: partial success). */
export const signalWarning = z.object({
  type: signalType,
  target: z.string(),
  code: z.enum(["user_not_found", "x_list_not_found", "duplicate_signal", "cap_reached"]),
  message: z.string(),
});

/** The types. */
export type PrecisionMode = z.infer<typeof precisionMode>;
export type SignalType = z.infer<typeof signalType>;
export type LeadProvenance = z.infer<typeof leadProvenance>;
export type SignalLead = z.infer<typeof signalLead>;
export type AgentSignal = z.infer<typeof agentSignal>;
export type SignalAgent = z.infer<typeof signalAgent>;
export type SignalWarning = z.infer<typeof signalWarning>;
