/**
 * The media keys a post part is published with. A network that hosts media itself (X,
 * `uploadMedia`) gets each file uploaded at publish time, shortly before the post is due, since
 * its ids expire (docs/x.md "Media on X"); the id is recorded with the part, so a retry within
 * its life attaches it again instead of uploading twice, and an expired id is uploaded again.
 * Other networks take our object keys as they are.
 */
import type { Sql } from "../db/sql.ts";
import { uploadByKey } from "../media/media_queries.ts";
import { NetworkRejectedError } from "../network/network_errors.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { MediaStore } from "../ports/media_store.ts";
import { networkMediaOf, recordNetworkMedia } from "./network_media_queries.ts";

/** An id this close to expiring is uploaded again rather than attached (the post must reach X before it lapses). */
const EXPIRY_MARGIN_MS = 60_000;

/** What resolving needs. */
export interface NetworkMediaDeps {
  sql: Sql;
  network: SocialNetwork;
  clock: { now(): number };
  media?: MediaStore;
}

/** The keys to send for part `partIndex`'s media: network media ids where the network uploads, else object keys. */
export async function networkMediaKeys(
  deps: NetworkMediaDeps,
  part: { postId: number; version: number; partIndex: number; authorId: string },
  items: readonly { object_key: string; alt_text?: string | null }[],
): Promise<string[]> {
  const upload = deps.network.uploadMedia?.bind(deps.network);
  if (!upload || items.length === 0) return items.map((item) => item.object_key);
  const ids: string[] = [];
  for (const item of items) {
    const key = { postId: part.postId, version: part.version, partIndex: part.partIndex, objectKey: item.object_key };
    const known = await networkMediaOf(deps.sql, key);
    if (known && (known.expires_at === null || known.expires_at.getTime() - EXPIRY_MARGIN_MS > deps.clock.now())) {
      ids.push(known.network_media_id);
      continue;
    }
    const bytes = await deps.media?.read(item.object_key);
    if (!bytes) throw new NetworkRejectedError("invalid", `Cannot read media "${item.object_key}" to upload it`);
    const row = await uploadByKey(deps.sql, item.object_key);
    const mimeType = row?.detected_type ?? row?.file_type ?? "application/octet-stream";
    const uploaded = await upload({ authorId: part.authorId, bytes, mimeType, ...(item.alt_text ? { altText: item.alt_text } : {}) });
    await recordNetworkMedia(deps.sql, key, {
      mediaId: uploaded.mediaId,
      expiresAt: uploaded.expiresAt === null ? null : new Date(uploaded.expiresAt),
      at: new Date(deps.clock.now()),
    });
    ids.push(uploaded.mediaId);
  }
  return ids;
}
