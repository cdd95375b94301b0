/**
 * What an agent watches (supplement: Signals, POST and DELETE /v1/signals/agents/{id}/signals):
 * a keyword query, a profile, a handle's followers or a public list, at most
 * `MAX_AGENT_SIGNALS` per agent. Handles and lists resolve live through the network port;
 * adding one costs one enrichment unit, a keyword none (spec Limits 4).
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { callNetwork } from "../network/call_network.ts";
import type { NetworkList, NetworkUser } from "../network/network_records.ts";
import { chargeExtraUnits } from "../limits/extra_units.ts";
import type { AddSignalInput, RemoveSignalInput, SignalInput } from "./agent_schema.ts";
import { type AgentSignalRow, countSignals, deleteSignalRow, insertSignals, lockAgent, type NewSignal } from "./agent_queries.ts";
import { agentNotFound, reachableAgent } from "./agent_access.ts";
import { type AgentSignal, MAX_AGENT_SIGNALS } from "./signal_schema.ts";

/** One signal's target, checked against its type. */
export type SignalTarget =
  | { type: "keyword_watch"; query: string }
  | { type: "profile_watch" | "follower_watch"; handle: string }
  | { type: "list_watch"; list: string };

const FIELD_OF = { keyword_watch: "query", profile_watch: "handle", follower_watch: "handle", list_watch: "list" } as const;

/** The target of `input`: exactly the field its type names (`400 invalid_parameter` otherwise). */
export function signalTarget(input: SignalInput, where: string): SignalTarget {
  const field = FIELD_OF[input.type];
  const sent = (["query", "handle", "list"] as const).filter((name) => input[name] !== undefined);
  if (sent.length !== 1 || sent[0] !== field) {
    throw new ApiError("invalid_parameter", `Invalid "${where}": a ${input.type} signal takes "${field}" and no other target field`);
  }
  if (input.type === "keyword_watch") return { type: input.type, query: input.query as string };
  if (input.type === "list_watch") return { type: input.type, list: input.list as string };
  return { type: input.type, handle: input.handle as string };
}

/** Whether watching `target` reads the network (and so costs an enrichment unit: Limits 4). */
export function isLive(target: SignalTarget): boolean {
  return target.type !== "keyword_watch";
}

/** A keyword's signal: no lookup; the same query in any case or spacing is one watch. */
export function keywordSignal(query: string): NewSignal {
  return { type: "keyword_watch", target: query, target_id: null, label: query, dedupe_key: query.toLowerCase().replace(/\s+/g, " ") };
}

/**
 * Resolves a target into the signal to store: handles and lists are read live, so a
 * missing person is `404 user_not_found` and a private or missing list `404 x_list_not_found`
 * (supplement); one person or list watched twice is the same watch, whatever it was called.
 */
export async function resolveSignal(ctx: KeyContext, target: SignalTarget): Promise<NewSignal> {
  const { network } = ctx.services;
  if (target.type === "keyword_watch") return keywordSignal(target.query);
  if (target.type === "list_watch") {
    const list = await callNetwork(() => network.listById(target.list));
    if (list.private) throw new ApiError("x_list_not_found", `X list "${target.list}" is private`);
    return listSignal(list);
  }
  return personSignal(target.type, await callNetwork(() => network.userByUsername(target.handle)));
}

/** A profile or follower watch of a resolved person: one person is one watch by id, whatever the handle's case or a rename. */
export function personSignal(type: "profile_watch" | "follower_watch", user: Pick<NetworkUser, "id" | "username">): NewSignal {
  return { type, target: user.username, target_id: user.id, label: `@${user.username}`, dedupe_key: user.id };
}

/** A watch of a resolved public list, by its id. */
export function listSignal(list: Pick<NetworkList, "id" | "name">): NewSignal {
  return { type: "list_watch", target: list.id, target_id: list.id, label: list.name, dedupe_key: list.id };
}

/**
 * Adds one signal. The cap is checked before the unit is spent and again under the agent's
 * lock; the enrichment unit of a live target is spent once the lookup ran (found or not, as
 * Limits 4 spends a list feed's unit even when refused afterwards) and given back when the
 * network could not be reached.
 */
export async function addSignal(ctx: KeyContext, input: AddSignalInput) {
  const agent = await reachableAgent(ctx, input.id, { accountId: input.account_id, write: true });
  const target = signalTarget(input, "body");
  const { sql, clock } = ctx.services;
  if ((await countSignals(sql, agent.id)) >= MAX_AGENT_SIGNALS) throw capReached(agent.id);
  let signal: NewSignal;
  if (target.type === "keyword_watch") {
    signal = keywordSignal(target.query);
  } else {
    const release = await chargeExtraUnits(ctx, ctx.principal, { enrichment: 1 });
    try {
      signal = await resolveSignal(ctx, target);
    } catch (error) {
      if (error instanceof ApiError && (error.code === "upstream_unavailable" || error.code === "upstream_timeout")) await release();
      throw error;
    }
  }
  const now = new Date(clock.now());
  const row = await sql.begin(async (tx) => {
    if (!(await lockAgent(tx, agent.id))) throw agentNotFound(agent.id);
    if ((await countSignals(tx, agent.id)) >= MAX_AGENT_SIGNALS) throw capReached(agent.id);
    const [stored] = await insertSignals(tx, agent.id, [signal], now);
    if (!stored) throw new ApiError("duplicate_signal", `Agent "${agent.id}" already watches ${shown(signal.label)} (${signal.type})`);
    return stored;
  });
  return { data: toSignal(row) };
}

/** Removes one signal; the leads it found stay (supplement). Removing the last one is allowed. */
export async function removeSignal(ctx: KeyContext, input: RemoveSignalInput): Promise<void> {
  const agent = await reachableAgent(ctx, input.id, { accountId: input.account_id, write: true });
  if (!(await deleteSignalRow(ctx.services.sql, agent.id, input.signalId))) {
    throw new ApiError("signal_not_found", `Cannot find signal "${input.signalId}" on agent "${agent.id}"`);
  }
}

/** `403 cap_reached` for an agent that already watches the most signals. */
export function capReached(agentId: number): ApiError {
  return new ApiError("cap_reached", `Agent "${agentId}" already watches ${MAX_AGENT_SIGNALS} signals, the most an agent keeps; remove one first`);
}

/** A signal's label as a message quotes it: at most 100 characters (ARCHITECTURE: Errors). */
export function shown(label: string): string {
  return label.length > 100 ? `"${label.slice(0, 100)}…"` : `"${label}"`;
}

/** A stored signal in the API's shape. */
export function toSignal(row: AgentSignalRow): AgentSignal {
  return { id: row.id, type: row.type, target: row.target, target_id: row.target_id, label: row.label, created_at: row.created_at.toISOString() };
}
