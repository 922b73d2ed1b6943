import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// A product's first size is written with the product, not corrected afterwards (docs/decisions/156).
//
// Migration 0080 gave every new product its "Standard" size by trigger; the size's own insert trigger
// then added the size's stock to the product and re-read its price summaries, and the product trigger
// put the stock back: three UPDATEs of a row just inserted, for every product. On PostgreSQL each was a
// new row version with an entry in every index of products, so 100,000 products took over a minute.
//
// The product's figures already are its first size's (the size is made from them), save price_max,
// the dearest size's price, which is the product's own price while it has one size. So now:
// - price_max is the product's price when the product is inserted (PostgreSQL: a BEFORE trigger sets
//   it in the row being written; SQLite, whose BEFORE triggers cannot change the row, corrects it by
//   an UPDATE only when the writer gave another figure);
// - a size added to a product that has no other size is that product's first size, whose figures the
//   product already holds: the size's insert trigger leaves the product alone. Every other size added
//   moves the product's stock by the size's stock and re-reads its price summaries, as before.
// On PostgreSQL the first sizes of a multi-row INSERT are written by one INSERT ... SELECT from the
// statement's transition table, and a multi-row INSERT of sizes updates each product once.
// Deleting sizes and changing their price or stock keep the triggers of migration 0080.

const SUMMARY_PRICE = (id: string) => `
    price = coalesce((select s.price from product_sizes s where s.product_id = ${id} order by s.price, s.position, s.id limit 1), price),
    discount = (select s.discount from product_sizes s where s.product_id = ${id} order by s.price, s.position, s.id limit 1),
    price_max = coalesce((select max(s.price) from product_sizes s where s.product_id = ${id}), price)`;

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger products_first_size on products`.execute(db);
  await sql`drop trigger product_sizes_added on product_sizes`.execute(db);
  const functions: [string, string][] = [
    ["products_price_max", "new.price_max := new.price; return new;"],
    [
      "products_first_size",
      `insert into product_sizes (product_id, label, ml, sku, price, discount, stock, position, created_at, updated_at)
         select id, 'Standard', null, null, price, discount, stock, 0, created_at, updated_at from new_products order by id;
       return null;`,
    ],
    [
      // Products whose every size is in this statement got them with the product (the first size).
      "product_sizes_added",
      `update products p set stock = p.stock + d.stock, ${SUMMARY_PRICE("p.id")}
         from (select product_id, sum(stock) as stock, count(*) as sizes from new_sizes group by product_id) d
         where p.id = d.product_id and (select count(*) from product_sizes o where o.product_id = d.product_id) > d.sizes;
       return null;`,
    ],
  ];
  for (const [name, body] of functions) {
    await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $fn$ begin ${body} end $fn$`).execute(db);
  }
  await sql.raw(`create trigger products_price_max before insert on products for each row execute function products_price_max()`).execute(db);
  await sql
    .raw(`create trigger products_first_size after insert on products referencing new table as new_products for each statement execute function products_first_size()`)
    .execute(db);
  await sql
    .raw(`create trigger product_sizes_added after insert on product_sizes referencing new table as new_sizes for each statement execute function product_sizes_added()`)
    .execute(db);
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger products_first_size`.execute(db);
  await sql`drop trigger product_sizes_added`.execute(db);
  await sql
    .raw(
      `create trigger products_first_size after insert on products begin
         insert into product_sizes (product_id, label, ml, sku, price, discount, stock, position, created_at, updated_at)
           values (new.id, 'Standard', null, null, new.price, new.discount, new.stock, 0, new.created_at, new.updated_at);
         update products set price_max = new.price where id = new.id and price_max is not new.price;
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger product_sizes_added after insert on product_sizes
         when exists (select 1 from product_sizes o where o.product_id = new.product_id and o.id <> new.id)
       begin
         update products set stock = stock + new.stock, ${SUMMARY_PRICE("new.product_id")} where id = new.product_id;
       end`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

// Back to migration 0080's triggers: every size added moves the product, the first one corrected after.
const FIRST_SIZE_0080 = `
  insert into product_sizes (product_id, label, ml, sku, price, discount, stock, position, created_at, updated_at)
    values (new.id, 'Standard', null, null, new.price, new.discount, new.stock, 0, new.created_at, new.updated_at);
  update products set stock = new.stock where id = new.id`;
const SIZE_ADDED_0080 = `
  update products set stock = stock + new.stock where id = new.product_id;
  update products set ${SUMMARY_PRICE("new.product_id")} where id = new.product_id`;

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists products_price_max on products`.execute(db);
    await sql`drop function if exists products_price_max()`.execute(db);
    await sql`drop trigger if exists products_first_size on products`.execute(db);
    await sql`drop trigger if exists product_sizes_added on product_sizes`.execute(db);
    for (const [name, event, body] of [
      ["products_first_size", "after insert on products", FIRST_SIZE_0080],
      ["product_sizes_added", "after insert on product_sizes", SIZE_ADDED_0080],
    ]) {
      await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $fn$ begin ${body}; return null; end $fn$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} for each row execute function ${name}()`).execute(db);
    }
  } else {
    await sql`drop trigger if exists products_first_size`.execute(db);
    await sql`drop trigger if exists product_sizes_added`.execute(db);
    await sql.raw(`create trigger products_first_size after insert on products begin ${FIRST_SIZE_0080}; end`).execute(db);
    await sql.raw(`create trigger product_sizes_added after insert on product_sizes begin ${SIZE_ADDED_0080}; end`).execute(db);
  }
}
