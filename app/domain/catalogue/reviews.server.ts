import { type Expression, type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { type Db, isPostgres, PREPARED } from "~/db/client.server";
import { REVIEW_MAX_LENGTH, REVIEW_MIN_LENGTH } from "~/lib/reviews";
import { recordAudit } from "../backoffice/audit.server";
import { catalogChanged } from "./catalog.server";

/**
 * Product reviews (docs/decisions/134). A signed-in customer who received a product (an order of theirs
 * holding it reached 'delivered') may review it once: 1 to 5 stars and a text. Every review shown is
 * therefore from a verified buyer. Reviews are plain text (React escapes them on the page), limited in
 * length, and rate-limited by the route. The owner can hide a review (and show it again), which is
 * written to the audit log. Each product keeps the count and sum of its visible ratings, updated in the
 * same transaction, so cards and the listing read them without touching the reviews.
 */

export const REVIEWS_PAGE_SIZE = 10;

export type ReviewEligibility = "eligible" | "notBought" | "notDelivered" | "alreadyReviewed";
export type ReviewProblem = ReviewEligibility | "unknownProduct";

export const reviewInput = z.object({
  rating: z.coerce.number({ message: "product.reviews.errors.rating" }).int("product.reviews.errors.rating").min(1, "product.reviews.errors.rating").max(5, "product.reviews.errors.rating"),
  body: z
    .string()
    // Control characters other than line breaks have no place in a review.
    // eslint-disable-next-line no-control-regex
    .transform((text) => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").replace(/\r\n/g, "\n").trim())
    .pipe(z.string().min(REVIEW_MIN_LENGTH, "product.reviews.errors.tooShort").max(REVIEW_MAX_LENGTH, "product.reviews.errors.tooLong")),
});
export type ReviewInput = z.infer<typeof reviewInput>;

/** Whether this customer may review this product now. */
export async function reviewEligibility(db: Db, userId: number, productId: number): Promise<ReviewEligibility> {
  const row = await db.selectNoFrom(reviewEligibilityColumn(db, sql.val(userId), sql.val(productId)).as("review")).executeTakeFirstOrThrow();
  return row.review;
}

/**
 * reviewEligibility as one column of another statement (the product page's personal parts, in
 * app/domain/shopper/personal.server.ts), for `userId` and `productId` expressions of that statement: a review
 * of theirs already (shown or hidden), else an order of theirs holding the product that was delivered,
 * else any order of theirs holding it.
 */
export function reviewEligibilityColumn(db: Db, userId: Expression<number>, productId: Expression<number>): RawBuilder<ReviewEligibility> {
  const reviewed = db.selectFrom("reviews").select("id").where("product_id", "=", productId).where("user_id", "=", userId);
  const bought = db.selectFrom("orders as o").innerJoin("order_items as i", "i.order_id", "o.id").select("o.id").where("o.user_id", "=", userId).where("i.product_id", "=", productId);
  // The status is written into the statement, not sent as a value: orders have an index for one
  // status only (pending), and SQLite prepares a statement again whenever a value compared with
  // that index's condition is sent, 15 µs on every signed-in product page (docs/decisions/170).
  const delivered = bought.where("o.status", "=", sql.lit("delivered"));
  return sql<ReviewEligibility>`case when exists ${reviewed} then 'alreadyReviewed' when exists ${delivered} then 'eligible' when exists ${bought} then 'notDelivered' else 'notBought' end`;
}

/** A short public name: first name and the last name's initial ("Chioma E."). */
function authorName(first: string, last: string): string {
  const initial = last.trim().charAt(0);
  return `${first.trim()}${initial ? ` ${initial.toUpperCase()}.` : ""}`.slice(0, 60);
}

export async function submitReview(db: Db, userId: number, productId: number, input: ReviewInput): Promise<{ ok: true } | { ok: false; problem: ReviewProblem }> {
  const product = await db.selectFrom("products").select("id").where("id", "=", productId).where("archived_at", "is", null).executeTakeFirst();
  if (!product) return { ok: false, problem: "unknownProduct" };
  try {
    const outcome = await db.transaction().execute(async (trx) => {
      // Decided inside the transaction that writes it; the unique (product, customer) key settles two
      // reviews sent at once.
      const eligibility = await reviewEligibility(trx, userId, productId);
      if (eligibility !== "eligible") return eligibility;
      const user = await trx.selectFrom("users").select(["first_name", "last_name"]).where("id", "=", userId).executeTakeFirstOrThrow();
      await trx
        .insertInto("reviews")
        .values({ product_id: productId, user_id: userId, rating: input.rating, body: input.body, author: authorName(user.first_name, user.last_name), created_at: new Date().toISOString() })
        .execute();
      await trx
        .updateTable("products")
        .set((eb) => ({ review_count: eb("review_count", "+", 1), rating_total: eb("rating_total", "+", input.rating) }))
        .where("id", "=", productId)
        .execute();
      return "eligible" as const;
    });
    if (outcome !== "eligible") return { ok: false, problem: outcome };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, problem: "alreadyReviewed" };
    throw error;
  }
  catalogChanged();
  return { ok: true };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/.test(e?.message ?? "");
}

export interface ReviewView {
  id: number;
  rating: number;
  body: string;
  author: string;
  createdAt: string;
}

export interface ReviewPage {
  reviews: ReviewView[];
  page: number;
  pageCount: number;
  count: number;
  /** average rating to one decimal, null without reviews */
  average: number | null;
}

/**
 * The product's visible reviews, newest first, a page at a time. `counted`: the product's review count
 * and rating total when they were just read with the product (its page's loader), which saves a
 * statement, a round trip on PostgreSQL.
 */
export async function productReviews(db: Db, productId: number, page: number, counted?: { reviewCount: number; ratingTotal: number }): Promise<ReviewPage> {
  const product = counted
    ? { review_count: counted.reviewCount, rating_total: counted.ratingTotal }
    : await db.selectFrom("products").select(["review_count", "rating_total"]).where("id", "=", productId).modifyEnd(PREPARED).executeTakeFirst();
  const count = product?.review_count ?? 0;
  const pageCount = Math.max(1, Math.ceil(count / REVIEWS_PAGE_SIZE));
  const current = Math.min(Math.max(1, Number.isInteger(page) ? page : 1), pageCount);
  const rows = count
    ? await db
        .selectFrom("reviews")
        .select(["id", "rating", "body", "author", "created_at as createdAt"])
        .where("product_id", "=", productId)
        .where("hidden_at", "is", null)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(REVIEWS_PAGE_SIZE)
        .offset((current - 1) * REVIEWS_PAGE_SIZE)
        .execute()
    : [];
  return { reviews: rows, page: current, pageCount, count, average: count ? Math.round(((product!.rating_total / count) * 10)) / 10 : null };
}

export interface AdminReview extends ReviewView {
  productId: number;
  productName: string;
  hidden: boolean;
}

/** Every review, newest first, for the owner (hidden ones too). */
export async function latestReviews(db: Db, page: number, pageSize = 20): Promise<{ reviews: AdminReview[]; page: number; pageCount: number }> {
  const total = Number((await db.selectFrom("reviews").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  const rows = await db
    .selectFrom("reviews as r")
    .innerJoin("products as p", "p.id", "r.product_id")
    .select(["r.id", "r.rating", "r.body", "r.author", "r.created_at as createdAt", "r.hidden_at", "p.id as productId", "p.name as productName"])
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(pageSize)
    .offset((current - 1) * pageSize)
    .execute();
  return { reviews: rows.map(({ hidden_at, ...r }) => ({ ...r, hidden: hidden_at !== null })), page: current, pageCount };
}

/** Hides a review (or shows it again), keeping the product's counts right; false when nothing changed. */
export async function setReviewHidden(db: Db, adminId: number, reviewId: number, hidden: boolean): Promise<boolean> {
  const changed = await db.transaction().execute(async (trx) => {
    const review = await trx
      .selectFrom("reviews as r")
      .innerJoin("products as p", "p.id", "r.product_id")
      .select(["r.id", "r.product_id", "r.rating", "r.hidden_at", "r.author", "p.name"])
      .where("r.id", "=", reviewId)
      .$if(isPostgres(trx), (qb) => qb.forUpdate("r"))
      .executeTakeFirst();
    if (!review || (review.hidden_at !== null) === hidden) return false;
    const at = new Date().toISOString();
    await trx
      .updateTable("reviews")
      .set({ hidden_at: hidden ? at : null, hidden_by: hidden ? adminId : null })
      .where("id", "=", reviewId)
      .execute();
    const sign = hidden ? -1 : 1;
    await trx
      .updateTable("products")
      .set({ review_count: sql`review_count + ${sign}`, rating_total: sql`rating_total + ${sign * review.rating}` })
      .where("id", "=", review.product_id)
      .execute();
    await recordAudit(trx, {
      actorId: adminId,
      action: "update",
      entity: "review",
      entityId: review.id,
      summary: `${review.name}: ${review.author}`,
      changes: { hidden: [!hidden, hidden] },
    });
    return true;
  });
  if (changed) catalogChanged();
  return changed;
}
