import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Sizes as variants (docs/decisions/121). Each product gets one or more sizes, each with its own label,
// SKU, price, discount and stock. The products row keeps summaries the shop lists, sorts and filters on:
// price and discount of the cheapest size, price_max of the dearest, stock the sum of the sizes. Triggers
// on product_sizes keep them, so every writer (checkout, cancellations, adjustments, imports) stays right;
// the stock summary moves by the difference, never by a re-read sum, so two sizes sold at once on
// PostgreSQL cannot overwrite each other's change.
//
// Every product has at least one size: a new product gets "Standard" from its own price, discount and
// stock by trigger (the owner renames it or adds others), and the domain never removes the last one.
// Every existing product becomes a one-size product ("Standard", from its own price, discount and stock);
// cart lines and order items point at that size, so no cart line, order or wishlist entry is lost.

const SUMMARY_PRICE = (id: string) => `
  update products set
    price = coalesce((select s.price from product_sizes s where s.product_id = ${id} order by s.price, s.position, s.id limit 1), price),
    discount = (select s.discount from product_sizes s where s.product_id = ${id} order by s.price, s.position, s.id limit 1),
    price_max = coalesce((select max(s.price) from product_sizes s where s.product_id = ${id}), price)
  where id = ${id}`;

const FIRST_SIZE = `
  insert into product_sizes (product_id, label, ml, sku, price, discount, stock, position, created_at, updated_at)
    values (new.id, 'Standard', null, null, new.price, new.discount, new.stock, 0, new.created_at, new.updated_at)`;
// The size's own trigger has just added its stock to the product's: put the product's back to its one size.
const FIRST_SIZE_STOCK = `update products set stock = new.stock where id = new.id`;

const STOCK_ADDED = `update products set stock = stock + new.stock where id = new.product_id`;
const STOCK_REMOVED = `update products set stock = stock - old.stock where id = old.product_id`;
const STOCK_CHANGED = `update products set stock = stock + (new.stock - old.stock) where id = new.product_id`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable("products").addColumn("price_max", "bigint", (c) => c.notNull().defaultTo(0)).execute();
  await sql`update products set price_max = price`.execute(db);

  await db.schema
    .createTable("product_sizes")
    .addColumn("id", pg ? "serial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("ml", "integer", (c) => c.check(sql`ml > 0`))
    .addColumn("sku", "text")
    .addColumn("price", "bigint", (c) => c.notNull().check(sql`price >= 0`))
    .addColumn("discount", "bigint", (c) => c.check(sql`discount >= 0`))
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock >= 0`))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("product_sizes_label_idx").on("product_sizes").columns(["product_id", "label"]).unique().execute();
  await db.schema.createIndex("product_sizes_sku_idx").on("product_sizes").column("sku").unique().execute();

  await sql`
    insert into product_sizes (product_id, label, ml, sku, price, discount, stock, position, created_at, updated_at)
    select id, 'Standard', null, null, price, discount, stock, 0, created_at, updated_at from products`.execute(db);

  // Order items name their size (a snapshot of its label) and point at it while it exists.
  await db.schema
    .alterTable("order_items")
    .addColumn("size_id", "integer", (c) => c.references("product_sizes.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("order_items").addColumn("size_label", "text").execute();
  await sql`update order_items set size_id = (select s.id from product_sizes s where s.product_id = order_items.product_id)
            where product_id is not null`.execute(db);
  await db.schema.createIndex("order_items_size_idx").on("order_items").column("size_id").execute();

  // Stock adjustments are per size too (docs/decisions/118); the earlier ones were of the only size.
  await db.schema
    .alterTable("stock_adjustments")
    .addColumn("size_id", "integer", (c) => c.references("product_sizes.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("stock_adjustments").addColumn("size_label", "text").execute();
  await sql`update stock_adjustments set size_id = (select s.id from product_sizes s where s.product_id = stock_adjustments.product_id)`.execute(db);

  // Cart lines are per size: the same perfume in two sizes is two lines.
  if (pg) {
    await db.schema
      .alterTable("cart_lines")
      .addColumn("size_id", "integer", (c) => c.references("product_sizes.id").onDelete("cascade"))
      .execute();
    await sql`update cart_lines set size_id = (select s.id from product_sizes s where s.product_id = cart_lines.product_id)`.execute(db);
    await sql`alter table cart_lines alter column size_id set not null`.execute(db);
    await sql`alter table cart_lines drop constraint cart_lines_pk`.execute(db);
    await sql`alter table cart_lines add constraint cart_lines_pk primary key (cart_id, size_id)`.execute(db);
  } else {
    await db.schema
      .createTable("cart_lines_sized")
      .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
      .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
      .addColumn("size_id", "integer", (c) => c.notNull().references("product_sizes.id").onDelete("cascade"))
      .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("cart_lines_pk", ["cart_id", "size_id"])
      .execute();
    await sql`insert into cart_lines_sized (cart_id, product_id, size_id, quantity, created_at)
              select l.cart_id, l.product_id, s.id, l.quantity, l.created_at
              from cart_lines l join product_sizes s on s.product_id = l.product_id`.execute(db);
    await sql`drop table cart_lines`.execute(db);
    await sql`alter table cart_lines_sized rename to cart_lines`.execute(db);
  }
  await db.schema.createIndex("cart_lines_product_idx").on("cart_lines").column("product_id").execute();

  // The summaries on products follow the sizes.
  if (pg) {
    const functions: [string, string, string][] = [
      ["products_first_size", "after insert on products", `${FIRST_SIZE}; ${FIRST_SIZE_STOCK}; return null;`],
      ["product_sizes_added", "after insert on product_sizes", `${STOCK_ADDED}; ${SUMMARY_PRICE("new.product_id")}; return null;`],
      ["product_sizes_removed", "after delete on product_sizes", `${STOCK_REMOVED}; ${SUMMARY_PRICE("old.product_id")}; return null;`],
      ["product_sizes_stock", "after update of stock on product_sizes", `if new.stock <> old.stock then ${STOCK_CHANGED}; end if; return null;`],
      ["product_sizes_price", "after update of price, discount on product_sizes", `${SUMMARY_PRICE("new.product_id")}; return null;`],
    ];
    for (const [name, event, body] of functions) {
      await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $fn$ begin ${body} end $fn$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} for each row execute function ${name}()`).execute(db);
    }
  } else {
    const triggers: [string, string, string][] = [
      ["products_first_size", "after insert on products", `${FIRST_SIZE}; ${FIRST_SIZE_STOCK};`],
      ["product_sizes_added", "after insert on product_sizes", `${STOCK_ADDED}; ${SUMMARY_PRICE("new.product_id")};`],
      ["product_sizes_removed", "after delete on product_sizes", `${STOCK_REMOVED}; ${SUMMARY_PRICE("old.product_id")};`],
      ["product_sizes_stock", "after update of stock on product_sizes when new.stock <> old.stock", `${STOCK_CHANGED};`],
      ["product_sizes_price", "after update of price, discount on product_sizes", `${SUMMARY_PRICE("new.product_id")};`],
    ];
    for (const [name, event, body] of triggers) await sql.raw(`create trigger ${name} ${event} begin ${body} end`).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error("0080_product_sizes cannot be rolled back: it would drop the sizes and their stock");
}
