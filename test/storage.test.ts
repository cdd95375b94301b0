import { test, describe, before, after, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { migrate } from "../adapters/postgres/migrate.ts";
import { openDatabase } from "../adapters/postgres/open_database.ts";
import type { Database } from "../adapters/postgres/open_database.ts";
import { createTestDatabase } from "./support/test_database.ts";
import type { TestDatabase } from "./support/test_database.ts";

const modes = [
  { mode: "embedded", skip: false },
  { mode: "postgres", skip: process.env.DATABASE_URL ? false : "DATABASE_URL not set" },
] as const;

let scratch: string;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), "tl-storage-"));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

let dirCount = 0;
/** Writes `files` (name -> SQL) into a new folder and returns its path. */
async function migrationDir(files: Record<string, string>): Promise<string> {
  const dir = join(scratch, `migrations_${++dirCount}`);
  await mkdir(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

async function tableExists(db: Database, name: string): Promise<boolean> {
  const [row] = await db.sql<{ found: string | null }[]>`select to_regclass(${name})::text as found`;
  return row.found !== null;
}

async function recorded(db: Database): Promise<{ version: number; name: string }[]> {
  if (!(await tableExists(db, "schema_migrations"))) return [];
  const rows = await db.sql<{ version: number; name: string }[]>`select version, name from schema_migrations order by version`;
  return [...rows];
}

for (const { mode, skip } of modes) {
  describe(`storage on ${mode}`, { skip, timeout: 120_000 }, () => {
    let testDb: TestDatabase;
    let db: Database;
    beforeEach(async () => {
      testDb = await createTestDatabase(mode);
      db = await testDb.open();
    });
    afterEach(async () => {
      await testDb.drop();
    });

    test("migrate() applies files in number order and records each", async () => {
      const dir = await migrationDir({
        // Written out of order; 0010 needs 0002's table and 0002 needs 0001's.
        "0010_posts_index.sql": "create index posts_by_user on posts (user_id);",
        "0002_posts.sql": "create table posts (id bigserial primary key, user_id bigint not null references users (id));",
        "0001_users.sql": "create table users (id bigserial primary key, name text not null);\ninsert into users (name) values ('first');",
        "README.md": "not a migration",
      });
      const result = await migrate(db.sql, dir);
      assert.deepEqual(result.applied, ["0001_users.sql", "0002_posts.sql", "0010_posts_index.sql"]);
      assert.deepEqual(await recorded(db), [
        { version: 1, name: "users" },
        { version: 2, name: "posts" },
        { version: 10, name: "posts_index" },
      ]);
      const [row] = await db.sql<{ applied_at: Date; users: number }[]>`
        select max(applied_at) as applied_at, (select count(*) from users) as users from schema_migrations`;
      assert.ok(row.applied_at instanceof Date);
      assert.equal(row.users, 1);
    });

    test("migrate() applies nothing twice and later only the new files", async () => {
      const files = {
        "0001_users.sql": "create table users (id bigserial primary key);",
        "0002_posts.sql": "create table posts (id bigserial primary key);",
      };
      assert.equal((await migrate(db.sql, await migrationDir(files))).applied.length, 2);
      assert.deepEqual((await migrate(db.sql, await migrationDir(files))).applied, []);
      const next = await migrate(db.sql, await migrationDir({ ...files, "0003_tags.sql": "create table tags (id bigserial primary key);" }));
      assert.deepEqual(next.applied, ["0003_tags.sql"]);
      assert.equal((await recorded(db)).length, 3);
    });

    test("a failing migration leaves no table and no record from the whole run", async () => {
      const dir = await migrationDir({
        "0001_users.sql": "create table users (id bigserial primary key);",
        "0002_broken.sql": "create table posts (id bigserial primary key);\nselect 1/0;",
      });
      await assert.rejects(migrate(db.sql, dir), /Migration "0002_broken\.sql" failed: division by zero/);
      assert.equal(await tableExists(db, "users"), false);
      assert.equal(await tableExists(db, "posts"), false);
      assert.deepEqual(await recorded(db), []);
    });

    test("a failing migration keeps what earlier runs applied", async () => {
      const first = { "0001_users.sql": "create table users (id bigserial primary key);" };
      await migrate(db.sql, await migrationDir(first));
      const dir = await migrationDir({
        ...first,
        "0002_posts.sql": "create table posts (id bigserial primary key);",
        "0003_broken.sql": "alter table missing_table add column x int;",
      });
      await assert.rejects(migrate(db.sql, dir), /Migration "0003_broken\.sql" failed/);
      assert.equal(await tableExists(db, "users"), true);
      assert.equal(await tableExists(db, "posts"), false);
      assert.deepEqual(await recorded(db), [{ version: 1, name: "users" }]);
    });

    test("migrate() refuses a database that newer code migrated", async () => {
      await migrate(
        db.sql,
        await migrationDir({
          "0001_users.sql": "create table users (id bigserial primary key);",
          "0002_posts.sql": "create table posts (id bigserial primary key);",
        }),
      );
      const older = await migrationDir({ "0001_users.sql": "create table users (id bigserial primary key);" });
      await assert.rejects(migrate(db.sql, older), /Database has migration "0002_posts" that this code does not have/);
    });

    test("migrate() refuses misnamed and duplicate migration files", async () => {
      await assert.rejects(migrate(db.sql, await migrationDir({ "1_users.sql": "select 1;" })), /"1_users\.sql" .* is not named NNNN_name\.sql/);
      const twins = await migrationDir({ "0001_users.sql": "select 1;", "0001_posts.sql": "select 1;" });
      await assert.rejects(migrate(db.sql, twins), /share the number 1/);
      assert.deepEqual(await recorded(db), []);
    });

    test("concurrent migrate() calls apply each file once", async () => {
      // Plain `create table` fails when run twice, and the sleep holds the first migrator
      // inside its transaction while the others arrive.
      const dir = await migrationDir({
        "0001_runs.sql": "create table runs (n int); select pg_sleep(0.2);",
        "0002_more.sql": "create table more_runs (n int); insert into runs values (1);",
      });
      // Separate pools stand for separate server processes (on embedded they share PGlite).
      const others = await Promise.all([testDb.open(), testDb.open()]);
      try {
        const results = await Promise.all([db, ...others].map((each) => migrate(each.sql, dir)));
        const applied = results.flatMap((result) => result.applied).sort();
        assert.deepEqual(applied, ["0001_runs.sql", "0002_more.sql"]);
        const [row] = await db.sql<{ n: number }[]>`select count(*) as n from runs`;
        assert.equal(row.n, 1);
        assert.equal((await recorded(db)).length, 2);
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    });

    test("int8 values come back as numbers, beyond 2^53 as exact strings", async () => {
      await db.sql`create table items (id bigint generated always as identity primary key, owner bigint not null)`;
      const [item] = await db.sql<{ id: number; owner: number }[]>`insert into items (owner) values (${42}) returning id, owner`;
      assert.deepEqual(item, { id: 1, owner: 42 });
      const [found] = await db.sql<{ id: number }[]>`select id from items where id = ${item.id}`;
      assert.equal(found.id, 1);
      const [row] = await db.sql`
        select count(*) as n, array[1, 2]::int8[] as list, 9007199254740993::int8 as huge, now() as at`;
      assert.equal(row.n, 1);
      assert.deepEqual(row.list, [1, 2]);
      assert.equal(row.huge, "9007199254740993");
      assert.ok(row.at instanceof Date);
    });

    // PGlite is one backend session (ARCHITECTURE: Database), so the socket server must run
    // each transaction to its end before serving another connection.
    const serialOnly = mode === "embedded" ? false : "real PostgreSQL runs transactions concurrently; only PGlite serialises them";
    test("embedded runs transactions from concurrent callers one at a time", { skip: serialOnly }, async () => {
      await db.sql`create table steps (id bigint generated always as identity primary key, caller int not null)`;
      await Promise.all(
        [1, 2, 3].map((caller) =>
          db.sql.begin(async (tx) => {
            for (let step = 0; step < 4; step++) {
              await tx`insert into steps (caller) values (${caller})`;
              // Yield to the event loop so the other callers get to send their statements.
              await new Promise((resolve) => setImmediate(resolve));
            }
          }),
        ),
      );
      const rows = await db.sql<{ caller: number }[]>`select caller from steps order by id`;
      const order = rows.map((row) => row.caller).join("");
      // Each caller's four rows are consecutive ids: no transaction saw another's rows mid-way.
      assert.match(order, /^(1111|2222|3333){3}$/);
    });
  });
}

describe("embedded data directory", { timeout: 120_000 }, () => {
  test("a second open of a persisted data dir is refused while the first is open", async () => {
    const dataDir = join(scratch, "data_locked");
    const first = await openDatabase({ dataDir });
    try {
      await assert.rejects(openDatabase({ dataDir }), (error: Error) => {
        assert.match(error.message, /Data directory ".*data_locked" is in use by process \d+/);
        assert.ok(error.message.includes(String(process.pid)));
        return true;
      });
      await first.sql`create table kept (id bigint primary key)`;
      await first.sql`insert into kept values (7)`;
    } finally {
      await first.close();
    }
    await assert.rejects(access(join(dataDir, "pgdata.lock")), { code: "ENOENT" });
    const again = await openDatabase({ dataDir });
    try {
      const [row] = await again.sql<{ id: number }[]>`select id from kept`;
      assert.equal(row.id, 7);
    } finally {
      await again.close();
    }
  });

  test("the embedded database is reachable only by this OS user: a 0600 Unix socket in a 0700 directory, no TCP port; a new data dir is 0700", async () => {
    const dataDir = join(scratch, "data_private");
    const db = await openDatabase({ dataDir });
    const socket = db.socket;
    try {
      assert.ok(socket, "the embedded database names its socket");
      const served = await stat(socket);
      assert.ok(served.isSocket(), `${socket} is a Unix socket`);
      assert.equal(served.mode & 0o777, 0o600);
      assert.equal((await stat(dirname(socket))).mode & 0o777, 0o700);
      assert.equal((await stat(dataDir)).mode & 0o777, 0o700);
      const [{ one }] = await db.sql<{ one: number }[]>`select 1 as one`;
      assert.equal(one, 1, "the pool reaches it through the socket");
    } finally {
      await db.close();
    }
    await assert.rejects(access(dirname(socket)), { code: "ENOENT" }, "close() removes the socket's directory");
  });

  test("a lock left by a process that died is taken over", async () => {
    const dataDir = join(scratch, "data_stale");
    await mkdir(dataDir);
    const dead = spawnSync(process.execPath, ["-e", ""]);
    assert.ok(dead.pid);
    await writeFile(join(dataDir, "pgdata.lock"), `${dead.pid}\n`);
    const db = await openDatabase({ dataDir });
    try {
      assert.equal((await readFile(join(dataDir, "pgdata.lock"), "utf8")).trim(), String(process.pid));
      const [row] = await db.sql<{ one: number }[]>`select 1 as one`;
      assert.equal(row.one, 1);
    } finally {
      await db.close();
    }
  });
});

test("openDatabase() names an unreachable server without its password", async () => {
  await assert.rejects(openDatabase({ databaseUrl: "postgres://tl:secret@127.0.0.1:1/none" }), (error: Error) => {
    assert.match(error.message, /^Cannot connect to PostgreSQL at "postgres:\/\/tl@127\.0\.0\.1:1\/none"/);
    assert.ok(!error.message.includes("secret"));
    return true;
  });
});
