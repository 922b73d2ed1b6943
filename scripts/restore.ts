// npm run restore -- FILE [--force]
// Puts a backup made by npm run backup back into an empty data folder (or empty PostgreSQL
// database). A shop that already has data is refused unless --force is given; what a forced restore
// replaces is kept beside it. Stop the shop first.
import { parseArgs } from "node:util";
import { BackupError, restoreBackup } from "../app/domain/operations/backup.server";
import { ConfigError, loadConfig } from "../app/platform/config.server";

const USAGE = "Usage: npm run restore -- FILE [--force]";

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { force: { type: "boolean", default: false } } });
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const [file, ...extra] = parsed.positionals;
if (!file || extra.length) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const config = loadConfig(process.env);
  const result = await restoreBackup(config, file, { force: parsed.values.force });
  const { counts } = result;
  console.log(
    `Restored the backup of ${result.manifest.createdAt}: ${counts.orders} orders, ${counts.products} products, ${counts.users} accounts, ${result.images} picture files; integrity check: ${result.integrity}.`,
  );
  for (const aside of result.keptAside) console.log(`The replaced file is kept as ${aside}`);
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) {
    console.error(`Restore failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
