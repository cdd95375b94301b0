/**
 * Signals: standing lead agents, what they watch, and the leads they found
 * (`/v1/signals/agents...`, `GET /v1/signals/leads`, `POST /v1/signals/leads/{id}/feedback`;
 * docs/areas.md "Signals"; spec: Other endpoints with stated parameters, Idempotency, Limits 4;
 * supplement: Signals and section 5).
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import { agentSignal, MAX_AGENT_SIGNALS, signalAgent, signalLead } from "../core/signals/signal_schema.ts";
import {
  addSignalInput,
  agentByIdInput,
  createAgentInput,
  createdAgent,
  leadFeedbackInput,
  listAgentsInput,
  listLeadsInput,
  removeSignalInput,
  updateAgentInput,
} from "../core/signals/agent_schema.ts";
import { createAgent, deleteAgent, listAgents, updateAgentFields } from "../core/signals/agents.ts";
import { addSignal, removeSignal } from "../core/signals/agent_signals.ts";
import { listLeads } from "../core/signals/leads.ts";
import { giveLeadFeedback } from "../core/signals/lead_feedback.ts";
import { PLANS } from "../core/plans/plans.ts";

const tags = ["Signals"];
const AGENT_CAPS = Object.values(PLANS)
  .map((plan) => `${plan.id} ${plan.signalAgents.toLocaleString("en-US")}`)
  .join(", ");
const BY_ID =
  "The agent is found among every account the key reaches; `account_id`, when sent, narrows the search to that account. " +
  "Agents of accounts shared with you are read-only (`403 writes_main_account_only`).";
const LIVE_ERRORS = ["upstream_unavailable", "upstream_error", "upstream_timeout"] as const;

export const signalsRouter = router({
  listAgents: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/signals/agents",
        tags,
        summary: "List the account's signal agents",
        description:
          "Newest first, each with its signals (ids for removal), `keywords` (its keyword_watch queries), `lead_count`, " +
          "`deposited_count`, `destination_list_id` and run times, paged by `limit` (default 50) and `page` like every list.",
      },
    })
    .input(listAgentsInput)
    .use(inAccount)
    .output(listOf(signalAgent))
    .query(({ ctx, input }) => listAgents(ctx, input)),

  createAgent: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/signals/agents",
        tags,
        summary: "Create a standing lead agent",
        description:
          `\`keywords\` and \`signals\` together hold 1 to ${MAX_AGENT_SIGNALS} entries; each keyword is a keyword_watch. ` +
          "`profile_watch` reads people replying to or quoting a handle's newest posts, `follower_watch` a handle's new followers, " +
          "`list_watch` new posts by a public X list's members. When `keywords` is " +
          "omitted, 1 to 3 keywords (never past the total of 5) are suggested from the ICP (free); `keywords: []` asks for none, and then " +
          "`signals` must hold one or more. Handles and lists are resolved live: a missing person, a private or missing list or a " +
          "repeat comes back in `warnings` and the agent is still created (more than 5 entries is `400 invalid_parameter`). A create holding any profile, follower or " +
          "list watch costs one enrichment unit (Limits 4; keyword-only creates none; a create that fails, such as one that could not " +
          "reach the network, makes nothing and gives it back). " +
          "`destination_list_id` must be a list you made on the account; omitted, a list `Leads: <name>` is created with the agent " +
          `(\`destination_list_created: true\`). Agents per user are capped by plan (${AGENT_CAPS}; \`403 cap_reached\`). Agents live on the main ` +
          "account: naming another account is `403 writes_main_account_only`. The agent starts `active` and runs at once. " +
          "Supports `Idempotency-Key`.",
      },
      successStatus: 201,
      idempotent: true,
      errors: ["cap_reached", "list_not_found", "system_list_read_only", "writes_main_account_only", ...LIVE_ERRORS],
    })
    .input(createAgentInput)
    .use(inAccount)
    .output(dataOf(createdAgent))
    .mutation(({ ctx, input }) => createAgent(ctx, input)),

  updateAgent: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/signals/agents/{id}",
        tags,
        summary: "Change, pause or resume a signal agent",
        description:
          "Any of `name`, `icp_description`, `precision_mode`, `destination_list_id` (a list you made on the agent's account) and " +
          "`status`; an empty body is `400 invalid_parameter`. ICP and precision edits judge only leads found from now on. " +
          `Resuming (\`status: active\`) makes the agent due at once. Renaming does not rename its list. ${BY_ID}`,
      },
      errors: ["agent_not_found", "list_not_found", "system_list_read_only"],
    })
    .input(updateAgentInput)
    .output(dataOf(signalAgent))
    .mutation(({ ctx, input }) => updateAgentFields(ctx, input)),

  deleteAgent: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/signals/agents/{id}",
        tags,
        summary: "Delete a signal agent",
        description:
          "Its signals go with it; its leads (now with `agent_id` null) and its list stay. Answers a small body (the client prints it). " +
          `A second delete is \`404 agent_not_found\`. ${BY_ID}`,
      },
      errors: ["agent_not_found"],
    })
    .input(agentByIdInput)
    .output(dataOf(z.object({ id: z.number().int(), deleted: z.literal(true) })))
    .mutation(({ ctx, input }) => deleteAgent(ctx, input)),

  addSignal: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/signals/agents/{id}/signals",
        tags,
        summary: "Add one signal to an agent",
        description:
          "One target per call, the field matching `type`: `query` (keyword_watch, 1 to 180 characters), `handle` (profile_watch, " +
          "follower_watch) or `list` (list_watch: a public list id or its x.com link). Handles and lists are resolved live for one " +
          "enrichment unit (Limits 4; spent once the lookup ran, given back when the network was unreachable); keywords cost none. " +
          `An agent watches at most ${MAX_AGENT_SIGNALS} signals (\`403 cap_reached\`, costing nothing); the same watch twice is ` +
          "`409 duplicate_signal` (a keyword in any case or spacing, a person or list by its X id). " +
          BY_ID,
      },
      successStatus: 201,
      exactlyOneOf: ["query", "handle", "list"],
      errors: ["agent_not_found", "cap_reached", "duplicate_signal", "user_not_found", "x_list_not_found", ...LIVE_ERRORS],
    })
    .input(addSignalInput)
    .output(dataOf(agentSignal))
    .mutation(({ ctx, input }) => addSignal(ctx, input)),

  removeSignal: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/signals/agents/{id}/signals/{signalId}",
        tags,
        summary: "Remove one signal from an agent",
        description: `The leads it found stay; removing the last signal is allowed. A second remove is \`404 signal_not_found\`. ${BY_ID}`,
      },
      successStatus: 204,
      errors: ["agent_not_found", "signal_not_found"],
    })
    .input(removeSignalInput)
    .output(z.void())
    .mutation(({ ctx, input }) => removeSignal(ctx, input)),

  listLeads: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/signals/leads",
        tags,
        summary: "List the leads the account's agents found",
        description:
          "Newest discovery first. Filters: `agent_id` (an agent of the account, else `404 agent_not_found`), `deposited`, " +
          "`since` and `until` (inclusive bounds on `discovered_at`). The profile is the contact's as last read.",
      },
      errors: ["agent_not_found"],
    })
    .input(listLeadsInput)
    .use(inAccount)
    .output(listOf(signalLead))
    .query(({ ctx, input }) => listLeads(ctx, input)),

  leadFeedback: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/signals/leads/{id}/feedback",
        tags,
        summary: "Mark a lead a fit or not",
        description:
          "`fit`, `not_fit`, or null to clear. Stamped `feedback_at` and mirrored onto the lead's row in the list it was deposited " +
          "into, in one write; the agent weighs it when judging later leads. The lead is found among every account the key reaches " +
          "(`account_id` narrows; shared accounts are read-only).",
      },
      errors: ["lead_not_found"],
    })
    .input(leadFeedbackInput)
    .output(dataOf(signalLead))
    .mutation(({ ctx, input }) => giveLeadFeedback(ctx, input)),
});
