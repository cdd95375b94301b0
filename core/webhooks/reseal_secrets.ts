/**
 * Sealing stored webhook secrets again under the current `ENCRYPTION_KEY` (docs/webhooks.md,
 * "Secrets at rest"): values stored in plain before sealing existed, and values sealed under the
 * previous key after an operator replaced it. Each row is replaced only if it still holds what
 * was read, so a rotation at the same moment is never undone; a second run finds nothing.
 */
import type { Queryable } from "../db/sql.ts";
import type { SecretBox } from "../ports/secret_box.ts";
import { replaceSecrets, secretsToReseal } from "./webhooks_queries.ts";

/** Endpoints read per statement. */
const BATCH = 100;

/** Seals every stored secret not under the current key; answers how many endpoints were read. */
export async function resealSecrets(sql: Queryable, box: SecretBox): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await secretsToReseal(sql, box.currentPrefix, BATCH);
    for (const row of rows) {
      const sealed = {
        secret: box.seal(box.open(row.secret)),
        previous: row.previous_secret === null ? null : box.seal(box.open(row.previous_secret)),
      };
      await replaceSecrets(sql, row, sealed);
    }
    total += rows.length;
    // A row a rotation changed meanwhile is read again next time round, already current.
    if (rows.length < BATCH) return total;
  }
}
