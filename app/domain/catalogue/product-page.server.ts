import { type Expression, sql } from "kysely";
import { builtOnce } from "~/db/built-once.server";
import { type Db, PREPARED, preparedLimit } from "~/db/client.server";
import type { Locale } from "~/lib/i18n";
import { newestFirst, type ProductCard, productCardsColumn, type ProductDetail, productDetailQuery, productFromRow, RELATED_LIMIT } from "./catalog.server";
import { galleryColumn, galleryFromColumn, type GalleryPhoto } from "./product-photos.server";
import { ordersOfProductColumn } from "./recommendations.server";

/** What a product page shows of the catalogue, read in one statement by productPage. */
export interface ProductPageData {
  product: ProductDetail;
  /** relatedProducts' cards, newest first */
  related: ProductCard[];
  /** productGallery's photos, in order */
  photos: GalleryPhoto[];
  /** the product's orders, counted up to what boughtTogether needs */
  someOrders: number;
}

/**
 * A product page's catalogue data in one statement: the product with its sizes (productDetail), its
 * related cards (relatedProducts), its gallery (productGallery), and whether it is in orders enough for
 * 'often bought together'. On PostgreSQL each statement is a round trip, and these were four.
 * Null for a product not on sale.
 */
export async function productPage(db: Db, id: number, locale: Locale): Promise<ProductPageData | null> {
  const [row] = await readProductPage[locale](db, id);
  if (!row) return null;
  const { related, photos, someOrders, ...product } = row;
  return {
    product: productFromRow(product),
    related: newestFirst(related),
    photos: galleryFromColumn(photos, product.image),
    someOrders: Number(someOrders),
  };
}

const productPageRead = (locale: Locale) =>
  builtOnce((db, id: Expression<number>) => {
    // The related products are found by the product's id, not by its row's category: SQLite lets no
    // subquery in a FROM refer to the statement's row, and the cards' own query names its products p too.
    const category = db.selectFrom("products as o").select("o.category_id").where("o.id", "=", id);
    const relatedIds = db
      .selectFrom("products as r")
      .select("r.id as product_id")
      .where("r.category_id", "=", category)
      .where("r.id", "!=", id)
      .where("r.archived_at", "is", null)
      .orderBy("r.created_at", "desc")
      .orderBy("r.id", "desc")
      .limit(preparedLimit(RELATED_LIMIT));
    return productDetailQuery(db, locale)
      .select([
        productCardsColumn(db, relatedIds, [sql.ref("p.created_at")]).as("related"),
        galleryColumn(db, id).as("photos"),
        ordersOfProductColumn(db, id).as("someOrders"),
      ])
      .where("p.id", "=", id)
      .modifyEnd(PREPARED);
  });

const readProductPage: Record<Locale, ReturnType<typeof productPageRead>> = { en: productPageRead("en"), es: productPageRead("es") };
