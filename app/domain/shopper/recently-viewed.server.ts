import { type AliasedExpression, type Expression, sql } from "kysely";
import { builtOnce } from "~/db/built-once.server";
import { type Db, isPostgres, PREPARED, preparedLimit, withoutWaitingForDisk } from "~/db/client.server";
import { fromJson, jsonArray, jsonTuple } from "~/db/json.server";
import { cookieIds, RECENT_SHOWN } from "~/lib/recently-viewed";
import { type ProductCard, productCardsInOrder } from "../catalogue/catalog.server";

/**
 * Recently viewed perfumes (docs/decisions/126). A signed-in shopper's views are rows of
 * `recently_viewed`, the newest RECENT_KEPT of them, trimmed in the same write that adds one. A
 * visitor's are in a cookie the browser keeps (app/lib/recently-viewed.ts): on product pages, which
 * may be shared cached pages, the browser fills their strip from `recentCards` through
 * /api/products/cards; the cart, never cached, reads the cookie here.
 */

/** the views kept per signed-in shopper */
export const RECENT_KEPT = 12;

/** The shopper's viewed product ids, latest first (at most RECENT_KEPT). */
export async function viewedIds(db: Db, userId: number): Promise<number[]> {
  const rows = await latestViews(db, sql.val(userId)).execute();
  return rows.map((r) => r.product_id);
}

/** The shopper's latest views (at most RECENT_KEPT), latest first, for `userId` an expression. */
export function latestViews(db: Db, userId: Expression<number>) {
  return db
    .selectFrom("recently_viewed")
    .select("product_id")
    .where("user_id", "=", userId)
    .orderBy("seq", "desc")
    .orderBy("product_id", "desc")
    .limit(preparedLimit(RECENT_KEPT));
}

/**
 * Records that the shopper opened the product's page: it becomes their latest view, and views beyond
 * the newest RECENT_KEPT are removed in the same write. Opening the latest again writes nothing.
 */
export async function recordView(db: Db, userId: number, productId: number, now = new Date()): Promise<void> {
  // Most page loads are of the latest view again (a reload, a revalidation after an action): one read.
  if (!isPostgres(db) && (await latestView(db, userId))?.product_id === productId) return;
  await writeNewView(db, userId, productId, now);
}

/**
 * The write of recordView once a read has found the product is not the latest view (docs/decisions/196).
 * On PostgreSQL one statement, which checks again; on SQLite written without waiting for the disk
 * (docs/decisions/172): a shopper's list of views is not worth the wait that keeps an order through a
 * power cut, and that wait held up every other shopper on the server's one thread (207 µs a view
 * against 32 µs on the bench machine).
 */
export async function writeNewView(db: Db, userId: number, productId: number, now: Date): Promise<void> {
  if (isPostgres(db)) await recordingOnPostgres(db, userId, productId, now.toISOString());
  else await withoutWaitingForDisk(db, (trx) => writeView(trx, userId, productId, now));
}

/** The view's write, in the transaction it is given. */
async function writeView(trx: Db, userId: number, productId: number, now: Date): Promise<void> {
  const latest = await latestView(trx, userId);
  if (latest?.product_id === productId) return;
  const seq = (latest?.seq ?? 0) + 1;
  const viewedAt = now.toISOString();
  await trx
    .insertInto("recently_viewed")
    .values({ user_id: userId, product_id: productId, seq, viewed_at: viewedAt })
    .onConflict((oc) => oc.columns(["user_id", "product_id"]).doUpdateSet({ seq, viewed_at: viewedAt }))
    .execute();
  const kept = trx
    .selectFrom("recently_viewed")
    .select("product_id")
    .where("user_id", "=", userId)
    .orderBy("seq", "desc")
    .orderBy("product_id", "desc")
    .limit(RECENT_KEPT);
  await trx.deleteFrom("recently_viewed").where("user_id", "=", userId).where("product_id", "not in", kept).execute();
}

/**
 * On PostgreSQL, recordView in one statement (docs/decisions/160): the view is written unless the
 * product is already the latest view, with the next number, and the views beyond the newest
 * RECENT_KEPT are removed. Every part of a statement sees the table as it was before it, so the removal
 * keeps this product and the RECENT_KEPT - 1 latest others. One statement is atomic on its own: no
 * transaction is needed.
 */
const recordingOnPostgres = builtOnce((db, user: Expression<number>, product: Expression<number>, now: Expression<string>) => {
  const latest = sql`select product_id from recently_viewed where user_id = ${user} order by seq desc, product_id desc limit 1`;
  return sql`with recorded as (
    insert into recently_viewed (user_id, product_id, seq, viewed_at)
    select cast(${user} as integer), cast(${product} as integer), coalesce((select max(seq) from recently_viewed where user_id = ${user}), 0) + 1, cast(${now} as text)
    where (${latest}) is distinct from ${product}
    on conflict (user_id, product_id) do update set seq = excluded.seq, viewed_at = excluded.viewed_at
    returning product_id
  ), trimmed as (
    delete from recently_viewed
    where user_id = ${user} and product_id <> ${product} and exists (select 1 from recorded)
      and product_id not in (select product_id from recently_viewed where user_id = ${user} and product_id <> ${product} order by seq desc, product_id desc limit ${sql.lit(RECENT_KEPT - 1)})
  ) select 1 ${PREPARED}`;
});

function latestView(db: Db, userId: number) {
  return db
    .selectFrom("recently_viewed")
    .select(["product_id", "seq"])
    .where("user_id", "=", userId)
    .orderBy("seq", "desc")
    .orderBy("product_id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Cards for these ids in the order given: unknown and archived products are left out. */
export async function recentCards(db: Db, ids: number[]): Promise<ProductCard[]> {
  return productCardsInOrder(db, ids);
}

/**
 * The signed-in shopper's strip: their latest views still in the shop, but not those in `leaveOut`
 * (which may still be being read: the views are read beside it).
 */
export async function recentlyViewed(db: Db, userId: number, leaveOut: number[] | Promise<number[]> = []): Promise<ProductCard[]> {
  const [[row], left] = await Promise.all([readViews(db, userId), leaveOut]);
  return stripOf(db, viewsOf(row).filter((id) => !left.includes(id)));
}

/** The shopper's views, in one statement. */
const readViews = builtOnce((db, user: Expression<number>) => db.selectNoFrom(viewsColumn(db, user)).modifyEnd(PREPARED));

/**
 * A column of the shopper's latest views, read in one pass over the views' index (docs/decisions/192);
 * read with `viewsOf`. Their cards are the catalogue's kept ones (docs/decisions/196), not read here.
 */
function viewsColumn(db: Db, user: Expression<number>) {
  return [
    db
      .selectFrom(latestViews(db, user).select("seq").as("v"))
      .select(jsonArray(db, jsonTuple(db, [sql.ref("v.product_id"), sql.ref("v.seq")])).as("views"))
      .as("viewed"),
  ] as const;
}

/** The viewed product ids of a row read with viewsColumn, latest first. */
function viewsOf(row: Record<string, unknown>): number[] {
  return latestFirst(fromJson<[number, number][]>(row.viewed));
}

/** The strip: the cards of these of the views, in their order, without those gone from the shop. */
async function stripOf(db: Db, ids: number[]): Promise<ProductCard[]> {
  return (await productCardsInOrder(db, ids)).slice(0, RECENT_SHOWN);
}

/** A signed-in shopper opens a product's page: the view is recorded, and their strip without this product returned. */
export async function viewProduct(db: Db, userId: number, productId: number): Promise<ProductCard[]> {
  return (await viewingAlone(db, userId, productId, "")).recent;
}

/** Columns read with a product view (`viewingProduct`), from the shopper's id and e-mail and the product's id. */
export type ViewColumns = (db: Db, values: { user: Expression<number>; product: Expression<number>; email: Expression<string> }) => AliasedExpression<unknown, string>[];

/**
 * viewProduct, and `more` columns read in the same statement (the rest of a signed-in shopper's parts of
 * the product page, app/domain/shopper/personal.server.ts). One statement reads the views before this one, and
 * the view is written after it only when it is new (docs/decisions/196): most product pages are opened
 * again (a reload, the revalidation after adding to the cart). The statement is built once
 * (docs/decisions/164): call this once per set of columns, at the top of a module.
 *
 * `withShopper` gives the same as parts of a statement that also finds the shopper (the session:
 * docs/decisions/160): `columns` are read beside the session's, and `fromRow` reads the answer.
 */
export function viewingProduct(more: ViewColumns) {
  const columns = (db: Db, user: Expression<number>, product: Expression<number>, email: Expression<string>) => [
    ...viewsColumn(db, user),
    ...more(db, { user, product, email }),
  ];
  // Sent as a prepared statement on PostgreSQL (decision 160): every signed-in product page runs it.
  const reading = builtOnce((db, user: Expression<number>, product: Expression<number>, email: Expression<string>) =>
    db.selectNoFrom(columns(db, user, product, email)).modifyEnd(PREPARED),
  );
  async function view(db: Db, userId: number, productId: number, email: string, now = new Date()): Promise<ProductView> {
    const [row] = await reading(db, userId, productId, email);
    const viewed = await fromRow(db, row, productId);
    if (viewed.isNew) await writeNewView(db, userId, productId, now);
    return viewed;
  }
  view.withShopper = { columns, fromRow };
  return view;
}

/** A product view's answer: the shopper's strip without this product, the `more` columns, and whether the view was new. */
interface ProductView {
  recent: ProductCard[];
  more: Record<string, unknown>;
  isNew: boolean;
}

/** One read serves both: whether this is a new view, and the strip (the views before it, without it). */
async function fromRow(db: Db, row: Record<string, unknown>, productId: number): Promise<ProductView> {
  const before = viewsOf(row);
  // The views kept once this one is written: it and the RECENT_KEPT - 1 latest others.
  const recent = await stripOf(db, before.filter((id) => id !== productId).slice(0, RECENT_KEPT - 1));
  return { recent, more: row, isNew: before[0] !== productId };
}

const viewingAlone = viewingProduct(() => []);

/** Product ids of (product id, seq) views, in latestViews' order: latest first. */
function latestFirst(views: [number, number][]): number[] {
  return views.sort(([productA, seqA], [productB, seqB]) => seqB - seqA || productB - productA).map(([product]) => product);
}

/**
 * The cart's strip, rendered by the server (the cart is private and never cached): a signed-in
 * shopper's views, or those in a visitor's cookie; without what is in the cart.
 */
export async function recentlyViewedInCart(db: Db, userId: number | null, cookieHeader: string, inCart: Promise<number[]>): Promise<ProductCard[]> {
  // Read beside the cart's lines (`inCart`), not after them: the cart's ids are only left out.
  if (userId !== null) return recentlyViewed(db, userId, inCart);
  // No more than the browser keeps there: the cookie is the shopper's to write.
  const ids = cookieIds(cookieHeader).slice(0, RECENT_SHOWN + 1);
  const [cards, leaveOut] = await Promise.all([recentCards(db, ids), inCart]);
  return cards.filter((card) => !leaveOut.includes(card.id)).slice(0, RECENT_SHOWN);
}

/**
 * At sign-in: the perfumes viewed on this browser as a visitor (the `recently_viewed` cookie, whose
 * header is given) become the account's latest views. True when the browser had that cookie: the
 * caller then deletes it, so they are not shown to whoever uses the browser after the shopper signs
 * out. Ids of products the shop does not have are skipped.
 */
export async function mergeVisitorViews(db: Db, userId: number, cookieHeader: string): Promise<boolean> {
  if (!/(?:^|;\s*)recently_viewed=/.test(cookieHeader)) return false;
  const ids = cookieIds(cookieHeader).slice(0, RECENT_KEPT);
  const known = new Set(ids.length ? (await db.selectFrom("products").select("id").where("id", "in", ids).execute()).map((row) => row.id) : []);
  // Oldest first, so that the cookie's latest view becomes the account's latest.
  for (const id of ids.reverse()) if (known.has(id)) await recordView(db, userId, id);
  return true;
}
