/**
 * The content rules of a post (spec: Scheduled post, Scheduling, Constants, Versioning 5;
 * supplement: Scheduling): the `text` shorthand or `parts`, never a top-level `media`;
 * every part has text or media; media per part is up to 4 images or exactly 1 GIF, each an
 * uploaded object of the workspace; tags are the workspace's; times are 60 s to 18 months
 * ahead. The network's own limit on a part's length is the scheduling service's rejection
 * (`400 invalid_request`).
 */
import type { Context } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { checkAttachableMedia } from "../media/attachable_media.ts";
import { leadWindow, MAX_LEAD_MONTHS, MIN_LEAD_SECONDS } from "../queue/lead_window.ts";
import type { PostContentInput } from "./scheduled_post_input_schema.ts";
import type { StoredPart } from "./scheduled_posts_queries.ts";
import { workspaceTagIds } from "./scheduled_posts_queries.ts";

/** A part's length on an account without the network's premium tier (X: 280). */
export const STANDARD_PART_LENGTH = 280;

/**
 * The parts a request sends, or undefined when it sends neither `text` nor `parts`. A
 * top-level `media` is refused pointing at `parts[].media` (spec: Errors, retired code).
 */
export function partsOf(input: PostContentInput): StoredPart[] | undefined {
  if (input.media !== undefined) {
    throw new ApiError("invalid_parameter", 'Invalid "media": attach media per part in "parts[].media" (a top-level "media" field is not accepted)');
  }
  if (input.text !== undefined && input.parts !== undefined) {
    throw new ApiError("invalid_parameter", 'Invalid "text": send either "text" (a single post) or "parts", not both');
  }
  if (input.text !== undefined) return [{ text: input.text, media: [] }];
  return input.parts?.map((part) => ({
    text: part.text,
    media: (part.media ?? []).map((item) => ({ object_key: item.object_key, alt_text: item.alt_text ?? null })),
  }));
}

/**
 * Checks parts against the rules that need the database: text or media in every part,
 * media uploaded to this workspace (`invalid_media`, `media_not_uploaded`), 4 images or
 * 1 GIF, and the account's part length (`invalid_request`). Answers the object keys.
 */
export async function checkParts(ctx: Context, sql: Queryable, account: { workspaceId: string; xPremium: boolean }, parts: StoredPart[]): Promise<string[]> {
  if (parts.every((part) => part.text.trim() === "" && part.media.length === 0)) {
    throw new ApiError("invalid_parameter", 'Invalid "parts": a post needs text or media');
  }
  for (const [index, part] of parts.entries()) {
    if (part.text.trim() === "" && part.media.length === 0) {
      throw new ApiError("invalid_parameter", `Invalid "parts[${index}].text": must not be empty unless the part has media`);
    }
  }
  const keys = parts.flatMap((part) => part.media.map((item) => item.object_key));
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index);
  if (duplicate !== undefined) throw new ApiError("invalid_parameter", `Invalid "parts[].media": "${duplicate}" is attached more than once`);
  const media = keys.length > 0 ? await checkAttachableMedia(sql, ctx.services.media, account.workspaceId, keys) : new Map();
  for (const [index, part] of parts.entries()) {
    const gifs = part.media.filter((item) => media.get(item.object_key)?.file_type === "image/gif").length;
    if (gifs > 0 && part.media.length > 1) {
      throw new ApiError("invalid_parameter", `Invalid "parts[${index}].media": a GIF must be the part's only media (up to 4 images or exactly 1 GIF)`);
    }
    const length = [...part.text].length;
    if (!account.xPremium && length > STANDARD_PART_LENGTH) {
      throw new ApiError(
        "invalid_request",
        `The scheduling service rejected the post: part ${index + 1} has ${length} characters; this account can post at most ${STANDARD_PART_LENGTH} per part (longer posts need the network's premium tier)`,
      );
    }
  }
  return keys;
}

/** The distinct tag ids, each a tag of the workspace (`400 invalid_parameter` naming an unknown one). */
export async function checkTags(sql: Queryable, workspaceId: string, tagIds: readonly number[]): Promise<number[]> {
  const distinct = [...new Set(tagIds)];
  const known = await workspaceTagIds(sql, workspaceId, distinct);
  const unknown = distinct.find((id) => !known.has(id));
  if (unknown !== undefined) throw new ApiError("invalid_parameter", `Invalid "tags": cannot find tag "${unknown}"`);
  return distinct;
}

/** Refuses a time less than 60 s or more than 18 months ahead. */
export function checkScheduleTime(at: Date, now: Date, field = "scheduled_for"): void {
  const { from, horizon } = leadWindow(now);
  if (at < from) {
    throw new ApiError("invalid_parameter", `Invalid "${field}": must be at least ${MIN_LEAD_SECONDS} seconds ahead (use "now" to publish now)`);
  }
  if (at > horizon) throw new ApiError("invalid_parameter", `Invalid "${field}": must be at most ${MAX_LEAD_MONTHS} months ahead`);
}
