import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, firstSizeOf } from "../../tests/support/catalogue";
import { browserRequest, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { LIMITS } from "~/domain/operations/rate-limits.server";
import * as cart from "./cart";

// The cart action as the server calls it, over a real database: WhatsApp orders are capped per IP address.

type Handler = (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => unknown;

async function run(request: Request, context: AppLoadContext): Promise<{ status: number; headers: Headers; data: unknown }> {
  let result: unknown;
  try {
    result = await (cart.action as unknown as Handler)({ request, context, params: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: null };
  const { data, init } = result as { data: unknown; init: ResponseInit | null };
  return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
}

describe.each(ENGINES)("WhatsApp orders through the cart on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let carts = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = { ...testContext(t), clientIp: "198.51.100.200" };
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function anonymousCart(productId: number): Promise<string> {
    const at = new Date().toISOString();
    const id = `route-cart-${++carts}-${"abcdefghij".repeat(3)}`;
    await t.db.insertInto("carts").values({ id, user_id: null, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: id, product_id: productId, size_id: firstSizeOf(productId), quantity: 1, created_at: at }).execute();
    return id;
  }

  const press = (cartId: string) =>
    run(browserRequest("/cart", { method: "POST", body: new URLSearchParams({ intent: "whatsapp" }), cookies: [`ub_cart=${cartId}`] }), context);

  it("records new orders up to the per-address limit, then answers 429 with Retry-After and a clear message", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Route Oud", price: 1_000_000, stock: 100 }]);
    for (let i = 0; i < LIMITS.whatsappIp.points; i++) {
      const answer = await press(await anonymousCart(p));
      expect(answer.status).toBe(303);
      expect(answer.headers.get("Location")).toMatch(/^\/cart\/whatsapp\/UB-\d+$/);
    }
    const refused = await press(await anonymousCart(p));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.data).toEqual({ error: { message: "You have already sent several WhatsApp orders. Please finish one in WhatsApp, or try again later." } });
    const orders = await t.db.selectFrom("orders").select("id").where("channel", "=", "whatsapp").execute();
    expect(orders).toHaveLength(LIMITS.whatsappIp.points);
  });
});
