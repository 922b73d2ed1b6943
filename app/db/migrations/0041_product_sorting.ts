import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// The shop's sort orders (docs/decisions/131) read from indexes:
// - products.sold: units on orders that are not cancelled, kept by triggers on order_items (insert,
//   delete) and orders (cancelled), so every way an order is made or cancelled keeps it right. A
//   product's row is already locked by the stock change of the same order, so this adds no waiting.
// - an index on the share of the price taken off (per mille), for "biggest discount".

/** The per-mille discount expression; the shop's ORDER BY uses this exact text so the index serves it. */
export const DISCOUNT_PER_MILLE = "(coalesce(discount, 0) * 1000 / (price + coalesce(discount, 0) + 1))";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("products").addColumn("sold", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await sql`
    update products set sold = coalesce((
      select sum(oi.quantity) from order_items oi join orders o on o.id = oi.order_id
      where oi.product_id = products.id and o.status <> 'cancelled'
    ), 0)`.execute(db);
  await db.schema.createIndex("products_sold_idx").on("products").columns(["sold", "created_at"]).execute();
  await db.schema.createIndex("products_discount_idx").on("products").expression(sql.raw(DISCOUNT_PER_MILLE)).execute();

  const itemAdded = `update products set sold = sold + new.quantity
    where id = new.product_id and exists (select 1 from orders where id = new.order_id and status <> 'cancelled')`;
  const itemRemoved = `update products set sold = sold - old.quantity
    where id = old.product_id and exists (select 1 from orders where id = old.order_id and status <> 'cancelled')`;
  const orderCancelled = `update products set sold = sold - (
      select coalesce(sum(quantity), 0) from order_items where order_id = new.id and product_id = products.id)
    where id in (select product_id from order_items where order_id = new.id)`;

  if (isPostgres(db)) {
    const functions: [string, string][] = [
      ["products_sold_item_added", `${itemAdded}; return null;`],
      ["products_sold_item_removed", `${itemRemoved}; return null;`],
      ["products_sold_order_cancelled", `if new.status = 'cancelled' and old.status <> 'cancelled' then ${orderCancelled}; end if; return null;`],
    ];
    for (const [name, body] of functions) {
      await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $fn$ begin ${body} end $fn$`).execute(db);
    }
    await sql.raw(`create trigger products_sold_item_added after insert on order_items for each row execute function products_sold_item_added()`).execute(db);
    await sql.raw(`create trigger products_sold_item_removed after delete on order_items for each row execute function products_sold_item_removed()`).execute(db);
    await sql.raw(`create trigger products_sold_order_cancelled after update of status on orders for each row execute function products_sold_order_cancelled()`).execute(db);
  } else {
    await sql.raw(`create trigger products_sold_item_added after insert on order_items begin ${itemAdded}; end`).execute(db);
    await sql.raw(`create trigger products_sold_item_removed after delete on order_items begin ${itemRemoved}; end`).execute(db);
    await sql
      .raw(`create trigger products_sold_order_cancelled after update of status on orders
              when new.status = 'cancelled' and old.status <> 'cancelled' begin ${orderCancelled}; end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [name, table] of [
    ["products_sold_item_added", "order_items"],
    ["products_sold_item_removed", "order_items"],
    ["products_sold_order_cancelled", "orders"],
  ]) {
    await sql.raw(postgres ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropIndex("products_discount_idx").ifExists().execute();
  await db.schema.dropIndex("products_sold_idx").ifExists().execute();
  await db.schema.alterTable("products").dropColumn("sold").execute();
}
