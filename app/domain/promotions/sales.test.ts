import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { addBrand, addCategory, addProduct, firstSizeOf, makeUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { onCatalogChange } from "../catalogue/catalog.server";
import { productDetail, productCards } from "../catalogue/catalog.server";
import { checkoutView, placeCheckoutOrder } from "../orders/checkout.server";
import { changeOrderStatus } from "../orders/admin-orders.server";
import { testContext } from "../../../tests/support/context";
import { createPromotion, parsePromotion } from "./admin.server";
import { enterCode } from "./codes.server";
import { bestOffer, nextSaleMoment, runSalesClock, saleEndShown, salePrice, startSalesClock, wakeSalesClock } from "./sales-clock.server";
import { createSale, deleteSale, listSales, parseSale, type SaleFields, saleResults, setSalePaused, updateSale } from "./sales.server";

const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
const LAGOS_FEE = 300_000;
const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
/** A datetime-local value in Lagos time, `days` from now. */
const lagosInput = (days: number) => new Date(Date.now() + days * DAY + 3_600_000).toISOString().slice(0, 16);

describe("a sale's price, on figures already read", () => {
  const sale = (id: number, kind: "percent" | "fixed", value: number) => ({ id, kind, value, endsAt: "2026-12-07T23:00:00.000Z", targets: [] });

  it("takes a percentage of the regular price to the kobo, half a kobo up, and never leaves nothing to pay", () => {
    // 15 % of ₦12,345.67 = 185,185.05 kobo → 185,185 off.
    expect(salePrice(1_234_567, sale(1, "percent", 15))).toBe(1_234_567 - 185_185);
    // 50 % of 3 kobo = 1.5 → 2 off.
    expect(salePrice(3, sale(1, "percent", 50))).toBe(1);
    expect(salePrice(500_000, sale(1, "fixed", 100_000))).toBe(400_000);
    expect(salePrice(500_000, sale(1, "fixed", 500_000))).toBeNull();
    // A percentage is at most 99.
    expect(salePrice(100, sale(1, "percent", 100))).toBe(1);
  });

  it("shows a sale's end in Lagos time, the same in every language", () => {
    expect(saleEndShown("2026-12-06T22:59:00.000Z")).toBe("2026-12-06 23:59");
    expect(saleEndShown("2026-12-31T23:30:00.000Z")).toBe("2027-01-01 00:30");
  });

  it("never raises a price, and of two sales the lower price wins (the holder, then the older, on a tie)", () => {
    const a = sale(1, "percent", 10);
    const b = sale(2, "percent", 20);
    const c = sale(3, "fixed", 200_000);
    // Regular ₦10,000: 10 % → 9,000; 20 % → 8,000; ₦2,000 off → 8,000.
    expect(bestOffer([a, b, c], 1_000_000, 1_000_000)).toMatchObject({ sale: { id: 2 }, price: 800_000 });
    expect(bestOffer([a, b, c], 1_000_000, 1_000_000, 3)).toMatchObject({ sale: { id: 3 }, price: 800_000 });
    // Already at ₦8,500 (a markdown of the owner's): only a price below it applies.
    expect(bestOffer([a], 1_000_000, 850_000)).toBeNull();
    expect(bestOffer([a, b], 1_000_000, 850_000)).toMatchObject({ sale: { id: 2 } });
  });
});

describe.each(ENGINES)("automatic sales on %s", (engine) => {
  let t: TestDatabase;
  let owner: number;
  let brand: number;
  let buyers = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    owner = await makeUser(t.db, "owner@example.com", "owner");
    brand = (await addBrand(t.db)).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const fields = (over: Partial<SaleFields>): SaleFields => ({
    name: "Weekend sale",
    kind: "percent",
    value: "15",
    startsAt: "",
    endsAt: lagosInput(3),
    productIds: "",
    categoryIds: [],
    brandIds: [],
    ...over,
  });

  async function newSale(over: Partial<SaleFields>) {
    const parsed = await parseSale(t.db, fields(over));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return createSale(t.db, owner, parsed.input);
  }

  const perfume = async (categoryId: number, price: number, discount: number | null = null, stock = 50) =>
    (await addProduct(t.db, { brandId: brand, categoryId, price, discount, stock })).id;

  const sizeOf = async (productId: number) =>
    t.db.selectFrom("product_sizes").select(["id", "price", "discount", "sale_ends_at"]).where("product_id", "=", productId).orderBy("position").orderBy("id").executeTakeFirstOrThrow();
  const pair = async (productId: number) => {
    const s = await sizeOf(productId);
    return { price: Number(s.price), discount: s.discount === null ? null : Number(s.discount) };
  };

  it("refuses a sale without a name or an end, a percentage over 99 and unknown categories, with the field's message", async () => {
    const category = await addCategory(t.db);
    const refused = await parseSale(t.db, fields({ name: " ", value: "100", endsAt: "", categoryIds: [String(category.id), "999999"] }));
    expect(refused).toMatchObject({
      ok: false,
      errors: { name: "promotions.sales.errors.name", value: "promotions.sales.errors.percent", endsAt: "promotions.sales.errors.endsAt", categoryIds: "promotions.admin.errors.ids" },
    });
    expect(await parseSale(t.db, fields({ kind: "fixed", value: "-5" }))).toMatchObject({ ok: false, errors: { value: "promotions.admin.errors.amount" } });
    expect(await parseSale(t.db, fields({ kind: "free_delivery" }))).toMatchObject({ ok: false, errors: { kind: "promotions.admin.errors.kind" } });
    expect(await parseSale(t.db, fields({ startsAt: lagosInput(4), endsAt: lagosInput(3) }))).toMatchObject({ ok: false, errors: { endsAt: "promotions.admin.errors.endsBeforeStart" } });
    expect(await parseSale(t.db, fields({ kind: "fixed", value: "₦2,500.50" }))).toMatchObject({ ok: true, input: { kind: "fixed", value: 250_050 } });
  });

  it("puts a running sale into the sizes' price pair of its category, never raising one, and takes it out at its end", async () => {
    const women = (await addCategory(t.db)).id;
    const men = (await addCategory(t.db)).id;
    const plain = await perfume(women, 5_000_000);
    const markedDown = await perfume(women, 5_500_000, 500_000); // regular ₦60,000, selling at ₦55,000
    const deepDown = await perfume(women, 4_000_000, 2_000_000); // regular ₦60,000, selling at ₦40,000
    const other = await perfume(men, 5_000_000);
    const heard: unknown[] = [];
    const stop = onCatalogChange((where, scope) => heard.push([where, scope]));
    const versionBefore = Number((await t.db.selectFrom("catalog_version").select("version").executeTakeFirstOrThrow()).version);

    const { id, clock } = await newSale({ categoryIds: [String(women)] });
    stop();
    expect(clock.applied).toBe(2);
    expect(heard).toContainEqual(["here", "anything"]);
    expect(Number((await t.db.selectFrom("catalog_version").select("version").executeTakeFirstOrThrow()).version)).toBeGreaterThan(versionBefore);
    // 15 % off the regular price: ₦50,000 → ₦42,500; ₦60,000 → ₦51,000, below its ₦55,000 (the struck price stays the regular one).
    expect(await pair(plain)).toEqual({ price: 4_250_000, discount: 750_000 });
    expect(await pair(markedDown)).toEqual({ price: 5_100_000, discount: 900_000 });
    // Already below the sale price: left alone, and not held by the sale.
    expect(await pair(deepDown)).toEqual({ price: 4_000_000, discount: 2_000_000 });
    expect(await pair(other)).toEqual({ price: 5_000_000, discount: null });

    // Cards and the product page read the same pair and the sale's end.
    const sale = await t.db.selectFrom("sales").select("ends_at").where("id", "=", id).executeTakeFirstOrThrow();
    const shown = saleEndShown(sale.ends_at);
    const cards = new Map((await productCards(t.db, [plain, deepDown, other])).map((c) => [c.id, c]));
    expect(cards.get(plain)).toMatchObject({ price: 4_250_000, discount: 750_000, saleEnds: shown });
    expect(cards.get(deepDown)).toMatchObject({ price: 4_000_000, saleEnds: null });
    expect(cards.get(other)).toMatchObject({ saleEnds: null });
    const detail = await productDetail(t.db, plain);
    expect(detail?.sizes[0]).toMatchObject({ price: 4_250_000, discount: 750_000, saleEnds: shown });
    expect((await listSales(t.db)).find((s) => s.id === id)).toMatchObject({ state: "running", sizes: 2 });

    // A second run changes nothing.
    expect(await runSalesClock(t.db)).toMatchObject({ applied: 0, restored: 0, products: [] });
    expect(await nextSaleMoment(t.db)).toBe(sale.ends_at);

    // Just after its end: every size has its pair back, as it was written (null stays null).
    const after = new Date(Date.parse(sale.ends_at) + 1000).toISOString();
    expect(await runSalesClock(t.db, after)).toMatchObject({ restored: 2 });
    expect(await pair(plain)).toEqual({ price: 5_000_000, discount: null });
    expect(await pair(markedDown)).toEqual({ price: 5_500_000, discount: 500_000 });
    expect((await sizeOf(plain)).sale_ends_at).toBeNull();
    expect((await productCards(t.db, [plain]))[0]).toMatchObject({ price: 5_000_000, discount: null, saleEnds: null });
    expect(await runSalesClock(t.db, after)).toMatchObject({ products: [] });
    // (It would start again at the next run now: paused, so that the other tests' runs leave it.)
    await setSalePaused(t.db, owner, id, true);
  });

  it("starts a scheduled sale at its start, and a paused one gives the prices back and takes them again when resumed; each change is in the audit log", async () => {
    const category = (await addCategory(t.db)).id;
    const product = await perfume(category, 2_000_000);
    const { id, clock } = await newSale({ name: "Friday to Sunday", startsAt: lagosInput(1), endsAt: lagosInput(3), categoryIds: [String(category)] });
    expect(clock.applied).toBe(0);
    expect(await pair(product)).toEqual({ price: 2_000_000, discount: null });
    const start = (await t.db.selectFrom("sales").select("starts_at").where("id", "=", id).executeTakeFirstOrThrow()).starts_at!;
    expect(await runSalesClock(t.db, start)).toMatchObject({ applied: 1, products: [product] });
    expect(await pair(product)).toEqual({ price: 1_700_000, discount: 300_000 });

    // Pausing and resuming runs the clock at once (now: before the start, so nothing applies again).
    expect(await setSalePaused(t.db, owner, id, true)).toMatchObject({ changed: true, clock: { restored: 1 } });
    expect(await pair(product)).toEqual({ price: 2_000_000, discount: null });
    expect(await setSalePaused(t.db, owner, id, true)).toMatchObject({ changed: false });
    await setSalePaused(t.db, owner, id, false);
    expect(await runSalesClock(t.db, start)).toMatchObject({ applied: 1 });

    // Changed to 25 %: the size moves to the new price, and its price before is kept.
    const parsed = await parseSale(t.db, fields({ name: "Friday to Sunday", value: "25", startsAt: "", endsAt: lagosInput(3), categoryIds: [String(category)] }));
    if (!parsed.ok) throw new Error("refused");
    expect(await updateSale(t.db, owner, id, parsed.input)).toMatchObject({ clock: { applied: 1 } });
    expect(await pair(product)).toEqual({ price: 1_500_000, discount: 500_000 });
    await setSalePaused(t.db, owner, id, true);
    expect(await pair(product)).toEqual({ price: 2_000_000, discount: null });

    const audit = await t.db.selectFrom("audit_log").select(["action", "summary", "changes", "actor_user_id"]).where("entity", "=", "sale").where("entity_id", "=", id).orderBy("id").execute();
    expect(audit.map((a) => a.action)).toEqual(["create", "update", "update", "update", "update"]);
    expect(audit.every((a) => a.actor_user_id === owner)).toBe(true);
    expect(JSON.parse(audit[0].changes!)).toMatchObject({ name: [null, "Friday to Sunday"], kind: [null, "percent"], value: [null, 15], targets: [null, `category:${category}`] });
    expect(JSON.parse(audit[1].changes!)).toEqual({ paused: [false, true] });
    expect(JSON.parse(audit[3].changes!)).toMatchObject({ value: [15, 25] });
  });

  it("leaves the owner's price when the owner changed a size during the sale", async () => {
    const category = (await addCategory(t.db)).id;
    const edited = await perfume(category, 3_000_000);
    const untouched = await perfume(category, 3_000_000);
    const { id } = await newSale({ categoryIds: [String(category)], value: "10" });
    expect(await pair(edited)).toEqual({ price: 2_700_000, discount: 300_000 });
    // The owner sets a price of their own on the sizes page during the sale.
    await t.db.updateTable("product_sizes").set({ price: 2_500_000, discount: 0 }).where("id", "=", (await sizeOf(edited)).id).execute();
    expect(await runSalesClock(t.db)).toMatchObject({ ownerPriced: 1, products: [edited] });
    expect((await sizeOf(edited)).sale_ends_at).toBeNull();
    expect((await listSales(t.db)).find((s) => s.id === id)).toMatchObject({ sizes: 1 });
    // The sale does not take it again while it runs, and its end leaves the owner's price.
    expect(await runSalesClock(t.db)).toMatchObject({ products: [] });
    await setSalePaused(t.db, owner, id, true);
    expect(await pair(edited)).toEqual({ price: 2_500_000, discount: 0 });
    expect(await pair(untouched)).toEqual({ price: 3_000_000, discount: null });
  });

  it("deletes a running sale: its prices come back first (an owner's own price stays), then it goes with what it covered and held, audited", async () => {
    const category = (await addCategory(t.db)).id;
    const onSale = await perfume(category, 4_000_000);
    const ownerPriced = await perfume(category, 4_000_000);
    const { id } = await newSale({ name: "Mistaken sale", categoryIds: [String(category)], value: "20" });
    expect(await pair(onSale)).toEqual({ price: 3_200_000, discount: 800_000 });
    await t.db.updateTable("product_sizes").set({ price: 3_500_000, discount: 500_000 }).where("id", "=", (await sizeOf(ownerPriced)).id).execute();
    await runSalesClock(t.db);

    expect(await deleteSale(t.db, owner, id)).toEqual({ ok: true, name: "Mistaken sale" });
    expect(await pair(onSale)).toEqual({ price: 4_000_000, discount: null });
    expect((await sizeOf(onSale)).sale_ends_at).toBeNull();
    expect(await pair(ownerPriced)).toEqual({ price: 3_500_000, discount: 500_000 });
    for (const table of ["sale_sizes", "sale_targets"] as const) expect(await t.db.selectFrom(table).select("sale_id").where("sale_id", "=", id).execute()).toEqual([]);
    expect((await listSales(t.db)).find((s) => s.id === id)).toBeUndefined();
    const audit = await t.db.selectFrom("audit_log").select(["action", "changes"]).where("entity", "=", "sale").where("entity_id", "=", id).orderBy("id").execute();
    expect(audit.map((a) => a.action)).toEqual(["create", "update", "delete"]);
    expect(JSON.parse(audit[1].changes!)).toEqual({ paused: [false, true] });
    // The clock finds nothing of it afterwards, and a second delete finds no sale.
    expect(await runSalesClock(t.db)).toMatchObject({ applied: 0, restored: 0 });
    expect(await deleteSale(t.db, owner, id)).toBeNull();
  });

  it("gives a size held by two sales the lower price, and the other sale's when the better one ends", async () => {
    const category = (await addCategory(t.db)).id;
    const product = await perfume(category, 1_000_000);
    const tenPercent = await newSale({ name: "Category", categoryIds: [String(category)], value: "10" });
    expect(await pair(product)).toEqual({ price: 900_000, discount: 100_000 });
    const fixed = await newSale({ name: "This perfume", kind: "fixed", value: "2500", productIds: String(product) });
    expect(fixed.clock).toMatchObject({ applied: 1 });
    expect(await pair(product)).toEqual({ price: 750_000, discount: 250_000 });
    const live = await t.db.selectFrom("sale_sizes").select("sale_id").where("ended_at", "is", null).where("product_id", "=", product).execute();
    expect(live).toEqual([{ sale_id: fixed.id }]);
    // The better one paused: the other one's price, and the price before both comes back at the end.
    await setSalePaused(t.db, owner, fixed.id, true);
    expect(await pair(product)).toEqual({ price: 900_000, discount: 100_000 });
    await setSalePaused(t.db, owner, tenPercent.id, true);
    expect(await pair(product)).toEqual({ price: 1_000_000, discount: null });
  });

  it("is charged at checkout at the price shown, keeps codes that do not combine off it, and counts its orders", async () => {
    const category = (await addCategory(t.db)).id;
    const product = await perfume(category, 2_000_000);
    const { id } = await newSale({ categoryIds: [String(category)], value: "20" });
    const code = await parsePromotion(t.db, {
      code: "NOSTACK",
      kind: "percent",
      value: "10",
      minSubtotal: "",
      startsAt: "",
      endsAt: "",
      usageLimit: "",
      perCustomerLimit: "",
      combinesWithSale: "",
      productIds: "",
      categoryIds: [],
      brandIds: [],
    });
    if (!code.ok) throw new Error("refused");
    await createPromotion(t.db, owner, code.input);

    const userId = await makeUser(t.db, `sale-buyer-${++buyers}-${engine}@example.com`);
    const at = new Date().toISOString();
    const cartId = `cart-of-sale-buyer-${buyers}-${"x".repeat(20)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: product, size_id: firstSizeOf(product), quantity: 2, created_at: at }).execute();
    expect(await enterCode(t.db, cartId, "nostack")).toMatchObject({ ok: true });

    const view = await checkoutView(t.db, userId, PAYMENT);
    expect(view.cart.subtotal).toBe(2 * 1_600_000);
    expect(view.code).toMatchObject({ reason: "notForItems", discount: 0 });
    const placed = await placeCheckoutOrder(t.db, { id: userId }, {
      checkoutKey: view.checkoutKey,
      seen: view.seen,
      addressId: null,
      address: lagos,
      saveAddress: false,
      deliveryMethod: "delivery",
      paymentMethod: "bank_transfer",
      expectedTotal: String(2 * 1_600_000 + LAGOS_FEE),
      payment: PAYMENT,
      phone: "08031234567",
    });
    if (!placed.ok) throw new Error(placed.problem);
    expect(placed.order).toMatchObject({ subtotal: 3_200_000, discount: 0, total: 3_200_000 + LAGOS_FEE });
    expect(placed.order.items[0]).toMatchObject({ unitPrice: 1_600_000, quantity: 2 });

    expect(await saleResults(t.db, id)).toMatchObject({ sizesNow: 1, orders: 1, bottles: 2, revenue: 3_200_000, markdown: 800_000 });
    expect((await saleResults(t.db, id)).latest).toEqual([expect.objectContaining({ number: placed.order.number, bottles: 2, revenue: 3_200_000 })]);
    // Cancelled: out of the sums, still listed.
    expect(await changeOrderStatus(testContext(t), { number: placed.order.number, from: "pending", to: "cancelled", actorId: owner })).toMatchObject({ ok: true });
    expect(await saleResults(t.db, id)).toMatchObject({ orders: 0, revenue: 0 });
    await setSalePaused(t.db, owner, id, true);
  });

  it("is applied once when two clocks run at the same moment (two connections)", async () => {
    const category = (await addCategory(t.db)).id;
    const products = await Promise.all(Array.from({ length: 12 }, (_, i) => perfume(category, 1_000_000 + i * 10_000)));
    // Written straight into the table, so that no clock has run for it yet.
    const now = new Date().toISOString();
    const sale = await t.db
      .insertInto("sales")
      .values({ name: "Race", kind: "percent", value: 30, starts_at: null, ends_at: inDays(2), paused_at: null, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db.insertInto("sale_targets").values({ sale_id: sale.id, kind: "category", target_id: category }).execute();
    // On PostgreSQL, a second connection pool as a second instance has. SQLite is one process's file: its
    // runs at once share the one connection, whose transactions take turns.
    const second = t.url ? await openDatabase({ databaseUrl: t.url, sqlitePath: "" }) : { db: t.db, close: async () => {} };
    try {
      const runs = await Promise.all([runSalesClock(t.db), runSalesClock(second.db), runSalesClock(t.db), runSalesClock(second.db)]);
      expect(runs.reduce((sum, r) => sum + r.applied, 0)).toBe(12);
      const live = await t.db.selectFrom("sale_sizes").select(["size_id", "price_before", "sale_price"]).where("sale_id", "=", sale.id).where("ended_at", "is", null).execute();
      expect(live).toHaveLength(12);
      for (const [i, product] of products.entries()) {
        const regular = 1_000_000 + i * 10_000;
        expect(await pair(product)).toEqual({ price: regular - Math.floor((regular * 30 + 50) / 100), discount: Math.floor((regular * 30 + 50) / 100) });
      }
      // Ended on both at once: every price comes back once.
      const after = inDays(3);
      const ends = await Promise.all([runSalesClock(t.db, after), runSalesClock(second.db, after)]);
      expect(ends.reduce((sum, r) => sum + r.restored, 0)).toBe(12);
      for (const [i, product] of products.entries()) expect(await pair(product)).toEqual({ price: 1_000_000 + i * 10_000, discount: null });
    } finally {
      await second.close();
      // (It would start again at the next run now: paused, so that the other tests' runs leave it.)
      await t.db.updateTable("sales").set({ paused_at: new Date().toISOString() }).where("id", "=", sale.id).execute();
    }
  });

  it("runs in the server at a sale's start and end, to the second, when woken after a save", async () => {
    const category = (await addCategory(t.db)).id;
    const product = await perfume(category, 1_000_000);
    // A poll far away: only the sale's own moments move the prices.
    const clock = startSalesClock({ db: t.db, pollMs: 600_000 });
    try {
      const now = Date.now();
      const row = await t.db
        .insertInto("sales")
        .values({ name: "Flash", kind: "percent", value: 50, starts_at: new Date(now + 1_500).toISOString(), ends_at: new Date(now + 3_500).toISOString(), paused_at: null, created_at: new Date(now).toISOString(), updated_at: new Date(now).toISOString() })
        .returning("id")
        .executeTakeFirstOrThrow();
      await t.db.insertInto("sale_targets").values({ sale_id: row.id, kind: "category", target_id: category }).execute();
      wakeSalesClock();
      await expect.poll(async () => (await pair(product)).price, { timeout: 5_000, interval: 100 }).toBe(500_000);
      expect(Date.now()).toBeGreaterThanOrEqual(now + 1_500);
      await expect.poll(async () => (await pair(product)).price, { timeout: 5_000, interval: 100 }).toBe(1_000_000);
      expect(Date.now()).toBeGreaterThanOrEqual(now + 3_500);
    } finally {
      await clock.stop();
    }
  });

  it("keeps shown and charged in step when orders are placed while the clock starts a sale (no deadlock, no order at a price not shown)", async () => {
    const category = (await addCategory(t.db)).id;
    const product = await perfume(category, 1_000_000, null, 100);
    const shoppers = [];
    for (let i = 0; i < 8; i++) {
      const userId = await makeUser(t.db, `race-${engine}-${i}-${Date.now()}@example.com`);
      const at = new Date().toISOString();
      const cartId = `cart-of-race-${engine}-${i}-${"x".repeat(20)}`;
      await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
      await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: product, size_id: firstSizeOf(product), quantity: 1, created_at: at }).execute();
      // What each shopper's checkout page showed: the price before the sale.
      shoppers.push({ userId, view: await checkoutView(t.db, userId, PAYMENT), phone: `0803555${String(i).padStart(4, "0")}` });
    }
    const now = new Date().toISOString();
    const sale = await t.db
      .insertInto("sales")
      .values({ name: "Race with orders", kind: "percent", value: 10, starts_at: null, ends_at: inDays(2), paused_at: null, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db.insertInto("sale_targets").values({ sale_id: sale.id, kind: "product", target_id: product }).execute();
    const second = t.url ? await openDatabase({ databaseUrl: t.url, sqlitePath: "" }) : { db: t.db, close: async () => {} };
    try {
      const [clock, ...orders] = await Promise.all([
        runSalesClock(second.db),
        ...shoppers.map((s) =>
          placeCheckoutOrder(t.db, { id: s.userId }, {
            checkoutKey: s.view.checkoutKey,
            seen: s.view.seen,
            addressId: null,
            address: lagos,
            saveAddress: false,
            deliveryMethod: "delivery",
            paymentMethod: "bank_transfer",
            expectedTotal: String(1_000_000 + LAGOS_FEE),
            payment: PAYMENT,
            phone: s.phone,
          }),
        ),
      ]);
      expect(clock.applied).toBe(1);
      let placed = 0;
      for (const order of orders) {
        if (order.ok) {
          placed++;
          // Placed before the sale: at the price the shopper was shown.
          expect(order.order).toMatchObject({ subtotal: 1_000_000, total: 1_000_000 + LAGOS_FEE });
        } else {
          // After it: refused (the cart's prices changed since the page showed them, or its total
          // did), so the shopper sees the sale price first; never charged a price not shown.
          expect(["changed", "confirm"]).toContain((order as { problem: string }).problem);
        }
      }
      expect(await pair(product)).toEqual({ price: 900_000, discount: 100_000 });
      expect(Number((await t.db.selectFrom("product_sizes").select("stock").where("product_id", "=", product).executeTakeFirstOrThrow()).stock)).toBe(100 - placed);
    } finally {
      await second.close();
      await t.db.updateTable("sales").set({ paused_at: new Date().toISOString() }).where("id", "=", sale.id).execute();
      await runSalesClock(t.db);
    }
  });
});
