/** SQL of the demo world's webhook fixture (core/demo/demo_webhooks.ts). */
import type { Queryable } from "../db/sql.ts";

/** The user's endpoint with `description` and its first delivery, if seeded before. */
export async function demoWebhookNamed(sql: Queryable, ownerId: number, description: string): Promise<{ endpoint: number; delivery: number } | undefined> {
  const [row] = await sql<{ endpoint: number; delivery: number | null }[]>`
    select w.id::int as endpoint, (select min(d.id)::int from webhook_deliveries d where d.webhook_id = w.id) as delivery
    from webhooks w where w.owner_id = ${ownerId} and w.description = ${description}
    order by w.id limit 1`;
  return row && row.delivery !== null ? { endpoint: row.endpoint, delivery: row.delivery } : undefined;
}
