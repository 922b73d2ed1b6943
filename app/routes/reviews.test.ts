import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { insertOrder } from "../../tests/support/orders";
import { LIMITS } from "~/domain/operations/rate-limits.server";
import { createSession } from "~/http/session.server";
import * as product from "./_store.shop.$id";
import { formatLagosTime } from "~/lib/dates";
import * as adminReviews from "./admin.reviews";
import { parseProductPersonal } from "~/lib/personal";


const post = (url: string, fields: Record<string, string>, cookies: string[] = []) =>
  browserRequest(url, { method: "POST", body: new URLSearchParams(fields), cookies, headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" } });

describe.each(ENGINES)("review pages on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let productId: number;
  let buyerCookie: string;
  let waitingCookie: string;
  let adminCookie: string;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    [productId] = await makeProducts(t.db, [{ name: "Page Review Oud", price: 5_000_000, stock: 20 }]);
    const buyer = await addUser(t.db, "customer");
    const waiting = await addUser(t.db, "customer");
    await insertOrder(t.db, { userId: buyer.id, status: "delivered", items: [{ productId, quantity: 1 }] });
    await insertOrder(t.db, { userId: waiting.id, status: "confirmed", items: [{ productId, quantity: 1 }] });
    buyerCookie = await createSession(context, buyer.id);
    waitingCookie = await createSession(context, waiting.id);
    adminCookie = await createSession(context, (await addUser(t.db, "owner")).id);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const review = (fields: Record<string, string>, cookies: string[] = []) => run(product.action, post(`/shop/${productId}`, { intent: "review", ...fields }, cookies), context, { id: String(productId) });

  it("sends a visitor to sign in, refuses a customer whose order is not delivered, and checks the rating and text", async () => {
    expect(await review({ rating: "5", body: "Wonderful scent, lasts." })).toMatchObject({ status: 303, location: `/auth?redirectTo=${encodeURIComponent(`/shop/${productId}#reviews`)}` });
    expect(await review({ rating: "5", body: "Wonderful scent, lasts." }, [waitingCookie])).toMatchObject({ status: 403 });
    expect(await review({ rating: "9", body: "Wonderful scent, lasts." }, [buyerCookie])).toMatchObject({ status: 400, body: { reviewErrors: { rating: "product.reviews.errors.rating" } } });
    expect(await review({ rating: "4", body: "meh" }, [buyerCookie])).toMatchObject({ status: 400, body: { reviewErrors: { body: "product.reviews.errors.tooShort" } } });
    expect(await t.db.selectFrom("reviews").select("id").execute()).toEqual([]);
  });

  it("posts a delivered customer's review, shows it on the page and in the structured data, and refuses a second", async () => {
    expect(await review({ rating: "4", body: "<b>Bold</b> and long-lasting." }, [buyerCookie])).toMatchObject({ status: 303, location: `/shop/${productId}#reviews` });
    expect(await review({ rating: "2", body: "Changed my mind about it." }, [buyerCookie])).toMatchObject({ status: 409 });
    const page = await run(product.loader, browserRequest(`/shop/${productId}`), context, { id: String(productId) });
    expect(page.body).toMatchObject({ reviews: { count: 1, average: 4, reviews: [{ body: "<b>Bold</b> and long-lasting." }] } });
    // The date comes written in the shopper's language, so the page's script formats none.
    const [shown] = (page.body as { reviews: { reviews: { createdAt: string; date: string }[] } }).reviews.reviews;
    expect(shown.date).toBe(formatLagosTime(shown.createdAt, "en"));
    expect(parseProductPersonal((page.body as { personal: string }).personal).review).toBeNull();
    const jsonLd = JSON.stringify(page.body);
    expect(jsonLd).toContain('"aggregateRating":{"@type":"AggregateRating","ratingValue":4,"reviewCount":1');
    const mine = await run(product.loader, browserRequest(`/shop/${productId}`, { cookies: [buyerCookie] }), context, { id: String(productId) });
    expect(parseProductPersonal((mine.body as { personal: string }).personal).review).toBe("alreadyReviewed");
  });

  it("limits reviews per account with 429 and a Retry-After", async () => {
    const spammer = await addUser(t.db, "customer");
    const cookie = await createSession(context, spammer.id);
    for (let i = 0; i < LIMITS.reviewUser.points; i++) expect((await review({ rating: "5", body: "Never bought it, though." }, [cookie])).status).toBe(403);
    const refused = await review({ rating: "5", body: "Never bought it, though." }, [cookie]);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("lets the owner hide a review from the reviews screen; a customer may not", async () => {
    const [{ id }] = await t.db.selectFrom("reviews").select("id").execute();
    expect((await run(adminReviews.loader, browserRequest("/admin/reviews", { cookies: [buyerCookie] }), context)).status).toBe(403);
    expect((await run(adminReviews.action, post("/admin/reviews", { id: String(id), intent: "hide" }, [buyerCookie]), context)).status).toBe(403);
    expect(await run(adminReviews.action, post("/admin/reviews", { id: String(id), intent: "hide" }, [adminCookie]), context)).toMatchObject({ status: 303 });
    expect((await run(adminReviews.action, post("/admin/reviews", { id: "abc", intent: "hide" }, [adminCookie]), context)).status).toBe(400);
    const list = await run(adminReviews.loader, browserRequest("/admin/reviews", { cookies: [adminCookie] }), context);
    expect(list.body).toMatchObject({ reviews: [{ id, hidden: true }] });
    const page = await run(product.loader, browserRequest(`/shop/${productId}`), context, { id: String(productId) });
    expect(page.body).toMatchObject({ reviews: { count: 0, average: null } });
  });
});
