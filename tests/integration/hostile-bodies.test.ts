import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/http/session.server";
import { addBrand, addCategory, addProduct, addUser } from "../support/catalogue";
import { testContext } from "../support/context";
import { type Action, everyRoute, outcome } from "../support/route-config";
import { ENGINES, freshDatabase, type TestDatabase } from "../support/databases";
import { insertOrder } from "../support/orders";

// Every action in the route config, called as the server calls it, over a real database on each
// engine, with each kind of body that is not a form: a 400 (or 413) with a message, never a 500.
// A route added to app/routes.ts with an action is walked here without being listed.

const FORM_TYPE = "application/x-www-form-urlencoded";
const badBodies: [string, () => { body: BodyInit; headers: Record<string, string> }, number][] = [
  ["JSON", () => ({ body: '{"intent":"add","productId":1}', headers: { "Content-Type": "application/json" } }), 400],
  ["text/plain", () => ({ body: "intent=add", headers: { "Content-Type": "text/plain" } }), 400],
  ["no Content-Type", () => ({ body: new Uint8Array(Buffer.from("intent=add")), headers: {} }), 400],
  ["broken multipart", () => ({ body: "--b\r\nnot a part", headers: { "Content-Type": "multipart/form-data; boundary=b" } }), 400],
  [
    "a chunked body over the limit",
    () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ >= 40) return controller.close();
          controller.enqueue(new Uint8Array(16 * 1024).fill(97));
        },
      });
      return { body, headers: { "Content-Type": FORM_TYPE } };
    },
    413,
  ],
];

describe.each(ENGINES)("hostile bodies to every action on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let cookie: string;
  const params: Record<string, string> = {};

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    const admin = await addUser(t.db, "owner");
    cookie = await createSession(context, admin.id);
    const product = await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: (await addCategory(t.db)).id, stock: 5 });
    const order = await insertOrder(t.db, { userId: admin.id, items: [{ productId: product.id, quantity: 1 }] });
    Object.assign(params, { id: String(product.id), number: order.number, reference: order.number });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("answers each with a 4xx and a translated message", async () => {
    const withActions: { file: string; path: string; action: Action }[] = [];
    for (const entry of everyRoute()) {
      const module = (await import(/* @vite-ignore */ path.resolve("app", entry.file))) as { action?: Action };
      // The providers' webhooks (Paystack, WhatsApp, Termii) take JSON by design and are refused unless signed (their domain tests).
      if (module.action && !entry.path.startsWith("/webhooks/")) withActions.push({ ...entry, action: module.action });
    }
    expect(withActions.map((r) => r.path)).toEqual(expect.arrayContaining(["/checkout", "/profile", "/wishlist", "/cart", "/auth", "/admin/products"]));

    const failures: string[] = [];
    for (const route of withActions) {
      const url = route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "1");
      const routeParams = Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, params[name] ?? "1"]));
      for (const [kind, make, expected] of badBodies) {
        const { body, headers } = make();
        const request = new Request(`http://shop.test${url}`, {
          method: "POST",
          body,
          duplex: "half",
          headers: { Cookie: cookie.split(";")[0], Origin: "http://shop.test", "Accept-Language": "es", ...headers },
        } as RequestInit);
        const answer = await outcome(route.action, request, context, routeParams);
        if (answer.status !== expected) failures.push(`${kind} to ${url}: ${answer.status}, expected ${expected}`);
        else if (answer.message !== null && !/No hemos podido leer|Eso es más de lo que la tienda acepta|más de 5 MB/.test(answer.message)) {
          failures.push(`${kind} to ${url}: message ${answer.message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
