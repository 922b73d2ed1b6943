import { describe, expect, it } from "vitest";
import { translatorFor } from "~/platform/translations.server";
import { paymentLabel } from "./order-text";

describe("paymentLabel", () => {
  const t = translatorFor("en");
  const order = { paymentMethod: "paystack" as const, deliveryMethod: "delivery" as const, total: 8_800_000 };

  it("names the way chosen while something is left to pay by it", () => {
    expect(paymentLabel(t, { ...order, paymentStatus: "paid", storeCredit: 2_000_000, giftCard: 0 })).toBe("Paid online with Paystack");
    expect(paymentLabel(t, { ...order, paymentStatus: "unpaid", storeCredit: 2_000_000, giftCard: 0 })).toBe("To be paid online with Paystack");
    expect(paymentLabel(t, { paymentMethod: "on_delivery", deliveryMethod: "pickup", paymentStatus: "unpaid" })).toBe("To be paid when you collect it");
  });

  it("says an order store credit and a gift card paid wholly was paid by them, not the way chosen (docs/decisions/224)", () => {
    expect(paymentLabel(t, { ...order, paymentStatus: "paid", storeCredit: 8_000_000, giftCard: 800_000 })).toBe("Paid in full with store credit and gift cards");
    expect(paymentLabel(t, { ...order, paymentStatus: "refunded", storeCredit: 8_800_000, giftCard: 0 })).toBe("Paid in full with store credit and gift cards, refunded");
    expect(paymentLabel(translatorFor("es"), { ...order, paymentMethod: "on_delivery", paymentStatus: "paid", storeCredit: 0, giftCard: 8_800_000 })).toBe(
      "Pagado por completo con saldo a favor y tarjetas regalo",
    );
  });
});
