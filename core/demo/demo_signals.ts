/**
 * The demo world's signal agent (shared/spec/demo_world.md `signals.agent`; docs/areas.md "Signals"): A's agent "Churn founders" with a keyword watch and a profile watch on the
 * network's demo handle, its destination list `Leads: Churn founders`, and one run of the
 * runner so it has leads, some deposited (score 70 and up, the agent is `high`) and some
 * kept for review (50 to 69). Re-runs find the agent by name and leave it as it is. With
 * the network down (`THREADLINE_FAULTS=x`) the agent is created, its run records the error
 * and it has no leads yet.
 */
import type { Services } from "../context.ts";
import { insertList, userListNamed } from "../contact_lists/contact_lists_queries.ts";
import { NetworkError } from "../network/network_errors.ts";
import { runSignalAgent } from "../signals/agent_runner.ts";
import { insertAgent, insertSignals } from "../signals/agent_queries.ts";
import { keywordSignal, personSignal } from "../signals/agent_signals.ts";
import { demoAgentNamed } from "./demo_signals_queries.ts";

const AGENT_NAME = "Churn founders";
const ICP = "B2B SaaS founders struggling with churn";
const KEYWORD = "churn";

/** Ensures A's demo agent and its first run; answers `{ agent }` (the agent id). */
export async function ensureDemoSignals(services: Services, accountId: string): Promise<{ agent: number }> {
  const { sql, clock, network } = services;
  const existing = await demoAgentNamed(sql, accountId, AGENT_NAME);
  if (existing !== undefined) return { agent: existing };
  const now = new Date(clock.now());
  const watched = await demoProfile(services);
  const agent = await sql.begin(async (tx) => {
    const listName = `Leads: ${AGENT_NAME}`;
    const list = (await userListNamed(tx, accountId, listName)) ?? (await insertList(tx, accountId, listName, now));
    const id = await insertAgent(tx, { accountId, name: AGENT_NAME, icpDescription: ICP, precisionMode: "high", destinationListId: list.id }, now);
    // The API's own signal rules, so adding the same watch over REST is a duplicate.
    await insertSignals(tx, id, [keywordSignal(KEYWORD), ...(watched ? [personSignal("profile_watch", watched)] : [])], now);
    return id;
  });
  await runSignalAgent({ sql, clock, network, model: services.model }, agent);
  return { agent };
}

/** The network's demo handle as a profile, when the network has one and is up. */
async function demoProfile(services: Services) {
  const handle = services.network.demoFixtures?.().user_handle;
  if (!handle) return undefined;
  try {
    return await services.network.userByUsername(handle);
  } catch (error) {
    if (error instanceof NetworkError) return undefined;
    throw error;
  }
}
