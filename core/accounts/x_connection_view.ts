/** An account's X connection as the API shows it (`GET /v1/accounts`, the `account.reauth_required` event): never a token. */
import type { z } from "zod";
import type { xConnection } from "./account_schema.ts";
import type { ConnectionRow } from "./x_connections_queries.ts";

/** The shown form of a stored connection. */
export function connectionView(row: ConnectionRow): z.infer<typeof xConnection> {
  return {
    kind: row.kind,
    status: row.status,
    reason: row.reauth_reason,
    scopes: row.scopes,
    access_expires_at: row.access_expires_at?.toISOString() ?? null,
    connected_at: row.connected_at.toISOString(),
    refreshed_at: row.refreshed_at?.toISOString() ?? null,
  };
}
