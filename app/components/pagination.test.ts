import { describe, expect, it } from "vitest";
import { shopHref, NO_FILTERS } from "~/lib/shop-url";
import { pageWindow } from "./pagination";

describe("pagination", () => {
  it("shows five page buttons around the current page, two of them on narrow screens", () => {
    const shown = (page: number, count: number) => pageWindow(page, count).map((p) => (p.narrow ? `[${p.page}]` : `${p.page}`)).join(" ");
    expect(shown(1, 8)).toBe("[1] [2] 3 4 5");
    expect(shown(4, 8)).toBe("2 3 [4] [5] 6");
    expect(shown(8, 8)).toBe("4 5 6 [7] [8]");
    expect(shown(2, 3)).toBe("1 [2] [3]");
    expect(shown(1, 1)).toBe("[1]");
  });

  it("builds shop links without defaults, back on page 1 after any filter change", () => {
    const current = { ...NO_FILTERS, q: "oud & rose", brand: 3, page: 4 };
    expect(shopHref(NO_FILTERS)).toBe("/shop");
    expect(shopHref(current, { page: 5 })).toBe("/shop?q=oud+%26+rose&brand=3&page=5");
    expect(shopHref(current, { category: 2 })).toBe("/shop?q=oud+%26+rose&category=2&brand=3");
    expect(shopHref(current, { min: 100, max: 599_999 })).toBe("/shop?q=oud+%26+rose&brand=3&min=100&max=599999");
    expect(shopHref(current, { brand: null, q: "" })).toBe("/shop");
  });
});
