/**
 * What the agent endpoints take and answer beyond the shared signal records
 * (supplement: Signals, POST /v1/signals/agents and its signal routes).
 */
import { z } from "zod";
import { accountSelection, integerId, paginationInput, recordId, timestamp, xHandle } from "../schema.ts";
import { icpDescription, MAX_AGENT_SIGNALS, precisionMode, signalAgent, signalType, signalWarning } from "./signal_schema.ts";

/** An agent name: trimmed, 1 to 80 characters (supplement: max 80). */
export const agentName = z
  .string({ error: "must be a string of 1 to 80 characters" })
  .trim()
  .min(1, "must not be empty")
  .max(80, "must be at most 80 characters");

/** A `keyword_watch` query: trimmed, 1 to 180 characters (supplement: max 180). */
export const keywordQuery = z
  .string({ error: "must be a string of 1 to 180 characters" })
  .trim()
  .min(1, "must not be empty")
  .max(180, "must be at most 180 characters");

const LIST_MESSAGE = "must be a public X list id or an https://x.com/i/lists/<id> link";
const LIST_LINK = /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/i\/lists\/([0-9]{1,25})\/?(?:[?#].*)?$/;

/** A watched X list: its numeric id (text or number) or its `x.com/i/lists/<id>` link; the value is the id. */
export const xListRef = z
  .union(
    [
      z
        .string()
        .trim()
        .refine((value) => /^[0-9]{1,25}$/.test(value) || LIST_LINK.test(value), LIST_MESSAGE)
        .transform((value) => value.match(LIST_LINK)?.[1] ?? value),
      z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).transform(String),
    ],
    { error: LIST_MESSAGE },
  )
  .meta({ description: "Public X list id, or its link `https://x.com/i/lists/<id>` (twitter.com too)", example: "1500000000000000001" });

/** One signal to watch: the field matching `type` (`query`, `handle` or `list`) and no other. */
export const signalInput = z.object({
  type: signalType,
  query: keywordQuery.optional().meta({ description: "`keyword_watch`: the search query, 1 to 180 characters" }),
  handle: xHandle.optional().meta({ description: "`profile_watch`, `follower_watch`: the X handle, `@` optional" }),
  list: xListRef.optional().meta({ description: "`list_watch`: the public list's id or link" }),
});

/** A signal as sent. */
export type SignalInput = z.infer<typeof signalInput>;

/** The create answer: the agent, whether its list was made for it, and the entries refused. */
export const createdAgent = signalAgent.extend({
  destination_list_created: z.boolean().meta({ description: "True when the list `Leads: <name>` was created for this agent" }),
  warnings: z.array(signalWarning).meta({ description: "Signal entries refused while the agent was still created" }),
});

const entries = (what: string) => `must hold at most ${MAX_AGENT_SIGNALS} ${what}`;

/** `POST /v1/signals/agents`. */
export const createAgentInput = z.object({
  name: agentName,
  icp_description: icpDescription,
  precision_mode: precisionMode.default("high"),
  keywords: z
    .array(keywordQuery)
    .max(MAX_AGENT_SIGNALS, entries("keywords"))
    .optional()
    .meta({ description: "Keyword queries to watch (each 1 to 180 characters)" }),
  signals: z.array(signalInput).max(MAX_AGENT_SIGNALS, entries("signals")).optional(),
  destination_list_id: recordId.optional().meta({ description: "A contact list you made on the account" }),
  ...accountSelection,
});

/** The create body. */
export type CreateAgentInput = z.infer<typeof createAgentInput>;

/** `GET /v1/signals/leads`. */
export const listLeadsInput = z
  .object({
    agent_id: integerId.optional().meta({ description: "Only this agent's leads" }),
    deposited: z.boolean().optional().meta({ description: "Only leads deposited into the list (true) or not (false)" }),
    since: timestamp.optional().meta({ description: "Discovered at or after" }),
    until: timestamp.optional().meta({ description: "Discovered at or before" }),
    ...paginationInput(50),
    ...accountSelection,
  })
  .prefault({});

/** The list query. */
export type ListLeadsInput = z.infer<typeof listLeadsInput>;

/** `GET /v1/signals/agents`: only the account (not paginated: the plan caps the agents). */
export const listAgentsInput = z.object({ ...accountSelection, ...paginationInput(50) }).prefault({});
export type ListAgentsInput = z.infer<typeof listAgentsInput>;

const agentStatus = z.enum(["active", "paused"], { error: "must be active or paused" });

/** `PATCH /v1/signals/agents/{id}`: only the fields sent change. */
export const updateAgentInput = z.object({
  id: integerId,
  name: agentName.optional(),
  icp_description: icpDescription.optional(),
  precision_mode: precisionMode.optional(),
  destination_list_id: recordId.optional(),
  status: agentStatus.optional(),
  ...accountSelection,
});

/** What a PATCH sends. */
export type UpdateAgentInput = z.infer<typeof updateAgentInput>;

/** `DELETE /v1/signals/agents/{id}` (`account_id` narrows the search). */
export const agentByIdInput = z.object({ id: integerId, ...accountSelection });

/** An id-addressed call's input. */
export type AgentByIdInput = z.infer<typeof agentByIdInput>;

/** `POST /v1/signals/agents/{id}/signals`: one signal for the agent. */
export const addSignalInput = signalInput.extend({ id: integerId, ...accountSelection });

/** What an added signal sends. */
export type AddSignalInput = z.infer<typeof addSignalInput>;

/** `DELETE /v1/signals/agents/{id}/signals/{signalId}`. */
export const removeSignalInput = z.object({ id: integerId, signalId: integerId, ...accountSelection });

/** What a signal removal sends. */
export type RemoveSignalInput = z.infer<typeof removeSignalInput>;

/** `POST /v1/signals/leads/{id}/feedback`: `fit`, `not_fit`, or null to clear. */
export const leadFeedbackInput = z.object({
  id: integerId,
  feedback: z.enum(["fit", "not_fit"], { error: "must be fit, not_fit or null" }).nullable().meta({ description: "`fit`, `not_fit`, or null to clear" }),
  ...accountSelection,
});

/** What a feedback sends. */
export type LeadFeedbackInput = z.infer<typeof leadFeedbackInput>;
