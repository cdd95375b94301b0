/**
 * A private database per test file: a fresh `tl_test_*` database on the server named by
 * `DATABASE_URL`, or an in-memory PGlite when it is unset. Parallel test files never
 * share state, and nothing outlives `drop()`.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase } from "../../adapters/postgres/open_database.ts";
import type { Database } from "../../adapters/postgres/open_database.ts";
import { migratedPostgresTemplate } from "./postgres_template.ts";

/** One test database; `open()` as often as needed, `drop()` once at the end. */
export interface TestDatabase {
  mode: "postgres" | "embedded";
  /** The database's URL (PostgreSQL only). */
  url?: string;
  /** A connection pool to the database; close it, or let `drop()` do it. */
  open(options?: { poolSize?: number }): Promise<Database>;
  /** Closes what is still open and destroys the database. */
  drop(): Promise<void>;
}

/**
 * Creates a test database. `mode` defaults to PostgreSQL when `DATABASE_URL` is set,
 * else embedded; pass `"embedded"` to run embedded cases even when it is set. `migrated`
 * (PostgreSQL) copies a database with every migration applied instead of starting empty:
 * what an instance's start would do first, for the suites that do not test the migrations.
 */
export async function createTestDatabase(
  mode: "postgres" | "embedded" = process.env.DATABASE_URL ? "postgres" : "embedded",
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  return mode === "postgres" ? createPostgresDatabase(options.migrated ?? false) : createEmbeddedDatabase();
}

/** A random Redis key prefix, `tl:test:<random>:`, so test files never see each other's keys. */
export function testRedisPrefix(): string {
  return `tl:test:${randomBytes(6).toString("hex")}:`;
}

async function createPostgresDatabase(migrated: boolean): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error("DATABASE_URL is not set; cannot create a PostgreSQL test database");
  const name = `tl_test_${randomBytes(6).toString("hex")}`;
  const template = migrated ? await migratedPostgresTemplate(adminUrl) : undefined;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    if (template) await admin`create database ${admin(name)} template ${admin(template)}`;
    else await admin`create database ${admin(name)}`;
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const open = new Set<Database>();
  return {
    mode: "postgres",
    url: url.toString(),
    async open(options = {}) {
      const db = await openDatabase({ databaseUrl: url.toString(), poolSize: options.poolSize ?? 4 });
      open.add(db);
      const close = () => {
        open.delete(db);
        return db.close();
      };
      return { ...db, close };
    },
    async drop() {
      await Promise.all([...open].map((db) => db.close()));
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        // FORCE (PostgreSQL 13+) ends connections a failed test left behind.
        await admin`drop database if exists ${admin(name)} with (force)`;
      } finally {
        await admin.end();
      }
    },
  };
}

async function createEmbeddedDatabase(): Promise<TestDatabase> {
  // In memory there is nothing to reconnect to, so every open() shares one instance (sized
  // by the first call) and closing a handle is a no-op; drop() closes the instance.
  let shared: Promise<Database> | undefined;
  return {
    mode: "embedded",
    async open(options = {}) {
      shared ??= openDatabase({ dataDir: null, poolSize: options.poolSize });
      const db = await shared;
      return { ...db, close: async () => {} };
    },
    async drop() {
      if (shared) await (await shared).close();
      shared = undefined;
    },
  };
}
