// npm run seed [-- --products N]: rebuilds the demo catalogue (brands, categories, perfumes and their
// images); with --products, grows it to N products with numbered copies of the demo perfumes (a large
// catalogue to try the shop at). Orders keep their own snapshots; users and orders are not touched.
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { addDemoCopies } from "../app/db/seed-copies.server";
import { seedDemoCatalogue } from "../app/db/seed.server";
import { loadConfig } from "../app/platform/config.server";
import { imagesDir } from "../app/platform/images.server";

const USAGE = "Usage: npm run seed [-- --products N]  (N: a whole number up to 1000000)";

function productsWanted(): number | null {
  const { values } = parseArgs({ options: { products: { type: "string" } } });
  if (values.products === undefined) return null;
  if (!/^\d{1,7}$/.test(values.products) || Number(values.products) > 1_000_000) throw new Error(USAGE);
  return Number(values.products);
}

async function main() {
  const wanted = productsWanted();
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const result = await seedDemoCatalogue(database.db, { imagesDir: imagesDir(config.dataDir), replace: true });
    console.log(`Demo catalogue rebuilt in ${database.location}: ${result.products} perfumes, ${result.brands} brands, ${result.categories} categories.`);
    if (wanted !== null) {
      const started = Date.now();
      const copies = await addDemoCopies(database.db, wanted);
      console.log(`Added ${copies} numbered copies of the demo perfumes in ${((Date.now() - started) / 1000).toFixed(1)} s: ${result.products + copies} products.`);
    }
    if (result.admin) console.log(`Demo admin: ${result.admin.email}  password: ${result.admin.password}  (you choose your own at the first sign-in)`);
  } finally {
    await database.close();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
