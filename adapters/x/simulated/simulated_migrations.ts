/**
 * The simulated network's own migrations (STYLE.md: "an adapter owns its tables and their
 * migrations"): `migrations/NNNN_name.sql` beside this module, forward only, applied in one
 * transaction and recorded in `simulated_network_migrations`. The runtime applies them right
 * after core's chain when the network is the simulated one (adapters/x/open_network.ts
 * `migrateNetwork`); anything else that opens a simulated network on a database applies them
 * first with `migrateSimulatedNetwork`.
 *
 * Handover from core's chain: databases that core's 0007_network_writes (and 0012's last
 * index) migrated already hold these tables; the first migration here creates each object
 * only if it does not exist, so it recognises them, keeps their rows and records itself.
 */
import type { Sql } from "../../../core/db/sql.ts";
import type { MigrationChain } from "../../../core/db/migrate.ts";
import { migrateChain } from "../../postgres/migrate.ts";

/** The chain: its folder, record table and advisory lock (an arbitrary constant, "tl" + "simnet"). */
export const SIMULATED_NETWORK_CHAIN: MigrationChain = {
  directory: new URL("./migrations/", import.meta.url),
  table: "simulated_network_migrations",
  lockKey: 7_415_746_638,
};

/** Applies the simulated network's pending migrations; answers the files applied. */
export async function migrateSimulatedNetwork(sql: Sql): Promise<{ applied: string[] }> {
  return migrateChain(sql, SIMULATED_NETWORK_CHAIN);
}
