import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { type PaystackStandIn, startPaystackStandIn } from "../../../tests/support/paystack-stand-in";
import { action as webhook } from "~/routes/webhooks.paystack";
import { loader as callback } from "~/routes/payments.paystack.callback";
import { createSession } from "~/http/session.server";
import { recheckUnpaidOnlinePayments, refundOnlineOrder, refundOrder, settlePaystackReference, startOnlinePayment } from "./online-payments.server";
import { markOrderPaid } from "./payments.server";
import { adjustCredit, creditBalance, refundAsCredit } from "../credit/credit.server";
import { addRow } from "../credit/ledger.server";
import { formatNaira } from "~/lib/money";
import { paystackSignature, PAYSTACK_TIMEOUT_MS } from "./paystack.server";

const SECRET = "sk_test_unboxed_integration";

describe.each(ENGINES)("paying online with Paystack on %s", (engine) => {
  let t: TestDatabase;
  let standIn: PaystackStandIn;
  let context: AppLoadContext;
  let customer: { id: number; email: string };
  let admin: { id: number };
  let productId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    standIn = await startPaystackStandIn({ secretKey: SECRET });
    context = testContext(t, { PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_PUBLIC_KEY: "pk_test_unboxed_integration", PAYSTACK_API_URL: standIn.url });
    customer = await addUser(t.db, "customer", `online-${engine}@example.com`, "Chioma");
    admin = await addUser(t.db, "owner", `owner-${engine}@example.com`, "Ada");
    const [brand, category] = await Promise.all([addBrand(t.db), addCategory(t.db)]);
    productId = (await addProduct(t.db, { brandId: brand.id, categoryId: category.id, price: 4_500_000, stock: 1000 })).id;
  });
  afterAll(async () => {
    await standIn?.close();
    await t?.drop();
  });
  beforeEach(() => {
    standIn.requests.length = 0;
  });

  async function onlineOrder(extra: Partial<Parameters<typeof insertOrder>[1]> = {}) {
    const order = await insertOrder(t.db, { userId: customer.id, items: [{ productId, quantity: 1 }], ...extra });
    await t.db.updateTable("orders").set({ payment_method: "paystack", shipping: 750_000, total: order.total + 750_000 }).where("id", "=", order.id).execute();
    return { ...order, total: order.total + 750_000 };
  }
  const row = (number: string) =>
    t.db.selectFrom("orders").select(["payment_status", "payment_reference", "payment_channel", "paid_at", "payment_url"]).where("number", "=", number).executeTakeFirstOrThrow();
  const receivedMails = async (number: string) =>
    t.db.selectFrom("mail_outbox").select("subject").where("to_address", "=", customer.email).where("subject", "=", `Payment received for your Unboxed order ${number}`).execute();

  function signedWebhook(body: string, signature = paystackSignature(SECRET, body)) {
    return webhook({
      request: browserRequest("/webhooks/paystack", { method: "POST", body, headers: { "Content-Type": "application/json", "x-paystack-signature": signature } }),
      context,
      params: {},
    } as never) as Promise<Response>;
  }
  const chargeSuccess = (reference: string, extra: Record<string, unknown> = {}) => JSON.stringify({ event: "charge.success", data: { reference, status: "success", amount: 1, currency: "NGN", ...extra } });

  it("initialises with the secret key, the customer's e-mail, the order's total in kobo, the order number and the callback", async () => {
    const order = await onlineOrder();
    const started = await startOnlinePayment(context, { number: order.number, userId: customer.id });
    expect(started).toEqual({ ok: true, url: expect.stringMatching(new RegExp(`^${standIn.url}/checkout/[0-9a-f]{16}$`)) });
    const [request] = standIn.requests;
    expect(request).toMatchObject({
      endpoint: "initialize",
      authorization: `Bearer ${SECRET}`,
      body: { email: customer.email, amount: String(order.total), reference: order.number, callback_url: "http://shop.test/payments/paystack/callback", currency: "NGN" },
    });
    expect(await row(order.number)).toMatchObject({ payment_reference: order.number, payment_status: "unpaid" });
    // Trying again is a new transaction with its own reference.
    const again = await startOnlinePayment(context, { number: order.number, userId: customer.id });
    expect(again.ok).toBe(true);
    expect((await row(order.number)).payment_reference).toBe(`${order.number}-2`);
    // Another shopper's order is not found; an order that is not for online payment cannot be paid online.
    expect(await startOnlinePayment(context, { number: order.number, userId: admin.id })).toEqual({ ok: false, error: "notFound" });
  });

  it("leaves the order unpaid and says so when Paystack answers 500, times out or sends malformed JSON", async () => {
    const order = await onlineOrder();
    for (const fault of ["500", "malformed"] as const) {
      standIn.fail("initialize", fault);
      expect(await startOnlinePayment(context, { number: order.number, userId: customer.id })).toEqual({ ok: false, error: "unavailable" });
    }
    expect(await row(order.number)).toMatchObject({ payment_status: "unpaid", payment_reference: null });
    await startOnlinePayment(context, { number: order.number, userId: customer.id });
    await standIn.pay(order.number, { webhook: false });
    for (const fault of ["500", "malformed"] as const) {
      standIn.fail("verify", fault);
      expect(await settlePaystackReference(context, order.number, "callback")).toBe("unavailable");
    }
    expect((await row(order.number)).payment_status).toBe("unpaid");
    expect(await settlePaystackReference(context, order.number, "callback")).toBe("paid");
  });

  it("gives up on a Paystack that does not answer, within the timeout", async () => {
    const order = await onlineOrder();
    standIn.fail("initialize", "timeout");
    const started = Date.now();
    expect(await startOnlinePayment(context, { number: order.number, userId: customer.id })).toEqual({ ok: false, error: "unavailable" });
    expect(Date.now() - started).toBeLessThan(PAYSTACK_TIMEOUT_MS + 5_000);
  }, 30_000);

  it("marks paid only what Paystack verifies: success, NGN and the order's total", async () => {
    const abandoned = await onlineOrder();
    await startOnlinePayment(context, { number: abandoned.number, userId: customer.id });
    expect(await settlePaystackReference(context, abandoned.number, "callback")).toBe("notPaid");
    expect((await row(abandoned.number)).payment_status).toBe("unpaid");

    const short = await onlineOrder();
    await startOnlinePayment(context, { number: short.number, userId: customer.id });
    standIn.transactions.get(short.number)!.amount = short.total - 100;
    await standIn.pay(short.number, { webhook: false });
    expect(await settlePaystackReference(context, short.number, "callback")).toBe("mismatch");

    const dollars = await onlineOrder();
    await startOnlinePayment(context, { number: dollars.number, userId: customer.id });
    standIn.transactions.get(dollars.number)!.currency = "USD";
    await standIn.pay(dollars.number, { webhook: false });
    expect(await settlePaystackReference(context, dollars.number, "webhook")).toBe("mismatch");
    for (const o of [short, dollars]) expect((await row(o.number)).payment_status).toBe("unpaid");

    expect(await settlePaystackReference(context, "UB-99999", "webhook")).toBe("unknown");
    expect(await settlePaystackReference(context, "somebody-else", "webhook")).toBe("unknown");
  });

  it("records a payment that arrives after the order was cancelled, and e-mails the owner to refund or restore it", async () => {
    const order = await onlineOrder();
    await startOnlinePayment(context, { number: order.number, userId: customer.id });
    // The shopper pays at Paystack just as the order expires unpaid.
    await t.db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", order.id).execute();
    await standIn.pay(order.number, { webhook: false });
    expect(await settlePaystackReference(context, order.number, "callback")).toBe("paid");
    expect(await row(order.number)).toMatchObject({ payment_status: "paid" });
    const owners = await t.db.selectFrom("mail_outbox").select(["to_address", "text_body"]).where("kind", "=", "paid-after-cancel").where("subject", "=", `Order ${order.number} was paid after it was cancelled`).execute();
    expect(owners.map((m) => m.to_address)).toEqual(context.config.shop.ownerEmails);
    expect(owners[0].text_body).toContain(`/admin/orders/${order.number}`);
  });

  it("a webhook and a callback at the same moment: one 'paid', one e-mail", async () => {
    const order = await onlineOrder();
    await startOnlinePayment(context, { number: order.number, userId: customer.id });
    await standIn.pay(order.number, { channel: "ussd", webhook: false });
    const body = chargeSuccess(order.number, { amount: order.total });
    const [hook, callback, hook2] = await Promise.all([
      signedWebhook(body),
      settlePaystackReference(context, order.number, "callback"),
      signedWebhook(body),
    ]);
    expect(hook.status).toBe(200);
    expect(hook2.status).toBe(200);
    const outcomes = [await hook.text(), callback, await hook2.text()];
    expect(outcomes.filter((o) => o === "paid")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "alreadyPaid")).toHaveLength(2);
    expect(await row(order.number)).toMatchObject({ payment_status: "paid", payment_reference: order.number, payment_channel: "ussd" });
    expect(await receivedMails(order.number)).toHaveLength(1);
    // Replayed later: nothing changes, still 200.
    const replay = await signedWebhook(body);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe("alreadyPaid");
    expect(await receivedMails(order.number)).toHaveLength(1);
  });

  it("refuses forged, unsigned and mis-signed webhooks, and re-verifies even a signed one", async () => {
    const order = await onlineOrder();
    await startOnlinePayment(context, { number: order.number, userId: customer.id });
    const body = chargeSuccess(order.number, { amount: order.total });
    expect((await signedWebhook(body, "")).status).toBe(401);
    expect((await signedWebhook(body, "not hex")).status).toBe(401);
    expect((await signedWebhook(body, paystackSignature("sk_test_someone_else", body))).status).toBe(401);
    expect((await signedWebhook(body, paystackSignature(SECRET, body).replace(/.$/, (c) => (c === "0" ? "1" : "0")))).status).toBe(401);
    // Signed by the right key but about a transaction Paystack says was not paid: not believed.
    const signed = await signedWebhook(body);
    expect(signed.status).toBe(200);
    expect(await signed.text()).toBe("notPaid");
    expect((await signedWebhook("{not json", paystackSignature(SECRET, "{not json"))).status).toBe(400);
    expect(await (await signedWebhook(JSON.stringify({ event: "transfer.success", data: { reference: order.number } }))).text()).toBe("Ignored");
    expect((await row(order.number)).payment_status).toBe("unpaid");
  });

  it("checks again, once, online orders still unpaid after 15 minutes: a lost webhook and a closed tab end paid", async () => {
    const old = new Date(Date.now() - 20 * 60_000).toISOString();
    const lost = await onlineOrder({ createdAt: old });
    await startOnlinePayment(context, { number: lost.number, userId: customer.id });
    await standIn.pay(lost.number, { webhook: false });
    const abandoned = await onlineOrder({ createdAt: old });
    await startOnlinePayment(context, { number: abandoned.number, userId: customer.id });
    const fresh = await onlineOrder();
    await startOnlinePayment(context, { number: fresh.number, userId: customer.id });
    await standIn.pay(fresh.number, { webhook: false });

    const first = await recheckUnpaidOnlinePayments(context);
    expect(first.paid).toBeGreaterThanOrEqual(1);
    expect((await row(lost.number)).payment_status).toBe("paid");
    expect((await row(abandoned.number)).payment_status).toBe("unpaid");
    expect((await row(fresh.number)).payment_status).toBe("unpaid");
    // Checked just now: not asked again until another 15 minutes have passed; two servers at once ask once.
    standIn.requests.length = 0;
    await Promise.all([recheckUnpaidOnlinePayments(context), recheckUnpaidOnlinePayments(context)]);
    expect(standIn.requests.filter((r) => r.endpoint === "verify")).toHaveLength(0);
    const later = new Date(Date.now() + 16 * 60_000);
    await Promise.all([recheckUnpaidOnlinePayments(context, later), recheckUnpaidOnlinePayments(context, later)]);
    const asked = standIn.requests.filter((r) => r.endpoint === "verify").map((r) => r.path);
    expect(asked).toContain(`/transaction/verify/${fresh.number}`);
    expect(new Set(asked).size).toBe(asked.length);
    expect((await row(fresh.number)).payment_status).toBe("paid");
  });

  it("refunds a paid Paystack order through Paystack, once, and keeps it paid when Paystack fails", async () => {
    const order = await onlineOrder();
    await startOnlinePayment(context, { number: order.number, userId: customer.id });
    await standIn.pay(order.number, { webhook: false });
    await settlePaystackReference(context, order.number, "callback");
    standIn.fail("refund", "500");
    expect(await refundOnlineOrder(context, { number: order.number, actorId: admin.id })).toEqual({ ok: false, error: "unavailable" });
    expect((await row(order.number)).payment_status).toBe("paid");
    expect(await refundOnlineOrder(context, { number: order.number, actorId: admin.id })).toEqual({ ok: true });
    expect(standIn.requests.filter((r) => r.endpoint === "refund").at(-1)).toMatchObject({ authorization: `Bearer ${SECRET}`, body: { transaction: order.number } });
    expect((await row(order.number)).payment_status).toBe("refunded");
    expect(await refundOnlineOrder(context, { number: order.number, actorId: admin.id })).toEqual({ ok: false, error: "stale" });
  });

  it("the staff's refund goes through Paystack for a Paystack order and is only recorded for one paid otherwise", async () => {
    const order = await onlineOrder();
    await startOnlinePayment(context, { number: order.number, userId: customer.id });
    await standIn.pay(order.number, { webhook: false });
    await settlePaystackReference(context, order.number, "callback");
    const before = standIn.requests.filter((r) => r.endpoint === "refund").length;
    expect(await refundOrder(context, { number: order.number, actorId: admin.id })).toEqual({ result: { ok: true }, online: true });
    expect(standIn.requests.filter((r) => r.endpoint === "refund")).toHaveLength(before + 1);
    expect((await row(order.number)).payment_status).toBe("refunded");

    const transfer = await insertOrder(t.db, { userId: customer.id, items: [{ productId, quantity: 1 }] });
    await t.db.updateTable("orders").set({ payment_method: "bank_transfer" }).where("id", "=", transfer.id).execute();
    expect(await markOrderPaid(context, { number: transfer.number, actorId: admin.id })).toMatchObject({ ok: true });
    expect(await refundOrder(context, { number: transfer.number, actorId: admin.id })).toMatchObject({ result: { ok: true }, online: false });
    expect(standIn.requests.filter((r) => r.endpoint === "refund")).toHaveLength(before + 1);
    expect((await row(transfer.number)).payment_status).toBe("refunded");
    expect(await refundOrder(context, { number: "UB-99999", actorId: admin.id })).toEqual({ result: { ok: false, error: "notFound" }, online: false });
  });

  it("refunds what store credit paid back to it, and refuses a whole refund after a part went back as store credit (docs/decisions/224)", async () => {
    const shopper = await addUser(t.db, "customer", `credit-refunds-${engine}@example.com`, "Funmi");
    /** An order of the shopper's that store credit paid `credit` of (as the checkout writes it), the rest online. */
    const creditOrder = async (credit: number) => {
      await adjustCredit(t.db, { userId: shopper.id, amount: credit, note: "for the test", actorId: admin.id });
      const order = await insertOrder(t.db, { userId: shopper.id, items: [{ productId, quantity: 1 }] });
      await t.db.updateTable("orders").set({ payment_method: "paystack", store_credit: Math.min(credit, order.total) }).where("id", "=", order.id).execute();
      await addRow(t.db, { userId: shopper.id }, { amount: -Math.min(credit, order.total), reason: "spent", orderId: order.id });
      return order;
    };
    const refunds = () => standIn.requests.filter((r) => r.endpoint === "refund").length;

    // Paid ₦20,000 by credit, the rest online: Paystack refunds its part, the credit gets its part back.
    const partly = await creditOrder(2_000_000);
    await startOnlinePayment(context, { number: partly.number, userId: shopper.id });
    expect(standIn.requests.at(-1)).toMatchObject({ endpoint: "initialize", body: { amount: String(partly.total - 2_000_000) } });
    await standIn.pay(partly.number, { webhook: false });
    expect(await settlePaystackReference(context, partly.number, "callback")).toBe("paid");
    expect(await creditBalance(t.db, shopper.id)).toBe(0);
    // The e-mail thanks for the payment Paystack took, not the order's whole total.
    const received = await t.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", shopper.email).where("kind", "=", "payment-received").executeTakeFirstOrThrow();
    expect(received.text_body).toContain(`We have received your payment of ${formatNaira(partly.total - 2_000_000)} for order ${partly.number}.`);
    const before = refunds();
    expect(await refundOrder(context, { number: partly.number, actorId: admin.id })).toEqual({ result: { ok: true }, online: true });
    expect(refunds()).toBe(before + 1);
    expect((await row(partly.number)).payment_status).toBe("refunded");
    expect(await creditBalance(t.db, shopper.id)).toBe(2_000_000);

    // Paid wholly by credit: nothing went through Paystack, so nothing is asked of it; the credit comes back.
    await adjustCredit(t.db, { userId: shopper.id, amount: -2_000_000, note: "reset", actorId: admin.id });
    const wholly = await creditOrder(100_000_000);
    await t.db.updateTable("orders").set({ payment_status: "paid" }).where("id", "=", wholly.id).execute();
    expect(await creditBalance(t.db, shopper.id)).toBe(100_000_000 - wholly.total);
    expect(await refundOrder(context, { number: wholly.number, actorId: admin.id })).toEqual({ result: { ok: true, mail: "none" }, online: false });
    expect(refunds()).toBe(before + 1);
    expect((await row(wholly.number)).payment_status).toBe("refunded");
    expect(await creditBalance(t.db, shopper.id)).toBe(100_000_000);

    // Part of a paid order refunded as credit: refunding the whole through Paystack would pay that part
    // twice. Refused, nothing asked of Paystack; the rest goes back as credit.
    const paid = await onlineOrder();
    await startOnlinePayment(context, { number: paid.number, userId: customer.id });
    await standIn.pay(paid.number, { webhook: false });
    await settlePaystackReference(context, paid.number, "callback");
    expect(await refundAsCredit(t.db, { number: paid.number, amount: 1_000_000, note: "scratched", actorId: admin.id })).toMatchObject({ ok: true });
    expect(await refundOrder(context, { number: paid.number, actorId: admin.id })).toEqual({ result: { ok: false, error: "partlyAsCredit" }, online: true });
    expect(refunds()).toBe(before + 1);
    expect((await row(paid.number)).payment_status).toBe("paid");
    expect(await refundAsCredit(t.db, { number: paid.number, amount: paid.total - 1_000_000, note: "", actorId: admin.id })).toMatchObject({ ok: true });
    expect((await row(paid.number)).payment_status).toBe("refunded");

    // The same for a refund made by hand.
    const transfer = await insertOrder(t.db, { userId: customer.id, items: [{ productId, quantity: 1 }] });
    await t.db.updateTable("orders").set({ payment_method: "bank_transfer" }).where("id", "=", transfer.id).execute();
    await markOrderPaid(context, { number: transfer.number, actorId: admin.id });
    await refundAsCredit(t.db, { number: transfer.number, amount: 100_000, note: "", actorId: admin.id });
    expect(await refundOrder(context, { number: transfer.number, actorId: admin.id })).toEqual({ result: { ok: false, error: "partlyAsCredit" }, online: false });
    expect((await row(transfer.number)).payment_status).toBe("paid");
  });

  it("the callback settles only the signed-in owner's order; someone else's reference is a 404 and Paystack is not asked", async () => {
    const order = await onlineOrder();
    await startOnlinePayment(context, { number: order.number, userId: customer.id });
    await standIn.pay(order.number, { webhook: false });
    const other = await addUser(t.db, "customer", `nosy-${engine}@example.com`);
    const visit = async (userId: number, reference: string) => {
      const cookie = await createSession(context, userId);
      try {
        return (await callback({ request: browserRequest(`/payments/paystack/callback?trxref=${reference}&reference=${reference}`, { cookies: [cookie] }), context, params: {} } as never)) as Response;
      } catch (thrown) {
        return thrown as { init?: { status?: number }; status?: number };
      }
    };
    standIn.requests.length = 0;
    for (const reference of [order.number, "UB-99999", "not-ours", "UB-1'--"]) {
      const refused = (await visit(other.id, reference)) as { init?: { status?: number } };
      expect(refused.init?.status, reference).toBe(404);
    }
    expect(standIn.requests).toHaveLength(0);
    expect((await row(order.number)).payment_status).toBe("unpaid");

    const back = (await visit(customer.id, order.number)) as Response;
    expect(back.status).toBe(303);
    expect(back.headers.get("Location")).toBe(`/orders/${order.number}`);
    expect((await row(order.number)).payment_status).toBe("paid");
  });
});
