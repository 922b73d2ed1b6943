import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { accountPhone, setAccountPhone } from "./accounts.server";

describe.each(ENGINES)("an account's mobile number on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("has none at first, takes one as typed, refuses a wrong one and is cleared when left empty", async () => {
    const ada = await makeUser(t.db, `ada-${engine}@example.com`);
    const bola = await makeUser(t.db, `bola-${engine}@example.com`);
    expect(await accountPhone(t.db, ada)).toBeNull();
    expect(await setAccountPhone(t.db, ada, "0803 123 4567")).toEqual({ ok: true, phone: "+2348031234567" });
    expect(await accountPhone(t.db, ada)).toBe("+2348031234567");
    expect(await setAccountPhone(t.db, ada, "01 234 5678")).toEqual({ ok: false, error: "address.errors.phone" });
    expect(await accountPhone(t.db, ada)).toBe("+2348031234567");
    expect(await accountPhone(t.db, bola)).toBeNull();
    expect(await setAccountPhone(t.db, ada, "  ")).toEqual({ ok: true, phone: null });
    expect(await accountPhone(t.db, ada)).toBeNull();
  });
});
