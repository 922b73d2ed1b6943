import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserRequest, runRoute, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { addUser } from "../../../tests/support/catalogue";
import { hashPassword } from "~/platform/password.server";
import { createSession, getSessionUser } from "~/http/session.server";
import { confirmPassword, REAUTH_AFTER_MS, recentlyAuthenticated, requireRecentAuthentication } from "./reauthentication.server";
import * as staffRoute from "~/routes/admin.staff";
import * as exportRoute from "~/routes/admin.orders.export";
import * as orderRoute from "~/routes/admin.orders.$number";
import * as orderCreditRoute from "~/routes/admin.orders.$number.credit";
import * as customerCreditRoute from "~/routes/admin.customers.$id.credit";
import * as giftCardsRoute from "~/routes/admin.gift-cards";

// Sensitive actions ask for the password again when the session proved it more than 15 minutes ago
// (docs/decisions/222), on both engines.

type Handler = (args: never) => Promise<unknown>;
const PASSWORD = "juniper lantern 4711";

describe("how old an authentication may be", () => {
  it("counts a session as recent for 15 minutes after it proved its password, and one that never did as old", () => {
    const now = Date.parse("2026-12-02T12:00:00.000Z");
    const ago = (ms: number) => ({ authenticatedAt: new Date(now - ms).toISOString() });
    expect(recentlyAuthenticated(ago(0), now)).toBe(true);
    expect(recentlyAuthenticated(ago(REAUTH_AFTER_MS - 1000), now)).toBe(true);
    expect(recentlyAuthenticated(ago(REAUTH_AFTER_MS + 1000), now)).toBe(false);
    expect(recentlyAuthenticated({ authenticatedAt: null }, now)).toBe(false);
    expect(recentlyAuthenticated({ authenticatedAt: "garbage" }, now)).toBe(false);
  });

  it("sends an old session to confirm its password, coming back to the page that asked", () => {
    const old = { id: 1, authenticatedAt: new Date(Date.now() - REAUTH_AFTER_MS - 1).toISOString() };
    let thrown: unknown;
    try {
      requireRecentAuthentication(new Request("http://shop.test/admin/orders/export.data?from=2026-11-01&_routes=x"), old);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Response).headers.get("Location")).toBe("/auth/confirm-password?redirectTo=%2Fadmin%2Forders%2Fexport%3Ffrom%3D2026-11-01");
    expect(() => requireRecentAuthentication(new Request("http://shop.test/admin/staff"), { id: 1, authenticatedAt: new Date().toISOString() })).not.toThrow();
  });
});

describe.each(ENGINES)("confirming the password on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let owner: { id: number; email: string };
  let cookie: string;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    owner = await addUser(t.db, "owner");
    await t.db.updateTable("users").set({ password_hash: await hashPassword(PASSWORD) }).where("id", "=", owner.id).execute();
    cookie = await createSession(context, owner.id);
    // The session proved its password 20 minutes ago.
    await t.db.updateTable("sessions").set({ authenticated_at: new Date(Date.now() - 20 * 60 * 1000).toISOString() }).where("user_id", "=", owner.id).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  const post = (url: string, body: Record<string, string>) =>
    browserRequest(url, { method: "POST", body: new URLSearchParams(body), cookies: [cookie], headers: { Origin: "http://shop.test" } });

  it("asks again before money leaves the shop as credit: a refund as store credit, a change of a customer's credit, a gift card (docs/decisions/224)", async () => {
    const refund = await runRoute(orderCreditRoute.action as Handler, post("/admin/orders/UB-10001/credit", { amount: "5000", note: "" }), context, { number: "UB-10001" });
    expect(refund).toMatchObject({ status: 302, location: "/auth/confirm-password?redirectTo=%2Fadmin%2Forders%2FUB-10001" });
    const credit = await runRoute(customerCreditRoute.action as Handler, post(`/admin/customers/${owner.id}/credit`, { amount: "5000", note: "thanks" }), context, { id: String(owner.id) });
    expect(credit).toMatchObject({ status: 302, location: `/auth/confirm-password?redirectTo=%2Fadmin%2Fcustomers%2F${owner.id}` });
    const card = await runRoute(
      giftCardsRoute.action as Handler,
      post("/admin/gift-cards", { amount: "100000", expiresOn: "", recipientName: "Me", recipientEmail: "me@example.com", message: "", locale: "en", sold: "" }),
      context,
    );
    expect(card).toMatchObject({ status: 302, location: "/auth/confirm-password?redirectTo=%2Fadmin%2Fgift-cards" });
    expect(await t.db.selectFrom("gift_cards").select("id").execute()).toEqual([]);
    expect(await t.db.selectFrom("credit_ledger").select("id").execute()).toEqual([]);
  });

  it("asks again before a role change, a refund and the customers' export, then lets them through once the password is confirmed", async () => {
    const invite = await runRoute(staffRoute.action as Handler, post("/admin/staff", { intent: "invite", email: "new@example.com", role: "support" }), context);
    expect(invite).toMatchObject({ status: 302, location: "/auth/confirm-password?redirectTo=%2Fadmin%2Fstaff" });
    const refund = await runRoute(orderRoute.action as Handler, post("/admin/orders/UB-1", { intent: "refund" }), context, { number: "UB-1" });
    expect(refund).toMatchObject({ status: 302, location: "/auth/confirm-password?redirectTo=%2Fadmin%2Forders%2FUB-1" });
    const download = await runRoute(exportRoute.loader as Handler, browserRequest("/admin/orders/export?status=pending", { cookies: [cookie] }), context);
    expect(download).toMatchObject({ status: 302, location: "/auth/confirm-password?redirectTo=%2Fadmin%2Forders%2Fexport%3Fstatus%3Dpending" });
    expect(await t.db.selectFrom("staff_invitations").select("id").execute()).toEqual([]);

    const user = (await getSessionUser(browserRequest("/admin", { cookies: [cookie] }), t.db))!;
    const here = { ...context, clientIp: "10.3.0.1" };
    expect(await confirmPassword(here, user, "not my password")).toBe(false);
    expect(recentlyAuthenticated((await getSessionUser(browserRequest("/admin", { cookies: [cookie] }), t.db))!)).toBe(false);
    expect(await confirmPassword(here, user, PASSWORD)).toBe(true);
    expect(recentlyAuthenticated((await getSessionUser(browserRequest("/admin", { cookies: [cookie] }), t.db))!)).toBe(true);

    const again = await runRoute(staffRoute.action as Handler, post("/admin/staff", { intent: "invite", email: "new@example.com", role: "support" }), context);
    expect(again.status).toBe(303);
    expect(again.location).toBe("/admin/staff");
    expect(await t.db.selectFrom("staff_invitations").select("email").execute()).toEqual([{ email: "new@example.com" }]);
    expect((await runRoute(exportRoute.loader as Handler, browserRequest("/admin/orders/export", { cookies: [cookie] }), context)).status).toBe(200);
  });
});
