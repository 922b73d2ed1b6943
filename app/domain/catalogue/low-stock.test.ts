import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { ConfigError, loadConfig } from "~/platform/config.server";
import { loadDashboard } from "../backoffice/dashboard.server";

describe("LOW_STOCK_THRESHOLD", () => {
  it("is 3 unless set, and a whole number of 0 or more", () => {
    const base = { NODE_ENV: "test", DATA_DIR: "/tmp/unboxed-low-stock-test" } as const;
    expect(loadConfig(base).lowStockThreshold).toBe(3);
    expect(loadConfig({ ...base, LOW_STOCK_THRESHOLD: "10" }).lowStockThreshold).toBe(10);
    for (const bad of ["-1", "2.5", "lots"]) expect(() => loadConfig({ ...base, LOW_STOCK_THRESHOLD: bad })).toThrow(ConfigError);
  });
});

describe.each(ENGINES)("the low-stock threshold on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase(engine);
    await makeProducts(t.db, [
      { name: "Three Left", price: 100_000, stock: 3 },
      { name: "Five Left", price: 100_000, stock: 5 },
      { name: "Plenty", price: 100_000, stock: 40 },
      { name: "None Left", price: 100_000, stock: 0 },
    ]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("decides which products the dashboard calls low on stock", async () => {
    expect((await loadDashboard(t.db, new Date(), 3)).lowStock.items.map((p) => p.name)).toEqual(["Three Left"]);
    expect((await loadDashboard(t.db, new Date(), 5)).lowStock.items.map((p) => p.name)).toEqual(["Three Left", "Five Left"]);
    expect((await loadDashboard(t.db, new Date(), 0)).lowStock.count).toBe(0);
    expect((await loadDashboard(t.db, new Date(), 5)).soldOut.items.map((p) => p.name)).toEqual(["None Left"]);
  });
});
