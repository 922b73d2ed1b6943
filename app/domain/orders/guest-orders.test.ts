import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { firstSizeOf, makeProducts, makeUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { testContext } from "../../../tests/support/context";
import { translatorFor } from "~/platform/translations.server";
import { guestCheckoutView } from "./checkout.server";
import { findOrderForUser } from "./order-history.server";
import { createAccountFromLink, type GuestCheckoutInput, placeGuestOrder } from "./guest-orders.server";
import { findOrderByLink, orderLinkToken, reissueOrderLink, revokeOrderLink, trackOrder } from "./order-tracking.server";
import { TooManyAttempts } from "../operations/rate-limits.server";
import { changeOrderStatus, getAdminOrder, listAdminOrders } from "./admin-orders.server";
import { exportOrdersCsv } from "./order-export.server";
import { reviewEligibility, reviewInput, submitReview } from "../catalogue/reviews.server";

// Guest checkout, its limits, the private link, tracking and an account afterwards (docs/decisions/217).

const en = translatorFor("en");
const lagos = { street: "3 Awolowo Road", city: "Ikoyi", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
const LAGOS_FEE = 300_000;

describe.each(ENGINES)("guest orders on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let carts = 0;
  let ips = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t, { GUEST_PAY_ON_DELIVERY_MAX: "200000" });
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** A browser's cart (no account) holding these products. */
  async function guestCart(lines: { productId: number; quantity: number }[]): Promise<string> {
    const at = new Date().toISOString();
    const cartId = `guest-cart-${++carts}-${"g".repeat(24)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: null, created_at: at, updated_at: at }).execute();
    await t.db
      .insertInto("cart_lines")
      .values(lines.map((l) => ({ cart_id: cartId, product_id: l.productId, size_id: firstSizeOf(l.productId), quantity: l.quantity, created_at: at })))
      .execute();
    return cartId;
  }

  /** Each test its own IP address, so the per-IP limit of one does not spill into another. */
  const fromNewIp = () => ({ ...context, clientIp: `192.0.2.${++ips}` });

  async function submit(cartId: string, input: Partial<GuestCheckoutInput> = {}, ctx = fromNewIp(), locale?: "en" | "es") {
    const view = await guestCheckoutView(t.db, cartId, PAYMENT);
    return placeGuestOrder(
      ctx,
      cartId,
      {
        checkoutKey: view.checkoutKey,
        seen: view.seen,
        addressId: null,
        address: lagos,
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
      { t: locale === "es" ? translatorFor("es") : en, locale },
    );
  }

  const stockOf = async (id: number) => (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;

  it("places an order without an account: contact kept, stock taken, cart emptied, the private link e-mailed", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Guest Oud", price: 2_500_000, stock: 4 }]);
    const cartId = await guestCart([{ productId: oud, quantity: 2 }]);
    const result = await submit(cartId);
    if (!result.ok) throw new Error(result.problem);
    expect(result.order.userId).toBeNull();
    expect(result.order.total).toBe(2 * 2_500_000 + LAGOS_FEE);
    expect(await stockOf(oud)).toBe(2);
    expect(await t.db.selectFrom("cart_lines").select("product_id").where("cart_id", "=", cartId).execute()).toEqual([]);
    const row = await t.db.selectFrom("orders").selectAll().where("id", "=", result.order.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: null, email: "ada.obi@example.com", customer_name: "Ada Obi", phone: "+2348035550101", channel: "checkout" });
    // Only the link's hash is stored; the link opens this order and nothing else.
    const token = result.link!.replace("/track/", "");
    expect(row.access_token_hash).not.toContain(token);
    expect((await findOrderByLink(t.db, token))?.number).toBe(result.order.number);
    expect(await findOrderByLink(t.db, token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"))).toBeNull();
    const mail = await t.db.selectFrom("mail_outbox").select(["to_address", "text_body"]).where("kind", "=", "order-confirmation").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail.to_address).toBe("ada.obi@example.com");
    expect(mail.text_body).toContain(`http://shop.test${result.link}`);
  });

  it("asks for the name and a valid e-mail with the other fields' problems, and writes nothing", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Nameless Oud", price: 1_000_000, stock: 3 }]);
    const cartId = await guestCart([{ productId: oud, quantity: 1 }]);
    const result = await submit(cartId, { name: " ", email: "not-an-email", phone: "0803" });
    expect(result).toMatchObject({
      ok: false,
      problem: "invalidAddress",
      errors: { name: "purchase.guest.errors.nameRequired", email: "purchase.guest.errors.email", phone: "address.errors.phone" },
    });
    expect(await stockOf(oud)).toBe(3);
    expect(await t.db.selectFrom("orders").select("id").where("email", "=", "not-an-email").execute()).toEqual([]);
  });

  it("places one order for a form sent twice, with the same link", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Twice Oud", price: 1_000_000, stock: 5 }]);
    const cartId = await guestCart([{ productId: oud, quantity: 1 }]);
    const view = await guestCheckoutView(t.db, cartId, PAYMENT);
    const input = { checkoutKey: view.checkoutKey, seen: view.seen, expectedTotal: String(view.cart.subtotal + LAGOS_FEE), email: "twice@example.com", phone: "0803 555 0102" };
    const ctx = fromNewIp();
    const [first, second] = await Promise.all([submit(cartId, input, ctx), submit(cartId, input, ctx)]);
    if (!first.ok || !second.ok) throw new Error("not placed");
    expect(second.order.number).toBe(first.order.number);
    expect(second.link ?? first.link).toBe(first.link);
    expect(await stockOf(oud)).toBe(4);
  });

  it("offers guests pay on delivery only up to GUEST_PAY_ON_DELIVERY_MAX", async () => {
    const [cheap, dear] = await makeProducts(t.db, [
      { name: "Cheap Mist", price: 1_000_000, stock: 5 },
      { name: "Dear Mist", price: 25_000_000, stock: 5 },
    ]);
    const under = await submit(await guestCart([{ productId: cheap, quantity: 1 }]), { paymentMethod: "on_delivery", email: "pod1@example.com", phone: "0803 555 0103" });
    expect(under.ok).toBe(true);
    const over = await submit(await guestCart([{ productId: dear, quantity: 1 }]), { paymentMethod: "on_delivery", email: "pod2@example.com", phone: "0803 555 0104" });
    expect(over).toMatchObject({ ok: false, problem: "payment" });
    expect(await stockOf(dear)).toBe(5);
  });

  it("caps open orders per e-mail and per phone, whatever the cart", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Capped Oud", price: 100_000, stock: 50 }]);
    for (let i = 0; i < 3; i++) {
      const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "open@example.com", phone: "0803 555 0210" });
      expect(placed.ok).toBe(true);
    }
    const sameEmail = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "OPEN@example.com", phone: "0803 555 0299" });
    expect(sameEmail).toMatchObject({ ok: false, problem: "tooManyOpen", count: 3 });
    const samePhone = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "other@example.com", phone: "0803 555 0210" });
    expect(samePhone).toMatchObject({ ok: false, problem: "tooManyOpen", count: 3 });
  });

  it("caps the units a guest's unpaid orders hold, by e-mail", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Held Oud", price: 100_000, stock: 50 }]);
    const ctx = testContext(t, { HELD_UNITS_PER_ACCOUNT: "4" });
    const first = await submit(await guestCart([{ productId: oud, quantity: 3 }]), { email: "held@example.com", phone: "0803 555 0301" }, { ...ctx, clientIp: "198.51.100.40" });
    expect(first.ok).toBe(true);
    const second = await submit(await guestCart([{ productId: oud, quantity: 2 }]), { email: "held@example.com", phone: "0803 555 0302" }, { ...ctx, clientIp: "198.51.100.41" });
    expect(second).toMatchObject({ ok: false, problem: "tooManyHeld", by: "guest", limit: 4 });
  });

  it("refuses an eleventh new guest order from one IP address in an hour (with when to try again)", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Busy Oud", price: 100_000, stock: 50 }]);
    const ctx = fromNewIp();
    for (let i = 0; i < 10; i++) {
      const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: `ip${i}@example.com`, phone: `0803 555 04${10 + i}` }, ctx);
      expect(placed.ok).toBe(true);
    }
    const refused = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "ip10@example.com", phone: "0803 555 0499" }, ctx);
    expect(refused).toMatchObject({ ok: false, problem: "tooManyOrders" });
    expect(refused.ok === false && refused.problem === "tooManyOrders" && refused.retryAfter).toBeGreaterThan(0);
  });

  it("lets at most the cap of open orders through when one e-mail orders from many carts at once", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Raced Oud", price: 100_000, stock: 50 }]);
    const cartIds = await Promise.all(Array.from({ length: 6 }, () => guestCart([{ productId: oud, quantity: 1 }])));
    const results = await Promise.all(cartIds.map((cartId, i) => submit(cartId, { email: "race@example.com", phone: `0803 555 05${10 + i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.problem === "tooManyOpen")).toBe(true);
    expect(await stockOf(oud)).toBe(47);
  });

  it("tracks an order by its number and the phone or e-mail used, and by nothing else", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Tracked Oud", price: 100_000, stock: 5 }]);
    const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "track@example.com", phone: "0803 555 0601" });
    if (!placed.ok) throw new Error(placed.problem);
    const ctx = fromNewIp();
    const byPhone = await trackOrder(ctx, { number: placed.order.number.toLowerCase(), contact: "+234 803 555 0601" });
    expect(byPhone).toMatchObject({ ok: true, order: { number: placed.order.number, status: "pending", paymentStatus: "unpaid" } });
    expect(await trackOrder(ctx, { number: placed.order.number, contact: "TRACK@example.com" })).toMatchObject({ ok: true });
    expect(await trackOrder(ctx, { number: placed.order.number, contact: "0803 555 0602" })).toEqual({ ok: false, problem: "notFound" });
    expect(await trackOrder(ctx, { number: placed.order.number, contact: "someone@example.com" })).toEqual({ ok: false, problem: "notFound" });
    expect(await trackOrder(ctx, { number: "UB-1'; --", contact: "" })).toMatchObject({
      ok: false,
      problem: "invalid",
      errors: { number: "purchase.track.errors.number", contact: "purchase.track.errors.contactRequired" },
    });
  });

  it("stops guessing: ten look-ups of one order number per hour, from anywhere", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Guessed Oud", price: 100_000, stock: 5 }]);
    const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "guess@example.com", phone: "0803 555 0701" });
    if (!placed.ok) throw new Error(placed.problem);
    for (let i = 0; i < 10; i++) {
      expect(await trackOrder(fromNewIp(), { number: placed.order.number, contact: `0803 555 08${10 + i}` })).toEqual({ ok: false, problem: "notFound" });
    }
    await expect(trackOrder(fromNewIp(), { number: placed.order.number, contact: "0803 555 0701" })).rejects.toBeInstanceOf(TooManyAttempts);
  });

  it("revokes a private link: it opens nothing any more", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Revoked Oud", price: 100_000, stock: 5 }]);
    const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "revoke@example.com", phone: "0803 555 0901" });
    if (!placed.ok) throw new Error(placed.problem);
    const token = placed.link!.replace("/track/", "");
    expect(await revokeOrderLink(t.db, placed.order.id)).toBe(true);
    expect(await findOrderByLink(t.db, token)).toBeNull();
    // The link is derived from the form's key under the shop's secret: a second form gives another.
    expect(orderLinkToken(context.config.sessionSecret, "another-key-0123456789")).not.toBe(token);
  });

  it("creates an account from the link: the e-mail's guest orders join it, once", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Joined Oud", price: 100_000, stock: 9 }]);
    const first = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "join@example.com", phone: "0803 555 1001", name: "Chioma Eze Nwosu" });
    const second = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "join@example.com", phone: "0803 555 1002" });
    const stranger = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "stranger@example.com", phone: "0803 555 1003" });
    if (!first.ok || !second.ok || !stranger.ok) throw new Error("not placed");
    const token = first.link!.replace("/track/", "");
    expect(await createAccountFromLink(context, token, "short")).toMatchObject({ ok: false, problem: "password" });
    const created = await createAccountFromLink(context, token, "a long enough password");
    if (!created.ok) throw new Error(created.problem);
    const user = await t.db.selectFrom("users").selectAll().where("id", "=", created.userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: "join@example.com", first_name: "Chioma", last_name: "Eze Nwosu", role: "customer", phone: "+2348035551001" });
    expect(await findOrderForUser(t.db, created.userId, first.order.number)).not.toBeNull();
    expect(await findOrderForUser(t.db, created.userId, second.order.number)).not.toBeNull();
    expect(await findOrderForUser(t.db, created.userId, stranger.order.number)).toBeNull();
    // Once only; and an e-mail with an account already is refused.
    expect(await createAccountFromLink(context, token, "a long enough password")).toMatchObject({ ok: false, problem: "noEmail" });
    await makeUser(t.db, "taken@example.com");
    const taken = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "taken@example.com", phone: "0803 555 1004" });
    if (!taken.ok) throw new Error(taken.problem);
    expect(await createAccountFromLink(context, taken.link!.replace("/track/", ""), "a long enough password")).toMatchObject({ ok: false, problem: "emailTaken" });
  });

  it("shows the owner a guest order as a guest's, by its e-mail and phone, in the list, the page, the CSV and the status e-mail", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Listed Oud", price: 100_000, stock: 5 }]);
    const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "listed@example.com", phone: "0803 555 1101", name: "Bola Ade" });
    if (!placed.ok) throw new Error(placed.problem);
    const byEmail = await listAdminOrders(t.db, { q: "listed@example" });
    expect(byEmail.orders).toEqual([expect.objectContaining({ number: placed.order.number, guest: true, customerEmail: "listed@example.com", customerName: "Bola Ade" })]);
    expect((await listAdminOrders(t.db, { q: "+2348035551101" })).orders.map((o) => o.number)).toEqual([placed.order.number]);
    expect(await getAdminOrder(t.db, placed.order.number)).toMatchObject({ guest: true, privateLink: true, phone: "+2348035551101" });
    const csv = await exportOrdersCsv(t.db, {});
    expect(csv.split("\n").find((line) => line.startsWith(placed.order.number))).toContain("Bola Ade,listed@example.com");
    const owner = await makeUser(t.db, "owner-of-listed@example.com");
    const moved = await changeOrderStatus(context, { number: placed.order.number, from: "pending", to: "confirmed", note: null, actorId: owner });
    expect(moved).toMatchObject({ ok: true, mail: "queued" });
    const mail = await t.db.selectFrom("mail_outbox").select(["to_address", "text_body"]).where("kind", "=", "order-status").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail.to_address).toBe("listed@example.com");
    expect(mail.text_body).toContain("http://shop.test/track");
  });

  it("keeps the guest's language on the order: its status e-mails and messages speak it", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Spoken Oud", price: 100_000, stock: 5 }]);
    const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "habla@example.com", phone: "0803 555 1201", name: "Lola Ruiz" }, fromNewIp(), "es");
    const english = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "speaks@example.com", phone: "0803 555 1202", name: "Ken Obi" });
    if (!placed.ok || !english.ok) throw new Error("not placed");
    expect((await t.db.selectFrom("orders").select("locale").where("id", "=", placed.order.id).executeTakeFirstOrThrow()).locale).toBe("es");
    const owner = await makeUser(t.db, "owner-of-spoken@example.com");
    const statusMail = async (number: string, to: "confirmed" | "shipped") => {
      const moved = await changeOrderStatus(context, { number, from: to === "confirmed" ? "pending" : "confirmed", to, note: null, actorId: owner });
      expect(moved).toMatchObject({ ok: true, mail: "queued" });
      return t.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).where("kind", "=", "order-status").orderBy("id", "desc").executeTakeFirstOrThrow();
    };
    const spanish = await statusMail(placed.order.number, "confirmed");
    expect(spanish.to_address).toBe("habla@example.com");
    expect(spanish.subject).toBe(translatorFor("es")("admin.mail.subject", { number: placed.order.number, status: translatorFor("es")("admin.orders.status.confirmed") }));
    expect(spanish.text_body).toContain(translatorFor("es")("admin.mail.greeting", { name: "Lola Ruiz" }));
    const plain = await statusMail(english.order.number, "confirmed");
    expect(plain.subject).toBe(en("admin.mail.subject", { number: english.order.number, status: en("admin.orders.status.confirmed") }));
  });

  it("sends a guest's WhatsApp and SMS messages in the order's language, by the guest's name, to the tracking page", async () => {
    const messaging = testContext(t, { GUEST_PAY_ON_DELIVERY_MAX: "200000", WHATSAPP_TOKEN: "test-token-0123456789abcdef", WHATSAPP_PHONE_NUMBER_ID: "1234567890" });
    const [oud] = await makeProducts(t.db, [{ name: "Messaged Oud", price: 100_000, stock: 5 }]);
    const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "mensaje@example.com", phone: "0803 555 1301", name: "Ana Eze" }, { ...messaging, clientIp: "203.0.113.77" }, "es");
    if (!placed.ok) throw new Error(placed.problem);
    const owner = await makeUser(t.db, "owner-of-messaged@example.com");
    await changeOrderStatus(messaging, { number: placed.order.number, from: "pending", to: "confirmed", note: null, actorId: owner });
    await changeOrderStatus(messaging, { number: placed.order.number, from: "confirmed", to: "shipped", note: null, actorId: owner });
    const messages = await t.db.selectFrom("message_outbox").selectAll().where("order_id", "=", placed.order.id).execute();
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      expect(m).toMatchObject({ locale: "es", to_phone: "+2348035551301" });
      expect(m.template_params).toContain("Ana Eze");
      expect(m.template_params).toContain("http://shop.test/track");
    }
  });

  it("issues a new private link after a revoke: e-mailed in the order's language, the old one dead, both audited, one link for two owners at once", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Relinked Oud", price: 100_000, stock: 5 }]);
    const placed = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "relink@example.com", phone: "0803 555 1401", name: "Uche Relink" }, fromNewIp(), "es");
    if (!placed.ok) throw new Error(placed.problem);
    const owner = await makeUser(t.db, "owner-of-relinked@example.com");
    const oldToken = placed.link!.replace("/track/", "");
    // While the link works, none is issued.
    expect(await reissueOrderLink(t.db, context.config, { number: placed.order.number, actorId: owner })).toEqual({ ok: false, error: "active" });
    expect(await revokeOrderLink(t.db, placed.order.id, owner)).toBe(true);
    const results = await Promise.all([1, 2].map(() => reissueOrderLink(t.db, context.config, { number: placed.order.number, actorId: owner })));
    expect(results).toEqual(expect.arrayContaining([{ ok: true, email: "relink@example.com" }, { ok: false, error: "active" }]));
    const mails = await t.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).where("kind", "=", "order-link").where("to_address", "=", "relink@example.com").execute();
    expect(mails).toHaveLength(1);
    const es = translatorFor("es");
    expect(mails[0].subject).toBe(es("mail.newOrderLink.subject", { number: placed.order.number }));
    const newToken = mails[0].text_body.match(/http:\/\/shop\.test\/track\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(oldToken);
    expect((await findOrderByLink(t.db, newToken!))?.number).toBe(placed.order.number);
    expect(await findOrderByLink(t.db, oldToken)).toBeNull();
    const audit = await t.db.selectFrom("audit_log").select(["actor_user_id", "changes"]).where("entity", "=", "order").where("entity_id", "=", placed.order.id).orderBy("id").execute();
    expect(audit.map((a) => [a.actor_user_id, JSON.parse(a.changes ?? "{}").privateLink])).toEqual([
      [owner, ["active", "revoked"]],
      [owner, ["revoked", "reissued"]],
    ]);
    // Only a guest's checkout order has a link; an unknown number is not found.
    const account = await makeUser(t.db, "relink-account@example.com");
    await t.db.updateTable("orders").set({ user_id: account, access_token_hash: null }).where("id", "=", placed.order.id).execute();
    expect(await reissueOrderLink(t.db, context.config, { number: placed.order.number, actorId: owner })).toEqual({ ok: false, error: "noEmail" });
    expect(await reissueOrderLink(t.db, context.config, { number: "UB-99999999", actorId: owner })).toEqual({ ok: false, error: "notFound" });
  });

  it("makes a guest a verified buyer only once an account holds the delivered order", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Reviewed Guest Oud", price: 100_000, stock: 5 }]);
    // An account with the e-mail already: its guest order stays a guest's, so it proves nothing for the account.
    const known = await makeUser(t.db, "known-reviewer@example.com");
    const theirs = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "known-reviewer@example.com", phone: "0803 555 1501" });
    // A guest without an account, whose order is delivered.
    const later = await submit(await guestCart([{ productId: oud, quantity: 1 }]), { email: "later-reviewer@example.com", phone: "0803 555 1502", name: "Ngozi Later" });
    if (!theirs.ok || !later.ok) throw new Error("not placed");
    await t.db.updateTable("orders").set({ status: "delivered" }).where("id", "in", [theirs.order.id, later.order.id]).execute();
    const review = reviewInput.parse({ rating: "5", body: "Smells exactly like the boxed one." });
    expect(await reviewEligibility(t.db, known, oud)).toBe("notBought");
    expect(await submitReview(t.db, known, oud, review)).toEqual({ ok: false, problem: "notBought" });
    const created = await createAccountFromLink(context, later.link!.replace("/track/", ""), "a long enough password");
    if (!created.ok) throw new Error(created.problem);
    expect(await reviewEligibility(t.db, created.userId, oud)).toBe("eligible");
    expect(await submitReview(t.db, created.userId, oud, review)).toEqual({ ok: true });
  });
});
