import { describe, expect, it } from "vitest";
import { formatNaira, nairaToKobo } from "./money";
import { slugify } from "./slug";

describe("money", () => {
  it("formats kobo as naira with two decimals", () => {
    expect(formatNaira(0)).toBe("₦0.00");
    expect(formatNaira(123_450)).toBe("₦1,234.50");
    expect(formatNaira(4_500_000_000)).toBe("₦45,000,000.00");
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
