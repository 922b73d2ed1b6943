import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { translatorFor } from "~/platform/translations.server";
import { applyImport, CATALOGUE_COLUMNS, exportCatalogueCsv, MAX_IMPORT_ROWS, previewImport } from "./catalogue-csv.server";
import { onCatalogChange } from "./catalog.server";

const HEADER = CATALOGUE_COLUMNS.join(",");
const utf8 = (text: string) => new TextEncoder().encode(text);
const en = translatorFor("en");
const es = translatorFor("es");

describe.each(ENGINES)("catalogue CSV on %s", (engine) => {
  let t: TestDatabase;
  let adminId: number;
  let brand: { id: number; name: string };
  let category: { id: number; name: string };
  let changes = 0;
  const stop = onCatalogChange(() => changes++);

  const count = async (table: "products" | "brands" | "categories" | "catalogue_imports" | "audit_log") =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const preview = (text: string | Uint8Array, createMissing = false, fileName = "catalogue.csv") =>
    previewImport(t.db, { bytes: typeof text === "string" ? utf8(text) : text, fileName }, { createMissing, userId: adminId });
  const bySlug = (slug: string) => t.db.selectFrom("products").selectAll().where("slug", "=", slug).executeTakeFirst();

  beforeAll(async () => {
    t = await freshDatabase(engine);
    adminId = (await addUser(t.db, "owner")).id;
    brand = await addBrand(t.db, "Maison Crème");
    category = await addCategory(t.db, "Unisex");
  });
  afterAll(async () => {
    stop();
    await t?.drop();
  });

  it("exports every product for Excel: BOM, CRLF, quoted commas and line breaks, naira, status, formulas neutralised", async () => {
    await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "=HYPERLINK(\"http://evil.example\",\"Click\")", price: 1_500_050, discount: 250_000, stock: 4 });
    const archived = await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Old, \"classic\" ₦ scent", price: 900_000, archived: true });
    await t.db.updateTable("products").set({ description: "Line one\nline two, with a comma" }).where("id", "=", archived.id).execute();

    const csv = await exportCatalogueCsv(t.db);
    expect(csv.startsWith("\uFEFF" + HEADER + "\r\n")).toBe(true);
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      name: "'=HYPERLINK(\"http://evil.example\",\"Click\")",
      brand: "Maison Crème",
      category: "Unisex",
      price: "15000.50",
      discount: "2500.00",
      stock: "4",
      status: "active",
    });
    expect(rows[1]).toMatchObject({ name: "Old, \"classic\" ₦ scent", description: "Line one\nline two, with a comma", discount: "", status: "archived" });
    // No cell of the file starts like a formula.
    for (const row of rows) for (const value of Object.values(row)) expect(value).not.toMatch(/^[=+\-@]/);
  });

  it("imports its own export again and changes nothing", async () => {
    const before = await count("audit_log");
    const csv = await exportCatalogueCsv(t.db);
    const checked = await preview(utf8(csv));
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.plan).toMatchObject({ rows: 2, create: 0, update: 0, unchanged: 2, problemCount: 0 });
    const applied = await applyImport(t.db, checked.id!, adminId);
    expect(applied).toMatchObject({ ok: true, created: 0, updated: 0, unchanged: 2 });
    expect(await count("audit_log")).toBe(before);
  });

  it("shows every problem by row and column, in both languages, and writes nothing", async () => {
    const products = await count("products");
    const huge = "x".repeat(10 * 1024 * 1024);
    const text = [
      HEADER,
      `Good One,good-one,Maison Crème,Unisex,15000,,5,Fine,active`,
      `Negative,negative,Maison Crème,Unisex,-5,,5,Fine,active`,
      `,no-name,Maison Crème,Unisex,100,,1,Fine,`,
      `Unknown brand,unknown-brand,Nobody,Unisex,100,,1,Fine,active`,
      `Dup,good-one,Maison Crème,Unisex,100,,1,Fine,active`,
      `Bad slug,Bad Slug!,Maison Crème,Unisex,100,200,1.5,,sold`,
      `Huge,huge,Maison Crème,Unisex,100,,1,${huge},active`,
      `Extra,extra,Maison Crème,Unisex,100,,1,Fine,active,surprise`,
    ].join("\n");
    const result = await preview(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.id).toBeNull();
    const found = result.plan.problems.map((p) => `${p.row}:${p.column}:${p.key.split(".").pop()}`);
    expect(found).toEqual([
      "3:price:priceMin",
      "4:name:name",
      "5:brand:brandUnknown",
      "6:slug:slugDuplicate",
      "7:slug:slug",
      "7:discount:discountTooHigh",
      "7:stock:stock",
      "7:description:description",
      "7:status:status",
      "8:description:descriptionTooLong",
      "9:null:extraCells",
    ]);
    for (const p of result.plan.problems) {
      expect(en(p.key, p.values)).not.toMatch(/admin\.|\{\{/);
      expect(es(p.key, p.values)).not.toMatch(/admin\.|\{\{/);
    }
    expect(en(result.plan.problems[3].key, result.plan.problems[3].values)).toBe("The slug “good-one” is already used in row 2.");
    expect(await count("products")).toBe(products);
    expect(await count("catalogue_imports")).toBe(0);
  });

  it.each([
    ["an empty file", "", "empty"],
    ["a header only", HEADER + "\n", "noRows"],
    ["a wrong header", "Product,Cost\nDior,100\n", "noHeader"],
    ["a missing column", "name,slug,brand,category,price,discount,stock,description\nA,a,B,C,1,,1,d\n", "headerMissing"],
    ["an unknown column", HEADER + ",colour\n", "headerUnknown"],
    ["a column twice", HEADER + ",price\n", "headerDuplicate"],
    ["an unclosed quote", HEADER + '\n"Dior,dior,B,C,1,,1,d,active\n', "syntax"],
  ])("refuses %s with a clear message", async (_label, text, key) => {
    const result = await preview(text);
    expect(result).toMatchObject({ ok: false, problem: { key: `admin.catalogueImport.errors.${key}` } });
    if (result.ok) return;
    expect(en(result.problem.key, result.problem.values)).not.toMatch(/admin\.|\{\{/);
    expect(es(result.problem.key, result.problem.values)).not.toMatch(/admin\.|\{\{/);
  });

  it("refuses text that is not UTF-8, and spreadsheet workbooks", async () => {
    const latin1 = Buffer.from(`${HEADER}\nCr\xe8me,creme,Maison,Unisex,100,,1,d,active\n`, "latin1");
    expect(await preview(latin1)).toMatchObject({ ok: false, problem: { key: "admin.catalogueImport.errors.encoding" } });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${HEADER}\n`, "utf16le")]);
    expect(await preview(utf16)).toMatchObject({ ok: false, problem: { key: "admin.catalogueImport.errors.encoding" } });
    const xlsx = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
    expect(await preview(xlsx)).toMatchObject({ ok: false, problem: { key: "admin.catalogueImport.errors.workbook" } });
  });

  it("refuses 200,000 rows without reading them all", async () => {
    const row = "A,,Maison Crème,Unisex,100,,1,d,active\n";
    const text = HEADER + "\n" + row.repeat(200_000);
    const started = Date.now();
    const result = await preview(text);
    expect(result).toMatchObject({ ok: false, problem: { key: "admin.catalogueImport.errors.tooManyRows", values: { max: MAX_IMPORT_ROWS } } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("creates and updates by slug in one go, makes brands and categories only when asked, and records it", async () => {
    const existing = await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Santal Blush", price: 2_000_000, stock: 3 });
    const { slug } = (await t.db.selectFrom("products").select("slug").where("id", "=", existing.id).executeTakeFirstOrThrow());
    const text = [
      "\uFEFF" + "slug,name,brand,category,price,discount,stock,description,status",
      `${slug},Santal Blush,Maison Crème,Unisex,"21,000.00",1000,7,"Creamy sandalwood, rose",active`,
      `,Nuit d'Été 50ml,Atelier Neuf,Niche,45000,,2,"Fig leaf\nand cedar",active`,
      `,Nuit d'Été 50ml,atelier neuf,NICHE,45000,,2,Second with the same name,archived`,
      `formula-name,'=cmd,Maison Crème,Unisex,100,,1,'@SUM(1),active`,
    ].join("\r\n");

    const refused = await preview(text);
    expect(refused.ok && refused.plan.problems.map((p) => p.key.split(".").pop())).toEqual(["brandUnknown", "categoryUnknown", "brandUnknown", "categoryUnknown"]);

    const checked = await preview(text, true, "autumn.csv");
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.plan).toMatchObject({ rows: 4, create: 3, update: 1, unchanged: 0, problemCount: 0, newBrands: ["Atelier Neuf"], newCategories: ["Niche"] });
    expect(checked.plan.changes.find((c) => c.action === "update")?.fields).toEqual(["description", "price", "discount", "stock"]);
    // Nothing is written before the confirmation.
    expect(await count("brands")).toBe(1);
    const before = changes;

    const applied = await applyImport(t.db, checked.id!, adminId);
    expect(applied).toEqual({ ok: true, created: 3, updated: 1, unchanged: 0, fileName: "autumn.csv" });
    expect(changes).toBe(before + 1);
    expect(await bySlug(slug)).toMatchObject({ price: 2_100_000, discount: 100_000, stock: 7, description: "Creamy sandalwood, rose" });
    expect(await bySlug("nuit-d-ete-50ml")).toMatchObject({ description: "Fig leaf\nand cedar", price: 4_500_000, image: null, archived_at: null });
    expect(await bySlug("nuit-d-ete-50ml-2")).toMatchObject({ description: "Second with the same name" });
    expect((await bySlug("nuit-d-ete-50ml-2"))!.archived_at).not.toBeNull();
    expect(await bySlug("formula-name")).toMatchObject({ name: "=cmd", description: "@SUM(1)" });
    const newBrand = await t.db.selectFrom("brands").selectAll().where("name", "=", "Atelier Neuf").executeTakeFirstOrThrow();
    expect((await bySlug("nuit-d-ete-50ml"))!.brand_id).toBe(newBrand.id);

    const audit = await t.db.selectFrom("audit_log").select(["action", "entity", "summary", "changes"]).where("actor_user_id", "=", adminId).execute();
    expect(audit.filter((a) => a.entity === "brand" && a.action === "create").map((a) => a.summary)).toEqual(["Atelier Neuf"]);
    expect(audit.filter((a) => a.entity === "product" && a.action === "create")).toHaveLength(3);
    const update = audit.find((a) => a.entity === "product" && a.action === "update")!;
    expect(JSON.parse(update.changes!)).toMatchObject({ price: [2_000_000, 2_100_000], stock: [3, 7] });

    // The same confirmation again finds the file gone: nothing is imported twice.
    expect(await applyImport(t.db, checked.id!, adminId)).toEqual({ ok: false, gone: true });
    expect(await count("catalogue_imports")).toBe(0);
  });

  it("only the admin who checked a file can confirm it", async () => {
    const other = await addUser(t.db, "owner");
    const checked = await preview(`${HEADER}\nSolo,solo-1,Maison Crème,Unisex,100,,1,d,active\n`);
    if (!checked.ok) throw new Error("expected a plan");
    expect(await applyImport(t.db, checked.id!, other.id)).toEqual({ ok: false, gone: true });
    expect(await bySlug("solo-1")).toBeUndefined();
  });

  it("checks again on confirmation: a brand removed meanwhile stops the whole import", async () => {
    const doomed = await addBrand(t.db, "Short Lived");
    const checked = await preview(`${HEADER}\nFirst,first-1,Maison Crème,Unisex,100,,1,d,active\nSecond,second-1,Short Lived,Unisex,100,,1,d,active\n`);
    if (!checked.ok) throw new Error("expected a plan");
    expect(checked.plan.problemCount).toBe(0);
    await t.db.deleteFrom("brands").where("id", "=", doomed.id).execute();
    const applied = await applyImport(t.db, checked.id!, adminId);
    expect(applied.ok).toBe(false);
    if (applied.ok || !("plan" in applied)) throw new Error("expected a plan");
    expect(applied.plan.problems).toEqual([{ row: 3, column: "brand", key: "admin.catalogueImport.errors.brandUnknown", values: { name: "Short Lived" } }]);
    expect(await bySlug("first-1")).toBeUndefined();
  });

  it("two confirmations of one file at the same moment import it once", async () => {
    const checked = await preview(`${HEADER}\nTwice,twice-1,Maison Crème,Unisex,100,,1,d,active\n`);
    if (!checked.ok) throw new Error("expected a plan");
    const results = await Promise.all([applyImport(t.db, checked.id!, adminId), applyImport(t.db, checked.id!, adminId)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && "gone" in r)).toHaveLength(1);
    expect(await t.db.selectFrom("products").select("id").where("slug", "like", "twice-1%").execute()).toHaveLength(1);
  });

  it("imports 10,000 rows in under 30 seconds", async () => {
    const rows = [HEADER];
    for (let i = 0; i < 10_000; i++) {
      rows.push(`"Bulk Eau de Parfum ${i}, 100ml",bulk-${i},Maison Crème,Unisex,${15_000 + i}.50,${i % 3 ? "" : "500"},${i % 50},"Notes of bergamot, amber and musk. Batch ${i}.",active`);
    }
    const started = performance.now();
    const checked = await preview(rows.join("\r\n"));
    if (!checked.ok) throw new Error("expected a plan");
    expect(checked.plan).toMatchObject({ rows: 10_000, create: 10_000, problemCount: 0 });
    const checkedMs = performance.now() - started;
    const applied = await applyImport(t.db, checked.id!, adminId);
    const totalMs = performance.now() - started;
    expect(applied).toMatchObject({ ok: true, created: 10_000 });
    console.log(`[${engine}] 10,000-row import: check ${Math.round(checkedMs)} ms, check + import ${Math.round(totalMs)} ms`);
    expect(totalMs).toBeLessThan(30_000);
    expect(await bySlug("bulk-9999")).toMatchObject({ name: "Bulk Eau de Parfum 9999, 100ml", price: 2_499_950, stock: 49 });

    // Changing every row again (an update of all 10,000) stays within the budget too.
    const again = rows.map((line, i) => (i === 0 ? line : line.replace(/,(\d+),"Notes/, (_m, stock) => `,${Number(stock) + 1},"Notes`)));
    const started2 = performance.now();
    const rechecked = await preview(again.join("\r\n"));
    if (!rechecked.ok) throw new Error("expected a plan");
    expect(rechecked.plan).toMatchObject({ update: 10_000, problemCount: 0 });
    expect(await applyImport(t.db, rechecked.id!, adminId)).toMatchObject({ ok: true, updated: 10_000 });
    const updateMs = performance.now() - started2;
    console.log(`[${engine}] 10,000-row update: check + import ${Math.round(updateMs)} ms`);
    expect(updateMs).toBeLessThan(30_000);
    expect(await bySlug("bulk-9999")).toMatchObject({ stock: 50 });
  }, 120_000);
});
