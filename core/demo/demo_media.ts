/**
 * The demo world's `media.image_key` (shared/spec/demo_world.md): an uploaded, unattached
 * PNG of A's. Unattached uploads are deleted after 24 hours, so a re-run reuses one only
 * while it has most of that day left, else uploads a fresh one.
 */
import type { Services } from "../context.ts";
import { insertUpload, markUploaded } from "../media/media_queries.ts";
import { newObjectKey } from "../media/create_upload.ts";
import { reusableDemoImage } from "./demo_queries.ts";
import { HOUR_MS } from "../time/durations.ts";

/** A 1x1 PNG (a real image: the upload checks read its header). */
const DEMO_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** Keeps a demo upload this long before making a fresh one (it is purged at 24 hours). */
const REUSE_HOURS = 12;

/** The object key of an uploaded, unattached PNG of `accountId`, or undefined without a media store. */
export async function ensureDemoImage(services: Services, accountId: string): Promise<string | undefined> {
  const { sql, clock, media } = services;
  if (!media) return undefined;
  const now = new Date(clock.now());
  const existing = await reusableDemoImage(sql, accountId, new Date(now.getTime() - REUSE_HOURS * HOUR_MS));
  if (existing) return existing.object_key;
  const objectKey = newObjectKey("png");
  await insertUpload(sql, {
    objectKey,
    workspaceId: accountId,
    accountId,
    apiKeyId: null,
    filename: "demo.png",
    fileType: "image/png",
    size: DEMO_PNG.length,
    expiresAt: now,
    createdAt: now,
  });
  await media.put(objectKey, new Uint8Array(DEMO_PNG), "image/png");
  await markUploaded(sql, objectKey, { size: DEMO_PNG.length, detectedType: "image/png", at: now });
  return objectKey;
}
