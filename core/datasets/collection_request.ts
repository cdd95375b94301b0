/**
 * Which fields of `POST /v1/datasets` a collection takes (supplement: Datasets, collection
 * form). The body schema holds both forms in one object, so the rules that depend on the
 * source live here: research-only fields are refused, `target` is required for the four
 * network sources and refused for `my_*` ("unused"), `max_rows` is 1 to 1,000 (default 500).
 */
import { ApiError } from "../errors.ts";
import type { CollectionFilters } from "./collection_filters.ts";
import { type CollectionTarget, parseCollectionTarget } from "./collection_target.ts";
import { type CreateDatasetInput, DEFAULT_COLLECTION_ROWS, type DatasetSource } from "./dataset_schema.ts";

/** A collection request, checked. */
export interface CollectionRequest {
  source: Exclude<DatasetSource, "research">;
  /** The post or list read (null for own content). */
  target: CollectionTarget | null;
  maxRows: number;
  filters: CollectionFilters;
}

const RESEARCH_ONLY = ["handles", "list_id", "agent_id", "dataset_id", "focus"] as const;

/** Checks `input` as a collection, or `400 invalid_parameter` naming the field. */
export function collectionRequest(input: CreateDatasetInput): CollectionRequest {
  const source = input.source as CollectionRequest["source"];
  for (const field of RESEARCH_ONLY) {
    if (input[field] !== undefined) throw new ApiError("invalid_parameter", `Invalid "${field}": only \`source: research\` takes it`);
  }
  const own = source === "my_posts" || source === "my_replies";
  if (own && input.target !== undefined) throw new ApiError("invalid_parameter", `Invalid "target": ${source} reads your own timeline and takes no target`);
  if (!own && input.target === undefined) {
    throw new ApiError(
      "invalid_parameter",
      `Invalid "target": required for ${source} (${source === "list_members" ? "an X list URL or id" : "a post URL or id"})`,
    );
  }
  const target = own ? null : parseCollectionTarget(source === "list_members" ? "list" : "post", input.target!);
  return { source, target, maxRows: input.max_rows ?? DEFAULT_COLLECTION_ROWS, filters: { ...(input.filters ?? {}) } };
}
