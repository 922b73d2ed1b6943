import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "./client.server";
import { migrateToLatest } from "./migrate.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-statistics-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SESSION_LOOKUP = `select s.id, s.expires_at, u.id as user_id, u.email, u.first_name, u.last_name, u.role from sessions as s inner join users as u on u.id = s.user_id where s.id = 'x'`;

async function planAndRows(file: string) {
  const handle = await openDatabase({ databaseUrl: null, sqlitePath: file });
  const plan = (await sql<{ detail: string }>`explain query plan ${sql.raw(SESSION_LOOKUP)}`.execute(handle.db)).rows.map((r) => r.detail);
  const stat = (await sql<{ stat: string }>`select stat from sqlite_stat1 where tbl = 'users' and idx = 'sqlite_autoindex_users_1'`.execute(handle.db)).rows[0]?.stat;
  return { handle, plan, usersCounted: Number(stat?.split(" ")[0]) };
}

async function samplesKept(db: Db): Promise<number> {
  return (await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(db)).rows[0].n;
}

describe("the SQLite planner's statistics", () => {
  it("are brought up to date on opening when a table has grown far past what they say", async () => {
    const file = path.join(dir, "shop.db");
    const first = await openDatabase({ databaseUrl: null, sqlitePath: file });
    await migrateToLatest(first.db);
    const at = "2026-01-01T00:00:00.000Z";
    const user = (email: string) => ({ email, password_hash: "!", first_name: "A", last_name: "B", role: "customer" as const, created_at: at });
    await first.db.insertInto("users").values(user("first@example.com")).execute();
    // Statistics taken when the shop had one customer (as `npm run seed -- --products N` takes them).
    await sql`analyze`.execute(first.db);
    const before = (await sql<{ detail: string }>`explain query plan ${sql.raw(SESSION_LOOKUP)}`.execute(first.db)).rows.map((r) => r.detail);
    // With them, the session lookup reads every customer.
    expect(before).toContain("SCAN u");
    for (let i = 0; i < 50; i++) await first.db.insertInto("users").values(Array.from({ length: 100 }, (_, j) => user(`c${i}-${j}@example.com`))).execute();
    // ANALYZE keeps samples of indexed values too (as the seed's does); they are dropped on opening (below).
    expect(await samplesKept(first.db)).toBeGreaterThan(0);
    await first.close();

    const { handle, plan, usersCounted } = await planAndRows(file);
    try {
      expect(usersCounted).toBe(5_001);
      // The averages are kept, the samples of values (which made SQLite prepare statements again) are not.
      expect(await samplesKept(handle.db)).toBe(0);
      expect(plan).not.toContain("SCAN u");
      expect(plan.some((d) => /SEARCH u USING INTEGER PRIMARY KEY/.test(d))).toBe(true);
    } finally {
      await handle.close();
    }
  });
});
