import fs from "node:fs";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { can, type Permission } from "~/domain/backoffice/permissions.server";
import { createSession, requireUser } from "~/http/session.server";
import { requirePermission } from "~/http/staff-guard.server";
import { captureSecurityLog } from "~/platform/security-log.server";
import { addBrand, addCategory, addProduct, addUser } from "../support/catalogue";
import { browserRequest, runRoute } from "../support/context";
import { testContext } from "../support/context";
import { everyRoute } from "../support/route-config";
import { ENGINES, freshDatabase, type TestDatabase } from "../support/databases";
import { insertOrder } from "../support/orders";

// Every loader and action under /admin in the route config, called as the server calls it, by an
// account of each role, on both engines. Nothing here lists the routes: each is found in app/routes.ts,
// and each action's intents are read from its module's source. Every one must be guarded through the
// permission table (a customer is refused with a logged `admin_forbidden` naming the permission asked),
// and each staff role is refused exactly when the table denies it a permission the route asks
// (docs/decisions/218). The routes below have their permission written down as well, so weakening one
// fails here; a new route is walked by the same rules without being written anywhere.

/** What the routes known today ask; an action whose parts differ says so by `intent`. Not a list to keep up: unlisted routes are walked too. */
const EXPECTED: Record<string, { loader?: Permission; action?: Permission; intents?: Record<string, Permission>; query?: string }> = {
  "routes/admin.tsx": { loader: "dashboard" },
  "routes/admin._index.tsx": { loader: "dashboard" },
  "routes/admin.orders.tsx": { loader: "orders.view" },
  "routes/admin.orders.export.ts": { loader: "orders.export" },
  "routes/admin.orders.$number.tsx": {
    loader: "orders.view",
    action: "orders.status",
    intents: { status: "orders.status", deliveryFee: "orders.payments", markPaid: "orders.payments", refund: "orders.refund", revokeLink: "orders.status", reissueLink: "orders.status" },
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
  "routes/admin.customers.export.ts": { loader: "customers.view" },
  // A guest's page: reached through a guest order (this test's order has an account: a 404 for those allowed).
  "routes/admin.customers.guest.$number.tsx": { loader: "customers.view" },
  "routes/admin.customers.$id.tsx": { loader: "customers.view", action: "staff" },
  "routes/admin.delivery.tsx": { loader: "settings", action: "settings" },
  "routes/admin.audit.tsx": { loader: "audit" },
  "routes/admin.staff.tsx": { loader: "staff", action: "staff" },
  // A staff member's own sign-in: every staff role's, as the dashboard is.
  "routes/admin.account.tsx": { loader: "dashboard", action: "dashboard" },
  "routes/admin.messages.tsx": { loader: "settings", action: "settings" },
  "routes/admin.promotions.tsx": { loader: "promotions", action: "promotions", intents: { sale: "promotions" } },
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
  const users = {} as Record<Role, number>;
  const params = { product: "1", customer: "1", number: "1" };

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    for (const role of ROLES) {
      users[role] = (await addUser(t.db, role)).id;
      cookies[role] = await createSession(context, users[role]);
    }
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

  type Module = { loader?: Handler; action?: Handler };
  type Walked = { file: string; path: string; module: Module; source: string };

  /** The admin routes of app/routes.ts, each with its module and its source (to read its intents). */
  async function adminRoutes(): Promise<Walked[]> {
    const found = everyRoute().filter((r) => r.path === "/admin" || r.path.startsWith("/admin/"));
    return Promise.all(
      found.map(async (r) => ({
        ...r,
        module: (await import(/* @vite-ignore */ path.resolve("app", r.file))) as Module,
        source: fs.readFileSync(path.resolve("app", r.file), "utf8"),
      })),
    );
  }

  /** Every intent an action tells apart, as its source names them, with those written in EXPECTED; "" is a form without one. */
  function intentsOf(route: Walked): string[] {
    const named = new Set<string>(["", ...Object.keys(EXPECTED[route.file]?.intents ?? {})]);
    for (const [, name] of route.source.matchAll(/intent(?:"\))?\s*[!=]==?\s*"([\w-]+)"/g)) named.add(name);
    if (/switch\s*\(\s*(?:\w+\.)?intent\s*\)/.test(route.source)) for (const [, name] of route.source.matchAll(/case\s+"([\w-]+)"\s*:/g)) named.add(name);
    return [...named];
  }

  /**
   * Calls every loader and action (each intent) of the routes as each role and says what is wrong: a
   * call not guarded through the permission table, a role let through without the permission the route
   * asks or refused with it, a 500; and for the routes in EXPECTED, a permission other than the one written.
   */
  async function walk(routes: Walked[]): Promise<{ failures: string[]; checked: number }> {
    const failures: string[] = [];
    let checked = 0;
    const log = captureSecurityLog();
    try {
      for (const route of routes) {
        const expected = EXPECTED[route.file];
        const calls: { what: string; handler: Handler; expected?: Permission; body?: Record<string, string> }[] = [];
        if (route.module.loader) calls.push({ what: "GET", handler: route.module.loader, expected: expected?.loader });
        if (route.module.action) {
          for (const intent of intentsOf(route)) {
            calls.push({ what: `POST ${intent || "(form)"}`, handler: route.module.action, expected: intent ? (expected?.intents?.[intent] ?? expected?.action) : expected?.action, body: intent ? { intent } : {} });
          }
        }
        for (const call of calls) {
          const where = `${call.what} ${route.path}`;
          // The customer first: the refusal names the permission the route's guard asks.
          let asked: Permission | undefined;
          for (const role of ["customer", "owner", "manager", "fulfilment", "support"] as Role[]) {
            const request = call.body
              ? browserRequest(url(route.path), { method: "POST", body: new URLSearchParams(call.body), cookies: [cookies[role]], headers: { Origin: "http://shop.test" } })
              : browserRequest(url(route.path) + (expected?.query ?? ""), { cookies: [cookies[role]] });
            const before = log.lines.length;
            const outcome = await runRoute(call.handler, request, context, routeParams(route.path));
            checked++;
            const refusal = log.lines.slice(before).find((line) => line.event === "admin_forbidden" && line.userId === users[role]);
            const refusedFor = refusal?.permission as Permission | undefined;
            if (outcome.body instanceof Error) failures.push(`${where} as ${role}: threw ${outcome.body.message}`);
            else if (outcome.status >= 500) failures.push(`${where} as ${role}: ${outcome.status}`);
            else if (role === "customer") {
              if (outcome.status !== 403 || !refusedFor) failures.push(`${where}: not guarded by the permission table (a customer got ${outcome.status})`);
              asked = refusedFor;
              if (call.what === "GET" && expected?.loader && asked && asked !== expected.loader) failures.push(`${where} asks ${asked}, written as ${expected.loader}`);
            } else if (outcome.status === 403) {
              if (!refusedFor) failures.push(`${where} as ${role}: 403 not from the permission table`);
              else if (can(role, refusedFor)) failures.push(`${where} as ${role}: refused ${refusedFor}, which the role holds`);
              else if (call.expected && can(role, call.expected)) failures.push(`${where} as ${role}: 403, but ${call.expected} allows it`);
            } else {
              if (asked && !can(role, asked)) failures.push(`${where} as ${role}: ${outcome.status}, without ${asked}`);
              if (call.expected && !can(role, call.expected)) failures.push(`${where} as ${role}: ${outcome.status}, but ${call.expected} refuses it`);
            }
          }
        }
      }
    } finally {
      log.stop();
    }
    return { failures, checked };
  }

  it("finds every admin route and intent without a list, and refuses each role exactly what the table denies it", async () => {
    const routes = await adminRoutes();
    expect(routes.map((r) => r.file)).toEqual(expect.arrayContaining(Object.keys(EXPECTED)));
    expect(intentsOf(routes.find((r) => r.file === "routes/admin.orders.$number.tsx")!)).toEqual(expect.arrayContaining(["refund", "markPaid", "deliveryFee", "revokeLink"]));
    expect(intentsOf(routes.find((r) => r.file === "routes/admin.staff.tsx")!)).toEqual(expect.arrayContaining(["invite", "suspend", "secondFactorAll"]));
    const { failures, checked } = await walk(routes);
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  });

  it("would catch a route guarded only by a sign-in, one guarded too loosely, and one whose written permission was weakened", async () => {
    const unguarded: Walked = {
      file: "routes/admin.unguarded.tsx",
      path: "/admin/unguarded",
      source: "",
      module: { loader: (async ({ request, context }: { request: Request; context: AppLoadContext }) => ({ user: await requireUser(request, context) })) as Handler },
    };
    const weakened: Walked = {
      file: "routes/admin.staff.tsx",
      path: "/admin/staff",
      source: 'if (intent === "invite") {}',
      module: { action: (async ({ request, context }: { request: Request; context: AppLoadContext }) => requirePermission(request, context, "dashboard").then(() => null)) as Handler },
    };
    const { failures } = await walk([unguarded, weakened]);
    expect(failures).toContain("GET /admin/unguarded: not guarded by the permission table (a customer got 200)");
    for (const role of ["manager", "fulfilment", "support"]) {
      expect(failures).toContain(`POST (form) /admin/staff as ${role}: 200, but staff refuses it`);
      expect(failures).toContain(`POST invite /admin/staff as ${role}: 200, but staff refuses it`);
    }
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

      // The orders CSV: the e-mail, the phone and the amounts only as the role may see them.
      const exporter = (await import(/* @vite-ignore */ path.resolve("app", "routes/admin.orders.export.ts"))) as { loader: (args: never) => Promise<Response> };
      const csv = await exporter.loader({ request: browserRequest("/admin/orders/export", { cookies: [cookies[role]] }), context, params: {} } as never).catch((thrown: unknown) => thrown);
      if (!can(role, "orders.export")) expect((csv as { init?: { status?: number } }).init?.status, role).toBe(403);
      else {
        expect(csv, role).toBeInstanceOf(Response);
        const body = await (csv as Response).text();
        expect(body.includes(shopperEmail), role).toBe(can(role, "customers.contact"));
        expect(body.includes(SHOPPER_PHONE), role).toBe(can(role, "customers.contact"));
      }

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
