import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, firstSizeOf, makeProducts } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../../tests/support/whatsapp-stand-in";
import type { Config } from "~/platform/config.server";
import { translatorFor } from "~/platform/translations.server";
import { consentWording } from "../../http/consent-form.server";
import { guestCheckoutView } from "../orders/checkout.server";
import { type GuestCheckoutInput, placeGuestOrder } from "../orders/guest-orders.server";
import { cartCodeOutcome } from "../promotions/codes.server";
import { reminderStats, restoreRemindedCart, sendCartReminders } from "./cart-reminders.server";
import { parseMessageSettingsForm, reminderCodeSetting, saveReminderCode } from "./catalogue.server";
import { grantConsent, guestConsentOnCart, withdrawByToken } from "./consent.server";
import { drainMessageOutbox } from "./outbox.server";

// Guests' cart reminders and the owner's code on reminders (docs/decisions/220): a guest's opt-in at
// checkout is kept on the cart even when no order follows; the reminder goes once, after the delay,
// never at night or after an order; its link restores the cart elsewhere with the owner's code, which
// is still judged at checkout like any code.

const TOKEN = "EAAGstandintoken0123456789";
const PHONE_ID = "106540352242922";
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
const LAGOS = { street: "3 Awolowo Road", city: "Ikoyi", state: "Lagos", country: "Nigeria" };
const LAGOS_FEE = 300_000;
// 10:00 in Lagos, and 03:00.
const MORNING = new Date("2026-12-02T09:00:00Z");
const NIGHT = new Date("2026-12-02T02:00:00Z");
const hoursBefore = (at: Date, hours: number) => new Date(at.getTime() - hours * 3600_000).toISOString();

let whatsapp: WhatsAppStandIn;
let messaging: Config["messaging"];

beforeAll(async () => {
  whatsapp = await startWhatsAppStandIn({ token: TOKEN, phoneNumberId: PHONE_ID, appSecret: "app-secret-for-tests" });
  messaging = {
    whatsapp: { token: TOKEN, phoneNumberId: PHONE_ID, appSecret: null, verifyToken: null, apiUrl: whatsapp.url, version: "v21.0" },
    sms: null,
    ownerWhatsapp: null,
    quietHours: [21, 8],
    reminderPollSeconds: 60,
  };
});
afterAll(async () => {
  await whatsapp?.close();
});

describe.each(ENGINES)("guest cart reminders and the reminders' code on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let carts = 0;
  let ips = 0;
  const config = () => ({ messaging, publicUrl: "http://shop.test" });

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function guestCart(leftAt = hoursBefore(MORNING, 5)): Promise<{ cartId: string; productId: number }> {
    const [productId] = await makeProducts(t.db, [{ name: `Left Scent ${++carts}`, price: 1_500_000, stock: 10 }]);
    const cartId = `guest-reminded-${carts}-${"r".repeat(24)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: null, created_at: leftAt, updated_at: leftAt }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: productId, size_id: firstSizeOf(productId), quantity: 2, created_at: leftAt }).execute();
    return { cartId, productId };
  }
  const leave = (cartId: string, at = hoursBefore(MORNING, 5)) => t.db.updateTable("carts").set({ updated_at: at }).where("id", "=", cartId).execute();

  /** The guest checkout's form, as posted: the real guest checkout with the marketing box. */
  async function checkout(cartId: string, input: Partial<GuestCheckoutInput>, marketing: boolean, locale: "en" | "es" = "en") {
    const view = await guestCheckoutView(t.db, cartId, PAYMENT);
    return placeGuestOrder(
      { ...context, clientIp: `192.0.2.${++ips}` },
      cartId,
      {
        checkoutKey: view.checkoutKey,
        seen: view.seen,
        addressId: null,
        address: LAGOS,
        saveAddress: false,
        phone: "0803 555 0101",
        deliveryMethod: "delivery",
        paymentMethod: "bank_transfer",
        expectedTotal: String(view.cart.subtotal + LAGOS_FEE),
        payment: PAYMENT,
        name: "Ada Obi",
        email: "Ada.Obi@Example.com",
        ...input,
      },
      { t: translatorFor(locale), locale, marketing: { on: marketing, wording: consentWording(locale) } },
    );
  }
  const consentsOf = (cartId: string) => t.db.selectFrom("marketing_consents").selectAll().where("cart_id", "=", cartId).orderBy("id").execute();
  const reminderOf = (cartId: string) => t.db.selectFrom("cart_reminders").selectAll().where("cart_id", "=", cartId).executeTakeFirst();
  const messagesFor = (cartId: string) => t.db.selectFrom("message_outbox").selectAll().where("idempotency_key", "like", `cart-reminder:${cartId}:%`).execute();

  it("keeps a guest's opt-in on the cart from a refused checkout, with its time, words, language and contact; a change replaces it, unticking withdraws it", async () => {
    const { cartId } = await guestCart();
    // The address is missing: no order, but the opt-in is kept.
    const refused = await checkout(cartId, { address: { ...LAGOS, street: "" } }, true, "es");
    expect(refused).toMatchObject({ ok: false, problem: "invalidAddress" });
    let rows = await consentsOf(cartId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: null,
      contact_name: "Ada Obi",
      contact_email: "ada.obi@example.com",
      contact_phone: "+2348035550101",
      locale: "es",
      source: "checkout",
      wording: consentWording("es"),
      withdrawn_at: null,
    });
    expect(Date.now() - Date.parse(rows[0].granted_at)).toBeLessThan(60_000);
    expect(await guestConsentOnCart(t.db, cartId)).toBe(true);
    // The same form again: the same opt-in.
    await checkout(cartId, { address: { ...LAGOS, street: "" } }, true, "es");
    expect(await consentsOf(cartId)).toHaveLength(1);
    // Another e-mail: the opt-in is given again with it, the first ends.
    await checkout(cartId, { address: { ...LAGOS, street: "" }, email: "ada@example.org" }, true, "es");
    rows = await consentsOf(cartId);
    expect(rows.map((r) => [r.contact_email, r.withdrawn_via])).toEqual([
      ["ada.obi@example.com", "checkout"],
      ["ada@example.org", null],
    ]);
    // Ticked with nothing to reach the guest by: nothing is recorded for a fresh cart.
    const bare = await guestCart();
    await checkout(bare.cartId, { name: "", email: "not-an-email", phone: "12" }, true);
    expect(await consentsOf(bare.cartId)).toHaveLength(0);
    // Unticked: withdrawn.
    await checkout(cartId, { address: { ...LAGOS, street: "" } }, false, "es");
    expect(await guestConsentOnCart(t.db, cartId)).toBe(false);
    expect((await consentsOf(cartId)).every((r) => r.withdrawn_at !== null)).toBe(true);
  });

  it("reminds a guest once after the delay, in their language and by their number, never at night; the link restores the cart on another device and the order there counts as recovered", async () => {
    const { cartId, productId } = await guestCart();
    await checkout(cartId, { address: { ...LAGOS, street: "" } }, true, "es");
    await leave(cartId);
    expect(await sendCartReminders(t.db, config(), NIGHT)).toBe(0);
    expect(await reminderOf(cartId)).toBeUndefined();
    await sendCartReminders(t.db, config(), MORNING);
    const reminder = await reminderOf(cartId);
    expect(reminder).toMatchObject({ user_id: null, channel: "whatsapp", contact_email: "ada.obi@example.com", contact_phone: "+2348035550101", promotion_code: null });
    const [message] = await messagesFor(cartId);
    expect(message).toMatchObject({ to_phone: "+2348035550101", locale: "es", template: "unboxed_cart_reminder" });
    expect(JSON.parse(message.template_params)).toEqual(["Ada Obi", `http://shop.test/cart/restore/${reminder!.restore_token}`, expect.stringMatching(/^http:\/\/shop\.test\/messages\/stop\?token=/)]);
    // Once per cart, however often the timer looks.
    await sendCartReminders(t.db, config(), new Date(MORNING.getTime() + 3600_000));
    expect(await messagesFor(cartId)).toHaveLength(1);
    expect((await drainMessageOutbox(t.db, messaging)).sent).toBeGreaterThanOrEqual(1);
    expect(whatsapp.sent.some((m) => m.to === "2348035550101" && m.template === "unboxed_cart_reminder" && m.language === "es")).toBe(true);

    // Another phone: a new browser's cart gets the lines, and the guest orders there.
    const elsewhere = `guest-elsewhere-${carts}-${"e".repeat(24)}`;
    const at = new Date().toISOString();
    await t.db.insertInto("carts").values({ id: elsewhere, user_id: null, created_at: at, updated_at: at }).execute();
    expect(await restoreRemindedCart(t.db, reminder!.restore_token, elsewhere)).toEqual({ restored: 1, code: null });
    expect(await t.db.selectFrom("cart_lines").select(["product_id", "quantity"]).where("cart_id", "=", elsewhere).execute()).toEqual([{ product_id: productId, quantity: 2 }]);
    const before = await reminderStats(t.db);
    const placed = await checkout(elsewhere, {}, false);
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    expect(await reminderOf(cartId)).toMatchObject({ order_id: placed.order.id, order_total: placed.order.total });
    // The dashboard: recovered at once; its revenue is the money received, as the dashboard counts revenue.
    let after = await reminderStats(t.db);
    expect([after.sent - before.sent, after.recovered - before.recovered, after.revenue - before.revenue]).toEqual([0, 1, 0]);
    await t.db.updateTable("orders").set({ payment_status: "paid", paid_at: new Date().toISOString() }).where("id", "=", placed.order.id).execute();
    after = await reminderStats(t.db);
    expect([after.recovered - before.recovered, after.revenue - before.revenue]).toEqual([1, placed.order.total]);
    // Cancelled and refunded: no longer a cart that came back.
    await t.db.updateTable("orders").set({ status: "cancelled", payment_status: "refunded" }).where("id", "=", placed.order.id).execute();
    after = await reminderStats(t.db);
    expect([after.recovered - before.recovered, after.revenue - before.revenue]).toEqual([0, 0]);
  });

  it("sends a guest no reminder without the opt-in, after the stop link, or once they ordered elsewhere; by e-mail when they gave no number", async () => {
    const noConsent = await guestCart();
    await checkout(noConsent.cartId, { address: { ...LAGOS, street: "" } }, false);
    const stopped = await guestCart();
    await checkout(stopped.cartId, { address: { ...LAGOS, street: "" }, email: "stopped@example.com", phone: "0803 555 0102" }, true);
    const ordered = await guestCart();
    await checkout(ordered.cartId, { address: { ...LAGOS, street: "" }, email: "ordered@example.com", phone: "0803 555 0103" }, true);
    const mailOnly = await guestCart();
    await checkout(mailOnly.cartId, { address: { ...LAGOS, street: "" }, email: "mail.only@example.com", phone: "" }, true);
    for (const cart of [noConsent, stopped, ordered, mailOnly]) await leave(cart.cartId);
    const [stopConsent] = await consentsOf(stopped.cartId);
    expect(await withdrawByToken(t.db, stopConsent.token)).toBe(true);
    // An order by the same e-mail, placed after the cart was left (from another browser).
    const order = await insertOrder(t.db, { userId: null, items: [{ productId: ordered.productId, quantity: 1 }], createdAt: hoursBefore(MORNING, 1) });
    await t.db.updateTable("orders").set({ email: "ordered@example.com" }).where("id", "=", order.id).execute();

    await sendCartReminders(t.db, config(), MORNING);
    expect(await reminderOf(noConsent.cartId)).toBeUndefined();
    expect(await reminderOf(stopped.cartId)).toBeUndefined();
    expect(await reminderOf(ordered.cartId)).toBeUndefined();
    expect(await reminderOf(mailOnly.cartId)).toMatchObject({ channel: "email", contact_email: "mail.only@example.com", contact_phone: null });
    const mail = await t.db.selectFrom("mail_outbox").select(["to_address", "text_body"]).where("kind", "=", "cart-reminder").where("to_address", "=", "mail.only@example.com").executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("Hello Ada Obi,");
    expect(mail.text_body).toContain("/cart/restore/");
    expect(mail.text_body).toContain("/messages/stop?token=");
  });

  it("sends one reminder for a guest's cart when two instances look at once, and keeps one opt-in when the form is posted twice at once", async () => {
    const { cartId } = await guestCart();
    await Promise.all([
      checkout(cartId, { address: { ...LAGOS, street: "" }, email: "twice@example.com", phone: "0803 555 0105" }, true),
      checkout(cartId, { address: { ...LAGOS, street: "" }, email: "twice@example.com", phone: "0803 555 0105" }, true),
    ]);
    expect(await consentsOf(cartId)).toHaveLength(1);
    await leave(cartId);
    const [a, b] = await Promise.all([sendCartReminders(t.db, config(), MORNING), sendCartReminders(t.db, config(), MORNING)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await messagesFor(cartId)).toHaveLength(1);
    expect(await t.db.selectFrom("cart_reminders").select("cart_id").where("cart_id", "=", cartId).execute()).toHaveLength(1);
  });

  it("carries the owner's code while it runs: the reminder names it, its link puts it on the cart, and checkout still judges it", async () => {
    const at = new Date().toISOString();
    await t.db
      .insertInto("promotions")
      .values({ code: "COMEBACK10", code_key: "comeback10", kind: "percent", value: 10, min_subtotal: null, starts_at: null, ends_at: null, usage_limit: null, per_customer_limit: 1, combines_with_sale: 0, uses: 0, paused_at: null, created_at: at, updated_at: at })
      .execute();
    // The owner's form: a code too long to be one is refused before the database is asked; an unknown one by it.
    const form = (code: string) => {
      const body = new FormData();
      body.set("delayHours", "4");
      body.set("reminderCode", code);
      return parseMessageSettingsForm(body);
    };
    expect(form("x".repeat(41))).toEqual({ ok: false, error: "admin.messages.codeError" });
    expect(form("  comeback10 ")).toMatchObject({ ok: true, reminderCode: "comeback10", delayMinutes: 240 });
    expect(form("")).toMatchObject({ ok: true, reminderCode: null });
    expect(await saveReminderCode(t.db, "NOPE-123")).toBe(false);
    expect(await saveReminderCode(t.db, "'; drop table promotions; --")).toBe(false);
    expect(await saveReminderCode(t.db, "comeback10")).toBe(true);
    expect(await reminderCodeSetting(t.db)).toBe("COMEBACK10");

    // A signed-in shopper by WhatsApp: the template with the code.
    const shopper = await addUser(t.db, "customer");
    await t.db.updateTable("users").set({ phone: "+2348035550199" }).where("id", "=", shopper.id).execute();
    await grantConsent(t.db, { userId: shopper.id, source: "profile", locale: "en", wording: consentWording("en") });
    const [productId] = await makeProducts(t.db, [{ name: "Code Scent", price: 2_000_000, stock: 10 }]);
    const accountCart = `account-coded-${shopper.id}-${"a".repeat(24)}`;
    await t.db.insertInto("carts").values({ id: accountCart, user_id: shopper.id, created_at: at, updated_at: hoursBefore(MORNING, 5) }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: accountCart, product_id: productId, size_id: firstSizeOf(productId), quantity: 1, created_at: at }).execute();
    // A guest by e-mail only: the mail names the code.
    const guest = await guestCart();
    await checkout(guest.cartId, { address: { ...LAGOS, street: "" }, email: "coded.guest@example.com", phone: "" }, true);
    await leave(guest.cartId);

    await sendCartReminders(t.db, config(), MORNING);
    const reminder = await reminderOf(accountCart);
    expect(reminder?.promotion_code).toBe("COMEBACK10");
    const [message] = await messagesFor(accountCart);
    expect(message.template).toBe("unboxed_cart_reminder_code");
    expect(JSON.parse(message.template_params)).toEqual(["Chioma", "COMEBACK10", `http://shop.test/cart/restore/${reminder!.restore_token}`, expect.stringContaining("/messages/stop?token=")]);
    expect(message.text_body).toContain("COMEBACK10");
    // The stand-in has the template approved: it goes out.
    await drainMessageOutbox(t.db, messaging);
    expect((await messagesFor(accountCart))[0].status).toBe("sent");
    const mail = await t.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", "coded.guest@example.com").executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("Your code COMEBACK10");

    // The link: the code goes on a cart without one, and not over a code the shopper entered.
    const fresh = `coded-fresh-${shopper.id}-${"f".repeat(24)}`;
    const entered = `coded-entered-${shopper.id}-${"g".repeat(24)}`;
    await t.db.insertInto("carts").values([{ id: fresh, user_id: null, created_at: at, updated_at: at }, { id: entered, user_id: null, promotion_code: "MINE", created_at: at, updated_at: at }]).execute();
    expect(await restoreRemindedCart(t.db, reminder!.restore_token, fresh)).toEqual({ restored: 1, code: "COMEBACK10" });
    expect(await restoreRemindedCart(t.db, reminder!.restore_token, entered)).toEqual({ restored: 1, code: null });
    const codes = await t.db.selectFrom("carts").select(["id", "promotion_code"]).where("id", "in", [fresh, entered]).orderBy("id").execute();
    expect(codes).toEqual([
      { id: entered, promotion_code: "MINE" },
      { id: fresh, promotion_code: "COMEBACK10" },
    ]);
    // Judged at checkout like any code: it takes 10 % off now, and nothing once it has ended.
    const size = await t.db.selectFrom("product_sizes").select("id").where("product_id", "=", productId).executeTakeFirstOrThrow();
    const lines = [{ productId, sizeId: size.id, unitPrice: 2_000_000, quantity: 1 }];
    expect(await cartCodeOutcome(t.db, fresh, lines, null)).toMatchObject({ ok: true, discount: 200_000 });
    // Ended before the morning the reminders below are sent at (and so before any real now from then on).
    await t.db.updateTable("promotions").set({ ends_at: hoursBefore(MORNING, 1) }).where("code", "=", "COMEBACK10").execute();
    expect(await cartCodeOutcome(t.db, fresh, lines, null)).toMatchObject({ ok: false, reason: "expired" });

    // An ended code is not announced: the next reminder goes without it.
    const later = await guestCart();
    await checkout(later.cartId, { address: { ...LAGOS, street: "" }, email: "later@example.com", phone: "0803 555 0104" }, true);
    await leave(later.cartId);
    await sendCartReminders(t.db, config(), MORNING);
    expect(await reminderOf(later.cartId)).toMatchObject({ promotion_code: null });
    expect((await messagesFor(later.cartId))[0].template).toBe("unboxed_cart_reminder");
    expect(await saveReminderCode(t.db, "")).toBe(true);
    expect(await reminderCodeSetting(t.db)).toBeNull();
  });
});
