import { describe, expect, it } from "vitest";
import { applyCartActions, type OptimisticLine, readCartAction, summarise } from "./cart-optimistic";

const line = (productId: number, quantity: number, fields: Partial<OptimisticLine> = {}): OptimisticLine => ({
  productId,
  quantity,
  unitPrice: 1_000_00,
  stock: 3,
  buyable: true,
  ...fields,
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

describe("reading cart submissions", () => {
  it("reads the cart's intents posted to /cart, and nothing else", () => {
    expect(readCartAction(form({ intent: "add", productId: "4" }), "/cart")).toEqual({ intent: "add", productId: 4 });
    expect(readCartAction(form({ intent: "set", productId: "4", quantity: "2" }), "/cart?x=1")).toEqual({ intent: "set", productId: 4, quantity: 2 });
    expect(readCartAction(form({ intent: "clear" }), "http://shop.test/cart")).toEqual({ intent: "clear" });
    expect(readCartAction(form({ intent: "add", productId: "4" }), "/wishlist")).toBeNull();
    expect(readCartAction(form({ intent: "add", productId: "abc" }), "/cart")).toBeNull();
    expect(readCartAction(form({ intent: "set", productId: "4", quantity: "1.5" }), "/cart")).toBeNull();
    expect(readCartAction(form({ intent: "whatsapp" }), "/cart")).toBeNull();
    expect(readCartAction(undefined, "/cart")).toBeNull();
  });
});

describe("the cart as it will be", () => {
  it("counts an add of a new product in the badge, not twice, and not for a product already there", () => {
    const { lines, adding } = applyCartActions([line(1, 1)], [
      { intent: "add", productId: 1 },
      { intent: "add", productId: 2 },
      { intent: "add", productId: 2 },
    ]);
    expect(lines).toEqual([line(1, 1)]);
    expect(adding).toEqual([2]);
    expect(summarise(lines, adding)).toEqual({ lines: 2, total: 1_000_00 });
  });

  it("increments up to the stock, decrements, and removes at 1", () => {
    const start = [line(1, 2), line(2, 1)];
    const up = applyCartActions(start, [
      { intent: "increment", productId: 1 },
      { intent: "increment", productId: 1 },
    ]);
    expect(up.lines[0].quantity).toBe(3);
    const down = applyCartActions(start, [
      { intent: "decrement", productId: 1 },
      { intent: "decrement", productId: 2 },
    ]);
    expect(down.lines).toEqual([line(1, 1)]);
  });

  it("sets a quantity within the stock only; removes and clears", () => {
    expect(applyCartActions([line(1, 1)], [{ intent: "set", productId: 1, quantity: 3 }]).lines[0].quantity).toBe(3);
    expect(applyCartActions([line(1, 1)], [{ intent: "set", productId: 1, quantity: 4 }]).lines[0].quantity).toBe(1);
    expect(applyCartActions([line(1, 1), line(2, 1)], [{ intent: "remove", productId: 1 }]).lines).toEqual([line(2, 1)]);
    expect(applyCartActions([line(1, 1)], [{ intent: "add", productId: 5 }, { intent: "clear" }])).toEqual({ lines: [], adding: [] });
  });

  it("leaves sold-out lines out of the total but in the badge", () => {
    const lines = [line(1, 2), line(2, 1, { buyable: false, unitPrice: 999 })];
    expect(summarise(lines)).toEqual({ lines: 2, total: 2_000_00 });
    expect(applyCartActions(lines, [{ intent: "increment", productId: 2 }]).lines[1].quantity).toBe(1);
    expect(applyCartActions(lines, [{ intent: "decrement", productId: 2 }]).lines).toEqual([line(1, 2)]);
  });
});
