import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { translatorFor } from "~/platform/translations.server";
import {
  createTaxonomy,
  deleteTaxonomy,
  findTaxonomy,
  listTaxonomy,
  renameTaxonomy,
  TAXONOMY_PAGE_SIZE,
  spanishNameSchema,
  taxonomyHolders,
  taxonomyNameSchema,
  taxonomyOptions,
} from "./admin-taxonomy.server";
import { onCatalogChange } from "./catalog.server";

describe.each(ENGINES)("admin categories and brands on %s", (engine) => {
  let t: TestDatabase;
  let adminId: number;
  let changes = 0;
  const stop = onCatalogChange(() => changes++);

  beforeAll(async () => {
    t = await freshDatabase(engine);
    adminId = (await addUser(t.db, "owner")).id;
  });
  afterAll(async () => {
    stop();
    await t?.drop();
  });

  it("says so when a list is empty", async () => {
    expect(await listTaxonomy(t.db, "brand")).toEqual({ rows: [], total: 0, page: 1, pages: 1 });
    expect(translatorFor("en")("admin.brands.empty")).toBe("No Brand Found");
    expect(translatorFor("en")("admin.categories.empty")).toBe("No Category Found");
  });

  it("validates names with the spec's texts (the brand form asks for a brand name)", () => {
    const en = translatorFor("en");
    const category = taxonomyNameSchema("category").safeParse("   ");
    const brand = taxonomyNameSchema("brand").safeParse("");
    expect(category.success || en(category.error.issues[0].message)).toBe("Please input a category name");
    expect(brand.success || en(brand.error.issues[0].message)).toBe("Please input a brand name");
    const long = taxonomyNameSchema("brand").safeParse("x".repeat(61));
    expect(long.success || long.error.issues[0].message).toBe("admin.taxonomy.errors.nameTooLong");
    expect(taxonomyNameSchema("brand").parse("  Maison Margiela ")).toBe("Maison Margiela");
  });

  it("creates, refuses a duplicate whatever its case, renames and records each change", async () => {
    const before = changes;
    const created = await createTaxonomy(t.db, "brand", "Maison Francis Kurkdjian", adminId);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(await createTaxonomy(t.db, "brand", "maison francis KURKDJIAN", adminId)).toEqual({ ok: false, error: "duplicate" });
    expect(await renameTaxonomy(t.db, "brand", created.id, "MFK", adminId)).toEqual({ ok: true, id: created.id });
    expect(await renameTaxonomy(t.db, "brand", created.id, "MFK", adminId)).toEqual({ ok: false, error: "unchanged" });
    expect(await renameTaxonomy(t.db, "brand", 999_999, "Nobody", adminId)).toEqual({ ok: false, error: "notFound" });
    const row = await t.db.selectFrom("brands").select(["name", "slug"]).where("id", "=", created.id).executeTakeFirstOrThrow();
    // The slug stays what it was: links and the home page's carousels keep working after a rename.
    expect(row).toEqual({ name: "MFK", slug: "maison-francis-kurkdjian" });
    expect(changes).toBe(before + 2);
    const audit = await t.db.selectFrom("audit_log").select(["action", "summary", "changes", "actor_user_id"]).where("entity", "=", "brand").orderBy("id").execute();
    expect(audit).toEqual([
      { action: "create", summary: "Maison Francis Kurkdjian", changes: JSON.stringify({ name: [null, "Maison Francis Kurkdjian"] }), actor_user_id: adminId },
      { action: "update", summary: "MFK", changes: JSON.stringify({ name: ["Maison Francis Kurkdjian", "MFK"] }), actor_user_id: adminId },
    ]);
  });

  it("gives names that make the same slug, or none, slugs of their own", async () => {
    const a = await createTaxonomy(t.db, "category", "Eau Fraîche", adminId);
    const b = await createTaxonomy(t.db, "category", "Eau-Fraiche!", adminId);
    const c = await createTaxonomy(t.db, "category", "<>", adminId);
    const slugs = await t.db
      .selectFrom("categories")
      .select("slug")
      .where("id", "in", [a, b, c].map((r) => (r.ok ? r.id : 0)))
      .orderBy("id")
      .execute();
    expect(slugs.map((s) => s.slug)).toEqual(["eau-fraiche", "eau-fraiche-2", "category"]);
  });

  it("refuses to delete a category or brand that products on sale use", async () => {
    const brand = await addBrand(t.db, "Kilian");
    const category = await addCategory(t.db, "Niche");
    await addProduct(t.db, { brandId: brand.id, categoryId: category.id });
    await addProduct(t.db, { brandId: brand.id, categoryId: category.id, archived: true });
    expect(await deleteTaxonomy(t.db, "brand", brand.id, adminId)).toEqual({ ok: false, error: "inUse", name: "Kilian", products: 1 });
    expect(await deleteTaxonomy(t.db, "category", category.id, adminId, { moveTo: category.id + 1 })).toEqual({ ok: false, error: "inUse", name: "Niche", products: 1 });
    expect(translatorFor("en")("admin.brands.toast.inUse", { name: "Kilian", count: 1 })).toBe(
      "“Kilian” still has 1 product, so it cannot be deleted. Move that product to another brand first.",
    );
    expect(await taxonomyHolders(t.db, "brand", brand.id)).toMatchObject({ products: 1, archivedCount: 1 });
  });

  it("deletes one held only by archived products, moving them where the owner says, in one transaction", async () => {
    const brand = await addBrand(t.db, "Only Archived");
    const other = await addBrand(t.db, "Takes Them");
    const category = await addCategory(t.db, "Archived Category");
    const archived = [];
    for (const name of ["Zeta Oud", "Alpha Musk", "Mid Amber"]) archived.push(await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name, archived: true }));
    const holders = await taxonomyHolders(t.db, "brand", brand.id);
    expect(holders).toEqual({ products: 0, archivedCount: 3, archived: [expect.objectContaining({ name: "Alpha Musk" }), expect.objectContaining({ name: "Mid Amber" }), expect.objectContaining({ name: "Zeta Oud" })] });
    const listed = await listTaxonomy(t.db, "brand", { q: "Only Archived" });
    expect(listed.rows).toEqual([expect.objectContaining({ name: "Only Archived", products: 0, archived: 3 })]);

    // Without somewhere to move them (or with itself, or with one that does not exist), nothing changes.
    for (const moveTo of [undefined, brand.id, 999_999]) {
      expect(await deleteTaxonomy(t.db, "brand", brand.id, adminId, { moveTo })).toEqual({ ok: false, error: "archived", name: "Only Archived", archived: 3 });
    }
    const before = changes;
    expect(await deleteTaxonomy(t.db, "brand", brand.id, adminId, { moveTo: other.id })).toEqual({ ok: true, name: "Only Archived", moved: 3, movedTo: "Takes Them" });
    expect(changes).toBe(before + 1);
    const moved = await t.db.selectFrom("products").select(["brand_id", "archived_at"]).where("id", "in", archived.map((p) => p.id)).execute();
    expect(moved).toHaveLength(3);
    for (const row of moved) {
      expect(row.brand_id).toBe(other.id);
      expect(row.archived_at).not.toBeNull();
    }
    expect(await t.db.selectFrom("brands").select("id").where("id", "=", brand.id).executeTakeFirst()).toBeUndefined();
    const entry = await t.db.selectFrom("audit_log").select(["action", "changes"]).where("entity", "=", "brand").where("entity_id", "=", brand.id).executeTakeFirstOrThrow();
    expect(entry).toEqual({ action: "delete", changes: JSON.stringify({ name: ["Only Archived", null], archivedProductsMovedTo: [null, "Takes Them (3)"] }) });
    expect(await deleteTaxonomy(t.db, "brand", brand.id, adminId)).toEqual({ ok: false, error: "notFound" });

    // One with nothing at all in it goes at once.
    const empty = await addBrand(t.db, "Empty Brand");
    expect(await deleteTaxonomy(t.db, "brand", empty.id, adminId)).toEqual({ ok: true, name: "Empty Brand", moved: 0, movedTo: null });
  });

  it("keeps a category's Spanish name, unique per language, and finds it by either name", async () => {
    const created = await createTaxonomy(t.db, "category", { name: "Oriental", nameEs: "Oriental" }, adminId);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const other = await createTaxonomy(t.db, "category", { name: "Fresh", nameEs: "Fresco" }, adminId);
    expect(other.ok).toBe(true);
    expect(await createTaxonomy(t.db, "category", { name: "Citrus", nameEs: "FRESCO" }, adminId)).toEqual({ ok: false, error: "duplicate" });
    expect(await renameTaxonomy(t.db, "category", created.id, { name: "Oriental", nameEs: "Oriental" }, adminId)).toEqual({ ok: false, error: "unchanged" });
    expect(await renameTaxonomy(t.db, "category", created.id, { name: "Oriental", nameEs: "Especiado" }, adminId)).toEqual({ ok: true, id: created.id });
    // A plain rename keeps the Spanish name.
    expect(await renameTaxonomy(t.db, "category", created.id, "Amber", adminId)).toEqual({ ok: true, id: created.id });
    expect(await findTaxonomy(t.db, "category", created.id)).toEqual({ id: created.id, name: "Amber", nameEs: "Especiado" });
    expect((await listTaxonomy(t.db, "category", { q: "especiado" })).rows).toEqual([expect.objectContaining({ id: created.id, name: "Amber", nameEs: "Especiado" })]);
    expect(spanishNameSchema.parse("   ")).toBeNull();
    expect(spanishNameSchema.safeParse("x".repeat(61)).success).toBe(false);
    // Brands have no Spanish name: one given is ignored.
    const brand = await createTaxonomy(t.db, "brand", { name: "Xerjoff", nameEs: "Xerjoff ES" }, adminId);
    expect(brand.ok && (await findTaxonomy(t.db, "brand", brand.id))).toEqual({ id: expect.any(Number), name: "Xerjoff", nameEs: null });
  });

  it("searches by name, counts products per row and pages the list", async () => {
    for (let i = 0; i < TAXONOMY_PAGE_SIZE + 2; i++) await addBrand(t.db, `Search Brand ${String(i).padStart(2, "0")}`);
    const page1 = await listTaxonomy(t.db, "brand", { q: "search brand" });
    expect(page1.total).toBe(TAXONOMY_PAGE_SIZE + 2);
    expect(page1.rows[0]).toMatchObject({ name: "Search Brand 00", products: 0 });
    const page2 = await listTaxonomy(t.db, "brand", { q: "search brand", page: 2 });
    expect(page2.rows.map((r) => r.name)).toEqual(["Search Brand 20", "Search Brand 21"]);
    const niche = await listTaxonomy(t.db, "category", { q: "NICHE" });
    expect(niche.rows).toEqual([expect.objectContaining({ name: "Niche", products: 1, archived: 1 })]);
    const options = await taxonomyOptions(t.db, "category");
    expect(options).toContainEqual({ id: expect.any(Number), name: "Niche" });
  });
});
