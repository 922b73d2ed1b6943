import { describe, expect, it } from "vitest";
import { vatContained } from "./vat.server";

describe("VAT contained in a VAT-inclusive amount (7.5 %)", () => {
  it("is amount × 7.5 / 107.5, to the nearest kobo, half a kobo up", () => {
    // ₦10,750.00 holds exactly ₦750.00.
    expect(vatContained(1_075_000)).toBe(75_000);
    // 850,000 × 3 / 43 = 59,302.33… → 59,302
    expect(vatContained(850_000)).toBe(59_302);
    // 43 × k + r: 215 kobo holds exactly 15; 7 kobo holds 0.488… → 0; 50 kobo 3.488… → 3; 36 kobo 2.511… → 3
    expect(vatContained(215)).toBe(15);
    expect(vatContained(7)).toBe(0);
    expect(vatContained(50)).toBe(3);
    expect(vatContained(36)).toBe(3);
    // What is left is the price before VAT, and the two add up to the amount.
    const amount = 2_900_050;
    const vat = vatContained(amount);
    expect(Math.abs((amount - vat) * 0.075 - vat)).toBeLessThan(1);
  });

  it("is 0 for nothing, a negative or a non-integer amount, and exact for a large one", () => {
    expect(vatContained(0)).toBe(0);
    expect(vatContained(-500)).toBe(0);
    expect(vatContained(10.5)).toBe(0);
    // ₦1 billion: 100,000,000,000 kobo × 3 / 43 = 6,976,744,186.05 → 6,976,744,186
    expect(vatContained(100_000_000_000)).toBe(6_976_744_186);
  });
});
