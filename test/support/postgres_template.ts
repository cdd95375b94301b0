/**
 * A migrated PostgreSQL database that test databases are copied from (`CREATE DATABASE ...
 * TEMPLATE`): running the migrations is most of a fresh database's cost, so the first test
 * process to need the template builds `tl_template_<key>` once per set of migrations
 * (migrations_key.ts) and every test database after is a file copy of it. A server the
 * suites ran against keeps one such database per set of migrations it has seen.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrate } from "../../adapters/postgres/migrate.ts";
import { migrateSimulatedNetwork } from "../../adapters/x/simulated/simulated_migrations.ts";
import { migrationsKey } from "./migrations_key.ts";

let template: Promise<string> | undefined;

/** The name of the migrated template database on the server `adminUrl` names (built once). */
export function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  template ??= findOrBuild(adminUrl);
  return template;
}

async function findOrBuild(adminUrl: string): Promise<string> {
  const name = `tl_template_${(await migrationsKey()).replace(/^migrated-/, "")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    if (await exists(admin, name)) return name;
    // Built under a draft name and renamed whole, so a parallel test process never copies a
    // half-migrated template; when another process got there first, its template is used.
    const draft = `${name}_${randomBytes(4).toString("hex")}`;
    await admin`create database ${admin(draft)}`;
    const url = new URL(adminUrl);
    url.pathname = `/${draft}`;
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await migrate(sql);
      await migrateSimulatedNetwork(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
    try {
      await admin`alter database ${admin(draft)} rename to ${admin(name)}`;
    } catch (error) {
      await admin`drop database if exists ${admin(draft)} with (force)`;
      if (!(await exists(admin, name))) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}

async function exists(admin: postgres.Sql, name: string): Promise<boolean> {
  const rows = await admin`select 1 from pg_database where datname = ${name}`;
  return rows.length > 0;
}
