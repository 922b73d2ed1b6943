import { type Expression, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { builtOnce } from "./built-once.server";

describe.each(ENGINES)("a statement built once (%s)", (engine) => {
  let t: TestDatabase;
  let builds = 0;
  // A value used twice, a value of the statement's own ('customer') and one of the call's in a subquery.
  const namesLike = builtOnce((db, prefix: Expression<string>, minimumId: Expression<number>) => {
    builds++;
    return db
      .selectFrom("users")
      .select(["id", "first_name"])
      .select(sql<number>`length(${prefix})`.as("prefixLength"))
      .where("role", "=", "customer")
      .where("first_name", "like", sql<string>`${prefix} || '%'`)
      .where("id", "in", db.selectFrom("users as u").select("u.id").where("u.id", ">=", minimumId))
      .orderBy("id");
  });

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const at = new Date().toISOString();
    await t.db
      .insertInto("users")
      .values(
        [
          ["Ada", "customer"],
          ["Adaeze", "customer"],
          ["Adamu", "owner"],
          ["Bola", "customer"],
        ].map(([name, role], i) => ({ email: `u${i}@example.com`, password_hash: "x", first_name: name, last_name: "Test", role: role as "customer" | "owner", created_at: at })),
      )
      .execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("gives each call's rows, as the statement built for those values would", async () => {
    const ids = (await t.db.selectFrom("users").select("id").orderBy("id").execute()).map((row) => row.id);
    const byHand = (prefix: string, minimumId: number) =>
      t.db
        .selectFrom("users")
        .select(["id", "first_name"])
        .select(sql<number>`length(${prefix})`.as("prefixLength"))
        .where("role", "=", "customer")
        .where("first_name", "like", `${prefix}%`)
        .where("id", ">=", minimumId)
        .orderBy("id")
        .execute();
    for (const [prefix, minimumId] of [["Ada", ids[0]], ["Ada", ids[1]], ["B", ids[0]], ["Zed", ids[0]], ["", ids[3]]] as const) {
      const rows = await namesLike(t.db, prefix, minimumId);
      expect(rows.map((row) => ({ ...row, prefixLength: Number(row.prefixLength) }))).toEqual(
        (await byHand(prefix, minimumId)).map((row) => ({ ...row, prefixLength: Number(row.prefixLength) })),
      );
    }
    expect((await namesLike(t.db, "Ada", ids[0])).map((row) => row.first_name)).toEqual(["Ada", "Adaeze"]);
  });

  it("is built once, and runs in a transaction too", async () => {
    const before = builds;
    await namesLike(t.db, "B", 0);
    const inTransaction = await t.db.transaction().execute((trx) => namesLike(trx, "Bo", 0));
    expect(inTransaction.map((row) => row.first_name)).toEqual(["Bola"]);
    expect(builds).toBe(before);
  });
});
