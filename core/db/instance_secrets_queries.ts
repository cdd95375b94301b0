/**
 * Installation-wide secrets (table `instance_secrets`, migration 0011), created by the first
 * process that needs one, so every server process on one database uses the same: the media
 * store's URL signing secret, the generated encryption key when `ENCRYPTION_KEY` is unset.
 */
import type { Queryable } from "./sql.ts";

/** The secret stored under `name`, storing `candidate` first when there is none yet. */
export async function instanceSecret(sql: Queryable, name: string, candidate: string): Promise<string> {
  await sql`insert into instance_secrets (name, value) values (${name}, ${candidate}) on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from instance_secrets where name = ${name}`;
  return row.value;
}
