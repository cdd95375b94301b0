/**
 * The media a part attaches on a network that uploads files first (X: docs/x.md "Media on
 * X"): each file is read from the media store, uploaded through `SocialNetwork.uploadMedia`
 * as the post's account, and its media id kept (x_media_queries.ts), so a retry within the
 * id's life attaches the same id without uploading again and an expired id is uploaded again.
 * A network without `uploadMedia` (the simulated world) attaches our object keys as they are.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { detectMediaType, MAGIC_BYTES } from "../media/media_types.ts";
import { NetworkRejectedError } from "../network/network_errors.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { MediaStore } from "../ports/media_store.ts";
import { liveMediaId, storeMediaId } from "./x_media_queries.ts";

/** An id that expires within this margin is uploaded again: the post must still attach it. */
const EXPIRY_MARGIN_MS = 60_000;

/** What uploading a part's media needs. */
export interface PartMediaDeps {
  sql: Sql;
  network: SocialNetwork;
  clock: Clock;
  media?: MediaStore;
}

/** Which part of which publication, as which account. */
export interface PartMediaRef {
  postId: number;
  version: number;
  partIndex: number;
  accountId: string;
}

/** The keys the network attaches for a part's files: network media ids when it uploads, else the object keys. */
export async function partMediaKeys(
  deps: PartMediaDeps,
  ref: PartMediaRef,
  files: readonly { object_key: string; alt_text?: string | null }[],
): Promise<string[]> {
  const { network } = deps;
  if (files.length === 0 || !network.uploadMedia) return files.map((file) => file.object_key);
  const upload = network.uploadMedia.bind(network);
  const ids: string[] = [];
  for (const file of files) {
    const fileRef = { postId: ref.postId, version: ref.version, partIndex: ref.partIndex, objectKey: file.object_key };
    const known = await liveMediaId(deps.sql, fileRef, new Date(deps.clock.now() + EXPIRY_MARGIN_MS));
    if (known) {
      ids.push(known);
      continue;
    }
    if (!deps.media) throw new NetworkRejectedError("invalid", `Cannot upload media "${file.object_key}": no media store is configured`);
    const bytes = await deps.media.read(file.object_key);
    if (!bytes || bytes.length === 0) throw new NetworkRejectedError("invalid", `Cannot upload media "${file.object_key}": the media store does not hold it`);
    const type = detectMediaType(bytes.subarray(0, MAGIC_BYTES));
    if (!type) throw new NetworkRejectedError("invalid", `Cannot upload media "${file.object_key}": it is not a JPG, PNG, WEBP or GIF`);
    const uploaded = await upload({ authorId: ref.accountId, bytes, mimeType: type.mime, altText: file.alt_text ?? null });
    await storeMediaId(deps.sql, fileRef, { ...uploaded, at: new Date(deps.clock.now()) });
    ids.push(uploaded.mediaId);
  }
  return ids;
}
