import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../app/db/client.server";

/** A shopper's requests, as a browser without JavaScript sends them, for scripts and multi-process tests. */

/**
 * A customer account with a signed-in session, written straight into the database (as the session
 * code stores it: the cookie's token, hashed). Returns the Cookie header value.
 */
export async function customerWithSession(db: Db, email: string, firstName = "Shopper", lastName = "Test"): Promise<string> {
  const at = new Date().toISOString();
  const user = await db
    .insertInto("users")
    .values({ email, password_hash: "not-a-real-hash", first_name: firstName, last_name: lastName, role: "customer", created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  const token = randomBytes(32).toString("base64url");
  await db
    .insertInto("sessions")
    .values({ id: createHash("sha256").update(token).digest("hex"), user_id: user.id, expires_at: new Date(Date.now() + 86_400_000).toISOString(), created_at: at })
    .execute();
  return `ub_session=${token}`;
}

/**
 * One checkout: add a product, open the checkout page, place the order. Returns the order number when
 * acknowledged, or "full" when the account already has as many unpaid orders as it may. `origin` is the
 * shop's PUBLIC_URL when it differs from `base` (instances behind a proxy).
 */
export async function checkoutOnce(base: string, shopper: { cookie: string }, productId: number, origin: string = base): Promise<string | "full" | null> {
  const headers = { Cookie: shopper.cookie, Origin: origin };
  const add = await fetch(`${base}/cart`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "add", productId: String(productId) }),
    redirect: "manual",
  });
  await add.arrayBuffer();
  if (add.status >= 400) return null;
  const page = await fetch(`${base}/checkout`, { headers: { Cookie: shopper.cookie } });
  const html = await page.text();
  const key = html.match(/name="checkoutKey" value="([^"]+)"/)?.[1];
  const seen = html.match(/name="seen" value="([^"]+)"/)?.[1];
  if (!key || !seen) return null;
  // The form a shopper without JavaScript sends: delivery to Lagos, paid on delivery. The first post
  // answers with the fee and the total to confirm; the second, carrying that total, places the order.
  const form = { checkoutKey: key, seen, addressId: "new", street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria", phone: "0803 123 4567", deliveryMethod: "delivery", paymentMethod: "on_delivery" };
  let expectedTotal = "";
  for (let step = 0; step < 2; step++) {
    const placed = await fetch(`${base}/checkout`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...form, expectedTotal }),
      redirect: "manual",
    });
    const body = await placed.text();
    if (placed.status === 429) return "full";
    if (placed.status === 303) {
      const number = (placed.headers.get("location") ?? "").match(/\/orders\/(UB-\d+)/)?.[1];
      return number ?? null;
    }
    expectedTotal = body.match(/name="expectedTotal" value="(\d+)"/)?.[1] ?? "";
    if (placed.status !== 200 || !expectedTotal) return null;
  }
  return null;
}
