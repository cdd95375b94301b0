/** SQL of the demo world's signal agent (core/demo/demo_signals.ts): finding it again on a re-run; it is written with the API's own queries. */
import type { Queryable } from "../db/sql.ts";

/** The account's agent named `name`, or undefined. */
export async function demoAgentNamed(sql: Queryable, accountId: string, name: string): Promise<number | undefined> {
  const [row] = await sql<{ id: number }[]>`select id from signal_agents where account_id = ${accountId} and name = ${name} order by id limit 1`;
  return row?.id;
}
