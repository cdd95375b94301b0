/**
 * What a collection reads (supplement: Datasets, collection form: `target` is "post URL or
 * id (repliers/quoters/reposters); X list URL or id (list_members); unused for `my_*`").
 * A post URL is `https://x.com/<handle>/status/<id>` (twitter.com too, `www.`/`mobile.`,
 * with or without a query); a list URL is `https://x.com/i/lists/<id>`; or the bare id.
 */
import { ApiError } from "../errors.ts";

/** A post or an X list, by its numeric id. */
export type CollectionTarget = { kind: "post"; id: string } | { kind: "list"; id: string };

const HOSTS = new Set(["x.com", "twitter.com", "www.x.com", "www.twitter.com", "mobile.x.com", "mobile.twitter.com"]);
const NUMERIC_ID = /^\d{1,25}$/;
const POST_PATH = /^\/[A-Za-z0-9_]{1,15}\/status(?:es)?\/(\d{1,25})\/?$/;
const LIST_PATH = /^\/i\/lists\/(\d{1,25})\/?$/;

/** The id a `target` names as a `kind` (post or list), or `400 invalid_parameter` naming `target`. */
export function parseCollectionTarget(kind: CollectionTarget["kind"], target: string): CollectionTarget {
  const text = target.trim();
  if (NUMERIC_ID.test(text)) return { kind, id: text };
  const id = idFromUrl(kind, text);
  if (id) return { kind, id };
  const expected =
    kind === "post"
      ? "a post URL (https://x.com/<handle>/status/<id>) or a numeric post id"
      : "an X list URL (https://x.com/i/lists/<id>) or a numeric list id";
  throw new ApiError("invalid_parameter", `Invalid "target": must be ${expected}; got "${text.slice(0, 100)}"`);
}

function idFromUrl(kind: CollectionTarget["kind"], text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  if (!HOSTS.has(url.hostname.toLowerCase())) return undefined;
  return (kind === "post" ? POST_PATH : LIST_PATH).exec(url.pathname)?.[1];
}
