/**
 * The research form of `POST /v1/datasets` read into the profiles a run researches (issue
 * 15 scope 2; supplement: Datasets, research form): exactly one of `handles` (1 to 25),
 * `list_id` (a contact list of the account), `agent_id` (a signal agent's leads, best
 * score first) or `dataset_id` (the people of another `ready` dataset of the caller);
 * `max_rows` 1 to 25; the collection-only fields refused.
 *
 * Choices where the spec is silent: with `handles` and no `max_rows`, every handle is read
 * (the caller named them; the default of 10 applies to the stored sources); a repeated
 * handle or person is read once; a list's members are taken newest added first (the
 * order the list shows); a dataset's people in row order.
 */
import type { AccountContext } from "../context.ts";
import { assertExactlyOneOf } from "../exactly_one_of.ts";
import { ApiError } from "../errors.ts";
import { reachableList } from "../contact_lists/list_access.ts";
import { reachableAgent } from "../signals/agent_access.ts";
import { findDataset, requireReady } from "./dataset_access.ts";
import { type CreateDatasetInput, DEFAULT_RESEARCH_ROWS, MAX_RESEARCH_ROWS, PEOPLE_SOURCES } from "./dataset_schema.ts";
import type { DatasetParams } from "./datasets_queries.ts";
import { agentLeadsBestFirst, datasetPeople, listPeople, type StoredPerson } from "./research_queries.ts";
import type { ResearchTarget } from "./research_target.ts";

/** Where a run's people come from. */
export const RESEARCH_SOURCE_FIELDS = ["handles", "list_id", "agent_id", "dataset_id"] as const;

/** A research request read: the profiles in order, the title, and what to store as `params`. */
export interface ResearchPlan {
  targets: ResearchTarget[];
  title: string;
  params: DatasetParams;
  /** The dataset read from (`dataset_id`), kept as the parent. */
  parentId: string | null;
}

/** Reads `input` (source `research`) into a plan; `400`/`404`/`409` as the module comment says. */
export async function researchPlan(ctx: AccountContext, input: CreateDatasetInput): Promise<ResearchPlan> {
  for (const field of ["target", "filters"] as const) {
    if (input[field] !== undefined)
      throw new ApiError("invalid_parameter", `Invalid "${field}": collections only; research reads "handles", "list_id", "agent_id" or "dataset_id"`);
  }
  assertExactlyOneOf(input, RESEARCH_SOURCE_FIELDS);
  if (input.max_rows !== undefined && input.max_rows > MAX_RESEARCH_ROWS) {
    throw new ApiError("invalid_parameter", `Invalid "max_rows": research reads 1 to ${MAX_RESEARCH_ROWS} profiles`);
  }
  const focus = input.focus ?? null;
  if (input.handles) {
    const handles = uniqueHandles(input.handles);
    const maxRows = input.max_rows ?? handles.length;
    const targets = handles.slice(0, maxRows).map((handle) => ({ handle, x_user_id: null }));
    return { targets, title: input.title ?? handlesTitle(targets), params: { max_rows: maxRows, focus, research: { handles } }, parentId: null };
  }
  const maxRows = input.max_rows ?? DEFAULT_RESEARCH_ROWS;
  const { sql } = ctx.services;
  if (input.list_id !== undefined) {
    const { list } = await reachableList(ctx, input.list_id, { accountId: input.account_id, use: "read" });
    if (list.kind !== "custom")
      throw new ApiError("invalid_parameter", `Invalid "list_id": "${list.id}" is the system list ${list.name}; research reads a list you made`);
    const targets = peopleTargets(await listPeople(sql, list.id, maxRows));
    return {
      targets,
      title: input.title ?? `Research: list "${list.name}"`,
      params: { max_rows: maxRows, focus, research: { list_id: list.id } },
      parentId: null,
    };
  }
  if (input.agent_id !== undefined) {
    const agent = await reachableAgent(ctx, input.agent_id, { accountId: input.account_id, write: false });
    const targets = peopleTargets(await agentLeadsBestFirst(sql, agent.id, maxRows));
    return {
      targets,
      title: input.title ?? `Research: leads of "${agent.name}"`,
      params: { max_rows: maxRows, focus, research: { agent_id: agent.id } },
      parentId: null,
    };
  }
  const source = requireReady(await findDataset(ctx, input.dataset_id as string));
  if (!PEOPLE_SOURCES.includes(source.source)) {
    throw new ApiError(
      "invalid_parameter",
      `Invalid "dataset_id": dataset "${source.id}" holds ${source.source === "my_posts" ? "posts" : "replies"}, not people`,
    );
  }
  const targets = peopleTargets(await datasetPeople(sql, source.id, maxRows));
  return {
    targets,
    title: input.title ?? `Research: people of "${source.title}"`.slice(0, 300),
    params: { max_rows: maxRows, focus, research: { dataset_id: source.id } },
    parentId: source.id,
  };
}

/** Handles without `@`, each once (case-insensitively, first spelling kept), in the order sent. */
function uniqueHandles(handles: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of handles) {
    const handle = raw.trim().replace(/^@/, "");
    if (!/^[A-Za-z0-9_]{1,15}$/.test(handle))
      throw new ApiError("invalid_parameter", `Invalid "handles": "${raw}" is not an X handle (1 to 15 letters, digits or _)`);
    if (!seen.has(handle.toLowerCase())) seen.set(handle.toLowerCase(), handle);
  }
  return [...seen.values()];
}

function peopleTargets(people: readonly StoredPerson[]): ResearchTarget[] {
  return people.map((person) => ({ handle: person.username, x_user_id: person.x_user_id }));
}

/** `Research: @a, @b and 8 more`. */
function handlesTitle(targets: readonly ResearchTarget[]): string {
  const named = targets.slice(0, 2).map((target) => `@${target.handle}`);
  const rest = targets.length - named.length;
  return `Research: ${named.join(", ")}${rest > 0 ? ` and ${rest} more` : ""}`;
}
