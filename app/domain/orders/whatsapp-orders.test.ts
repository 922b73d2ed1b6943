import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { makeProducts } from "../../../tests/support/catalogue";
import { browserRequest, runRoute, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { action as whatsAppWebhook } from "~/routes/webhooks.whatsapp";
import { whatsAppOrderMessages } from "../messages/whatsapp.server";
import { keepWhatsAppNumber } from "./whatsapp-orders.server";

// A WhatsApp order keeps the number its chat came from (docs/decisions/032, 217), through the Cloud
// API's signed webhook, shaped as Meta documents an incoming text message.

const APP_SECRET = "app-secret-for-whatsapp-orders";

/** The webhook body Meta sends for a text received at the shop's number. */
function incomingText(from: string, text: string, id = `wamid.${from}.${text.length}`) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "2348090000000", phone_number_id: "1234567890" },
              contacts: [{ profile: { name: "Shopper" }, wa_id: from }],
              messages: [{ from, id, timestamp: "1764662400", type: "text", text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
}

describe("reading an incoming WhatsApp text", () => {
  it("finds the order reference a shopper's text names, and nothing in other events", () => {
    expect(whatsAppOrderMessages(incomingText("2348031234567", "Hello Unboxed!\n• Oud × 1: ₦25,000.00\nTotal: ₦25,000.00\nOrder reference: ub-10042"))).toEqual([{ from: "2348031234567", reference: "UB-10042" }]);
    expect(whatsAppOrderMessages(incomingText("2348031234567", "Is the oud still available?"))).toEqual([]);
    const image = incomingText("2348031234567", "x");
    (image.entry[0].changes[0].value.messages[0] as Record<string, unknown>).type = "image";
    expect(whatsAppOrderMessages(image)).toEqual([]);
    expect(whatsAppOrderMessages(incomingText("+2348031234567", "Order reference: UB-10042"))).toEqual([]);
    expect(whatsAppOrderMessages({ entry: "nonsense" })).toEqual([]);
    expect(whatsAppOrderMessages(null)).toEqual([]);
  });
});

describe.each(ENGINES)("a WhatsApp order's number on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let product: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t, { WHATSAPP_TOKEN: "test-token-0123456789abcdef", WHATSAPP_PHONE_NUMBER_ID: "1234567890", WHATSAPP_APP_SECRET: APP_SECRET });
    [product] = await makeProducts(t.db, [{ name: "Chat Oud", price: 2_500_000, stock: 10 }]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const phoneOf = async (number: string) => (await t.db.selectFrom("orders").select("phone").where("number", "=", number).executeTakeFirstOrThrow()).phone;
  const chatOrder = () => insertOrder(t.db, { userId: null, channel: "whatsapp", address: null, items: [{ productId: product, quantity: 1 }] });

  it("keeps the first chat's Nigerian mobile on a pending WhatsApp order, in E.164, and nothing else", async () => {
    const order = await chatOrder();
    expect(await keepWhatsAppNumber(t.db, { reference: order.number, from: "4915112345678" })).toBe(false);
    expect(await phoneOf(order.number)).toBeNull();
    expect(await keepWhatsAppNumber(t.db, { reference: order.number, from: "2348031234567" })).toBe(true);
    expect(await phoneOf(order.number)).toBe("+2348031234567");
    // Another chat naming the same reference changes nothing.
    expect(await keepWhatsAppNumber(t.db, { reference: order.number, from: "2349051234567" })).toBe(false);
    expect(await phoneOf(order.number)).toBe("+2348031234567");
    // A checkout order, or one the owner moved on, is not given a number by a chat.
    const checkout = await insertOrder(t.db, { userId: null, items: [{ productId: product, quantity: 1 }] });
    expect(await keepWhatsAppNumber(t.db, { reference: checkout.number, from: "2348031234567" })).toBe(false);
    const confirmed = await insertOrder(t.db, { userId: null, channel: "whatsapp", status: "confirmed", address: null, items: [{ productId: product, quantity: 1 }] });
    expect(await keepWhatsAppNumber(t.db, { reference: confirmed.number, from: "2348031234567" })).toBe(false);
    expect(await keepWhatsAppNumber(t.db, { reference: "UB-1; drop table orders", from: "2348031234567" })).toBe(false);
  });

  it("takes the number from a signed webhook only", async () => {
    const order = await chatOrder();
    const raw = JSON.stringify(incomingText("2348127654321", `Hello Unboxed!\nOrder reference: ${order.number}`));
    const post = (signature: string) =>
      runRoute(
        whatsAppWebhook as never,
        browserRequest("/webhooks/whatsapp", { method: "POST", body: raw, headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature } }),
        context,
      );
    expect((await post(`sha256=${createHmac("sha256", "someone-else").update(raw).digest("hex")}`)).status).toBe(401);
    expect(await phoneOf(order.number)).toBeNull();
    expect((await post(`sha256=${createHmac("sha256", APP_SECRET).update(raw).digest("hex")}`)).status).toBe(200);
    expect(await phoneOf(order.number)).toBe("+2348127654321");
  });
});
