/** SQL of stored leads (table `signal_leads`, migration 0024), with each person's profile from `contacts`. */
import type { Queryable } from "../db/sql.ts";
import type { LeadProvenance } from "./signal_schema.ts";

/** A stored lead joined to its contact. */
export interface LeadRow {
  id: number;
  account_id: string;
  agent_id: number | null;
  x_user_id: string;
  username: string;
  name: string;
  bio: string;
  avatar_url: string;
  location: string;
  url: string | null;
  verified: boolean;
  followers_count: number;
  following_count: number;
  posts_count: number;
  icp_score: number;
  icp_rationale: string;
  provenance: LeadProvenance;
  deposited: boolean;
  deposited_at: Date | null;
  deposited_list_id: number | null;
  feedback: "fit" | "not_fit" | null;
  feedback_at: Date | null;
  discovered_at: Date;
}

/** The filters of `GET /v1/signals/leads`. */
export interface LeadFilter {
  agentId?: number;
  deposited?: boolean;
  since?: Date;
  until?: Date;
}

const LEAD_COLUMNS = (sql: Queryable) => sql`
  l.id, l.account_id, l.agent_id, l.x_user_id, c.username, c.name, c.bio, c.avatar_url, c.location, c.url, c.verified,
  c.followers_count, c.following_count, c.posts_count, l.icp_score, l.icp_rationale, l.provenance, l.deposited, l.deposited_at,
  l.deposited_list_id, l.feedback, l.feedback_at, l.discovered_at`;

/**
 * A page of the account's leads, newest discovery first (ties by id, so pages are stable);
 * `total` counts every match. Served by `signal_leads_by_time` (or `_by_agent` with an agent).
 */
export async function leadPage(sql: Queryable, accountId: string, filter: LeadFilter, limit: number, offset: number) {
  return sql<(LeadRow & { total: number })[]>`
    select ${LEAD_COLUMNS(sql)}, count(*) over ()::int as total
      from signal_leads l join contacts c on c.account_id = l.account_id and c.x_user_id = l.x_user_id
     where l.account_id = ${accountId}
       ${filter.agentId === undefined ? sql`` : sql`and l.agent_id = ${filter.agentId}`}
       ${filter.deposited === undefined ? sql`` : sql`and l.deposited = ${filter.deposited}`}
       ${filter.since === undefined ? sql`` : sql`and l.discovered_at >= ${filter.since}`}
       ${filter.until === undefined ? sql`` : sql`and l.discovered_at <= ${filter.until}`}
     order by l.discovered_at desc, l.id desc
     limit ${limit} offset ${offset}`;
}

/** One lead by id, or undefined. */
export async function leadById(sql: Queryable, id: number): Promise<LeadRow | undefined> {
  const [row] = await sql<LeadRow[]>`
    select ${LEAD_COLUMNS(sql)}
      from signal_leads l join contacts c on c.account_id = l.account_id and c.x_user_id = l.x_user_id
     where l.id = ${id}`;
  return row;
}
