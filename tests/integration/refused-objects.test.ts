import type { AppLoadContext } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addAddress } from "~/domain/accounts/addresses.server";
import { checkoutView } from "~/domain/orders/checkout.server";
import { createSession } from "~/http/session.server";
import { captureSecurityLog } from "~/platform/security-log.server";
import * as order from "~/routes/account.order";
import * as invoice from "~/routes/account.invoice";
import * as pay from "~/routes/account.order.pay";
import * as callback from "~/routes/payments.paystack.callback";
import * as profile from "~/routes/account.profile";
import * as checkout from "~/routes/account.checkout";
import { addBrand, addCategory, addProduct, addUser, firstSizeOf } from "../support/catalogue";
import { runRoute, testContext } from "../support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../support/databases";
import { insertOrder } from "../support/orders";

// A shopper who asks for another account's order, invoice, payment or address gets the same 404 (or
// refusal) as for one that does not exist, and the refusal is a security event with ids only
// (docs/decisions/212).

describe.each(ENGINES)("refusals of another account's objects on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let owner: { id: number; email: string };
  let asker: { id: number; email: string };
  let askerCookie: string;
  let theirs: { number: string; addressId: number; whatsApp: string };
  let log: ReturnType<typeof captureSecurityLog> | null = null;
  let productId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    // Paystack set up (never reached: the order is looked up first), so paying is refused as "not found".
    context = testContext(t, { PAYSTACK_SECRET_KEY: "sk_test_refusedobjects" });
    owner = await addUser(t.db, "customer", undefined, "Ngozi");
    asker = await addUser(t.db, "customer", undefined, "Tunde");
    askerCookie = (await createSession(context, asker.id)).split(";")[0];
    const product = await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: (await addCategory(t.db)).id, stock: 9 });
    const placed = await insertOrder(t.db, { userId: owner.id, items: [{ productId: product.id, quantity: 1 }], paymentMethod: "paystack", paymentStatus: "unpaid" });
    const whatsApp = await insertOrder(t.db, { userId: null, channel: "whatsapp", items: [{ productId: product.id, quantity: 1 }] });
    const address = await addAddress(t.db, owner.id, { street: "7 Bourdillon Road", city: "Ikoyi", state: "Lagos", country: "Nigeria" });
    productId = product.id;
    theirs = { number: placed.number, addressId: address.id, whatsApp: whatsApp.number };
    // The asker has a cart, so the checkout reaches the address it is given.
    const at = new Date().toISOString();
    await t.db.insertInto("carts").values({ id: `cart-of-asker-${"x".repeat(24)}`, user_id: asker.id, created_at: at, updated_at: at }).execute();
    await t.db
      .insertInto("cart_lines")
      .values({ cart_id: `cart-of-asker-${"x".repeat(24)}`, product_id: product.id, size_id: firstSizeOf(product.id), quantity: 1, created_at: at })
      .execute();
  });
  afterEach(() => log?.stop());
  afterAll(async () => {
    await t?.drop();
  });

  const get = (path: string) => new Request(`http://shop.test${path}`, { headers: { Cookie: askerCookie } });
  const post = (path: string, fields: Record<string, string>) =>
    new Request(`http://shop.test${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { Cookie: askerCookie, Origin: "http://shop.test" } });
  const refusals = () => log!.lines.filter((line) => line.event === "object_refused");

  it("answers as for nothing, and logs each refusal with ids and no e-mail or name", async () => {
    log = captureSecurityLog();
    const { number, addressId } = theirs;
    const view = await checkoutView(t.db, asker.id, { paystack: false, bankTransfer: true, payOnDelivery: true });
    const address = { street: "1 Broad Street", city: "Lagos Island", state: "Lagos", country: "Nigeria" };

    expect((await runRoute(order.loader, get(`/orders/${number}`), context, { number })).status).toBe(404);
    expect((await runRoute(order.loader, get(`/orders/${theirs.whatsApp}`), context, { number: theirs.whatsApp })).status).toBe(404);
    expect((await runRoute(invoice.loader, get(`/orders/${number}/invoice`), context, { number })).status).toBe(404);
    expect((await runRoute(pay.loader, get(`/orders/${number}/pay`), context, { number })).status).toBe(404);
    expect((await runRoute(pay.action, post(`/orders/${number}/pay`, {}), context, { number })).status).toBe(404);
    expect((await runRoute(callback.loader, get(`/payments/paystack/callback?reference=${number}-1`), context)).status).toBe(404);
    const update = await runRoute(profile.action, post("/profile", { intent: "update-address", addressId: String(addressId), ...address }), context);
    const remove = await runRoute(profile.action, post("/profile", { intent: "delete-address", addressId: String(addressId) }), context);
    expect([update.status, remove.status]).toEqual([303, 303]);
    const placing = await runRoute(
      checkout.action,
      post("/checkout", { checkoutKey: view.checkoutKey, seen: view.seen, addressId: String(addressId), deliveryMethod: "delivery", paymentMethod: "on_delivery", expectedTotal: "0" }),
      context,
    );
    expect(placing.status).toBe(404);
    // Nothing of theirs was changed.
    expect(await t.db.selectFrom("addresses").select(["user_id", "street"]).where("id", "=", addressId).execute()).toEqual([{ user_id: owner.id, street: "7 Bourdillon Road" }]);

    expect(refusals().map(({ userId, object, objectId, method, path }) => ({ userId, object, objectId, method, path }))).toEqual([
      { userId: asker.id, object: "order", objectId: number, method: "GET", path: `/orders/${number}` },
      { userId: asker.id, object: "order", objectId: theirs.whatsApp, method: "GET", path: `/orders/${theirs.whatsApp}` },
      { userId: asker.id, object: "invoice", objectId: number, method: "GET", path: `/orders/${number}/invoice` },
      { userId: asker.id, object: "payment", objectId: number, method: "GET", path: `/orders/${number}/pay` },
      { userId: asker.id, object: "payment", objectId: number, method: "POST", path: `/orders/${number}/pay` },
      { userId: asker.id, object: "payment", objectId: number, method: "GET", path: "/payments/paystack/callback" },
      { userId: asker.id, object: "address", objectId: addressId, method: "POST", path: "/profile" },
      { userId: asker.id, object: "address", objectId: addressId, method: "POST", path: "/profile" },
      { userId: asker.id, object: "address", objectId: addressId, method: "POST", path: "/checkout" },
    ]);
    expect(refusals().every((line) => line.ip === "127.0.0.1" && line.level === 40)).toBe(true);
    const text = log.text();
    for (const personal of [owner.email, "Ngozi", asker.email, "Tunde", "Bourdillon", "Broad Street"]) {
      expect(text).not.toContain(personal);
    }
  });

  it("logs nothing for an object that does not exist or is the asker's own", async () => {
    log = captureSecurityLog();
    const own = await insertOrder(t.db, { userId: asker.id, items: [{ productId, quantity: 1 }] });
    for (const missing of ["UB-99999999", "UB-1", "not-a-number\u0000"]) {
      expect((await runRoute(order.loader, get(`/orders/${encodeURIComponent(missing)}`), context, { number: missing })).status, missing).toBe(404);
      expect((await runRoute(invoice.loader, get(`/orders/${encodeURIComponent(missing)}/invoice`), context, { number: missing })).status, missing).toBe(404);
    }
    expect((await runRoute(order.loader, get(`/orders/${own.number}`), context, { number: own.number })).status).toBe(200);
    const update = await runRoute(profile.action, post("/profile", { intent: "delete-address", addressId: "999999" }), context);
    expect(update.status).toBe(303);
    expect(refusals()).toEqual([]);
  });
});
