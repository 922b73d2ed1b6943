import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { addBrand, addCategory, addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { solidImage } from "../../../tests/support/images";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { loadConfig } from "~/platform/config.server";
import { IMAGE_WIDTHS } from "~/lib/images";
import { imagesDir, storeImageVariants } from "~/platform/images.server";
import { BackupError, createBackup, restoreBackup } from "./backup.server";
import { createOrderFromLines } from "../orders/orders.server";

const STOCK = 100_000;
/** How long a backup, or the checkouts beside it, may take before the drill calls it a hang. */
const HANG_MS = 10_000;

/** `promise`, or a failure naming what did not finish within HANG_MS. */
function withinHangLimit<T>(promise: Promise<T>, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what()} did not finish within ${HANG_MS / 1000} s`)), HANG_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

describe.each(ENGINES)("backup and restore drill on %s", (engine) => {
  let t: TestDatabase;
  let handle: DatabaseHandle;
  let dataDir: string;
  let backupDir: string;
  let productIds: number[] = [];
  let customerId: number;
  const scratch: string[] = [];

  const config = (env: Record<string, string> = {}) =>
    loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      BACKUP_DIR: backupDir,
      ...(t.url ? { DATABASE_URL: t.url } : { SQLITE_PATH: path.join(dataDir, "shop.db") }),
      ...env,
    });
  const tempDir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    scratch.push(dir);
    return dir;
  };
  const reopen = async () => {
    handle = t.url ? await openDatabase({ databaseUrl: t.url, sqlitePath: "" }) : await openDatabase({ databaseUrl: null, sqlitePath: path.join(dataDir, "shop.db") });
  };
  /** "The disk died": the data folder is gone, and on PostgreSQL the database is empty again. */
  const loseEverything = async () => {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (t.url) {
      const name = new URL(t.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: inject("postgresUrl") });
      await admin.connect();
      await admin.query(`drop database ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.end();
    }
  };
  const placeOrder = (i: number) =>
    createOrderFromLines(handle.db, {
      channel: "checkout",
      userId: customerId,
      lines: [
        { productId: productIds[i % productIds.length], quantity: 1 + (i % 3) },
        { productId: productIds[(i + 1) % productIds.length], quantity: 1 },
      ],
      address: { street: `${i} Admiralty Way`, city: "Lekki", state: "Lagos", country: "Nigeria" },
      takeFromStock: true,
    });

  /**
   * Checkouts that keep coming, `perTurn` of them each turn of the event loop, until stop(), which
   * returns how many were placed (and throws what made one fail).
   */
  const keepCheckingOut = (perTurn = 1) => {
    let running = true;
    let placed = 0;
    const loop = (async () => {
      for (let i = 100; running; ) {
        for (let k = 0; k < perTurn; k++) {
          await placeOrder(i++);
          placed++;
        }
        // Each checkout is its own request: the event loop turns between them.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    loop.catch(() => {}); // reported by stop()
    return {
      get placed() {
        return placed;
      },
      async stop() {
        running = false;
        await withinHangLimit(loop, () => `A checkout (after ${placed} placed)`);
        return placed;
      },
    };
  };

  beforeAll(async () => {
    t = await freshDatabase(engine);
    handle = t;
    // On SQLite the data folder is the one holding the database file.
    dataDir = t.url ? tempDir("unboxed-drill-data-") : path.dirname(t.location);
    backupDir = tempDir("unboxed-drill-backups-");
    const brand = await addBrand(t.db, "Maison Drill");
    const category = await addCategory(t.db, "Unisex");
    customerId = (await addUser(t.db, "customer")).id;
    for (const [i, colour] of ["#8a5a44", "#44708a", "#6b8a44"].entries()) {
      const key = await storeImageVariants(await solidImage("png", 600, 750, colour), imagesDir(dataDir));
      const at = new Date().toISOString();
      const row = await t.db
        .insertInto("products")
        .values({ slug: `drill-${i}`, name: `Drill ${i}`, description: "d", price: 1_000_000 + i, discount: null, stock: STOCK, image: key, category_id: category.id, brand_id: brand.id, archived_at: null, created_at: at, updated_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      productIds.push(row.id);
    }
  });
  afterAll(async () => {
    await handle?.close().catch(() => {});
    await t?.drop().catch(() => {});
    for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
    productIds = [];
  });

  it("backs up while checkouts run; after losing everything, the restore brings back every order and picture, consistent", async () => {
    const before: string[] = [];
    for (let i = 0; i < 20; i++) before.push((await placeOrder(i)).number);

    // Checkouts keep coming while the backup is taken, and a little after it.
    const checkouts = keepCheckingOut();
    let backup;
    let during;
    try {
      backup = await withinHangLimit(createBackup(config()), () => `The backup (while ${checkouts.placed} checkouts were placed)`);
      during = checkouts.placed;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await checkouts.stop();
    }
    expect(during).toBeGreaterThan(0);
    expect(path.basename(backup.file)).toMatch(/^unboxed-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/);
    expect(backup.manifest).toMatchObject({ app: "unboxed", engine, images: 3 * IMAGE_WIDTHS.length });
    expect(backup.manifest.counts.orders).toBeGreaterThanOrEqual(20);

    await loseEverything();
    expect(fs.existsSync(dataDir)).toBe(false);

    const restored = await restoreBackup(config(), backup.file);
    expect(restored.integrity).toBe("ok");
    expect(restored.counts).toEqual(backup.manifest.counts);
    await reopen();

    const orders = await handle.db.selectFrom("orders").select(["id", "number", "subtotal", "total"]).execute();
    expect(orders).toHaveLength(backup.manifest.counts.orders);
    for (const number of before) expect(orders.map((o) => o.number)).toContain(number);
    // Every order is whole: its items add up to its subtotal...
    const items = await handle.db.selectFrom("order_items").select(["order_id", "product_id", "unit_price", "quantity"]).execute();
    for (const order of orders) {
      const sum = items.filter((i) => i.order_id === order.id).reduce((n, i) => n + i.unit_price * i.quantity, 0);
      expect(sum, order.number).toBe(order.subtotal);
    }
    // ...and the stock is exactly what those orders took: one moment, not a mix of two.
    for (const id of productIds) {
      const product = await handle.db.selectFrom("products").select(["stock", "image"]).where("id", "=", id).executeTakeFirstOrThrow();
      const taken = items.filter((i) => i.product_id === id).reduce((n, i) => n + i.quantity, 0);
      expect(product.stock).toBe(STOCK - taken);
      for (const width of IMAGE_WIDTHS) expect(fs.existsSync(path.join(imagesDir(dataDir), `${product.image}-${width}.webp`))).toBe(true);
    }
  });

  it("finishes a backup while every turn brings twenty checkouts, with whole orders only", async () => {
    // A busy shop: the database grows between any two steps of the copy.
    const before = await handle.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    const checkouts = keepCheckingOut(20);
    let backup;
    let during;
    try {
      backup = await withinHangLimit(createBackup(config({ BACKUP_DIR: tempDir("unboxed-drill-busy-") })), () => `The backup (while ${checkouts.placed} checkouts were placed)`);
      during = checkouts.placed;
    } finally {
      await checkouts.stop();
    }
    expect(during).toBeGreaterThan(0);
    const { orders, order_items } = backup.manifest.counts;
    expect(orders).toBeGreaterThanOrEqual(Number(before.n));
    // Every order here has two lines: an order caught half-written would show.
    expect(order_items).toBe(2 * orders);
  });

  it("refuses to overwrite a shop that has data unless forced, and keeps what it replaces", async () => {
    const backup = await createBackup(config(), new Date("2030-01-01T00:00:00Z"));
    await expect(restoreBackup(config(), backup.file)).rejects.toThrow(/already has data.*--force/);
    const extra = await placeOrder(999);
    await handle.close();
    const restored = await restoreBackup(config(), backup.file, { force: true });
    expect(restored.counts).toEqual(backup.manifest.counts);
    await reopen();
    expect(await handle.db.selectFrom("orders").select("id").where("number", "=", extra.number).executeTakeFirst()).toBeUndefined();
    if (engine === "sqlite") {
      expect(restored.keptAside.length).toBeGreaterThan(0);
      expect(fs.existsSync(restored.keptAside[0])).toBe(true);
    }
  });

  it("refuses a truncated file, another application's archive and a file that is not an archive, writing nothing", async () => {
    const backup = await createBackup(config(), new Date("2030-01-02T00:00:00Z"));
    const bytes = fs.readFileSync(backup.file);
    const dir = tempDir("unboxed-drill-bad-");
    const truncated = path.join(dir, "truncated.tar.gz");
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const text = path.join(dir, "notes.tar.gz");
    fs.writeFileSync(text, "these are not the files you are looking for\n");
    fs.mkdirSync(path.join(dir, "other"));
    fs.writeFileSync(path.join(dir, "other", "package.json"), "{}");
    const other = path.join(dir, "other.tar.gz");
    await tar.c({ gzip: true, cwd: path.join(dir, "other"), file: other }, ["package.json"]);
    fs.writeFileSync(path.join(dir, "other", "manifest.json"), JSON.stringify({ app: "wordpress", format: 1 }));
    const foreign = path.join(dir, "foreign.tar.gz");
    await tar.c({ gzip: true, cwd: path.join(dir, "other"), file: foreign }, ["manifest.json"]);

    // An empty shop to restore into: after each refusal it is still empty.
    const emptyData = tempDir("unboxed-drill-empty-");
    const target = loadConfig({ NODE_ENV: "test", DATA_DIR: emptyData, BACKUP_DIR: backupDir, ...(t.url ? { DATABASE_URL: t.url } : {}) });
    const cases: [string, RegExp][] = [
      [truncated, /damaged or incomplete/],
      [text, /not an Unboxed backup/],
      [other, /not an Unboxed backup/],
      [foreign, /another application/],
      [path.join(dir, "missing.tar.gz"), /no backup file/],
    ];
    for (const [file, message] of cases) {
      const refused = await restoreBackup(target, file, { force: true }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused, file).toBeInstanceOf(BackupError);
      expect((refused as Error).message, file).toMatch(message);
      expect(fs.existsSync(path.join(emptyData, "shop.db")), file).toBe(false);
      expect(fs.readdirSync(emptyData).filter((n) => n !== "session-secret"), file).toEqual([]);
    }
  });

  it("keeps only the newest BACKUP_KEEP backups", async () => {
    const dir = tempDir("unboxed-drill-keep-");
    const keep = config({ BACKUP_DIR: dir, BACKUP_KEEP: "2" });
    const written = [];
    for (const day of ["01", "02", "03"]) written.push(await createBackup(keep, new Date(`2031-01-${day}T08:00:00Z`)));
    expect(written[2].removed).toEqual([path.basename(written[0].file)]);
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(written[1].file), path.basename(written[2].file)]);
  });
});
