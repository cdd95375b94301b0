/**
 * Stored leads (docs/areas.md "Signals"; spec: GET /v1/signals/leads; supplement: Signals): the
 * people the account's agents judged, newest discovery first. Leads are contacts of the
 * account, so the profile shown is the contact's current one.
 */
import type { AccountContext } from "../context.ts";
import { pageInfo } from "../schema.ts";
import { agentById } from "./agent_queries.ts";
import { agentNotFound } from "./agent_access.ts";
import { type LeadRow, leadPage } from "./leads_queries.ts";
import type { ListLeadsInput } from "./agent_schema.ts";
import type { SignalLead } from "./signal_schema.ts";

/** Lists the account's leads; `agent_id` must name an agent of the account (`404 agent_not_found`). */
export async function listLeads(ctx: AccountContext, input: ListLeadsInput) {
  const { sql } = ctx.services;
  if (input.agent_id !== undefined) {
    const agent = await agentById(sql, input.agent_id);
    if (!agent || agent.account_id !== ctx.account.id) throw agentNotFound(input.agent_id);
  }
  const filter = {
    agentId: input.agent_id,
    deposited: input.deposited,
    since: input.since === undefined ? undefined : new Date(input.since),
    until: input.until === undefined ? undefined : new Date(input.until),
  };
  const rows = await leadPage(sql, ctx.account.id, filter, input.limit, (input.page - 1) * input.limit);
  return { data: rows.map(toLead), pagination: pageInfo(input.page, input.limit, rows[0]?.total, rows.length) };
}

/** A stored lead in the API's shape. */
export function toLead(row: LeadRow): SignalLead {
  return {
    id: row.id,
    agent_id: row.agent_id,
    x_user_id: row.x_user_id,
    username: row.username,
    name: row.name,
    bio: row.bio,
    avatar_url: row.avatar_url,
    location: row.location,
    url: row.url,
    verified: row.verified,
    followers_count: row.followers_count,
    following_count: row.following_count,
    posts_count: row.posts_count,
    icp_score: row.icp_score,
    icp_rationale: row.icp_rationale,
    deposited: row.deposited,
    deposited_at: row.deposited_at?.toISOString() ?? null,
    destination_list_id: row.deposited_list_id,
    discovered_at: row.discovered_at.toISOString(),
    provenance: row.provenance,
    feedback: row.feedback,
    feedback_at: row.feedback_at?.toISOString() ?? null,
    account_id: row.account_id,
  };
}
