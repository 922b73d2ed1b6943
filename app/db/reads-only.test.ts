import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client.server";
import { migrateToLatest } from "./migrate.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-reads-only-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const at = "2026-01-01T00:00:00.000Z";
const user = (email: string) => ({ email, password_hash: "!", first_name: "A", last_name: "B", role: "customer" as const, created_at: at });

// A second SQLite connection that only reads (once the render thread's: docs/decisions/216).
describe("a SQLite connection that reads only", () => {
  it("writes nothing, even on opening, so a transaction of the server's that has read can still write", async () => {
    const file = path.join(dir, "shop.db");
    const server = await openDatabase({ databaseUrl: null, sqlitePath: file });
    try {
      await migrateToLatest(server.db);
      // Statistics far behind the table: a connection that keeps statistics brings them up to date on opening.
      await server.db.insertInto("users").values(user("first@example.com")).execute();
      await sql`analyze`.execute(server.db);
      await server.db.insertInto("users").values(Array.from({ length: 2000 }, (_, i) => user(`c${i}@example.com`))).execute();

      await server.db.transaction().execute(async (trx) => {
        // The transaction reads first, as the shop's do (a cart change reads the product, then writes).
        await trx.selectFrom("users").select("id").where("email", "=", "first@example.com").executeTakeFirstOrThrow();
        const thread = await openDatabase({ databaseUrl: null, sqlitePath: file, readsOnly: true });
        try {
          const counted = await thread.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
          expect(Number(counted.n)).toBe(2001);
          await expect(thread.db.insertInto("users").values(user("thread@example.com")).execute()).rejects.toThrow(/readonly/);
        } finally {
          await thread.close();
        }
        // Had the second connection written meanwhile, this would fail at once with SQLITE_BUSY.
        await trx.insertInto("users").values(user("after@example.com")).execute();
      });
      expect(await server.db.selectFrom("users").select("id").where("email", "=", "after@example.com").executeTakeFirst()).toBeDefined();
    } finally {
      await server.close();
    }
  });
});
