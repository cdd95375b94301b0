/**
 * The agent runner (docs/areas.md "Signals"): one bounded, resumable run of one signal agent.
 * For each of its signals the runner reads what is new through the network port
 * (signal_watch.ts), leaves out the account itself and people the agent already has as
 * leads, judges the rest against the agent's ICP with the model (lead_scoring.ts, with the
 * agent's fit / not-fit feedback as examples, so feedback shifts later scores), and stores
 * the fits with the signal's new cursor in one transaction (lead_deposit.ts).
 *
 * Exactly once: a run starts only by claiming the agent (`claimAgent`: one runner per due
 * agent, however many processes dispatch), every commit re-checks the claim, and the unique
 * (agent, person) lead and (list, person) member make a repeated write a no-op.
 *
 * Failures: a network or model failure on a signal records `last_run_error` and leaves that
 * signal's cursor where it was; signals already committed keep their leads. An unreachable
 * or rate-limited network, or a failing model, ends the run and retries it sooner
 * (`retrySeconds`); a watched profile or list that is gone only skips its signal.
 *
 * Credits: background runs charge no AI credits to the owner's pool (like Workers,
 * supplement 3.3): a run is bounded by the plan's agent cap and the runner's page and
 * candidate bounds, and nobody is there to read an `X-Credits-*` header. The model's cost
 * is reported in the outcome for logs and the benchmark.
 */
import { ModelError } from "../model/model_errors.ts";
import { NetworkError, NetworkNotFoundError, NetworkPrivateError, NetworkRateLimitedError } from "../network/network_errors.ts";
import { claimAgent, feedbackTextsOf, finishAgentRun, leadPeopleAmong, saveSignalCursor, signalsOfAgent, type AgentRunRow } from "./agent_run_queries.ts";
import { AGENT_RUN_LIMITS, type AgentRunDeps } from "./agent_run_rhythm.ts";
import { type FoundLead, lockDepositTarget, storeFoundLeads } from "./lead_deposit.ts";
import { type FeedbackExamples, scoreLeads } from "./lead_scoring.ts";
import { PRECISION_THRESHOLD } from "./signal_schema.ts";
import { type WatchedSignal, watchSignal } from "./signal_watch.ts";

/** What one signal's part of a run did. */
export interface SignalRunOutcome {
  signalId: number;
  type: WatchedSignal["type"];
  /** People seen (new to the agent) and sent to the model. */
  judged: number;
  leads: number;
  deposited: number;
  pagesRead: number;
  error?: string;
}

/** What a run did; `ran: false` when the agent was not claimed (paused, gone, not due, or another runner has it). */
export interface AgentRunOutcome {
  agentId: number;
  ran: boolean;
  signals: SignalRunOutcome[];
  leads: number;
  deposited: number;
  /** The model's cost of the run's judging, in credits (not charged: see above). */
  costCredits: number;
  error: string | null;
}

/** Runs agent `agentId` once, if it is active, due, and not being run by another runner. */
export async function runSignalAgent(deps: AgentRunDeps, agentId: number): Promise<AgentRunOutcome> {
  const startMs = deps.clock.now();
  const leaseUntil = new Date(startMs + AGENT_RUN_LIMITS.leaseSeconds * 1000);
  const outcome: AgentRunOutcome = { agentId, ran: false, signals: [], leads: 0, deposited: 0, costCredits: 0, error: null };
  const agent = await claimAgent(deps.sql, agentId, new Date(startMs), leaseUntil);
  if (!agent) return outcome;
  outcome.ran = true;
  const examples = await feedbackTextsOf(deps.sql, agent.id, AGENT_RUN_LIMITS.feedbackExamples);
  const errors: string[] = [];
  let retryAfterSeconds = 0;
  for (const signal of await signalsOfAgent(deps.sql, agent.id)) {
    let done: SignalRunOutcome | "claim_lost";
    try {
      done = await runSignal(deps, agent, signal, examples, leaseUntil, outcome);
    } catch (error) {
      if (!(error instanceof NetworkError || error instanceof ModelError)) throw error;
      errors.push(`${signal.label}: ${error.message}`);
      outcome.signals.push({ signalId: signal.id, type: signal.type, judged: 0, leads: 0, deposited: 0, pagesRead: 0, error: error.message });
      if (error instanceof NetworkNotFoundError || error instanceof NetworkPrivateError) continue;
      retryAfterSeconds = Math.max(AGENT_RUN_LIMITS.retrySeconds, error instanceof NetworkRateLimitedError ? error.retryAfter : 0);
      break;
    }
    if (done === "claim_lost") return outcome;
    outcome.signals.push(done);
    outcome.leads += done.leads;
    outcome.deposited += done.deposited;
  }
  outcome.error = errors.length > 0 ? errors.join("; ") : null;
  const endMs = deps.clock.now();
  const nextRunAt = new Date(endMs + (retryAfterSeconds || AGENT_RUN_LIMITS.everySeconds) * 1000);
  await finishAgentRun(deps.sql, agent.id, leaseUntil, { at: new Date(endMs), error: outcome.error, nextRunAt });
  return outcome;
}

/** Watches, judges and stores one signal; `claim_lost` when the agent was paused, deleted or taken over meanwhile. */
async function runSignal(
  deps: AgentRunDeps,
  agent: AgentRunRow,
  signal: WatchedSignal,
  examples: FeedbackExamples,
  leaseUntil: Date,
  outcome: AgentRunOutcome,
): Promise<SignalRunOutcome | "claim_lost"> {
  const watched = await watchSignal(deps.network, signal, { accountId: agent.account_id, now: deps.clock.now() });
  const known = await leadPeopleAmong(
    deps.sql,
    agent.id,
    watched.candidates.map((candidate) => candidate.user.id),
  );
  const candidates = watched.candidates.filter((candidate) => !known.has(candidate.user.id));
  const { scored, costCredits } =
    candidates.length > 0 ? await scoreLeads(deps.model, { icp: agent.icp_description, examples, candidates }) : { scored: [], costCredits: 0 };
  outcome.costCredits += costCredits;
  const found: FoundLead[] = scored
    .map((lead) => ({ ...lead, score: Math.max(0, Math.min(100, Math.round(lead.score))) }))
    .filter((lead) => lead.score >= PRECISION_THRESHOLD.discovery)
    .map((lead) => ({
      user: lead.candidate.user,
      x_user_id: lead.candidate.user.id,
      icp_score: lead.score,
      icp_rationale: lead.rationale,
      provenance: lead.candidate.provenance,
    }));
  const stored = await deps.sql.begin(async (tx) => {
    const target = await lockDepositTarget(tx, agent.id, leaseUntil);
    if (!target) return undefined;
    const result = await storeFoundLeads(tx, target, signal.id, found, new Date(deps.clock.now()));
    await saveSignalCursor(tx, signal.id, watched.cursor);
    return result;
  });
  if (!stored) return "claim_lost";
  return { signalId: signal.id, type: signal.type, judged: candidates.length, pagesRead: watched.pagesRead, ...stored };
}
