import { describe, expect, it } from "vitest";
import { formatNaira, nairaToKobo } from "./money";
import { slugify } from "./slug";

describe("money", () => {
  it("formats kobo as naira with two decimals", () => {
    expect(formatNaira(0)).toBe("₦0.00");
    expect(formatNaira(123_450)).toBe("₦1,234.50");
    expect(formatNaira(4_500_000_000)).toBe("₦45,000,000.00");
  });

  it("writes every amount as Intl's Nigerian naira format does", () => {
    const intl = new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN", minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const amounts = [0, 1, 9, 10, 99, 100, 101, 99_999, 100_000, 123_456_789, 100_000_000_000, 1e15, 1e15 + 1, Number.MAX_SAFE_INTEGER, -1, -250_000, 12.5, 0.4];
    for (let n = 0; n < 2_000; n++) amounts.push(Math.floor(Math.random() * 10 ** (1 + (n % 15))));
    for (const kobo of amounts) expect(formatNaira(kobo), String(kobo)).toBe(intl.format(kobo / 100));
  });

  it("converts naira to integer kobo without float drift", () => {
    expect(nairaToKobo(25_000)).toBe(2_500_000);
    expect(nairaToKobo(0.29)).toBe(29);
    expect(Number.isInteger(nairaToKobo(1.005))).toBe(true);
  });
});

describe("slugify", () => {
  it("folds accents, symbols and spaces", () => {
    expect(slugify("Lancôme La Vie Est Belle EDP 100ml")).toBe("lancome-la-vie-est-belle-edp-100ml");
    expect(slugify("Dolce & Gabbana Light Blue")).toBe("dolce-and-gabbana-light-blue");
    expect(slugify("  --Hello--  ")).toBe("hello");
  });
});
