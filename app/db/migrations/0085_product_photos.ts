import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// A product's photo gallery (docs/decisions/124): up to 8 photos in order, each with its alt text. The
// products' `image` column stays the first photo's key (the card image). Each product's current image
// becomes its first photo; nothing is dropped.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable("product_photos")
    .addColumn("id", pg ? "serial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    // A product erased (never ordered) takes its photo rows with it; the files are judged separately.
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("image", "text", (c) => c.notNull())
    /** null: the product's name is the alt text */
    .addColumn("alt", "text")
    .addColumn("position", "integer", (c) => c.notNull().check(sql`position >= 1`))
    .addColumn("created_at", "text", (c) => c.notNull())
    // The same picture twice in one gallery is refused.
    .addUniqueConstraint("product_photos_one_picture", ["product_id", "image"])
    .execute();
  await db.schema.createIndex("product_photos_order").on("product_photos").columns(["product_id", "position"]).execute();
  await sql`
    insert into product_photos (product_id, image, alt, position, created_at)
    select id, image, null, 1, updated_at from products where image is not null
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("0085_product_photos cannot be rolled back: it would drop the products' further photos");
}
