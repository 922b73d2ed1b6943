import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser } from "../../tests/support/catalogue";
import { browserRequest, runRoute, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { listAddresses } from "~/domain/accounts/addresses.server";
import { createSession } from "~/http/session.server";
import { action, loader } from "./account.profile";

// The profile takes the account's mobile number and each saved address's: as typed, kept in E.164, a
// wrong one refused with a 400 and the field's message, never a 500.
describe.each(ENGINES)("mobile numbers on the profile on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let userId: number;
  let cookie: string;
  const post = (fields: Record<string, string>) => runRoute(action, browserRequest("/profile?tab=addresses", { method: "POST", body: new URLSearchParams(fields), cookies: [cookie] }), context);
  const phoneOf = async () => (await t.db.selectFrom("users").select("phone").where("id", "=", userId).executeTakeFirstOrThrow()).phone;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    userId = await makeUser(t.db, `phone-${engine}@example.com`);
    cookie = await createSession(context, userId);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("saves the account's number as typed, shows it, and refuses a wrong one", async () => {
    const saved = await post({ intent: "set-phone", phone: "+234 803 123 4567" });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe("/profile?tab=addresses");
    expect(await phoneOf()).toBe("+2348031234567");
    const page = await runRoute(loader, browserRequest("/profile", { cookies: [cookie] }), context);
    expect((page.body as { user: { phone: string | null } }).user.phone).toBe("+2348031234567");

    for (const typed of ["<script>alert(1)</script>", "01 234 5678", "0".repeat(5000)]) {
      const refused = await post({ intent: "set-phone", phone: typed });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ intent: "set-phone", errors: { phone: "address.errors.phone" } });
    }
    expect(await phoneOf()).toBe("+2348031234567");
  });

  it("saves a new address with its number, and refuses a wrong number with nothing saved", async () => {
    const address = { street: "1 Allen Avenue", city: "Ikeja", state: "Lagos", country: "Nigeria" };
    const refused = await post({ intent: "add-address", ...address, phone: "123" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: { phone: "address.errors.phone" } });
    expect(await listAddresses(t.db, userId)).toEqual([]);
    expect((await post({ intent: "add-address", ...address, phone: "0909-876-5432" })).status).toBe(303);
    expect(await listAddresses(t.db, userId)).toMatchObject([{ ...address, phone: "+2349098765432" }]);
  });
});
