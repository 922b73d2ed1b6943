import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Automatic sales (docs/decisions/225): a sale is an offer without a code (a percentage or an amount off
// a scope of categories, brands or products, from a start to an end, pausable). The sales clock
// (app/domain/promotions/sales-clock.server.ts) puts it into the sizes' own price pair when it starts,
// so cards, the product page, sorting, price filters, the cart, the checkout and the order all read the
// sale price without knowing about sales, and takes it out when it ends.
//
// sale_sizes records, per size a sale holds, the price pair before the sale and the pair the sale set:
// at the end the first is put back unless the size's pair is no longer the second (the owner priced it
// by hand meanwhile, and the owner's price stays). A size is held by one sale at a time (the partial
// unique index); rows are kept after the sale let go (`ended_at`), so a sale's orders can be counted.
// product_sizes.sale_ends_at and products.sale_ends_at (of the size a card shows, the cheapest) say when
// the sale ends, in Lagos time as shown ("2026-12-06 23:59"); sale_clock is the one row a clock run locks, so two instances never run it at once.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const id = (table: ReturnType<Kysely<unknown>["schema"]["createTable"]>) =>
    table.addColumn("id", pg ? "serial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));
  await id(db.schema.createTable("sales"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('percent', 'fixed')`))
    // whole per cent (1-99) for 'percent'; kobo for 'fixed'
    .addColumn("value", "bigint", (c) => c.notNull().check(sql`value > 0`))
    .addColumn("starts_at", "text")
    .addColumn("ends_at", "text", (c) => c.notNull())
    .addColumn("paused_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sale_targets")
    .addColumn("sale_id", "integer", (c) => c.notNull().references("sales.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('category', 'brand', 'product')`))
    .addColumn("target_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("sale_targets_pk", ["sale_id", "kind", "target_id"])
    .execute();
  await id(db.schema.createTable("sale_sizes"))
    .addColumn("sale_id", "integer", (c) => c.notNull().references("sales.id").onDelete("cascade"))
    .addColumn("size_id", "integer", (c) => c.notNull().references("product_sizes.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("price_before", "bigint", (c) => c.notNull())
    .addColumn("discount_before", "bigint")
    .addColumn("sale_price", "bigint", (c) => c.notNull())
    .addColumn("sale_discount", "bigint", (c) => c.notNull())
    .addColumn("applied_at", "text", (c) => c.notNull())
    // when the owner changed the size's price during the sale: it is the owner's from then on
    .addColumn("owner_priced_at", "text")
    .addColumn("ended_at", "text")
    .execute();
  await sql`create unique index sale_sizes_live_idx on sale_sizes (size_id) where ended_at is null`.execute(db);
  await db.schema.createIndex("sale_sizes_sale_idx").on("sale_sizes").columns(["sale_id", "size_id"]).execute();
  await db.schema.alterTable("product_sizes").addColumn("sale_ends_at", "text").execute();
  await db.schema.alterTable("products").addColumn("sale_ends_at", "text").execute();
  await db.schema.createTable("sale_clock").addColumn("id", "integer", (c) => c.primaryKey()).addColumn("ran_at", "text").execute();
  await sql`insert into sale_clock (id, ran_at) values (1, null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sale_clock").execute();
  await db.schema.alterTable("products").dropColumn("sale_ends_at").execute();
  await db.schema.alterTable("product_sizes").dropColumn("sale_ends_at").execute();
  await db.schema.dropTable("sale_sizes").execute();
  await db.schema.dropTable("sale_targets").execute();
  await db.schema.dropTable("sales").execute();
}
