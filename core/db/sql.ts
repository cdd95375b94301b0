/**
 * The Sql port: porsager `postgres` clients as core sees them. Adapters build them
 * (`adapters/postgres/open_database.ts`); core only runs queries through them.
 */
import type postgres from "postgres";

/**
 * The connection pool: runs queries and opens transactions with `sql.begin`.
 * int8 columns come back as numbers (see open_database.ts), so ids are numbers.
 */
// biome-ignore lint/complexity/noBannedTypes: postgres.js spells "no custom types" as {}
export type Sql = postgres.Sql<{}>;

/**
 * Anything that runs queries: the pool or the transaction handle `sql.begin` passes
 * to its callback. A query function that may run inside a transaction takes this,
 * since postgres' `TransactionSql` has no `begin` and so is not a `Sql`.
 */
// biome-ignore lint/complexity/noBannedTypes: postgres.js spells "no custom types" as {}
export type Queryable = postgres.ISql<{}>;

/** A piece of SQL built with `sql\`...\`` to embed in another query (conditions, SET lists). */
export type SqlFragment = postgres.PendingQuery<postgres.Row[]>;
