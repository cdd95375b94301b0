/** X ids as they may appear in a request path. */
import { NetworkNotFoundError, type NetworkResource } from "../../../core/network/network_errors.ts";

const NUMERIC_ID = /^\d{1,25}$/;

/** Whether `id` can be an X id (numeric text). */
export function isXId(id: string): boolean {
  return NUMERIC_ID.test(id);
}

/** `id` when it can be an X id; else NetworkNotFoundError, since nothing on X has it (and it never reaches a URL path). */
export function xId(id: string, resource: NetworkResource): string {
  if (!NUMERIC_ID.test(id)) throw new NetworkNotFoundError(resource, id);
  return id;
}
