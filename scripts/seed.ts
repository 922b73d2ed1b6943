// npm run seed: rebuilds the demo catalogue (brands, categories, perfumes and their images).
// Orders keep their own snapshots; users and orders are not touched.
import { openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { seedDemoCatalogue } from "../app/db/seed.server";
import { loadConfig } from "../app/lib/config.server";
import { imagesDir } from "../app/lib/images.server";

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const result = await seedDemoCatalogue(database.db, { imagesDir: imagesDir(config.dataDir), replace: true });
    console.log(`Demo catalogue rebuilt in ${database.location}: ${result.products} perfumes, ${result.brands} brands, ${result.categories} categories.`);
    if (result.admin) console.log(`Demo admin: ${result.admin.email}  password: ${result.admin.password}  (you choose your own at the first sign-in)`);
  } finally {
    await database.close();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
