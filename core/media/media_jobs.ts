/**
 * The `purge_unattached_media` job: deletes uploads no post attached within 24 hours,
 * their stored objects first, then their rows (spec: POST /v1/media, "unattached uploads
 * deleted after 24 hours"; Constants).
 */
import type { Queryable } from "../db/sql.ts";
import type { MediaStore } from "../ports/media_store.ts";
import { claimUnattachedUploads, deletePurgedUploads } from "./media_queries.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import type { Clock } from "../clock.ts";

/** Age after which an upload never attached is deleted. */
const UNATTACHED_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Uploads handled per claim, so one run never holds many row locks. */
const CHUNK = 200;

/**
 * Deletes uploads never attached and created more than 24 hours before `now`; answers how
 * many rows went. A claimed row can no longer be attached, its object is deleted, then the
 * row; an object the store failed to delete keeps its row (still marked), the run ends
 * with an error, and the job's retry finishes it. Without a store (MEDIA_STORE=none)
 * there is nothing to reach, and only the rows go.
 */
export async function purgeUnattachedMedia(sql: Queryable, store: MediaStore | undefined, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - UNATTACHED_LIFETIME_MS);
  let total = 0;
  for (;;) {
    const keys = await claimUnattachedUploads(sql, cutoff, now, CHUNK);
    const deleted: string[] = [];
    const failures: unknown[] = [];
    for (const key of keys) {
      try {
        await store?.delete(key);
        deleted.push(key);
      } catch (error) {
        failures.push(error);
      }
    }
    total += await deletePurgedUploads(sql, deleted);
    if (failures.length > 0) {
      throw new Error(`Could not delete ${failures.length} of ${keys.length} unattached media objects: ${(failures[0] as Error)?.message ?? failures[0]}`);
    }
    if (keys.length < CHUNK) return total;
  }
}

/** The media area's job kind (assembled in jobs/task_list.ts). */
export const mediaJobs = {
  // Hourly, so an upload no post attached is gone at most an hour after its 24 hours.
  purge_unattached_media: {
    handler: (deps: { sql: Queryable; media?: MediaStore; clock: Clock }) => purgeUnattachedMedia(deps.sql, deps.media, new Date(deps.clock.now())),
    everySeconds: 60 * 60,
  },
} satisfies JobTasks;
