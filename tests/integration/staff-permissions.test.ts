import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { can, type Permission } from "~/domain/backoffice/permissions.server";
import { createSession } from "~/http/session.server";
import { addBrand, addCategory, addProduct, addUser } from "../support/catalogue";
import { browserRequest, runRoute } from "../support/context";
import { testContext } from "../support/context";
import { everyRoute } from "../support/route-config";
import { ENGINES, freshDatabase, type TestDatabase } from "../support/databases";
import { insertOrder } from "../support/orders";

// Every loader and action under /admin in the route config, called as the server calls it, by an
// account of each role: refused (403) where the permission table (docs/decisions/218) says no, and
// answered otherwise. A route added under /admin is walked here without being listed; it fails until
// the permission it asks for is written below, so none is left unguarded by accident.

/** What each admin route module asks; an action whose parts differ says so by `intent`. */
const GUARDS: Record<string, { loader?: Permission; action?: Permission; intents?: Record<string, Permission>; query?: string }> = {
  "routes/admin.tsx": { loader: "dashboard" },
  "routes/admin._index.tsx": { loader: "dashboard" },
  "routes/admin.orders.tsx": { loader: "orders.view" },
  "routes/admin.orders.export.ts": { loader: "orders.export" },
  "routes/admin.orders.$number.tsx": {
    loader: "orders.view",
    action: "orders.status",
    intents: { status: "orders.status", deliveryFee: "orders.payments", markPaid: "orders.payments", refund: "orders.refund" },
  },
  // The packing slip; the invoice (money) asks `prices` too, below.
  "routes/admin.invoice.tsx": { loader: "orders.view", query: "?doc=slip" },
  "routes/admin.products.tsx": { loader: "catalogue.view", action: "catalogue.edit" },
  "routes/admin.products.export.ts": { loader: "catalogue.export" },
  "routes/admin.products.import.tsx": { loader: "catalogue.edit", action: "catalogue.edit" },
  "routes/admin.products.photos.tsx": { loader: "catalogue.edit", action: "catalogue.edit" },
  "routes/admin.products.$id.stock.tsx": { loader: "stock", action: "stock" },
  "routes/admin.products.$id.sizes.tsx": { loader: "catalogue.edit", action: "catalogue.edit" },
  "routes/admin.products.$id.photos.tsx": { loader: "catalogue.edit", action: "catalogue.edit" },
  "routes/admin.categories.tsx": { loader: "catalogue.edit", action: "catalogue.edit" },
  "routes/admin.brands.tsx": { loader: "catalogue.edit", action: "catalogue.edit" },
  "routes/admin.regions.tsx": { loader: "catalogue.edit" },
  "routes/admin.reviews.tsx": { loader: "reviews", action: "reviews" },
  "routes/admin.customers.tsx": { loader: "customers.view" },
  "routes/admin.customers.$id.tsx": { loader: "customers.view", action: "staff" },
  "routes/admin.delivery.tsx": { loader: "settings", action: "settings" },
  "routes/admin.audit.tsx": { loader: "audit" },
  "routes/admin.staff.tsx": { loader: "staff", action: "staff" },
  // A staff member's own sign-in: every staff role's, as the dashboard is.
  "routes/admin.account.tsx": { loader: "dashboard", action: "dashboard" },
  "routes/admin.messages.tsx": { loader: "settings", action: "settings" },
  "routes/admin.promotions.tsx": { loader: "promotions", action: "promotions" },
  "routes/admin.gift-cards.tsx": { loader: "credit", action: "credit" },
  "routes/admin.customers.$id.credit.tsx": { action: "credit" },
  "routes/admin.orders.$number.credit.tsx": { action: "orders.refund" },
  "routes/admin.promotions.$id.tsx": { loader: "promotions", action: "promotions", intents: { save: "promotions", pause: "promotions", resume: "promotions" } },
};

const ROLES: Role[] = ["owner", "manager", "fulfilment", "support", "customer"];
const SHOPPER_PHONE = "+2348031234567";
type Handler = (args: never) => Promise<unknown>;

describe.each(ENGINES)("every admin route for every role on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  const cookies = {} as Record<Role, string>;
  const params = { product: "1", customer: "1", number: "1" };

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    for (const role of ROLES) cookies[role] = await createSession(context, (await addUser(t.db, role)).id);
    const shopper = await addUser(t.db, "customer");
    const product = await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: (await addCategory(t.db)).id, stock: 5 });
    const order = await insertOrder(t.db, { userId: shopper.id, items: [{ productId: product.id, quantity: 1 }] });
    await t.db.updateTable("users").set({ phone: SHOPPER_PHONE }).where("id", "=", shopper.id).execute();
    await t.db.updateTable("orders").set({ phone: SHOPPER_PHONE }).where("number", "=", order.number).execute();
    Object.assign(params, { product: String(product.id), customer: String(shopper.id), number: order.number });
  });
  afterAll(async () => {
    await t?.drop();
  });

  const routeParams = (routePath: string): Record<string, string> =>
    Object.fromEntries(
      [...routePath.matchAll(/:(\w+)/g)].map(([, name]) => [name, name === "number" ? params.number : routePath.startsWith("/admin/customers") ? params.customer : params.product]),
    );
  const url = (routePath: string) => routePath.replace(/:(\w+)/g, (_, name: string) => routeParams(routePath)[name]);

  it("refuses each role exactly what the table denies it, in every loader and action", async () => {
    const admin = everyRoute().filter((r) => r.path === "/admin" || r.path.startsWith("/admin/"));
    const failures: string[] = [];
    let checked = 0;
    for (const route of admin) {
      const module = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as { loader?: Handler; action?: Handler };
      const guard = GUARDS[route.file];
      if ((module.loader && !guard?.loader) || (module.action && !guard?.action)) {
        failures.push(`${route.file} has no permission written in this test's table`);
        continue;
      }
      const calls: { what: string; handler: Handler; permission: Permission; body?: Record<string, string> }[] = [];
      if (module.loader) calls.push({ what: "GET", handler: module.loader, permission: guard.loader! });
      if (module.action) {
        const intents = guard.intents ?? { "": guard.action! };
        for (const [intent, permission] of Object.entries(intents)) {
          calls.push({ what: `POST ${intent || "(form)"}`, handler: module.action, permission, body: intent ? { intent } : {} });
        }
      }
      for (const call of calls) {
        for (const role of ROLES) {
          const request = call.body
            ? browserRequest(url(route.path), { method: "POST", body: new URLSearchParams(call.body), cookies: [cookies[role]], headers: { Origin: "http://shop.test" } })
            : browserRequest(url(route.path) + (guard.query ?? ""), { cookies: [cookies[role]] });
          const outcome = await runRoute(call.handler, request, context, routeParams(route.path));
          checked++;
          const allowed = can(role, call.permission);
          if (outcome.body instanceof Error) failures.push(`${call.what} ${route.path} as ${role}: threw ${outcome.body.message}`);
          else if (allowed && outcome.status === 403) failures.push(`${call.what} ${route.path} as ${role}: 403, but ${call.permission} allows it`);
          else if (!allowed && outcome.status !== 403) failures.push(`${call.what} ${route.path} as ${role}: ${outcome.status}, but ${call.permission} refuses it`);
          else if (outcome.status >= 500) failures.push(`${call.what} ${route.path} as ${role}: ${outcome.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(admin.map((r) => r.file)).toEqual(expect.arrayContaining(Object.keys(GUARDS)));
    expect(checked).toBeGreaterThan(100);
  });

  it("sends each role only the figures and contact details it may see, and prints the invoice only for those who see prices", async () => {
    const get = async (handler: string, at: string, role: Role, routeParams: Record<string, string> = {}) => {
      const module = (await import(/* @vite-ignore */ path.resolve("app", handler))) as { loader: Handler };
      return runRoute(module.loader, browserRequest(at, { cookies: [cookies[role]] }), context, routeParams);
    };
    const number = { number: params.number };
    const shopperEmail = (await t.db.selectFrom("users").select("email").where("id", "=", Number(params.customer)).executeTakeFirstOrThrow()).email;
    for (const role of ["owner", "manager", "fulfilment", "support"] as Role[]) {
      const dashboard = (await get("routes/admin._index.tsx", "/admin", role)).body as { dashboard: { daily: unknown[]; latest: { total: number; customer: string | null }[] }; setup: unknown };
      expect(dashboard.dashboard.daily.length > 0, role).toBe(can(role, "revenue"));
      expect(dashboard.dashboard.latest[0].customer, role).toBe(can(role, "customers.contact") ? shopperEmail : null);
      expect(dashboard.dashboard.latest[0].total > 0, role).toBe(can(role, "prices"));
      expect(dashboard.setup !== null, role).toBe(can(role, "settings"));

      const list = (await get("routes/admin.orders.tsx", "/admin/orders", role)).body as { orders: { total: number; customerEmail: string | null; customerName: string | null }[]; exportable: boolean };
      expect(list.orders[0].customerEmail, role).toBe(can(role, "customers.contact") ? shopperEmail : null);
      expect(list.orders[0].customerName, role).not.toBeNull();
      expect(list.orders[0].total > 0, role).toBe(can(role, "prices"));
      expect(list.exportable, role).toBe(can(role, "orders.export"));

      const order = (await get("routes/admin.orders.$number.tsx", `/admin/orders/${params.number}`, role, number)).body as {
        order: { total: number; items: { unitPrice: number }[]; customerEmail: string | null; phone: string | null };
        changesStatus: boolean;
        canRefund: boolean;
      };
      expect(order.order.items[0].unitPrice > 0, role).toBe(can(role, "prices"));
      expect(order.order.customerEmail, role).toBe(can(role, "customers.contact") ? shopperEmail : null);
      expect(order.order.phone, role).toBe(can(role, "customers.contact") ? SHOPPER_PHONE : null);
      expect(order.changesStatus, role).toBe(can(role, "orders.status"));

      const invoice = await get("routes/admin.invoice.tsx", `/admin/orders/${params.number}/print`, role, number);
      expect(invoice.status, role).toBe(can(role, "prices") ? 200 : 403);
      const slip = (await get("routes/admin.invoice.tsx", `/admin/orders/${params.number}/print?doc=slip`, role, number)).body as { invoice: { total: number; phone: string | null; customer: { email: string } } };
      expect(slip.invoice.customer.email, role).toBe(can(role, "customers.contact") ? shopperEmail : "");
      expect(slip.invoice.phone, role).toBe(can(role, "customers.contact") ? SHOPPER_PHONE : null);

      if (can(role, "customers.view")) {
        const customer = (await get("routes/admin.customers.$id.tsx", `/admin/customers/${params.customer}`, role, { id: params.customer })).body as { customer: { email: string; phone: string | null } };
        expect([customer.customer.email, customer.customer.phone], role).toEqual(can(role, "customers.contact") ? [shopperEmail, SHOPPER_PHONE] : ["", null]);
        const customers = (await get("routes/admin.customers.tsx", "/admin/customers", role)).body as { customers: { id: number; email: string }[] };
        expect(customers.customers.find((c) => c.id === Number(params.customer))?.email, role).toBe(can(role, "customers.contact") ? shopperEmail : "");
      }
      expect(slip.invoice.total > 0, role).toBe(can(role, "prices"));

      if (can(role, "catalogue.view")) {
        const products = (await get("routes/admin.products.tsx", "/admin/products?edit=1&new=1", role)).body as { products: { price: number }[]; manage: boolean; creating: boolean };
        expect(products.products[0].price > 0, role).toBe(can(role, "prices"));
        expect([products.manage, products.creating], role).toEqual([can(role, "catalogue.edit"), can(role, "catalogue.edit")]);
      }
    }
  });

  it("leaves no staff role without the dashboard, and gives only owners the staff roles and settings", () => {
    for (const role of ["owner", "manager", "fulfilment", "support"] as Role[]) expect(can(role, "dashboard"), role).toBe(true);
    expect(ROLES.filter((r) => can(r, "staff"))).toEqual(["owner"]);
    expect(ROLES.filter((r) => can(r, "settings"))).toEqual(["owner"]);
    expect(ROLES.filter((r) => can(r, "orders.refund"))).toEqual(["owner"]);
    expect(ROLES.filter((r) => can(r, "revenue"))).toEqual(["owner", "manager"]);
    expect(ROLES.filter((r) => can(r, "customers.contact"))).toEqual(["owner", "manager", "support"]);
    expect(ROLES.filter((r) => can(r, "promotions"))).toEqual(["owner", "manager"]);
    // Store credit and gift cards are money out of the shop: the owner's alone, as refunds are.
    expect(ROLES.filter((r) => can(r, "credit"))).toEqual(["owner"]);
  });
});
