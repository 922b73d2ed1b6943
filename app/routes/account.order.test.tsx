import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, makeUser } from "../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { insertOrder } from "../../tests/support/orders";
import { findOrderForUser } from "~/domain/orders/order-history.server";
import { orderConfirmationEmail } from "~/domain/orders/order-mail.server";
import { findOrderByNumber } from "~/domain/orders/orders.server";
import type { PaymentMethod, PaymentStatus } from "~/db/schema";
import { I18nProvider, type Locale } from "~/lib/i18n";
import { paymentLabel } from "~/lib/order-text";
import { messagesFor, translatorFor } from "~/platform/translations.server";
import OrderPage from "./account.order";

// The shopper's order page and confirmation e-mail say how an order is paid as it really is: an unpaid
// Paystack order is "to be paid", never "paid".

describe.each(ENGINES)("the payment line of a shopper's order on %s", (engine) => {
  let t: TestDatabase;
  let userId: number;
  let productId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    userId = await makeUser(t.db, "label-reader@example.com");
    [productId] = await makeProducts(t.db, [{ name: "Label Vetiver", price: 1_000_000, stock: 20 }]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function page(paymentMethod: PaymentMethod, paymentStatus: PaymentStatus, locale: Locale = "en"): Promise<string> {
    const placed = await insertOrder(t.db, { userId, paymentMethod, paymentStatus, paidAt: paymentStatus === "unpaid" ? null : new Date().toISOString(), items: [{ productId, quantity: 1 }] });
    const order = await findOrderForUser(t.db, userId, placed.number);
    const Stub = createRoutesStub([{ id: "order", path: "/orders/:number", Component: OrderPage as never }]);
    const html = renderToString(
      <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor("en")}>
        <Stub initialEntries={[`/orders/${placed.number}`]} hydrationData={{ loaderData: { order: { order, bank: null, paymentLabel: paymentLabel(translatorFor(locale), order!), howToPay: [], phone: null, payOnline: { heading: "", state: "", payNow: "" } } } }} />
      </I18nProvider>,
    );
    const line = /data-testid="order-payment"[^>]*>(.*?)<\/p>/s.exec(html);
    return (line?.[1] ?? "").replace(/<!-- -->/g, "");
  }

  it("an unpaid Paystack order is to be paid, a paid one paid, in English and Spanish", async () => {
    expect(await page("paystack", "unpaid")).toBe("To be paid online with Paystack");
    expect(await page("paystack", "paid")).toMatch(/^Paid online with Paystack · Paid on /);
    expect(await page("paystack", "unpaid", "es")).toBe("Por pagar en línea con Paystack");
    expect(await page("bank_transfer", "unpaid")).toBe("To be paid by bank transfer");
    expect(await page("on_delivery", "unpaid")).toBe("To be paid on delivery");
    expect(await page("on_delivery", "paid")).toMatch(/^Paid on delivery · /);
    expect(await page("paystack", "refunded")).toMatch(/^Paid online with Paystack, refunded/);
  });

  it("the confirmation e-mail of an order to be paid on Paystack says it is to be paid", async () => {
    const placed = await insertOrder(t.db, { userId, paymentMethod: "paystack", items: [{ productId, quantity: 1 }] });
    const order = (await findOrderByNumber(t.db, placed.number))!;
    const mail = orderConfirmationEmail(translatorFor("en"), { firstName: "Ada", order, address: null, bank: null, orderUrl: "http://shop.test/orders/x" });
    expect(mail.text).toContain("Payment: To be paid online with Paystack");
    expect(mail.text).not.toContain("Paid online");
    expect(mail.html).toContain("To be paid online with Paystack");
  });
});
