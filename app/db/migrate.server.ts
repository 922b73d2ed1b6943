import { type Migration, type MigrationProvider, Migrator } from "kysely";
import type { Db } from "./client.server";
import * as m0001 from "./migrations/0001_initial";
import * as m0002 from "./migrations/0002_order_history_and_audit";
import * as m0004 from "./migrations/0004_rate_limits";
import * as m0005 from "./migrations/0005_cart_orders";
import * as m0007 from "./migrations/0007_checkout_key";
import * as m0010 from "./migrations/0010_mail_outbox";
import * as m0015 from "./migrations/0015_password_change_required";
import * as m0016 from "./migrations/0016_pending_registrations";
import * as m0020 from "./migrations/0020_category_names_in_spanish";
import * as m0030 from "./migrations/0030_delivery_and_payment_status";
import * as m0031 from "./migrations/0031_online_payments";
import * as m0040 from "./migrations/0040_product_search";
import * as m0041 from "./migrations/0041_product_sorting";
import * as m0042 from "./migrations/0042_perfume_facts";
import * as m0060 from "./migrations/0060_catalogue_imports";
import * as m0061 from "./migrations/0061_user_locale";
import * as m0064 from "./migrations/0064_customer_indexes";
import * as m0067 from "./migrations/0067_stock_adjustments";
import * as m0070 from "./migrations/0070_back_in_stock";
import * as m0071 from "./migrations/0071_reviews";
import * as m0080 from "./migrations/0080_product_sizes";
import * as m0081 from "./migrations/0081_back_in_stock_per_size";
import * as m0085 from "./migrations/0085_product_photos";
import * as m0088 from "./migrations/0088_bought_together_indexes";
import * as m0089 from "./migrations/0089_recently_viewed";
import * as m0090 from "./migrations/0090_first_size_with_the_product";
import * as m0091 from "./migrations/0091_category_names_raise_the_catalogue_version";
import * as m0092 from "./migrations/0092_shopper_lists_in_index_order";
import * as m0093 from "./migrations/0093_shop_fold_inlined";
import * as m0094 from "./migrations/0094_order_holds";
import * as m0095 from "./migrations/0095_phone_numbers";
import * as m0096 from "./migrations/0096_staff_roles";
import * as m0097 from "./migrations/0097_guest_orders";
import * as m0098 from "./migrations/0098_promotions";
import * as m0100 from "./migrations/0100_messages";
import * as m0101 from "./migrations/0101_privacy";
import * as m0102 from "./migrations/0102_staff_safeguards";
import * as m0106 from "./migrations/0106_store_credit";
import * as m0107 from "./migrations/0107_guest_customers";
import * as m0108 from "./migrations/0108_automatic_sales";
import * as m0109 from "./migrations/0109_guest_cart_reminders";

// Listed here rather than read from a folder, so the same files run from source, from the build and in tests.
const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_order_history_and_audit": m0002,
  "0004_rate_limits": m0004,
  "0005_cart_orders": m0005,
  "0007_checkout_key": m0007,
  "0010_mail_outbox": m0010,
  "0015_password_change_required": m0015,
  "0016_pending_registrations": m0016,
  "0020_category_names_in_spanish": m0020,
  "0030_delivery_and_payment_status": m0030,
  "0031_online_payments": m0031,
  "0040_product_search": m0040,
  "0041_product_sorting": m0041,
  "0042_perfume_facts": m0042,
  "0060_catalogue_imports": m0060,
  "0061_user_locale": m0061,
  "0064_customer_indexes": m0064,
  "0067_stock_adjustments": m0067,
  "0070_back_in_stock": m0070,
  "0071_reviews": m0071,
  "0080_product_sizes": m0080,
  "0081_back_in_stock_per_size": m0081,
  "0085_product_photos": m0085,
  "0088_bought_together_indexes": m0088,
  "0089_recently_viewed": m0089,
  "0090_first_size_with_the_product": m0090,
  "0091_category_names_raise_the_catalogue_version": m0091,
  "0092_shopper_lists_in_index_order": m0092,
  "0093_shop_fold_inlined": m0093,
  "0094_order_holds": m0094,
  "0095_phone_numbers": m0095,
  "0096_staff_roles": m0096,
  "0097_guest_orders": m0097,
  "0098_promotions": m0098,
  "0100_messages": m0100,
  "0101_privacy": m0101,
  "0102_staff_safeguards": m0102,
  "0106_store_credit": m0106,
  "0107_guest_customers": m0107,
  "0108_automatic_sales": m0108,
  "0109_guest_cart_reminders": m0109,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export class MigrationError extends Error {}

/** Brings the schema up to date; safe to run at every start (already-applied migrations are skipped). */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Migrations are independent of each other, so one that arrives later with a lower number still runs.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    const name = failed ? ` ${failed.migrationName}` : "";
    throw new MigrationError(`Database migration${name} failed: ${(error as Error).message ?? String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Applies the migrations up to and including `name`, in order, and no later ones: for tests that build
 * a database as an older release left it and check what a later migration makes of its rows.
 */
export async function migrateUpTo(db: Db, name: string): Promise<void> {
  if (!(name in migrations)) throw new MigrationError(`No migration ${name}`);
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateTo(name);
  if (error) throw new MigrationError(`Database migration to ${name} failed: ${(error as Error).message ?? String(error)}`);
}
