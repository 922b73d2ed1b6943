import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import * as stop from "./messages.stop";

// The stop link of a marketing message asks first, then ends the opt-in in one click; a made-up token is a 404.

describe.each(ENGINES)("the marketing stop link on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase(engine);
    await t.db
      .insertInto("marketing_consents")
      .values({ user_id: null, contact_email: null, contact_phone: "+2348051112222", source: "checkout", wording: "Send me offers", locale: "en", token: "stop-token-0123456789", granted_at: new Date().toISOString(), withdrawn_at: null, withdrawn_via: null })
      .execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("asks, stops on the button, and stops nothing for a made-up token", async () => {
    const context = testContext(t);
    const token = "stop-token-0123456789";
    const page = await run(stop.loader, browserRequest(`/messages/stop?token=${token}`), context);
    expect(page).toMatchObject({ status: 200, body: { token } });
    expect((await t.db.selectFrom("marketing_consents").select("withdrawn_at").executeTakeFirstOrThrow()).withdrawn_at).toBeNull();
    const post = (token: string) =>
      run(stop.action, browserRequest("/messages/stop", { method: "POST", body: new URLSearchParams({ token }), headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" } }), context);
    expect(await post(token)).toMatchObject({ status: 200, body: { message: expect.any(String) } });
    expect(await t.db.selectFrom("marketing_consents").select("withdrawn_via").executeTakeFirstOrThrow()).toEqual({ withdrawn_via: "link" });
    // Stopping twice is fine; a made-up token stops nothing.
    expect((await post(token)).status).toBe(200);
    expect((await post("made-up-token-made-up-token")).status).toBe(404);
    expect((await run(stop.loader, browserRequest("/messages/stop?token=made-up"), context)).status).toBe(404);
  });
});
