/**
 * Standing lead agents (docs/areas.md "Signals"; spec: Other endpoints with stated parameters,
 * Limits 4; supplement: Signals): list, create, change, delete. An agent lives on the user's
 * main account, watches 1 to 5 signals and deposits its leads into a custom contact list of
 * that account. The runner (core/jobs) picks up active agents by `next_run_at`.
 */
import type { AccountContext, KeyContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { pageInfo } from "../schema.ts";
import { chargeExtraUnits } from "../limits/extra_units.ts";
import { insertList, listById, lockList } from "../contact_lists/contact_lists_queries.ts";
import { listNotFound } from "../contact_lists/list_access.ts";
import type { AgentByIdInput, CreateAgentInput, ListAgentsInput, UpdateAgentInput } from "./agent_schema.ts";
import {
  type AgentChanges,
  type AgentRow,
  type AgentSignalRow,
  agentById,
  agentsOf,
  countUserAgents,
  deleteAgentRow,
  insertAgent,
  insertSignals,
  lockAndCountUserAgents,
  type NewSignal,
  signalsOf,
  updateAgent,
} from "./agent_queries.ts";
import { agentNotFound, reachableAgent } from "./agent_access.ts";
import { isLive, keywordSignal, resolveSignal, type SignalTarget, shown, signalTarget, toSignal } from "./agent_signals.ts";
import { MAX_AGENT_SIGNALS, type SignalAgent, type SignalWarning } from "./signal_schema.ts";
import { enqueueAgentRun } from "./agent_run_queue.ts";
import { suggestKeywords } from "./icp_helpers.ts";

/** Keywords suggested from the ICP when the create names none (spec: "1 to 3 auto-suggested"). */
const MAX_SUGGESTED = 3;

/** The account's agents, newest first, each with its signals and lead counts, a page at a time (spec rule 4). */
export async function listAgents(ctx: AccountContext, input: ListAgentsInput) {
  const rows = await agentsOf(ctx.services.sql, ctx.account.id, { take: input.limit + 1, skip: (input.page - 1) * input.limit });
  return { data: await withSignals(ctx.services.sql, rows.slice(0, input.limit)), pagination: pageInfo(input.page, input.limit, undefined, rows.length) };
}

/**
 * Creates an agent (supplement: POST /v1/signals/agents). Entries are checked first (`keywords`
 * plus `signals` 1 to 5), then the plan cap and the destination list, so a refused create
 * spends nothing; then the one enrichment unit of a create with a live watch (Limits 4), the
 * live lookups (a refused entry becomes a warning) and the keyword suggestion; last, one
 * transaction re-counts the user's agents under a lock, creates the list when none was named,
 * and stores the agent and its signals. A create that fails gives the unit back: nothing was made.
 */
export async function createAgent(ctx: AccountContext, input: CreateAgentInput) {
  const { sql, clock } = ctx.services;
  assertMainAccount(ctx);
  const targets: SignalTarget[] = [
    ...(input.keywords ?? []).map((query): SignalTarget => ({ type: "keyword_watch", query })),
    ...(input.signals ?? []).map((signal, i) => signalTarget(signal, `signals[${i}]`)),
  ];
  const suggest = input.keywords === undefined ? Math.min(MAX_SUGGESTED, MAX_AGENT_SIGNALS - targets.length) : 0;
  if (targets.length > MAX_AGENT_SIGNALS) {
    throw new ApiError(
      "invalid_parameter",
      `Invalid "signals": "keywords" and "signals" hold ${targets.length} entries together; an agent watches 1 to ${MAX_AGENT_SIGNALS}`,
    );
  }
  if (targets.length === 0 && suggest === 0) {
    throw new ApiError(
      "invalid_parameter",
      'Invalid "keywords": with "keywords": [] the agent needs 1 or more "signals" (omit "keywords" to have them suggested)',
    );
  }
  if ((await countUserAgents(sql, ctx.principal.userId)) >= ctx.principal.plan.signalAgents) throw planCap(ctx);
  if (input.destination_list_id !== undefined) await destinationList(sql, ctx.account.id, input.destination_list_id);

  const release = targets.some(isLive) ? await chargeExtraUnits(ctx, ctx.principal, { enrichment: 1 }) : async () => {};
  try {
    const { signals, warnings } = await resolveEntries(ctx, targets);
    if (suggest > 0) {
      for (const keyword of await suggestKeywords(ctx.services, input.icp_description, suggest)) {
        const signal = keywordSignal(keyword);
        if (!signals.some((other) => other.type === signal.type && other.dedupe_key === signal.dedupe_key)) signals.push(signal);
      }
    }
    const now = new Date(clock.now());
    return await sql.begin(async (tx) => {
      if ((await lockAndCountUserAgents(tx, ctx.principal.userId)) >= ctx.principal.plan.signalAgents) throw planCap(ctx);
      let listId = input.destination_list_id;
      if (listId === undefined) {
        listId = (await insertList(tx, ctx.account.id, `Leads: ${input.name}`, now)).id;
      } else if (!(await lockList(tx, listId))) {
        throw listNotFound(listId);
      }
      const id = await insertAgent(
        tx,
        { accountId: ctx.account.id, name: input.name, icpDescription: input.icp_description, precisionMode: input.precision_mode, destinationListId: listId },
        now,
      );
      await insertSignals(tx, id, signals.slice(0, MAX_AGENT_SIGNALS), now);
      // Its first run starts now, not at the next dispatch (committed with the agent).
      await enqueueAgentRun(tx, id, now.getTime());
      const [agent] = await withSignals(tx, [(await agentById(tx, id)) as AgentRow]);
      return { data: { ...agent, destination_list_created: input.destination_list_id === undefined, warnings } };
    });
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Changes any of name, ICP, precision, destination list and status (supplement: PATCH). ICP
 * and precision edits judge only leads found from now on; resuming makes the agent due now.
 */
export async function updateAgentFields(ctx: KeyContext, input: UpdateAgentInput): Promise<{ data: SignalAgent }> {
  const { id, account_id, ...fields } = input;
  const changes: AgentChanges = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) {
    throw new ApiError("invalid_parameter", 'Send at least one of "name", "icp_description", "precision_mode", "destination_list_id", "status"');
  }
  const agent = await reachableAgent(ctx, id, { accountId: account_id, write: true });
  const { sql, clock } = ctx.services;
  if (changes.destination_list_id !== undefined) await destinationList(sql, agent.account_id, changes.destination_list_id);
  const now = new Date(clock.now());
  if (changes.status === "active" && agent.status === "paused") changes.next_run_at = now;
  await sql.begin(async (tx) => {
    // The list is locked so a delete cannot slip between the check and the update.
    if (changes.destination_list_id !== undefined && !(await lockList(tx, changes.destination_list_id))) throw listNotFound(changes.destination_list_id);
    if (!(await updateAgent(tx, agent.id, changes, now))) throw agentNotFound(agent.id);
    if (changes.next_run_at) await enqueueAgentRun(tx, agent.id, now.getTime());
  });
  const [shown] = await withSignals(sql, [(await agentById(sql, agent.id)) as AgentRow]);
  return { data: shown };
}

/** Deletes an agent and its signals; its leads and its list stay (supplement). A repeat is `404 agent_not_found`. */
export async function deleteAgent(ctx: KeyContext, input: AgentByIdInput) {
  const agent = await reachableAgent(ctx, input.id, { accountId: input.account_id, write: true });
  if (!(await deleteAgentRow(ctx.services.sql, agent.id))) throw agentNotFound(agent.id);
  return { data: { id: agent.id, deleted: true as const } };
}

/**
 * Agents live on the main account (spec: "main account only"). A shared account is already
 * refused by account selection; a linked account the user owns gets the same code, since
 * what the caller must change is the account named.
 */
function assertMainAccount(ctx: AccountContext): void {
  if (ctx.account.relation !== "main") {
    throw new ApiError("writes_main_account_only", `Signal agents live on the main account; "${ctx.account.id}" is not your main account (omit "account_id")`);
  }
}

/** `403 cap_reached` for a user at the plan's number of agents. */
function planCap(ctx: KeyContext): ApiError {
  const { plan } = ctx.principal;
  return new ApiError("cap_reached", `The ${plan.label} plan keeps ${plan.signalAgents} signal agent${plan.signalAgents === 1 ? "" : "s"}; delete one first`);
}

/** A destination list must be a custom list of the agent's account (`404 list_not_found`, `400 system_list_read_only`). */
async function destinationList(sql: Queryable, accountId: string, id: number): Promise<void> {
  const list = await listById(sql, id);
  if (!list || list.account_id !== accountId) throw listNotFound(id);
  if (list.kind !== "custom") {
    throw new ApiError("system_list_read_only", `List "${id}" is the system list ${list.name}: leads go into a list you made`);
  }
}

/**
 * Resolves each entry; a refused one (a missing person, a private or missing list, a repeat)
 * becomes a warning. `cap_reached` never does here: more than 5 entries is refused whole
 * (`400 invalid_parameter`) before anything is spent.
 */
async function resolveEntries(ctx: KeyContext, targets: SignalTarget[]): Promise<{ signals: NewSignal[]; warnings: SignalWarning[] }> {
  const signals: NewSignal[] = [];
  const warnings: SignalWarning[] = [];
  for (const target of targets) {
    const named = target.type === "keyword_watch" ? target.query : target.type === "list_watch" ? target.list : target.handle;
    let signal: NewSignal;
    try {
      signal = await resolveSignal(ctx, target);
    } catch (error) {
      if (error instanceof ApiError && (error.code === "user_not_found" || error.code === "x_list_not_found")) {
        warnings.push({ type: target.type, target: named, code: error.code, message: error.message });
        continue;
      }
      throw error;
    }
    if (signals.some((other) => other.type === signal.type && other.dedupe_key === signal.dedupe_key)) {
      warnings.push({
        type: target.type,
        target: named,
        code: "duplicate_signal",
        message: `${shown(signal.label)} is already among this agent's ${signal.type} signals`,
      });
    } else {
      signals.push(signal);
    }
  }
  return { signals, warnings };
}

/** Agents in the API's shape, with their signals (one query for all). */
async function withSignals(sql: Queryable, rows: AgentRow[]): Promise<SignalAgent[]> {
  const signals = await signalsOf(
    sql,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toAgent(
      row,
      signals.filter((signal) => signal.agent_id === row.id),
    ),
  );
}

/** A stored agent in the API's shape; a paused agent is not due (`next_run_at` null). */
function toAgent(row: AgentRow, signals: AgentSignalRow[]): SignalAgent {
  return {
    id: row.id,
    name: row.name,
    icp_description: row.icp_description,
    precision_mode: row.precision_mode,
    status: row.status,
    destination_list_id: row.destination_list_id,
    signals: signals.map(toSignal),
    keywords: signals.filter((signal) => signal.type === "keyword_watch").map((signal) => signal.target),
    lead_count: row.lead_count,
    deposited_count: row.deposited_count,
    last_run_at: row.last_run_at?.toISOString() ?? null,
    next_run_at: row.status === "paused" ? null : row.next_run_at.toISOString(),
    last_run_error: row.last_run_error,
    account_id: row.account_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
