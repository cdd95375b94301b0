/**
 * The bench's own database, `tl_bench_<random>`, created through an admin connection
 * and dropped at the end (the pattern of test/support/test_database.ts), so the bench
 * never touches the data of whatever server `DATABASE_URL` names.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";

/** A created database and how to drop it. */
export interface PrivateDatabase {
  name: string;
  adminUrl: string;
  url: string;
  /** The server's version string (`SHOW server_version`). */
  serverVersion: string;
  drop(): Promise<void>;
}

/** Creates `tl_bench_<random>` on the server of `adminUrl`. */
export async function createPrivateDatabase(adminUrl: string): Promise<PrivateDatabase> {
  const name = `tl_bench_${randomBytes(6).toString("hex")}`;
  const serverVersion = await withAdmin(adminUrl, async (admin) => {
    await admin`create database ${admin(name)}`;
    const [row] = await admin<{ server_version: string }[]>`show server_version`;
    return row.server_version;
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    adminUrl,
    url: url.toString(),
    serverVersion,
    drop: createPrivateDatabaseDropper(adminUrl, name),
  };
}

/** Drops database `name` through `adminUrl` (nothing when it is already gone). */
export function createPrivateDatabaseDropper(adminUrl: string, name: string): () => Promise<void> {
  return async () => {
    // FORCE (PostgreSQL 13+) ends connections a failed run left behind.
    await withAdmin(adminUrl, (admin) => admin`drop database if exists ${admin(name)} with (force)`);
  };
}

async function withAdmin<T>(adminUrl: string, work: (admin: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await work(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}
