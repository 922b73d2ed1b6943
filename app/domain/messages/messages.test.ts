import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addUser, firstSizeOf, makeProducts } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { startTermiiStandIn, type TermiiStandIn } from "../../../tests/support/termii-stand-in";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../../tests/support/whatsapp-stand-in";
import type { Config } from "~/platform/config.server";
import { changeOrderStatus } from "../orders/admin-orders.server";
import { isQuietInLagos, markCartRecovered, reminderSendTime, reminderStats, restoreRemindedCart, sendCartReminders } from "./cart-reminders.server";
import { saveChannelChoices, defaultChoices, saveReminderDelay } from "./catalogue.server";
import { consentWording } from "../../http/consent-form.server";
import { activeConsent, grantConsent as grant, withdrawByToken, withdrawConsent } from "./consent.server";

const grantConsent = (db: Parameters<typeof grant>[0], input: Omit<Parameters<typeof grant>[1], "wording">, at?: Date) => grant(db, { ...input, wording: consentWording(input.locale) }, at);
import { queueOrderMessage } from "./notify.server";
import { applyDeliveryReport, drainMessageOutbox, MESSAGE_MAX_ATTEMPTS, messageOutboxCounts, orderMessages, queueMessage } from "./outbox.server";
import { MessageSendError } from "./provider-error.server";
import { classifyTermiiRefusal, sendTermiiSms, termiiDeliveryReport } from "./termii.server";
import { isWhatsAppSignature, sendWhatsAppTemplate, whatsAppStatuses } from "./whatsapp.server";
import { createHmac } from "node:crypto";

const TOKEN = "EAAGstandintoken0123456789";
const PHONE_ID = "106540352242922";
const APP_SECRET = "app-secret-for-tests";
const TERMII_KEY = "TLtestkey0123456789";

let whatsapp: WhatsAppStandIn;
let termii: TermiiStandIn;
let messaging: Config["messaging"];

beforeAll(async () => {
  whatsapp = await startWhatsAppStandIn({ token: TOKEN, phoneNumberId: PHONE_ID, appSecret: APP_SECRET });
  termii = await startTermiiStandIn({ apiKey: TERMII_KEY, secretKey: "termii-secret" });
  messaging = {
    whatsapp: { token: TOKEN, phoneNumberId: PHONE_ID, appSecret: APP_SECRET, verifyToken: "verify-me-please", apiUrl: whatsapp.url, version: "v21.0" },
    sms: { apiKey: TERMII_KEY, senderId: "Unboxed", channel: "dnd", secretKey: "termii-secret", apiUrl: termii.url },
    ownerWhatsapp: "2348011111111",
    quietHours: [21, 8],
    reminderPollSeconds: 60,
  };
});
afterAll(async () => {
  await whatsapp?.close();
  await termii?.close();
});

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(MessageSendError);
  return error as MessageSendError;
};

describe("the WhatsApp Cloud API client against its stand-in", () => {
  it("sends an approved template and returns the wamid", async () => {
    const sent = await sendWhatsAppTemplate(messaging.whatsapp!, { to: "+2348031234567", template: "unboxed_order_shipped", language: "es", params: ["Ada", "UB-1", "http://x"] });
    expect(sent.messageId).toMatch(/^wamid\./);
    expect(whatsapp.sent.at(-1)).toMatchObject({ to: "2348031234567", template: "unboxed_order_shipped", language: "es", params: ["Ada", "UB-1", "http://x"] });
  });
  it("classifies Meta's error answers: template missing and bad numbers are final, rate limits and bad tokens are retried", async () => {
    const missing = await refusal(sendWhatsAppTemplate(messaging.whatsapp!, { to: "+2348031234567", template: "unboxed_new_order", language: "es", params: [] }));
    expect([missing.code, missing.permanent]).toEqual(["132001", true]);
    const badNumber = await refusal(sendWhatsAppTemplate(messaging.whatsapp!, { to: "12", template: "unboxed_order_placed", language: "en", params: [] }));
    expect([badNumber.code, badNumber.permanent]).toEqual(["100", true]);
    whatsapp.fail(130429);
    const limited = await refusal(sendWhatsAppTemplate(messaging.whatsapp!, { to: "+2348031234567", template: "unboxed_order_placed", language: "en", params: [] }));
    expect([limited.code, limited.permanent]).toEqual(["130429", false]);
    whatsapp.fail(131026);
    const undeliverable = await refusal(sendWhatsAppTemplate(messaging.whatsapp!, { to: "+2348031234567", template: "unboxed_order_placed", language: "en", params: [] }));
    expect([undeliverable.code, undeliverable.permanent]).toEqual(["131026", true]);
    const token = await refusal(sendWhatsAppTemplate({ ...messaging.whatsapp!, token: "wrong-token-0123456789" }, { to: "+2348031234567", template: "unboxed_order_placed", language: "en", params: [] }));
    expect([token.code, token.permanent]).toEqual(["190", false]);
    whatsapp.fail(500);
    expect((await refusal(sendWhatsAppTemplate(messaging.whatsapp!, { to: "+2348031234567", template: "unboxed_order_placed", language: "en", params: [] }))).permanent).toBe(false);
    const down = await refusal(sendWhatsAppTemplate({ ...messaging.whatsapp!, apiUrl: "http://127.0.0.1:9" }, { to: "+2348031234567", template: "unboxed_order_placed", language: "en", params: [] }));
    expect([down.code, down.permanent]).toEqual(["network", false]);
  });
  it("checks the status webhook's signature and reads its statuses", () => {
    const body = Buffer.from(JSON.stringify({ object: "whatsapp_business_account", entry: [{ changes: [{ value: { statuses: [{ id: "wamid.A", status: "failed", errors: [{ code: 131026, title: "Message undeliverable" }] }, { id: "wamid.B", status: "delivered" }] } }] }] }));
    const signature = `sha256=${createHmac("sha256", APP_SECRET).update(body).digest("hex")}`;
    expect(isWhatsAppSignature(APP_SECRET, body, signature)).toBe(true);
    expect(isWhatsAppSignature("other-secret", body, signature)).toBe(false);
    expect(isWhatsAppSignature(APP_SECRET, body, null)).toBe(false);
    expect(isWhatsAppSignature(APP_SECRET, Buffer.concat([body, Buffer.from(" ")]), signature)).toBe(false);
    expect(whatsAppStatuses(JSON.parse(body.toString()))).toEqual([
      { providerMessageId: "wamid.A", status: "failed", errorCode: "131026", error: "Message undeliverable" },
      { providerMessageId: "wamid.B", status: "delivered", errorCode: null, error: null },
    ]);
    expect(whatsAppStatuses({ entry: "nonsense" })).toEqual([]);
  });
});

describe("the Termii client against its stand-in", () => {
  it("sends an SMS and reads its message_id", async () => {
    const sent = await sendTermiiSms(messaging.sms!, { to: "+2348031234567", text: "Hello from Unboxed" });
    expect(sent.messageId).toMatch(/^\d+$/);
    expect(termii.sent.at(-1)).toMatchObject({ to: "2348031234567", from: "Unboxed", sms: "Hello from Unboxed", channel: "dnd" });
  });
  it("classifies Termii's refusals: an invalid number is final, an empty balance or sender id waits", async () => {
    const invalid = await refusal(sendTermiiSms(messaging.sms!, { to: "+12025550123", text: "x" }));
    expect([invalid.code, invalid.permanent]).toEqual(["invalid-number", true]);
    termii.balance = 0;
    const broke = await refusal(sendTermiiSms(messaging.sms!, { to: "+2348031234567", text: "x" }));
    expect([broke.code, broke.permanent]).toEqual(["insufficient-balance", false]);
    termii.balance = 100;
    const sender = await refusal(sendTermiiSms({ ...messaging.sms!, senderId: "Nobody" }, { to: "+2348031234567", text: "x" }));
    expect([sender.code, sender.permanent]).toEqual(["sender-id", false]);
    const key = await refusal(sendTermiiSms({ ...messaging.sms!, apiKey: "TLwrongkey00000" }, { to: "+2348031234567", text: "x" }));
    expect([key.code, key.permanent]).toEqual(["auth", false]);
    expect(classifyTermiiRefusal(500, "oops")).toEqual({ code: "http", permanent: false });
  });
  it("reads delivery reports", () => {
    expect(termiiDeliveryReport({ message_id: "1", status: "Delivered" })).toMatchObject({ status: "delivered" });
    expect(termiiDeliveryReport({ message_id: "1", status: "DELIVERED | Message delivered to handset" })).toMatchObject({ status: "delivered" });
    expect(termiiDeliveryReport({ message_id: "2", status: "DND Active on Phone Number" })).toMatchObject({ status: "failed", errorCode: "dnd" });
    expect(termiiDeliveryReport({ message_id: "3", status: "Message Failed" })).toMatchObject({ status: "failed" });
    expect(termiiDeliveryReport({ status: "Delivered" })).toBeNull();
  });
});

describe.each(ENGINES)("the message outbox on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  beforeEach(async () => {
    await t.db.deleteFrom("message_outbox").execute();
    await t.db.deleteFrom("message_settings").execute();
  });
  afterAll(async () => {
    await t?.drop();
  });
  const message = (key: string, to = "+2348031234567", channel: "whatsapp" | "sms" = "whatsapp") => ({
    channel,
    kind: "order-placed",
    idempotencyKey: key,
    to,
    locale: "en",
    template: channel === "whatsapp" ? "unboxed_order_placed" : null,
    params: ["Ada", "UB-1", "₦1.00", "http://x"],
    text: "Unboxed: hi",
  });
  const rows = () => t.db.selectFrom("message_outbox").selectAll().orderBy("id").execute();

  it("keeps a message exactly when its transaction commits, and once per idempotency key", async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await queueMessage(trx, message("k-rolled-back"));
        throw new Error("the order failed");
      }),
    ).rejects.toThrow("the order failed");
    expect(await rows()).toHaveLength(0);
    expect(await queueMessage(t.db, message("k1"))).toBe(true);
    expect(await queueMessage(t.db, message("k1"))).toBe(false);
    expect(await rows()).toHaveLength(1);
    expect(await drainMessageOutbox(t.db, messaging)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [row] = await rows();
    expect(row).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    expect(row.provider_message_id).toMatch(/^wamid\./);
    // Sent once: a second pass sends nothing.
    expect(await drainMessageOutbox(t.db, messaging)).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it("retries a rate-limited message with backoff and sends it later", async () => {
    const start = new Date();
    await queueMessage(t.db, message("k-rate"), start);
    whatsapp.fail(130429, 2);
    expect(await drainMessageOutbox(t.db, messaging, { now: () => start })).toEqual({ sent: 0, retrying: 1, failed: 0 });
    let [row] = await rows();
    expect(row).toMatchObject({ status: "pending", attempts: 1, error_code: "130429" });
    expect(Date.parse(row.next_attempt_at) - start.getTime()).toBe(10_000);
    // Not due yet: nothing is tried.
    expect(await drainMessageOutbox(t.db, messaging, { now: () => new Date(start.getTime() + 9_000) })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await drainMessageOutbox(t.db, messaging, { now: () => new Date(start.getTime() + 10_000) })).toEqual({ sent: 0, retrying: 1, failed: 0 });
    [row] = await rows();
    expect(Date.parse(row.next_attempt_at) - (start.getTime() + 10_000)).toBe(20_000);
    expect(await drainMessageOutbox(t.db, messaging, { now: () => new Date(start.getTime() + 30_000) })).toEqual({ sent: 1, retrying: 0, failed: 0 });
    [row] = await rows();
    expect(row).toMatchObject({ status: "sent", attempts: 3, error_code: null });
  });

  it("marks a message failed at once on a final refusal, and after the bound on others", async () => {
    await queueMessage(t.db, message("k-bad", "+12025550123", "sms"));
    expect(await drainMessageOutbox(t.db, messaging)).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect((await rows())[0]).toMatchObject({ status: "failed", error_code: "invalid-number" });

    let now = new Date();
    await queueMessage(t.db, message("k-broke", "+2348031234567", "sms"), now);
    termii.balance = 0;
    let failed = 0;
    for (let i = 0; i < MESSAGE_MAX_ATTEMPTS + 2; i++) {
      const result = await drainMessageOutbox(t.db, messaging, { now: () => now });
      failed += result.failed;
      now = new Date(now.getTime() + 2 * 60 * 60 * 1000);
    }
    termii.balance = 100;
    const broke = (await rows())[1];
    expect(broke).toMatchObject({ status: "failed", attempts: MESSAGE_MAX_ATTEMPTS, error_code: "insufficient-balance" });
    expect(failed).toBe(1);
    expect(await messageOutboxCounts(t.db)).toEqual({ whatsapp: { waiting: 0, failed: 0 }, sms: { waiting: 0, failed: 2 } });
  });

  it("sends again a message whose worker died before recording it (at least once, never lost)", async () => {
    const start = new Date();
    await queueMessage(t.db, message("k-crash"), start);
    // A worker claimed it and died: the lease is still running.
    await t.db.updateTable("message_outbox").set({ locked_until: new Date(start.getTime() + 30_000).toISOString(), attempts: 1 }).execute();
    expect(await drainMessageOutbox(t.db, messaging, { now: () => start })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await drainMessageOutbox(t.db, messaging, { now: () => new Date(start.getTime() + 30_001) })).toEqual({ sent: 1, retrying: 0, failed: 0 });
  });

  it("claims each message once when two workers drain at the same time", async () => {
    for (let i = 0; i < 6; i++) await queueMessage(t.db, message(`k-race-${i}`));
    const before = whatsapp.sent.length;
    const [a, b] = await Promise.all([drainMessageOutbox(t.db, messaging), drainMessageOutbox(t.db, messaging)]);
    expect(a.sent + b.sent).toBe(6);
    expect(whatsapp.sent.length - before).toBe(6);
  });

  it("applies delivery reports, never backwards", async () => {
    await queueMessage(t.db, message("k-report"));
    await drainMessageOutbox(t.db, messaging);
    const [row] = await rows();
    expect(await applyDeliveryReport(t.db, "whatsapp", { providerMessageId: row.provider_message_id!, status: "delivered", errorCode: null, error: null })).toBe(true);
    expect(await applyDeliveryReport(t.db, "whatsapp", { providerMessageId: row.provider_message_id!, status: "failed", errorCode: "131026", error: "late" })).toBe(false);
    expect((await rows())[0]).toMatchObject({ status: "delivered" });
    expect(await applyDeliveryReport(t.db, "sms", { providerMessageId: row.provider_message_id!, status: "failed", errorCode: null, error: null })).toBe(false);
    expect(await applyDeliveryReport(t.db, "whatsapp", { providerMessageId: "wamid.unknown", status: "failed", errorCode: null, error: null })).toBe(false);
  });

  it("queues an order's messages by the channels the owner chose, in the shopper's language, and shows a failure on the order", async () => {
    const admin = await addUser(t.db, "owner");
    const shopper = await addUser(t.db, "customer");
    await t.db.updateTable("users").set({ locale: "es" }).where("id", "=", shopper.id).execute();
    const [p] = await makeProducts(t.db, [{ name: "Mensaje Scent", price: 2_000_000, stock: 10 }]);
    const order = await insertOrder(t.db, { userId: shopper.id, items: [{ productId: p, quantity: 1 }], phone: "+2348031234567" });
    const config = { messaging, publicUrl: "http://shop.test" };
    // Default choices: order placed by WhatsApp and SMS.
    expect(await t.db.transaction().execute((trx) => queueOrderMessage(trx, config, "order-placed", order.number))).toBe(2);
    expect(await t.db.transaction().execute((trx) => queueOrderMessage(trx, config, "order-placed", order.number))).toBe(0);
    const queued = await rows();
    expect(queued.map((r) => [r.channel, r.template, r.locale, r.to_phone])).toEqual([
      ["whatsapp", "unboxed_order_placed", "es", "+2348031234567"],
      ["sms", null, "es", "+2348031234567"],
    ]);
    expect(queued[1].text_body).toContain(`tu pedido ${order.number}`);
    // Without SMS credentials, or with SMS not chosen for it: WhatsApp only.
    await t.db.transaction().execute((trx) => queueOrderMessage(trx, { ...config, messaging: { ...messaging, sms: null } }, "order-delivered", order.number));
    const choices = defaultChoices();
    choices["order-shipped"] = { whatsapp: false, sms: true };
    await saveChannelChoices(t.db, choices);
    const context = { ...testContext(t), config: { ...testContext(t).config, messaging } };
    await changeOrderStatus(context, { number: order.number, from: "pending", to: "confirmed", actorId: admin.id });
    whatsapp.fail(132001);
    await changeOrderStatus(context, { number: order.number, from: "confirmed", to: "shipped", note: null, actorId: admin.id });
    expect((await rows()).map((r) => `${r.kind}:${r.channel}`)).toEqual(["order-placed:whatsapp", "order-placed:sms", "order-delivered:whatsapp", "order-shipped:sms"]);
    await drainMessageOutbox(t.db, messaging);
    const onOrder = await orderMessages(t.db, order.id);
    expect(onOrder.map((m) => [m.kind, m.channel, m.status])).toEqual([
      ["order-placed", "whatsapp", "failed"],
      ["order-placed", "sms", "sent"],
      ["order-delivered", "whatsapp", "sent"],
      ["order-shipped", "sms", "sent"],
    ]);
    expect(onOrder[0].errorCode).toBe("132001");
    // The order is untouched by the failure.
    expect((await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("shipped");
  });

  it("names the whole order when it is placed, and what was paid when a payment comes in after a gift card and store credit paid part", async () => {
    const shopper = await addUser(t.db, "customer");
    const [p] = await makeProducts(t.db, [{ name: "Part Paid Scent", price: 2_000_000, stock: 10 }]);
    const order = await insertOrder(t.db, { userId: shopper.id, items: [{ productId: p, quantity: 1 }], phone: "+2348031234568", giftCard: 500_000, giftCardCode: "GIFT-PART", storeCredit: 250_000 });
    const config = { messaging: { ...messaging, whatsapp: null }, publicUrl: "http://shop.test" };
    const choices = defaultChoices();
    choices["order-placed"] = choices["payment-received"] = { whatsapp: false, sms: true };
    await saveChannelChoices(t.db, choices);
    await t.db.transaction().execute((trx) => queueOrderMessage(trx, config, "order-placed", order.number));
    await t.db.transaction().execute((trx) => queueOrderMessage(trx, config, "payment-received", order.number));
    const texts = (await rows()).filter((r) => r.to_phone === "+2348031234568").map((r) => r.text_body);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain("(₦20,000.00)");
    expect(texts[1]).toContain("your payment of ₦12,500.00 for order");
  });
});

describe.each(ENGINES)("consent and cart reminders on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });
  const config = () => ({ messaging, publicUrl: "http://shop.test" });
  // 10:00 in Lagos.
  const morning = new Date("2026-12-02T09:00:00Z");
  const hoursBefore = (at: Date, hours: number) => new Date(at.getTime() - hours * 3600_000).toISOString();

  async function shopperWithCart(options: { consent: boolean; phone?: string | null; leftAt?: string }) {
    const user = await addUser(t.db, "customer");
    await t.db.updateTable("users").set({ phone: options.phone === undefined ? "+2348031234567" : options.phone }).where("id", "=", user.id).execute();
    const [p] = await makeProducts(t.db, [{ name: `Reminded ${user.id}`, price: 1_500_000, stock: 5 }]);
    const cartId = `cart-${user.id}-${Math.random().toString(36).slice(2)}-0123456789`;
    const at = options.leftAt ?? hoursBefore(morning, 5);
    await t.db.insertInto("carts").values({ id: cartId, user_id: user.id, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: p, size_id: await firstSizeOf(p), quantity: 2, created_at: at }).execute();
    if (options.consent) await grantConsent(t.db, { userId: user.id, source: "profile", locale: "en" }, new Date(at));
    return { user, cartId, productId: p };
  }
  const remindersOf = (cartId: string) => t.db.selectFrom("cart_reminders").selectAll().where("cart_id", "=", cartId).execute();

  it("knows the quiet hours in Lagos and when a deferred reminder goes", () => {
    expect(isQuietInLagos(new Date("2026-12-02T19:59:00Z"))).toBe(false); // 20:59 Lagos
    expect(isQuietInLagos(new Date("2026-12-02T20:00:00Z"))).toBe(true); // 21:00
    expect(isQuietInLagos(new Date("2026-12-02T06:59:00Z"))).toBe(true); // 07:59
    expect(isQuietInLagos(new Date("2026-12-02T07:00:00Z"))).toBe(false); // 08:00
    expect(isQuietInLagos(new Date("2026-12-02T02:00:00Z"), [0, 0])).toBe(false);
    expect(reminderSendTime(new Date("2026-12-02T21:30:00Z")).toISOString()).toBe("2026-12-03T07:00:00.000Z");
    expect(reminderSendTime(new Date("2026-12-02T23:30:00Z")).toISOString()).toBe("2026-12-03T07:00:00.000Z");
    expect(reminderSendTime(new Date("2026-12-03T01:00:00Z")).toISOString()).toBe("2026-12-03T07:00:00.000Z");
    expect(reminderSendTime(morning)).toEqual(morning);
  });

  it("records an opt-in with its time and words, and withdraws it from the profile or the link", async () => {
    const user = await addUser(t.db, "customer");
    const at = new Date("2026-12-01T12:00:00Z");
    const consent = await grantConsent(t.db, { userId: user.id, source: "registration", locale: "es" }, at);
    expect(consent).toMatchObject({ source: "registration", grantedAt: at.toISOString() });
    expect(consent.wording).toContain("Envíenme recordatorios");
    expect((await grantConsent(t.db, { userId: user.id, source: "profile", locale: "en" })).id).toBe(consent.id);
    expect(await withdrawConsent(t.db, user.id)).toBe(true);
    expect(await activeConsent(t.db, user.id)).toBeNull();
    const again = await grantConsent(t.db, { userId: user.id, source: "profile", locale: "en" });
    expect(await withdrawByToken(t.db, again.token)).toBe(true);
    expect(await activeConsent(t.db, user.id)).toBeNull();
    expect(await withdrawByToken(t.db, "not-a-token-of-ours-xyz")).toBe(false);
    const rows = await t.db.selectFrom("marketing_consents").select(["withdrawn_via"]).where("user_id", "=", user.id).orderBy("id").execute();
    expect(rows.map((r) => r.withdrawn_via)).toEqual(["profile", "link"]);
  });

  it("reminds once, after the delay, only with consent, never at night or after an order", async () => {
    await saveReminderDelay(t.db, 240);
    const due = await shopperWithCart({ consent: true });
    const noConsent = await shopperWithCart({ consent: false });
    const tooFresh = await shopperWithCart({ consent: true, leftAt: hoursBefore(morning, 3) });
    const ordered = await shopperWithCart({ consent: true });
    await insertOrder(t.db, { userId: ordered.user.id, items: [{ productId: ordered.productId, quantity: 1 }], createdAt: hoursBefore(morning, 1) });
    const byMail = await shopperWithCart({ consent: true, phone: null });

    // At night in Lagos (03:00): nothing, the carts wait for the morning.
    expect(await sendCartReminders(t.db, config(), new Date("2026-12-02T02:00:00Z"))).toBe(0);
    const before = await t.db.selectFrom("message_outbox").select("id").execute();
    expect(await sendCartReminders(t.db, config(), morning)).toBeGreaterThanOrEqual(2);
    expect(await remindersOf(due.cartId)).toHaveLength(1);
    expect(await remindersOf(noConsent.cartId)).toHaveLength(0);
    expect(await remindersOf(tooFresh.cartId)).toHaveLength(0);
    expect(await remindersOf(ordered.cartId)).toHaveLength(0);
    const [mailed] = await remindersOf(byMail.cartId);
    expect(mailed.channel).toBe("email");
    const mail = await t.db.selectFrom("mail_outbox").select(["to_address", "text_body"]).where("kind", "=", "cart-reminder").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail.to_address).toBe(byMail.user.email);
    expect(mail.text_body).toContain("/messages/stop?token=");
    // By WhatsApp (the default choice for reminders) with the restore and stop links.
    const [reminder] = await remindersOf(due.cartId);
    expect(reminder.channel).toBe("whatsapp");
    const sent = await t.db.selectFrom("message_outbox").selectAll().where("kind", "=", "cart-reminder").where("id", "not in", before.length ? before.map((r) => r.id) : [0]).execute();
    const forDue = sent.find((r) => r.user_id === due.user.id)!;
    expect(JSON.parse(forDue.template_params)).toEqual(["Chioma", `http://shop.test/cart/restore/${reminder.restore_token}`, expect.stringContaining("http://shop.test/messages/stop?token=")]);
    // An hour later the fresher cart is due too; the others are not reminded again (once per cart).
    expect(await sendCartReminders(t.db, config(), new Date(morning.getTime() + 3600_000))).toBe(1);
    expect(await remindersOf(tooFresh.cartId)).toHaveLength(1);
    expect(await sendCartReminders(t.db, config(), new Date(morning.getTime() + 2 * 3600_000))).toBe(0);
    expect(await remindersOf(due.cartId)).toHaveLength(1);
    // Consent withdrawn: no reminder for a cart left afterwards.
    const withdrawn = await shopperWithCart({ consent: true });
    await withdrawConsent(t.db, withdrawn.user.id);
    await sendCartReminders(t.db, config(), morning);
    expect(await remindersOf(withdrawn.cartId)).toHaveLength(0);
  });

  it("restores a reminded cart into another browser's cart and counts the recovered order", async () => {
    const shopper = await shopperWithCart({ consent: true });
    await sendCartReminders(t.db, config(), morning);
    const [reminder] = await remindersOf(shopper.cartId);
    const elsewhere = `other-${shopper.user.id}-0123456789abcdef`;
    await t.db.insertInto("carts").values({ id: elsewhere, user_id: null, created_at: morning.toISOString(), updated_at: morning.toISOString() }).execute();
    expect(await restoreRemindedCart(t.db, reminder.restore_token, elsewhere)).toEqual({ restored: 1, code: null });
    const lines = await t.db.selectFrom("cart_lines").select(["product_id", "quantity"]).where("cart_id", "=", elsewhere).execute();
    expect(lines).toEqual([{ product_id: shopper.productId, quantity: 2 }]);
    expect(await restoreRemindedCart(t.db, "unknown-token-0123456789", elsewhere)).toBeNull();
    const before = await reminderStats(t.db);
    const order = await insertOrder(t.db, { userId: shopper.user.id, items: [{ productId: shopper.productId, quantity: 2 }], paidAt: new Date().toISOString() });
    await markCartRecovered(t.db, { cartId: elsewhere, userId: shopper.user.id, orderId: order.id, total: order.total }, new Date(morning.getTime() + 3600_000));
    const after = await reminderStats(t.db);
    expect(after.recovered - before.recovered).toBe(1);
    expect(after.revenue - before.revenue).toBe(order.total);
  });
});
