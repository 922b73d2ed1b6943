// npm run backup
// Writes a consistent copy of the running shop (database and pictures) to BACKUP_DIR as
// unboxed-<time>.tar.gz and keeps the newest BACKUP_KEEP. Safe to run while the shop takes orders.
import { BackupError, createBackup } from "../app/domain/operations/backup.server";
import { ConfigError, loadConfig } from "../app/platform/config.server";

try {
  const config = loadConfig(process.env);
  const started = Date.now();
  const result = await createBackup(config);
  const { counts, images } = result.manifest;
  console.log(
    `Backup written: ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${counts.orders} orders, ${counts.products} products, ${counts.users} accounts, ${images} picture files) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  for (const old of result.removed) console.log(`Removed an older backup (keeping the newest ${config.backup.keep}): ${old}`);
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) {
    console.error(`Backup failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
