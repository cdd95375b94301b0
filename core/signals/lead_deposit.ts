/**
 * Storing what one signal found (docs/areas.md "Signals"), in the transaction that also moves the
 * signal's cursor: the people become contacts of the account, the fits become leads of the
 * agent, and the leads at the agent's precision go into its destination list. Committed
 * together, so a failure leaves neither a half-written lead nor a cursor past unjudged
 * people, and the next run resumes from the old cursor.
 */
import { recordLeadsFound } from "./lead_events.ts";
import type { Queryable } from "../db/sql.ts";
import type { NetworkUser } from "../network/network_records.ts";
import { upsertContactProfiles } from "../people/contact_profiles_queries.ts";
import { addToMemberCount, type ContactListRow, lockList } from "../contact_lists/contact_lists_queries.ts";
import { type AgentRunRow, destinationOf, lockClaimedAgent } from "./agent_run_queries.ts";
import { insertLeads, insertScoredMembers, markDeposited, type NewLead } from "./lead_deposit_queries.ts";
import { PRECISION_THRESHOLD } from "./signal_schema.ts";

/** A judged candidate at or above the discovery threshold. */
export interface FoundLead extends NewLead {
  user: NetworkUser;
}

/** What a signal's commit stored. */
export interface DepositOutcome {
  leads: number;
  deposited: number;
}

/** The claimed agent and its destination list, both locked for a signal's commit. */
export interface DepositTarget {
  agent: AgentRunRow;
  /** Undefined: no destination (deleted, or never set). */
  list: ContactListRow | undefined;
}

/**
 * Locks the destination list, then the agent, in a signal's commit; undefined when the run's
 * claim no longer holds (paused, deleted, taken over), and the run must write nothing more.
 * The list comes first because deleting a list takes that order (the list, then its agents'
 * `destination_list_id`), so a deletion and a deposit never deadlock.
 */
export async function lockDepositTarget(tx: Queryable, agentId: number, leaseUntil: Date): Promise<DepositTarget | undefined> {
  const listId = await destinationOf(tx, agentId);
  const list = listId ? await lockList(tx, listId) : undefined;
  const agent = await lockClaimedAgent(tx, agentId, leaseUntil);
  if (!agent) return undefined;
  if (agent.destination_list_id === (list?.id ?? null)) return { agent, list };
  // Repointed between the two reads: lock the list the agent names now.
  return { agent, list: agent.destination_list_id === null ? undefined : await lockList(tx, agent.destination_list_id) };
}

/**
 * Stores `found` as leads of the (locked, claimed) agent and deposits those at its
 * precision into its destination list. Runs inside the caller's transaction.
 *
 * Every lead is stored (score 50 and up, the discovery threshold), so a `high` agent keeps
 * its likely fits undeposited for review. No destination (the list was deleted): leads are
 * stored undeposited (spec, DELETE /v1/contact-lists/{id}: deposits stop until repointed).
 * A person already in the list counts as deposited, and the list's count moves only by
 * the rows added, so `member_count` stays exact.
 */
export async function storeFoundLeads(tx: Queryable, target: DepositTarget, signalId: number, found: readonly FoundLead[], now: Date): Promise<DepositOutcome> {
  if (found.length === 0) return { leads: 0, deposited: 0 };
  const { agent, list } = target;
  // One order for every writer of these rows (two agents of an account may find the same people).
  const people = found.map((lead) => lead.user).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await upsertContactProfiles(tx, agent.account_id, people, now);
  const stored = await insertLeads(tx, { accountId: agent.account_id, agentId: agent.id, signalId }, found, now);
  const toDeposit = stored.filter((lead) => lead.icp_score >= PRECISION_THRESHOLD[agent.precision_mode]);
  // System lists mirror the network (followers, engagers); only a user's own list takes leads.
  if (toDeposit.length === 0 || !list || list.kind !== "custom") {
    await recordLeadsFound(tx, stored, now);
    return { leads: stored.length, deposited: 0 };
  }
  const added = await insertScoredMembers(tx, list.id, agent.account_id, toDeposit, now);
  if (added.length > 0) await addToMemberCount(tx, list.id, added.length, now);
  await markDeposited(
    tx,
    toDeposit.map((lead) => lead.id),
    list.id,
    now,
  );
  await recordLeadsFound(tx, stored, now);
  return { leads: stored.length, deposited: toDeposit.length };
}
