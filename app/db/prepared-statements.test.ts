import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { PREPARED, StatementNames } from "./client.server";

describe("which statements are sent named", () => {
  const marked = (text: string) => `${text} /* prepared */`;

  it("names the statements marked PREPARED, always the same way, and no others", () => {
    const names = new StatementNames();
    const text = marked('select "id" from users where "id" = $1');
    const name = names.nameFor(text);
    expect(name).toMatch(/^unboxed_\d+$/);
    expect(names.nameFor(text)).toBe(name);
    expect(names.nameFor(marked('select "id" from users where "email" = $1'))).not.toBe(name);
    for (const other of ['select "id" from users where "id" = $1', "begin", "commit", "/* prepared */ select 1"]) expect(names.nameFor(other), other).toBeUndefined();
  });

  it("names at most 200, so a marked statement whose text varied could not grow the list for ever", () => {
    const names = new StatementNames();
    const named = Array.from({ length: 300 }, (_, i) => names.nameFor(marked(`select ${i}`)));
    expect(named.filter(Boolean)).toHaveLength(200);
    expect(names.nameFor(marked("select 0"))).toBe(named[0]);
    expect(names.nameFor(marked("select 250"))).toBeUndefined();
  });
});

describe("prepared statements on PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase("postgres");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("prepares a marked statement once on a connection, and gives the right rows each time", async () => {
    const at = new Date().toISOString();
    await t.db
      .insertInto("users")
      .values(["ada", "bola"].map((name) => ({ email: `${name}@example.com`, password_hash: "x", first_name: name, last_name: "Test", role: "customer" as const, created_at: at })))
      .execute();
    await t.db.connection().execute(async (connection) => {
      const byEmail = (email: string) => connection.selectFrom("users").select(["first_name"]).where("email", "=", email).modifyEnd(PREPARED).executeTakeFirst();
      const answers = [];
      for (const email of ["ada@example.com", "bola@example.com", "ada@example.com", "nobody@example.com", "bola@example.com"]) answers.push((await byEmail(email))?.first_name ?? null);
      expect(answers).toEqual(["ada", "bola", "ada", null, "bola"]);
      const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(connection);
      expect(prepared.rows).toEqual([{ name: expect.stringMatching(/^unboxed_\d+$/), statement: expect.stringContaining('"users" where "email" = $1 /* prepared */') }]);
    });
  });

  it("still reports a failing statement as an error, and the next one works", async () => {
    await t.db.connection().execute(async (connection) => {
      const insert = (id: number) => sql`insert into brands (id, name, slug, created_at) values (${id}, ${`Brand ${id}`}, ${`brand-${id}`}, ${new Date().toISOString()}) ${PREPARED}`.execute(connection);
      await insert(900_001);
      await insert(900_002);
      await expect(insert(900_001)).rejects.toThrow(/duplicate key|unique/i);
      await insert(900_003);
      const rows = await connection.selectFrom("brands").select("id").where("id", ">", 900_000).orderBy("id").execute();
      expect(rows.map((r) => r.id)).toEqual([900_001, 900_002, 900_003]);
    });
  });
});
