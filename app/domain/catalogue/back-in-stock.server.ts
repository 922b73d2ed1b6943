import { randomBytes } from "node:crypto";
import { type Expression, sql, type Transaction } from "kysely";
import { z } from "zod";
import { type Db, isPostgres } from "~/db/client.server";
import { ascendingIds, jsonArray } from "~/db/json.server";
import type { Database } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { queueMail } from "../operations/mail-outbox.server";
import { activeConsent, stopLink } from "../messages/consent.server";
import { queueShopperMessage } from "../messages/notify.server";
import { listSizes, sizedName } from "./product-sizes.server";

/**
 * Back-in-stock alerts (docs/decisions/133). On a sold-out product a shopper leaves an e-mail address
 * (signed in: their own, in one click). When the product has stock again, however it came back (the
 * owner's edit, a stock adjustment, a CSV import, a cancelled order), each waiting address gets one
 * e-mail through the outbox, in the language it was asked in, with a link to the product and one to
 * stop these alerts; the request is then used up.
 *
 * The sending is a job (`sendBackInStockAlerts`), run by the server every minute and a second after any
 * catalogue change: every path that restocks a product is covered without each one calling it. Each
 * request is claimed by a conditional update in its own transaction (rows another instance holds are
 * skipped on PostgreSQL), so an alert is queued once whatever runs at the same time.
 */

const emailSchema = z.email().max(254);
const BATCH = 100;

export type BackInStockProblem = "invalidEmail" | "unknownProduct" | "inStock";

export async function requestBackInStock(
  db: Db,
  input: { productId: number; sizeId?: number | null; email: string; userId: number | null; locale: Locale },
): Promise<{ ok: true; alreadyWaiting: boolean } | { ok: false; problem: BackInStockProblem }> {
  const parsed = emailSchema.safeParse(input.email.trim().toLowerCase());
  if (!parsed.success) return { ok: false, problem: "invalidEmail" };
  const email = parsed.data;
  const product = await db.selectFrom("products").select(["id", "stock"]).where("id", "=", input.productId).where("archived_at", "is", null).executeTakeFirst();
  if (!product) return { ok: false, problem: "unknownProduct" };
  // Per size (docs/decisions/121): the size named, or without one the product's first sold-out size.
  const sizes = await listSizes(db, product.id);
  const size = input.sizeId != null ? sizes.find((s) => s.id === input.sizeId) : (sizes.find((s) => s.stock <= 0) ?? sizes[0]);
  if (!size) return { ok: false, problem: "unknownProduct" };
  if (size.stock > 0) return { ok: false, problem: "inStock" };
  const inserted = await db
    .insertInto("back_in_stock_requests")
    .values({ product_id: product.id, size_id: size.id, email, user_id: input.userId, locale: input.locale, token: randomBytes(24).toString("base64url"), created_at: new Date().toISOString() })
    // One waiting request per size and address: asking again is answered the same, nothing added.
    .onConflict((oc) => oc.columns(["size_id", "email"]).where("notified_at", "is", null).doNothing())
    .executeTakeFirst();
  return { ok: true, alreadyWaiting: Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0 };
}

/** Whether this signed-in shopper already waits for this product (any of its sizes). */
export async function isWaitingFor(db: Db, productId: number, email: string): Promise<boolean> {
  return (await sizesWaitedFor(db, productId, email)).length > 0;
}

/** The sizes of the product this address already waits for (the page offers only the others). */
export async function sizesWaitedFor(db: Db, productId: number, email: string): Promise<number[]> {
  const row = await db.selectNoFrom(sizesWaitedForColumn(db, sql.val(productId), sql.val(email.toLowerCase())).as("waited")).executeTakeFirstOrThrow();
  return sizesWaitedFromColumn(row.waited);
}

/**
 * sizesWaitedFor as one column of another statement (the product page's personal parts, in
 * app/domain/shopper/personal.server.ts), ascending, for `email` in lower case; read it with `sizesWaitedFromColumn`.
 */
export function sizesWaitedForColumn(db: Db, productId: Expression<number>, email: Expression<string>) {
  return db
    .selectFrom("back_in_stock_requests")
    .select(jsonArray<number>(db, sql.ref("size_id")).as("waited"))
    .where("product_id", "=", productId)
    .where("email", "=", email)
    .where("notified_at", "is", null)
    .where("size_id", "is not", null);
}

export function sizesWaitedFromColumn(value: unknown): number[] {
  return ascendingIds(value);
}

/** Queues the alert of every waiting request whose product has stock again; returns how many were queued. */
export async function sendBackInStockAlerts(db: Db, config: Pick<Config, "publicUrl"> & Partial<Pick<Config, "messaging">>): Promise<number> {
  let sent = 0;
  let afterId = 0;
  for (;;) {
    const due = await db
      .selectFrom("back_in_stock_requests as r")
      .innerJoin("products as p", "p.id", "r.product_id")
      .innerJoin("product_sizes as s", "s.id", "r.size_id")
      .select("r.id")
      .where("r.notified_at", "is", null)
      .where("s.stock", ">", 0)
      .where("p.archived_at", "is", null)
      .where("r.id", ">", afterId)
      .orderBy("r.id")
      .limit(BATCH)
      .execute();
    if (due.length === 0) return sent;
    for (const { id } of due) {
      afterId = id;
      if (await db.transaction().execute((trx) => alertOne(trx, id, config))) sent++;
    }
  }
}

async function alertOne(trx: Transaction<Database>, id: number, config: Pick<Config, "publicUrl"> & Partial<Pick<Config, "messaging">>): Promise<boolean> {
  const request = await trx
    .selectFrom("back_in_stock_requests as r")
    .innerJoin("products as p", "p.id", "r.product_id")
    .innerJoin("product_sizes as s", "s.id", "r.size_id")
    .select((eb) => [
      "r.id",
      "r.email",
      "r.user_id",
      "r.locale",
      "r.token",
      "p.id as productId",
      "p.name as productName",
      "s.label",
      "s.stock",
      eb.selectFrom("product_sizes as o").select((o) => o.fn.countAll<number>().as("n")).whereRef("o.product_id", "=", "p.id").as("sizeCount"),
    ])
    .where("r.id", "=", id)
    .where("r.notified_at", "is", null)
    .$if(isPostgres(trx), (qb) => qb.forUpdate("r").skipLocked())
    .executeTakeFirst();
  if (!request || request.stock <= 0) return false;
  // The size is named when the perfume comes in several: "Sauvage (100 ml)".
  const name = sizedName(request.productName, Number(request.sizeCount) > 1 ? request.label : null);
  const claimed = await trx
    .updateTable("back_in_stock_requests")
    .set({ notified_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("notified_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  const t = translatorFor(isLocale(request.locale) ? request.locale : DEFAULT_LOCALE);
  const productUrl = `${config.publicUrl}/shop/${request.productId}`;
  const stopUrl = `${config.publicUrl}/back-in-stock/stop?token=${encodeURIComponent(request.token)}`;
  const text = [
    t("mail.backInStock.greeting"),
    "",
    t("mail.backInStock.body", { name }),
    t("mail.backInStock.link", { url: productUrl }),
    "",
    t("mail.backInStock.once"),
    t("mail.backInStock.stop", { url: stopUrl }),
    "",
    t("mail.backInStock.signature"),
  ].join("\n");
  await queueMail(trx, { to: request.email, subject: t("mail.backInStock.subject", { name }), text, kind: "back-in-stock" });
  // By WhatsApp or SMS too, only to a shopper who agreed to marketing (docs/decisions/220).
  if (config.messaging && request.user_id !== null) {
    const consent = await activeConsent(trx, request.user_id);
    const user = consent ? await trx.selectFrom("users").select(["phone", "locale"]).where("id", "=", request.user_id).executeTakeFirst() : undefined;
    if (consent && user?.phone) {
      await queueShopperMessage(trx, config.messaging, {
        kind: "back-in-stock",
        subject: `r${request.id}`,
        to: user.phone,
        locale: user.locale ?? request.locale,
        values: { product: name, url: productUrl, stop: stopLink(config.publicUrl, consent.token) },
        userId: request.user_id,
      });
    }
  }
  return true;
}

/**
 * The unsubscribe link: every waiting request of the address that link was sent to is removed.
 * Returns the address (to say which one stopped), or null for a token that is not ours.
 */
export async function stopBackInStockAlerts(db: Db, token: string): Promise<string | null> {
  if (!/^[\w-]{20,64}$/.test(token)) return null;
  const row = await db.selectFrom("back_in_stock_requests").select("email").where("token", "=", token).executeTakeFirst();
  if (!row) return null;
  await db.deleteFrom("back_in_stock_requests").where("email", "=", row.email).where("notified_at", "is", null).execute();
  return row.email;
}

/** Whether the token belongs to a request (the stop page asks before acting, so link scanners stop nothing). */
export async function knownStopToken(db: Db, token: string): Promise<boolean> {
  if (!/^[\w-]{20,64}$/.test(token)) return false;
  return Boolean(await db.selectFrom("back_in_stock_requests").select("id").where("token", "=", token).executeTakeFirst());
}
