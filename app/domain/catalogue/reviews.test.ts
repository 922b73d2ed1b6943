import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { countingStatements } from "../../../tests/support/statements";
import { productCards } from "./catalog.server";
import { latestReviews, productReviews, reviewEligibility, reviewInput, setReviewHidden, submitReview } from "./reviews.server";

describe.each(ENGINES)("reviews on %s", (engine) => {
  let t: TestDatabase;
  let oud: number;
  let rose: number;
  let owner: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    [oud, rose] = await makeProducts(t.db, [
      { name: "Reviewed Oud", price: 5_000_000, stock: 50 },
      { name: "Unreviewed Rose", price: 5_000_000, stock: 50 },
    ]);
    owner = (await addUser(t.db, "owner")).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function customer(status: "delivered" | "shipped" | null, productId = oud) {
    const user = await addUser(t.db, "customer", undefined, "Chioma");
    await t.db.updateTable("users").set({ last_name: "eze" }).where("id", "=", user.id).execute();
    if (status) await insertOrder(t.db, { userId: user.id, status, items: [{ productId, quantity: 1 }] });
    return user.id;
  }
  const valid = (rating: number, body = "Lasts all day, smells like the real thing.") => reviewInput.parse({ rating: String(rating), body });

  it("lets only a customer whose order was delivered review, once", async () => {
    const stranger = await customer(null);
    const waiting = await customer("shipped");
    const buyer = await customer("delivered");
    expect(await reviewEligibility(t.db, stranger, oud)).toBe("notBought");
    expect(await reviewEligibility(t.db, waiting, oud)).toBe("notDelivered");
    expect(await reviewEligibility(t.db, buyer, oud)).toBe("eligible");

    expect(await submitReview(t.db, stranger, oud, valid(5))).toEqual({ ok: false, problem: "notBought" });
    expect(await submitReview(t.db, waiting, oud, valid(5))).toEqual({ ok: false, problem: "notDelivered" });
    expect(await submitReview(t.db, buyer, oud, valid(4))).toEqual({ ok: true });
    expect(await submitReview(t.db, buyer, oud, valid(1))).toEqual({ ok: false, problem: "alreadyReviewed" });
    expect(await reviewEligibility(t.db, buyer, oud)).toBe("alreadyReviewed");
    expect(await submitReview(t.db, buyer, 999_999, valid(3))).toEqual({ ok: false, problem: "unknownProduct" });

    const page = await productReviews(t.db, oud, 1);
    expect(page).toMatchObject({ count: 1, average: 4, reviews: [{ rating: 4, author: "Chioma E.", body: "Lasts all day, smells like the real thing." }] });
  });

  it("keeps one review when the same customer posts twice at the same moment", async () => {
    const buyer = await customer("delivered", rose);
    const results = await Promise.all(Array.from({ length: 5 }, () => submitReview(t.db, buyer, rose, valid(5))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const product = await t.db.selectFrom("products").select(["review_count", "rating_total"]).where("id", "=", rose).executeTakeFirstOrThrow();
    expect(product).toEqual({ review_count: 1, rating_total: 5 });
  });

  it("refuses ratings that are not 1 to 5 and texts too short or too long, and keeps scripts as plain text", () => {
    for (const rating of ["0", "6", "abc", "", "4.5", "-1"]) expect(reviewInput.safeParse({ rating, body: "A perfectly fine review." }).success, rating).toBe(false);
    expect(reviewInput.safeParse({ rating: "5", body: "short" }).error?.issues[0].message).toBe("product.reviews.errors.tooShort");
    expect(reviewInput.safeParse({ rating: "5", body: "x".repeat(10_000) }).error?.issues[0].message).toBe("product.reviews.errors.tooLong");
    // Stored as typed (the page escapes it), without control characters.
    expect(reviewInput.parse({ rating: "3", body: "<script>alert(1)</script>\u0007 ok" }).body).toBe("<script>alert(1)</script> ok");
  });

  it("averages visible reviews for the page and the cards; a hidden review leaves both and is logged", async () => {
    const second = await customer("delivered");
    await submitReview(t.db, second, oud, valid(1, "Did not last on my skin at all."));
    expect(await productReviews(t.db, oud, 1)).toMatchObject({ count: 2, average: 2.5 });
    const [card] = await productCards(t.db, [oud]);
    expect(card).toMatchObject({ reviewCount: 2, ratingTotal: 5 });

    const { reviews } = await latestReviews(t.db, 1);
    const harsh = reviews.find((r) => r.rating === 1 && r.productId === oud)!;
    expect(await setReviewHidden(t.db, owner, harsh.id, true)).toBe(true);
    expect(await setReviewHidden(t.db, owner, harsh.id, true)).toBe(false);
    expect(await productReviews(t.db, oud, 1)).toMatchObject({ count: 1, average: 4 });
    expect((await productReviews(t.db, oud, 1)).reviews.map((r) => r.id)).not.toContain(harsh.id);
    const audit = await t.db.selectFrom("audit_log").select(["entity", "entity_id", "actor_user_id"]).where("entity", "=", "review").execute();
    expect(audit).toEqual([{ entity: "review", entity_id: harsh.id, actor_user_id: owner }]);

    expect(await setReviewHidden(t.db, owner, harsh.id, false)).toBe(true);
    expect(await productReviews(t.db, oud, 1)).toMatchObject({ count: 2, average: 2.5 });
  });

  it("pages the reviews ten at a time, newest first", async () => {
    const [many] = await makeProducts(t.db, [{ name: "Much Loved Musk", price: 2_000_000, stock: 50 }]);
    for (let i = 0; i < 12; i++) {
      const buyer = await customer("delivered", many);
      await submitReview(t.db, buyer, many, valid((i % 5) + 1, `Review number ${i} of the musk.`));
    }
    const first = await productReviews(t.db, many, 1);
    expect(first.reviews).toHaveLength(10);
    expect(first.pageCount).toBe(2);
    expect(first.reviews[0].body).toBe("Review number 11 of the musk.");
    expect((await productReviews(t.db, many, 2)).reviews).toHaveLength(2);
    expect((await productReviews(t.db, many, 99)).page).toBe(2);
    // With the counts read with the product (its page's loader): the same pages, one statement fewer.
    const counts = await t.db.selectFrom("products").select(["review_count as reviewCount", "rating_total as ratingTotal"]).where("id", "=", many).executeTakeFirstOrThrow();
    for (const page of [1, 2, 99]) {
      const counted = countingStatements(t.db);
      expect(await productReviews(counted.db, many, page, counts)).toEqual(await productReviews(t.db, many, page));
      expect(counted.statements).toHaveLength(1);
    }
  });
});
