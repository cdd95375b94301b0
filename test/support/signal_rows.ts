/**
 * Rows of leads for the signal tests, written straight to the tables (the agent runner that
 * finds leads is its own suite's subject): the person as a contact, the lead, and, for a
 * deposited lead, the person's row in the destination list with the lead's score.
 */
import type { Queryable } from "../../core/db/sql.ts";

/** What one test lead needs. */
export interface TestLead {
  accountId: string;
  agentId: number | null;
  xUserId: string;
  username?: string;
  score?: number;
  discoveredAt: Date;
  /** The list it was deposited into; omitted, the lead is not deposited. */
  depositedListId?: number;
}

/** Inserts the contact (unless known), the lead and its list row; answers the lead id. */
export async function insertTestLead(sql: Queryable, lead: TestLead): Promise<number> {
  const username = lead.username ?? `lead_${lead.xUserId.slice(-6)}`;
  const at = lead.discoveredAt;
  await sql`
    insert into contacts (account_id, x_user_id, username, name, bio, posts_count, followers_count, profile_read_at, created_at)
    values (${lead.accountId}, ${lead.xUserId}, ${username}, ${`Lead ${username}`}, 'Founder of a B2B SaaS', 420, 1200, ${at}, ${at})
    on conflict (account_id, x_user_id) do nothing`;
  const score = lead.score ?? 80;
  const provenance = {
    action: "posted",
    signal_id: null,
    signal_type: "keyword_watch",
    watched: "churn",
    tweet_id: "1900000000000000001",
    post_text: "Our churn doubled this quarter",
    post_url: `https://x.com/${username}/status/1900000000000000001`,
    posted_at: at.toISOString(),
    post_age_days: 0,
  };
  const deposited = lead.depositedListId !== undefined;
  const [row] = await sql<{ id: number }[]>`
    insert into signal_leads (account_id, agent_id, x_user_id, icp_score, icp_rationale, provenance, deposited, deposited_at, deposited_list_id, discovered_at)
    values (${lead.accountId}, ${lead.agentId}, ${lead.xUserId}, ${score}, 'Runs a SaaS and talks about churn', ${sql.json(provenance as never)},
            ${deposited}, ${deposited ? at : null}, ${lead.depositedListId ?? null}, ${at})
    returning id`;
  if (lead.depositedListId !== undefined) {
    await sql`
      insert into contact_list_members (list_id, account_id, x_user_id, source, added_at, icp_score, icp_rationale)
      values (${lead.depositedListId}, ${lead.accountId}, ${lead.xUserId}, 'signal', ${at}, ${score}, 'Runs a SaaS and talks about churn')`;
    await sql`update contact_lists set member_count = member_count + 1 where id = ${lead.depositedListId}`;
  }
  return row.id;
}
