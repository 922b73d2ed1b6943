import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../tests/support/catalogue";
import { testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { insertOrder } from "../../tests/support/orders";
import { OrderScreen } from "~/components/admin/order-screen";
import { InvoiceDocument } from "~/components/invoice";
import { getAdminOrder } from "~/domain/orders/admin-orders.server";
import { invoiceForAdmin, type InvoiceView } from "~/domain/orders/invoice.server";
import { invoiceFor, orderDetailFor, staffView } from "~/domain/backoffice/staff-view.server";
import { I18nProvider, type Locale } from "~/lib/i18n";
import { messagesFor, translatorFor } from "~/platform/translations.server";
import { creditLines } from "~/domain/credit/credit-lines.server";

// An order's money as the owner and the customer see it: the discount code's line (docs/decisions/219)
// on the invoice and the admin order page, and the VAT inside the total when the shop's prices
// include it (docs/decisions/223).

const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

function inRouter(element: React.ReactNode, locale: Locale = "en"): string {
  const Stub = createRoutesStub([{ path: "/x", Component: () => element }]);
  return renderToString(
    <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor("en")}>
      <Stub initialEntries={["/x"]} />
    </I18nProvider>,
  );
}

const invoiceHtml = (invoice: InvoiceView, locale: Locale = "en", kind: "invoice" | "slip" = "invoice") =>
  inRouter(<InvoiceDocument invoice={invoice} kind={kind} paper="a4" href={() => "/x"} backHref="/x" allowSlip />, locale);

describe.each(ENGINES)("an order's discount and VAT on its documents on %s", (engine) => {
  let t: TestDatabase;
  let coded: string;
  let plain: string;
  let credited: string;
  const config = (vatIncluded = false) => {
    const base = testContext(t).config;
    return { ...base, shop: { ...base.shop, vatIncluded } };
  };

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const owner = await addUser(t.db, "customer", `money-${engine}@example.com`, "Ada");
    const [rose] = await makeProducts(t.db, [{ name: "Rose Noir", price: 1_000_000, stock: 10 }]);
    coded = (await insertOrder(t.db, { userId: owner.id, items: [{ productId: rose, quantity: 1 }], discount: 150_000, promotionCode: "SAVE15" })).number;
    plain = (await insertOrder(t.db, { userId: owner.id, items: [{ productId: rose, quantity: 1 }] })).number;
    // ₦8,500.00 after the code; a gift card pays ₦5,000.00 and store credit ₦1,000.00 of it (docs/decisions/224).
    credited = (await insertOrder(t.db, { userId: owner.id, items: [{ productId: rose, quantity: 1 }], discount: 150_000, promotionCode: "SAVE15", giftCard: 500_000, giftCardCode: "GIFTCARD2345ABCD", storeCredit: 100_000 })).number;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("the invoice shows the code's line between the subtotal and the total, in both languages, and no VAT unless the shop includes it", async () => {
    const invoice = (await invoiceForAdmin(t.db, config(), coded))!;
    const en = text(invoiceHtml(invoice));
    expect(en).toContain("Discount (SAVE15) −₦1,500.00");
    expect(en.indexOf("Subtotal")).toBeLessThan(en.indexOf("Discount (SAVE15)"));
    expect(en.indexOf("Discount (SAVE15)")).toBeLessThan(en.indexOf("₦8,500.00"));
    expect(en).not.toContain("VAT");
    expect(text(invoiceHtml(invoice, "es"))).toContain("Descuento (SAVE15) −₦1,500.00");
    // Without a code there is no line.
    expect(text(invoiceHtml((await invoiceForAdmin(t.db, config(), plain))!))).not.toContain("Discount");
    // The packing slip shows no money at all.
    expect(text(invoiceHtml(invoice, "en", "slip"))).not.toContain("₦");
  });

  it("with VAT_INCLUDED the invoice shows the VAT the total holds, and a role without prices sees neither amount", async () => {
    const invoice = (await invoiceForAdmin(t.db, config(true), coded))!;
    expect(text(invoiceHtml(invoice))).toContain("Of which VAT (7.5%) ₦593.02");
    expect(text(invoiceHtml(invoice, "es"))).toContain("De lo cual IVA (7,5 %) ₦593.02");
    const fulfilment = invoiceFor(invoice, staffView("fulfilment"));
    expect(fulfilment).toMatchObject({ discount: 0, vat: 0, total: 0 });
  });

  it("the invoice shows what a gift card and store credit paid after the total, and what is left, in both languages", async () => {
    const invoice = (await invoiceForAdmin(t.db, config(), credited))!;
    expect(invoice).toMatchObject({ total: 850_000, giftCard: 500_000, giftCardCode: "GIFTCARD2345ABCD", storeCredit: 100_000 });
    const en = text(invoiceHtml(invoice));
    expect(en).toContain("Discount (SAVE15) −₦1,500.00");
    expect(en).toContain("Total ₦8,500.00 Gift card (GIFTCARD2345ABCD) −₦5,000.00 Store credit −₦1,000.00 To pay ₦2,500.00");
    expect(text(invoiceHtml(invoice, "es"))).toContain("Tarjeta regalo (GIFTCARD2345ABCD) −₦5,000.00 Saldo a favor −₦1,000.00 A pagar ₦2,500.00");
    // An order neither paid has no such lines; a role without prices sees none of it.
    expect(text(invoiceHtml((await invoiceForAdmin(t.db, config(), coded))!))).not.toContain("To pay");
    const fulfilment = invoiceFor(invoice, staffView("fulfilment"));
    expect(fulfilment).toMatchObject({ giftCard: 0, storeCredit: 0, giftCardCode: null });
    expect(text(invoiceHtml(fulfilment))).not.toContain("GIFTCARD2345ABCD");
  });

  it("the admin order page shows what a gift card and store credit paid to a role with prices", async () => {
    const order = (await getAdminOrder(t.db, credited))!;
    expect(order).toMatchObject({ giftCard: 500_000, storeCredit: 100_000, giftCardCode: "GIFTCARD2345ABCD" });
    const screen = (role: "owner" | "fulfilment", locale: Locale = "en") =>
      text(
        inRouter(
          <OrderScreen
            // As the route's loader writes them: to a role that sees prices only.
            loaderData={{ order: orderDetailFor(order, staffView(role)), view: staffView(role), changesStatus: false, canMarkPaid: false, canSetFee: false, canRefund: false, confirmingCancel: false, messages: [], guestPage: null, creditLines: staffView(role).prices ? creditLines(translatorFor(locale), order) : [] }}
          />,
          locale,
        ),
      );
    expect(screen("owner")).toContain("Total ₦8,500.00 Gift card (GIFTCARD2345ABCD) −₦5,000.00 Store credit −₦1,000.00 To pay ₦2,500.00");
    expect(screen("owner", "es")).toContain("Saldo a favor −₦1,000.00 A pagar ₦2,500.00");
    expect(screen("fulfilment")).not.toContain("GIFTCARD2345ABCD");
  });

  it("the admin order page shows the code's line to a role with prices, and not to one without", async () => {
    const order = (await getAdminOrder(t.db, coded))!;
    expect(order).toMatchObject({ discount: 150_000, promotionCode: "SAVE15", total: 850_000 });
    const screen = (role: "owner" | "fulfilment", locale: Locale = "en") =>
      text(
        inRouter(
          <OrderScreen
            loaderData={{ order: orderDetailFor(order, staffView(role)), view: staffView(role), changesStatus: false, canMarkPaid: false, canSetFee: false, canRefund: false, confirmingCancel: false, messages: [], guestPage: null }}
          />,
          locale,
        ),
      );
    expect(screen("owner")).toContain("Discount (SAVE15) −₦1,500.00");
    expect(screen("owner", "es")).toContain("Descuento (SAVE15) −₦1,500.00");
    expect(screen("fulfilment")).not.toContain("SAVE15");
  });
});
