import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, makeUser, setSize } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { knownStopToken, requestBackInStock, sendBackInStockAlerts, stopBackInStockAlerts } from "./back-in-stock.server";

const config = { publicUrl: "http://shop.test" };

describe.each(ENGINES)("back-in-stock alerts on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const restock = (id: number, stock: number) => setSize(t.db, id, { stock });
  const alerts = (to?: string) =>
    t.db
      .selectFrom("mail_outbox")
      .select(["to_address", "subject", "text_body"])
      .where("kind", "=", "back-in-stock")
      .$if(Boolean(to), (qb) => qb.where("to_address", "=", to!))
      .orderBy("id")
      .execute();

  it("takes an address for a sold-out product once, and refuses in-stock, unknown and archived products and bad addresses", async () => {
    const [gone, there] = await makeProducts(t.db, [
      { name: "Sold Out Santal", price: 5_000_000, stock: 0 },
      { name: "Plenty Oud", price: 5_000_000, stock: 9 },
    ]);
    const ask = (productId: number, email: string) => requestBackInStock(t.db, { productId, email, userId: null, locale: "en" });
    expect(await ask(gone, "  Ada@Example.com ")).toEqual({ ok: true, alreadyWaiting: false });
    // The same address again (any case): the same answer, nothing added.
    expect(await ask(gone, "ada@example.com")).toEqual({ ok: true, alreadyWaiting: true });
    expect(await t.db.selectFrom("back_in_stock_requests").select("email").where("product_id", "=", gone).execute()).toEqual([{ email: "ada@example.com" }]);

    expect(await ask(there, "ada@example.com")).toEqual({ ok: false, problem: "inStock" });
    expect(await ask(999_999, "ada@example.com")).toEqual({ ok: false, problem: "unknownProduct" });
    for (const bad of ["", "not-an-email", "a@b", `${"x".repeat(250)}@example.com`, "<script>@x.com"]) {
      expect(await ask(gone, bad), bad).toEqual({ ok: false, problem: "invalidEmail" });
    }
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", there).execute();
    await restock(there, 0);
    expect(await ask(there, "ada@example.com")).toEqual({ ok: false, problem: "unknownProduct" });
  });

  it("e-mails each waiting address once when the product has stock again, in its language, and uses the request up", async () => {
    const [musk] = await makeProducts(t.db, [{ name: "Waiting Musk", price: 3_000_000, stock: 0 }]);
    const userId = await makeUser(t.db, `bola-${engine}@example.com`);
    await requestBackInStock(t.db, { productId: musk, email: "chioma@example.com", userId: null, locale: "en" });
    await requestBackInStock(t.db, { productId: musk, email: `bola-${engine}@example.com`, userId, locale: "es" });

    // Still sold out: nothing is sent.
    expect(await sendBackInStockAlerts(t.db, config)).toBe(0);
    await restock(musk, 4);
    expect(await sendBackInStockAlerts(t.db, config)).toBe(2);

    const [english] = await alerts("chioma@example.com");
    expect(english.subject).toBe("Back in stock: Waiting Musk");
    expect(english.text_body).toContain(`http://shop.test/shop/${musk}`);
    expect(english.text_body).toMatch(/http:\/\/shop\.test\/back-in-stock\/stop\?token=[\w-]+/);
    const [spanish] = await alerts(`bola-${engine}@example.com`);
    expect(spanish.subject).toBe("De nuevo disponible: Waiting Musk");

    // Used up: a later run, or the product selling out and coming back, sends nothing more.
    expect(await sendBackInStockAlerts(t.db, config)).toBe(0);
    await restock(musk, 0);
    await restock(musk, 3);
    expect(await sendBackInStockAlerts(t.db, config)).toBe(0);
    expect(await alerts("chioma@example.com")).toHaveLength(1);
    // Once used up, the same address may ask again.
    await restock(musk, 0);
    expect(await requestBackInStock(t.db, { productId: musk, email: "chioma@example.com", userId: null, locale: "en" })).toEqual({ ok: true, alreadyWaiting: false });
  });

  it("waits per size: an alert for the sold-out 30 ml, none for the 100 ml on sale, sent when the 30 ml comes back", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Sized Oud", price: 4_000_000, stock: 0 }]);
    const at = new Date().toISOString();
    await t.db.updateTable("product_sizes").set({ label: "30 ml" }).where("product_id", "=", oud).execute();
    await t.db.insertInto("product_sizes").values({ product_id: oud, label: "100 ml", price: 9_000_000, stock: 3, position: 1, created_at: at, updated_at: at }).execute();
    const sizes = await t.db.selectFrom("product_sizes").select(["id", "label"]).where("product_id", "=", oud).orderBy("position").execute();
    const [s30, s100] = sizes.map((s) => s.id);
    const email = `sized-${engine}@example.com`;
    expect(await requestBackInStock(t.db, { productId: oud, sizeId: s100, email, userId: null, locale: "en" })).toEqual({ ok: false, problem: "inStock" });
    expect(await requestBackInStock(t.db, { productId: oud, sizeId: s30, email, userId: null, locale: "en" })).toEqual({ ok: true, alreadyWaiting: false });
    // Without a size: the first sold-out one, which this address already waits for.
    expect(await requestBackInStock(t.db, { productId: oud, email, userId: null, locale: "en" })).toEqual({ ok: true, alreadyWaiting: true });
    const [other] = await makeProducts(t.db, [{ name: "Other", price: 1_000_000, stock: 0 }]);
    const otherSize = await t.db.selectFrom("product_sizes").select("id").where("product_id", "=", other).executeTakeFirstOrThrow();
    expect(await requestBackInStock(t.db, { productId: oud, sizeId: otherSize.id, email, userId: null, locale: "en" })).toEqual({ ok: false, problem: "unknownProduct" });

    // The 100 ml selling more or coming back does not count: the 30 ml is what was asked for.
    await t.db.updateTable("product_sizes").set({ stock: 8 }).where("id", "=", s100).execute();
    await sendBackInStockAlerts(t.db, config);
    expect(await alerts(email)).toEqual([]);
    await t.db.updateTable("product_sizes").set({ stock: 2 }).where("id", "=", s30).execute();
    await sendBackInStockAlerts(t.db, config);
    const sent = await alerts(email);
    expect(sent.map((m) => m.subject)).toEqual(["Back in stock: Sized Oud (30 ml)"]);
  });

  it("queues each alert once when several instances run the job at the same time", async () => {
    const [vetiver] = await makeProducts(t.db, [{ name: "Racing Vetiver", price: 3_000_000, stock: 0 }]);
    const emails = Array.from({ length: 25 }, (_, i) => `race-${i}@example.com`);
    for (const email of emails) await requestBackInStock(t.db, { productId: vetiver, email, userId: null, locale: "en" });
    await restock(vetiver, 1);
    const runs = await Promise.all([sendBackInStockAlerts(t.db, config), sendBackInStockAlerts(t.db, config), sendBackInStockAlerts(t.db, config)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(25);
    const sent = await t.db.selectFrom("mail_outbox").select("to_address").where("kind", "=", "back-in-stock").where("to_address", "in", emails).execute();
    expect(sent).toHaveLength(25);
  });

  it("stops every waiting alert of an address from the e-mail's link, and nothing for a made-up token", async () => {
    const [a, b] = await makeProducts(t.db, [
      { name: "Stop Rose", price: 1_000_000, stock: 0 },
      { name: "Stop Iris", price: 1_000_000, stock: 0 },
    ]);
    await requestBackInStock(t.db, { productId: a, email: "stop@example.com", userId: null, locale: "en" });
    await requestBackInStock(t.db, { productId: b, email: "stop@example.com", userId: null, locale: "en" });
    await requestBackInStock(t.db, { productId: b, email: "keep@example.com", userId: null, locale: "en" });
    const { token } = await t.db.selectFrom("back_in_stock_requests").select("token").where("email", "=", "stop@example.com").where("product_id", "=", a).executeTakeFirstOrThrow();
    expect(await knownStopToken(t.db, token)).toBe(true);
    expect(await stopBackInStockAlerts(t.db, "x".repeat(32))).toBeNull();
    expect(await stopBackInStockAlerts(t.db, "'; drop table products; --")).toBeNull();
    expect(await stopBackInStockAlerts(t.db, token)).toBe("stop@example.com");
    await restock(a, 5);
    await restock(b, 5);
    await sendBackInStockAlerts(t.db, config);
    expect(await alerts("stop@example.com")).toHaveLength(0);
    expect(await alerts("keep@example.com")).toHaveLength(1);
  });
});
