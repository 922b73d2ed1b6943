import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type Expression, type ExpressionBuilder, sql } from "kysely";
import { builtOnce } from "~/db/built-once.server";
import { type Db, now, PREPARED, withoutWaitingForDisk } from "~/db/client.server";
import { fromJson, jsonArray, jsonTuple } from "~/db/json.server";
import type { Database } from "~/db/schema";
import { isBuyable, type LineStatus, MAX_LINE_QUANTITY } from "~/lib/cart";
import { resolveSize } from "../catalogue/product-sizes.server";

/**
 * The cart lives on the server: a signed-in shopper's cart belongs to the account (one per account,
 * carts.user_id is unique); an anonymous shopper's is found by its random id, which the browser keeps
 * in a cookie (app/http/cart.server.ts).
 * Lines hold product, size and quantity only: names, images, prices and stock are read fresh every time.
 * A line is one size of a product (docs/decisions/121): the same perfume in two sizes is two lines.
 *
 * Every change is one conditional statement, so two tabs acting at once can neither duplicate a line
 * (cart_lines' primary key is (cart_id, size_id) and adds are "insert ... on conflict do nothing")
 * nor push a quantity below 1 or above the size's stock.
 */
/** An anonymous cart (and its cookie) lasts this long after its last change. */
export const CART_DAYS = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const CART_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export { isBuyable, type LineStatus, MAX_LINE_QUANTITY };

/** 192 random bits, URL-safe: 32 characters. */
function newCartId(): string {
  return randomBytes(24).toString("base64url");
}

/** Whose cart it is: an account's, or a visitor's by the cart's id (null: a visitor without a cart). */
export type CartHolder = { userId: number } | { visitorCartId: string };
type CartOwner = { userId: number | Expression<number> } | { visitorCartId: string | Expression<string> };

/** Whether a value has the shape of a visitor's cart id (before it is looked up). */
export function isCartId(value: string | undefined): value is string {
  return value !== undefined && CART_ID_PATTERN.test(value);
}

/** The owner's cart among `carts`: a cart that became an account's is never reachable through a cookie again. */
function ownedBy(owner: CartOwner) {
  return (eb: ExpressionBuilder<Database, "carts">) =>
    "userId" in owner ? eb("carts.user_id", "=", owner.userId) : eb.and([eb("carts.id", "=", owner.visitorCartId), eb("carts.user_id", "is", null)]);
}

/** The id of the holder's cart, if it has one (an unknown or forged visitor's id counts as none). */
export async function findCartIdOf(db: Db, holder: CartHolder | null): Promise<string | null> {
  if (!holder) return null;
  const row = await ownersCart(db, holder).executeTakeFirst();
  return row?.id ?? null;
}

/** The owner's cart's id, as a query (to run, or to find the cart inside another statement). */
const ownersCart = (db: Db, owner: CartOwner) => db.selectFrom("carts").select("id").where(ownedBy(owner));

/** The account's cart, created on first use; safe when two requests create it at once. */
export async function userCartId(db: Db, userId: number): Promise<string> {
  const existing = await db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirst();
  if (existing) return existing.id;
  const at = now();
  await db
    .insertInto("carts")
    .values({ id: newCartId(), user_id: userId, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  const row = await db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow();
  return row.id;
}

let lastSweep = 0;

/**
 * The holder's cart, created when it has none (only when something is put in it, so visits that
 * only look never create rows). `visitor`: the cart is a visitor's, whose browser must keep its id.
 */
export async function openCart(db: Db, holder: CartHolder | null): Promise<{ cartId: string; visitor: boolean }> {
  if (holder && "userId" in holder) return { cartId: await userCartId(db, holder.userId), visitor: false };

  const existing = await findCartIdOf(db, holder);
  if (existing) return { cartId: existing, visitor: true };

  // A new id every time, never the one the browser sent: a cookie planted by someone else cannot
  // become a cart they can read.
  const id = newCartId();
  const at = now();
  await db.insertInto("carts").values({ id, user_id: null, created_at: at, updated_at: at }).execute();
  if (Date.now() - lastSweep > 60 * 60 * 1000) {
    lastSweep = Date.now();
    await deleteAbandonedCarts(db);
  }
  return { cartId: id, visitor: true };
}

/** Anonymous carts untouched for longer than their cookie lives can never be used again. */
export async function deleteAbandonedCarts(db: Db, olderThan = new Date(Date.now() - CART_DAYS * DAY_MS)): Promise<number> {
  const result = await db
    .deleteFrom("carts")
    .where("user_id", "is", null)
    .where("updated_at", "<", olderThan.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

async function touchCart(db: Db, cartId: string): Promise<void> {
  await db.updateTable("carts").set({ updated_at: now() }).where("id", "=", cartId).execute();
}

// ---------------------------------------------------------------------------------------------
// Reading the cart

export interface CartLine {
  productId: number;
  sizeId: number;
  /** the size's label when the product comes in several sizes, else null */
  sizeLabel: string | null;
  slug: string;
  name: string;
  brandName: string;
  image: string | null;
  /** kobo, the current price */
  unitPrice: number;
  /** what can be bought: the stored quantity, capped by the stock */
  quantity: number;
  stock: number;
  status: LineStatus;
  /** kobo; 0 for lines left out of the total */
  lineTotal: number;
}

export interface CartView {
  lines: CartLine[];
  /** kobo, of the lines that can be bought now */
  subtotal: number;
  /** how many lines can be bought now */
  buyableLines: number;
}

/** The lines of a cart, `cartId` an expression (the id, or a subquery finding the owner's cart), as the cart page shows them. */
function cartLines(db: Db, cartId: Expression<string> | ReturnType<typeof ownersCart>) {
  return db
    .selectFrom("cart_lines as l")
    .innerJoin("products as p", "p.id", "l.product_id")
    .innerJoin("product_sizes as s", "s.id", "l.size_id")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select((eb) => [
      "l.product_id",
      "l.size_id",
      "l.quantity",
      "p.slug",
      "p.name",
      "p.image",
      "s.price",
      "s.stock",
      "s.label",
      "p.archived_at",
      "b.name as brandName",
      eb.selectFrom("product_sizes as o").select((o) => o.fn.countAll<number>().as("n")).whereRef("o.product_id", "=", "l.product_id").as("sizeCount"),
    ])
    .where("l.cart_id", "=", cartId)
    .orderBy("l.created_at")
    .orderBy("l.product_id")
    .orderBy("s.position")
    .modifyEnd(PREPARED);
}
const readCartLines = builtOnce((db, cartId: Expression<string>) => cartLines(db, cartId));
const readUserCartLines = builtOnce((db, userId: Expression<number>) => cartLines(db, ownersCart(db, { userId })));
const readVisitorCartLines = builtOnce((db, cartId: Expression<string>) => cartLines(db, ownersCart(db, { visitorCartId: cartId })));

/** The lines of the cart with this id, or of the owner's cart (found in the same statement). */
async function readLines(db: Db, cart: string | CartHolder): Promise<CartLine[]> {
  const rows =
    typeof cart === "string" ? await readCartLines(db, cart) : "userId" in cart ? await readUserCartLines(db, cart.userId) : await readVisitorCartLines(db, cart.visitorCartId);
  return rows.map((r) => ({
    ...priced(r),
    sizeLabel: Number(r.sizeCount) > 1 ? r.label : null,
    slug: r.slug,
    name: r.name,
    brandName: r.brandName,
    image: r.image,
  }));
}

/**
 * A line against the catalogue as it is now: gone from the shop, sold out, more in the cart than in
 * stock (the quantity is brought down to the stock), or available; only the last two can be bought.
 */
function priced(r: { product_id: number; size_id: number; quantity: number; price: number | string | bigint; stock: number; archived_at: string | null }) {
  const status: LineStatus = r.archived_at !== null ? "unavailable" : r.stock <= 0 ? "soldOut" : r.quantity > r.stock ? "reduced" : "available";
  const quantity = status === "reduced" ? r.stock : r.quantity;
  const buyable = status === "available" || status === "reduced";
  const price = Number(r.price);
  return { productId: r.product_id, sizeId: r.size_id, unitPrice: price, quantity, stock: r.stock, status, lineTotal: buyable ? price * quantity : 0 };
}

/** The cart as the cart page shows it, read fresh from the catalogue. */
export async function cartView(db: Db, cartId: string | null): Promise<CartView> {
  return viewOf(cartId ? await readLines(db, cartId) : []);
}

/**
 * The holder's cart as the cart page shows it: cartView of its cart, its lines read in the statement
 * that finds it (on PostgreSQL every statement is a round trip).
 */
export async function cartViewOf(db: Db, holder: CartHolder | null): Promise<CartView> {
  return viewOf(holder ? await readLines(db, holder) : []);
}

function viewOf(lines: CartLine[]): CartView {
  const buyable = lines.filter(isBuyable);
  return { lines, subtotal: buyable.reduce((sum, l) => sum + l.lineTotal, 0), buyableLines: buyable.length };
}

export interface CartSummaryItem {
  productId: number;
  sizeId: number;
  quantity: number;
  /** kobo */
  unitPrice: number;
  stock: number;
  buyable: boolean;
}

export interface CartSummary {
  /** distinct lines, as the header badge shows them */
  lines: number;
  /** kobo, of the lines that can be bought now (in the shop and in stock) */
  total: number;
  /** per line, so the page can show the effect of a cart action before the server answers */
  items: CartSummaryItem[];
}

/** The lines the header counts, of the owner's cart, joined with the catalogue. */
function summaryLines(db: Db, owner: CartOwner) {
  return db
    .selectFrom("cart_lines as l")
    .innerJoin("carts", "carts.id", "l.cart_id")
    .innerJoin("products as p", "p.id", "l.product_id")
    .innerJoin("product_sizes as s", "s.id", "l.size_id")
    .where(ownedBy(owner));
}
// What the header needs of a line, and the order the lines are shown in.
const SUMMARY_COLUMNS = ["l.product_id", "l.size_id", "l.quantity", "s.price", "s.stock", "p.archived_at"] as const;
const SUMMARY_ORDER = ["l.created_at", "l.product_id", "s.position"] as const;
type SummaryRow = Parameters<typeof priced>[0];

/** What the header shows on every page: read fresh from the catalogue. */
export async function cartSummaryOf(db: Db, holder: CartHolder | null): Promise<CartSummary> {
  // The cart found and its lines read in one query, with only what the header needs: this runs for
  // every page a shopper with a cart or a session opens.
  if (!holder) return { lines: 0, total: 0, items: [] };
  return summaryOf(await ("userId" in holder ? readUserCartSummary(db, holder.userId) : readVisitorCartSummary(db, holder.visitorCartId)));
}

function summaryRows(db: Db, owner: CartOwner) {
  let rows = summaryLines(db, owner).select(SUMMARY_COLUMNS);
  for (const column of SUMMARY_ORDER) rows = rows.orderBy(column);
  return rows.modifyEnd(PREPARED);
}
const readUserCartSummary = builtOnce((db, userId: Expression<number>) => summaryRows(db, { userId }));
const readVisitorCartSummary = builtOnce((db, cartId: Expression<string>) => summaryRows(db, { visitorCartId: cartId }));

/**
 * The signed-in account's cart summary as one column of another statement (the session's, in
 * app/domain/shopper/personal.server.ts), for `userId` an expression of that statement: the same lines, in the
 * same order, as cartSummary reads. Read the column with `cartSummaryFromColumn`.
 */
export function userCartSummaryColumn(db: Db, userId: Expression<number>) {
  // Each line with what SUMMARY_ORDER sorts by besides the product: the array comes unordered (app/db/json.server.ts).
  const line = jsonTuple(db, [...SUMMARY_COLUMNS, "l.created_at", "s.position"].map((column) => sql.ref(column)));
  return summaryLines(db, { userId }).select(jsonArray(db, line).as("lines"));
}

export function cartSummaryFromColumn(value: unknown): CartSummary {
  const tuples = fromJson<[number, number, number, number, number, string | null, string, number][]>(value);
  const lines = tuples.map(([product_id, size_id, quantity, price, stock, archived_at, addedAt, position]) => ({
    row: { product_id, size_id, quantity, price, stock, archived_at },
    addedAt,
    position,
  }));
  // SUMMARY_ORDER: when the line was added, then the product, then the size's place among its sizes.
  lines.sort((a, b) => (a.addedAt < b.addedAt ? -1 : a.addedAt > b.addedAt ? 1 : a.row.product_id - b.row.product_id || a.position - b.position));
  return summaryOf(lines.map((line) => line.row));
}

function summaryOf(rows: SummaryRow[]): CartSummary {
  const lines = rows.map(priced);
  return {
    lines: lines.length,
    total: lines.filter(isBuyable).reduce((sum, l) => sum + l.lineTotal, 0),
    items: lines.map((l) => ({
      productId: l.productId,
      sizeId: l.sizeId,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      stock: l.stock,
      buyable: isBuyable(l),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Changing the cart
//
// Each change is one transaction committed without waiting for the disk (docs/decisions/172): a
// power cut can cost a shopper their last few changes, never an order, and on SQLite the wait held
// up every shopper on the server's one thread, once for each statement of a change.

export type CartSuccess = "added" | "alreadyInCart" | "removed" | "updated" | "cleared";
export type CartProblem = "unknownProduct" | "outOfStock" | "notInCart" | "stockLimit";

export type CartOutcome =
  | { ok: true; kind: CartSuccess; productName?: string }
  | { ok: false; kind: CartProblem; productName?: string; /** the stock, for stockLimit */ available?: number };

/** HTTP status for each problem: a product that is not sold is 404, a stock conflict 409. */
export const PROBLEM_STATUS: Record<CartProblem, 404 | 409> = {
  unknownProduct: 404,
  notInCart: 404,
  outOfStock: 409,
  stockLimit: 409,
};

function stockOf(eb: ExpressionBuilder<Database, "cart_lines">) {
  return eb.selectFrom("product_sizes").select("product_sizes.stock").whereRef("product_sizes.id", "=", "cart_lines.size_id");
}

function inShop(eb: ExpressionBuilder<Database, "cart_lines">) {
  return eb.exists(
    eb
      .selectFrom("products")
      .select("products.id")
      .whereRef("products.id", "=", "cart_lines.product_id")
      .where("products.archived_at", "is", null),
  );
}

async function findProduct(db: Db, productId: number) {
  return db.selectFrom("products").select(["id", "name", "stock", "archived_at"]).where("id", "=", productId).executeTakeFirst();
}

/**
 * The size of the product a line change means: the one named, or (an old page, a hand-made request)
 * the product's first line in this cart. Null when the cart holds no such line.
 */
async function lineSize(db: Db, cartId: string, productId: number, sizeId?: number | null): Promise<number | null> {
  if (sizeId != null) return sizeId;
  const row = await db
    .selectFrom("cart_lines")
    .select("size_id")
    .where("cart_id", "=", cartId)
    .where("product_id", "=", productId)
    .orderBy("created_at")
    .orderBy("size_id")
    .executeTakeFirst();
  return row?.size_id ?? null;
}

/** Why a change to a line did not happen, looked up after the conditional update matched nothing. */
async function explainRefusal(db: Db, cartId: string, productId: number, sizeId: number | null): Promise<CartOutcome> {
  if (sizeId === null) return { ok: false, kind: "notInCart" };
  const row = await db
    .selectFrom("cart_lines as l")
    .innerJoin("products as p", "p.id", "l.product_id")
    .innerJoin("product_sizes as s", "s.id", "l.size_id")
    .select(["p.name", "s.stock", "p.archived_at"])
    .where("l.cart_id", "=", cartId)
    .where("l.product_id", "=", productId)
    .where("l.size_id", "=", sizeId)
    .executeTakeFirst();
  if (!row) return { ok: false, kind: "notInCart" };
  if (row.archived_at !== null) return { ok: false, kind: "unknownProduct", productName: row.name };
  if (row.stock <= 0) return { ok: false, kind: "outOfStock", productName: row.name };
  return { ok: false, kind: "stockLimit", productName: row.name, available: row.stock };
}

async function productName(db: Db, productId: number): Promise<string | undefined> {
  return (await findProduct(db, productId))?.name;
}

/**
 * Adds one of a product's size (without a size: the first one in stock). A line already there changes
 * nothing ("alreadyInCart"); a product that is not in the shop, a size that is not the product's, or a
 * sold-out size cannot be added.
 */
export async function addLine(db: Db, cartId: string, productId: number, sizeId?: number | null): Promise<CartOutcome> {
  return withoutWaitingForDisk(db, async (trx) => {
    const addable = await addableSize(trx, productId, sizeId);
    return "refused" in addable ? addable.refused : insertLine(trx, cartId, productId, addable);
  });
}

/** The size an add means, or why it cannot be added: not in the shop, not the product's size, sold out. */
async function addableSize(db: Db, productId: number, sizeId?: number | null): Promise<{ refused: CartOutcome } | { id: number; productName: string }> {
  const product = await findProduct(db, productId);
  if (!product || product.archived_at !== null) return { refused: { ok: false, kind: "unknownProduct", productName: product?.name } };
  const size = await resolveSize(db, productId, sizeId);
  if (!size) return { refused: { ok: false, kind: "unknownProduct", productName: product.name } };
  if (size.stock <= 0) return { refused: { ok: false, kind: "outOfStock", productName: product.name } };
  return { id: size.id, productName: product.name };
}

/** A line of 1 of an addable size; a line already there is left as it is. */
async function insertLine(db: Db, cartId: string, productId: number, size: { id: number; productName: string }): Promise<CartOutcome> {
  const result = await db
    .insertInto("cart_lines")
    .values({ cart_id: cartId, product_id: productId, size_id: size.id, quantity: 1, created_at: now() })
    .onConflict((oc) => oc.columns(["cart_id", "size_id"]).doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return { ok: true, kind: "alreadyInCart", productName: size.productName };
  await touchCart(db, cartId);
  return { ok: true, kind: "added", productName: size.productName };
}

/**
 * Adds a product to the holder's cart, making the cart only when the product can be added: an
 * unknown, archived or sold-out product leaves no cart row behind (`cartId` null).
 */
export async function addProductToCart(
  db: Db,
  holder: CartHolder | null,
  productId: number,
  sizeId?: number | null,
): Promise<{ outcome: CartOutcome; cartId: string | null; visitor: boolean }> {
  return withoutWaitingForDisk(db, async (trx) => {
    const addable = await addableSize(trx, productId, sizeId);
    if ("refused" in addable) return { outcome: addable.refused, cartId: null, visitor: false };
    const cart = await openCart(trx, holder);
    return { outcome: await insertLine(trx, cart.cartId, productId, addable), cartId: cart.cartId, visitor: cart.visitor };
  });
}

/** Removes a line; removing a line that is not there (e.g. from another tab) is not an error. */
export async function removeLine(db: Db, cartId: string, productId: number, sizeId?: number | null): Promise<CartOutcome> {
  return withoutWaitingForDisk<CartOutcome>(db, async (trx) => {
    const name = await productName(trx, productId);
    const size = await lineSize(trx, cartId, productId, sizeId);
    if (size !== null) await trx.deleteFrom("cart_lines").where("cart_id", "=", cartId).where("product_id", "=", productId).where("size_id", "=", size).execute();
    await touchCart(trx, cartId);
    return { ok: true, kind: "removed", productName: name };
  });
}

/** One more, never above the stock. */
export async function incrementLine(db: Db, cartId: string, productId: number, sizeId?: number | null): Promise<CartOutcome> {
  return withoutWaitingForDisk<CartOutcome>(db, async (trx) => {
    const size = await lineSize(trx, cartId, productId, sizeId);
    if (size === null) return { ok: false, kind: "notInCart" };
    const result = await trx
      .updateTable("cart_lines")
      .set((eb) => ({ quantity: eb("quantity", "+", 1) }))
      .where("cart_id", "=", cartId)
      .where("product_id", "=", productId)
      .where("size_id", "=", size)
      .where((eb) => eb.and([eb("quantity", "<", stockOf(eb)), inShop(eb)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return explainRefusal(trx, cartId, productId, size);
    await touchCart(trx, cartId);
    return { ok: true, kind: "updated" };
  });
}

/**
 * One fewer; at quantity 1 the line goes. A line holding more than the stock steps down from the stock.
 * Never below 1: the update only touches lines that stay at 1 or more, the delete only the others.
 */
export async function decrementLine(db: Db, cartId: string, productId: number, sizeId?: number | null): Promise<CartOutcome> {
  return withoutWaitingForDisk<CartOutcome>(db, async (trx) => {
    const size = await lineSize(trx, cartId, productId, sizeId);
    if (size === null) return { ok: true, kind: "removed", productName: await productName(trx, productId) };
    const updated = await trx
      .updateTable("cart_lines")
      .set((eb) => ({
        quantity: eb
          .case()
          .when("quantity", ">", stockOf(eb))
          .then(eb(stockOf(eb), "-", 1))
          .else(eb("quantity", "-", 1))
          .end()
          .$notNull(),
      }))
      .where("cart_id", "=", cartId)
      .where("product_id", "=", productId)
      .where("size_id", "=", size)
      .where((eb) => eb.and([eb("quantity", ">", 1), eb(stockOf(eb), ">", 1)]))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) {
      await touchCart(trx, cartId);
      return { ok: true, kind: "updated" };
    }
    const name = await productName(trx, productId);
    await trx
      .deleteFrom("cart_lines")
      .where("cart_id", "=", cartId)
      .where("product_id", "=", productId)
      .where("size_id", "=", size)
      .where((eb) => eb.or([eb("quantity", "<=", 1), eb(stockOf(eb), "<=", 1)]))
      .execute();
    await touchCart(trx, cartId);
    return { ok: true, kind: "removed", productName: name };
  });
}

/** Sets a line to a typed quantity (1 to the stock). */
export async function setLineQuantity(db: Db, cartId: string, productId: number, quantity: number, sizeId?: number | null): Promise<CartOutcome> {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY) {
    throw new RangeError(`quantity must be a whole number from 1 to ${MAX_LINE_QUANTITY}`);
  }
  return withoutWaitingForDisk<CartOutcome>(db, async (trx) => {
    const size = await lineSize(trx, cartId, productId, sizeId);
    if (size === null) return { ok: false, kind: "notInCart" };
    const result = await trx
      .updateTable("cart_lines")
      .set({ quantity })
      .where("cart_id", "=", cartId)
      .where("product_id", "=", productId)
      .where("size_id", "=", size)
      .where((eb) => eb.and([eb(stockOf(eb), ">=", quantity), inShop(eb)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return explainRefusal(trx, cartId, productId, size);
    await touchCart(trx, cartId);
    return { ok: true, kind: "updated" };
  });
}

/** Empties the cart (the cart itself stays, with its id). */
export async function clearCart(db: Db, cartId: string): Promise<CartOutcome> {
  return withoutWaitingForDisk<CartOutcome>(db, async (trx) => {
    await trx.deleteFrom("cart_lines").where("cart_id", "=", cartId).execute();
    await touchCart(trx, cartId);
    return { ok: true, kind: "cleared" };
  });
}

// ---------------------------------------------------------------------------------------------
// Signing in

/**
 * Moves an anonymous cart into the account's: a product in both keeps the larger quantity, capped by
 * the stock; the anonymous cart is then deleted. Does nothing when the guest cart is unknown or
 * already belongs to an account.
 */
export async function mergeGuestCartIntoUser(db: Db, guestCartId: string, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const guest = await trx
      .selectFrom("carts")
      .select("id")
      .where("id", "=", guestCartId)
      .where("user_id", "is", null)
      .executeTakeFirst();
    if (!guest) return;
    const target = await userCartId(trx, userId);
    const [guestLines, userLines] = await Promise.all([
      trx
        .selectFrom("cart_lines as l")
        .innerJoin("product_sizes as s", "s.id", "l.size_id")
        .select(["l.product_id", "l.size_id", "l.quantity", "l.created_at", "s.stock"])
        .where("l.cart_id", "=", guest.id)
        .execute(),
      trx.selectFrom("cart_lines").select(["size_id", "quantity"]).where("cart_id", "=", target).execute(),
    ]);
    const had = new Map(userLines.map((l) => [l.size_id, l.quantity]));
    for (const line of guestLines) {
      let quantity = Math.max(line.quantity, had.get(line.size_id) ?? 0);
      // A sold-out line stays (the cart shows it as sold out) at quantity 1.
      quantity = Math.max(1, Math.min(quantity, line.stock));
      await trx
        .insertInto("cart_lines")
        .values({ cart_id: target, product_id: line.product_id, size_id: line.size_id, quantity, created_at: line.created_at })
        .onConflict((oc) => oc.columns(["cart_id", "size_id"]).doUpdateSet({ quantity }))
        .execute();
    }
    await trx.deleteFrom("carts").where("id", "=", guest.id).execute();
    await trx.updateTable("carts").set({ updated_at: now() }).where("id", "=", target).execute();
  });
}


// ---------------------------------------------------------------------------------------------
// What the cart forms send

const productId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(z.number().int().max(2_147_483_647));
/** 0, -1, 1.5, "abc", 1e9 and anything above MAX_LINE_QUANTITY are refused. */
const quantity = z
  .string()
  .trim()
  .regex(/^\d{1,4}$/, "cart.errors.quantity")
  .transform(Number)
  .pipe(z.number().int().min(1, "cart.errors.quantity").max(MAX_LINE_QUANTITY, "cart.errors.quantity"));

/** The size of the product (docs/decisions/121); without it the cart picks the product's first size in stock. */
const sizeId = productId.optional();

export const cartActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), productId, sizeId }),
  z.object({ intent: z.literal("remove"), productId, sizeId }),
  z.object({ intent: z.literal("increment"), productId, sizeId }),
  z.object({ intent: z.literal("decrement"), productId, sizeId }),
  z.object({ intent: z.literal("set"), productId, sizeId, quantity }),
  z.object({ intent: z.literal("clear") }),
  z.object({ intent: z.literal("whatsapp") }),
]);

export type CartAction = z.infer<typeof cartActionSchema>;

/** The form's fields as text, or null when it carries a file or a repeated field. */
export function cartFormFields(form: FormData): Record<string, string> | null {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value !== "string" || name in fields) return null;
    fields[name] = value;
  }
  return fields;
}

/** Parses a cart form: the action, or the translation key of what was wrong with it. */
export function parseCartAction(fields: Record<string, string> | null): { action: CartAction } | { errorKey: string } {
  if (!fields) return { errorKey: "cart.errors.badRequest" };
  const result = cartActionSchema.safeParse(fields);
  if (result.success) return { action: result.data };
  const quantityIssue = result.error.issues.find((issue) => issue.path[0] === "quantity");
  return { errorKey: quantityIssue ? "cart.errors.quantity" : "cart.errors.badRequest" };
}
