import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { getAdminProduct, listAdminProducts, parseProductForm, restoreProduct, updateProduct } from "./admin-products.server";
import { newestProducts, onCatalogChange } from "./catalog.server";

describe.each(ENGINES)("archived products on %s", (engine) => {
  let t: TestDatabase;
  let adminId: number;
  let archivedId: number;
  let shownId: number;
  let changes = 0;
  const stop = onCatalogChange(() => changes++);

  beforeAll(async () => {
    t = await freshDatabase(engine);
    adminId = (await addUser(t.db, "owner")).id;
    const brand = await addBrand(t.db);
    const category = await addCategory(t.db);
    archivedId = (await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Retired Oud", archived: true })).id;
    shownId = (await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Current Rose" })).id;
  });
  afterAll(async () => {
    stop();
    await t?.drop();
  });

  it("lists archived products apart, with their count beside the shop's list", async () => {
    const shop = await listAdminProducts(t.db);
    expect(shop.products.map((p) => p.id)).toEqual([shownId]);
    expect(shop.archivedCount).toBe(1);
    const archived = await listAdminProducts(t.db, { archived: true, q: "oud" });
    expect(archived.products.map((p) => [p.id, p.name])).toEqual([[archivedId, "Retired Oud"]]);
    expect(archived.products[0].archivedAt).not.toBeNull();
    expect((await listAdminProducts(t.db, { archived: true, q: "rose" })).total).toBe(0);
  });

  it("edits an archived product without bringing it back", async () => {
    const result = await updateProduct({ db: t.db, imagesDir: "/nonexistent" }, archivedId, parseProductForm(formOf({ price: "12,500" }), "update"), null, adminId);
    expect(result).toEqual({ ok: true, name: "Retired Oud", changed: ["price"] });
    expect(await getAdminProduct(t.db, archivedId, { includeArchived: true })).toMatchObject({ price: 1_250_000 });
    expect(await getAdminProduct(t.db, archivedId)).toBeUndefined();
  });

  it("brings an archived product back into the shop, once, and records it", async () => {
    const before = changes;
    expect(await restoreProduct(t.db, archivedId, adminId)).toEqual({ ok: true, name: "Retired Oud" });
    expect(changes).toBe(before + 1);
    expect((await newestProducts(t.db, 10)).map((p) => p.id)).toContain(archivedId);
    expect(await restoreProduct(t.db, archivedId, adminId)).toEqual({ ok: false, error: "notFound" });
    expect(await restoreProduct(t.db, shownId, adminId)).toEqual({ ok: false, error: "notFound" });
    const audit = await t.db.selectFrom("audit_log").select(["action", "summary"]).where("entity_id", "=", archivedId).where("action", "=", "restore").execute();
    expect(audit).toEqual([{ action: "restore", summary: "Retired Oud" }]);
  });
});

function formOf(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}
