import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import type { createStaticHandler as CreateStaticHandler, RouteObject } from "react-router";
import { describe, expect, it } from "vitest";

// Every runtime dependency is something the shop's code imports: an unused package is code we ship,
// install and keep patched for nothing.

/** Runtime dependencies used without an import in our code, and why. */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  tsx: "runs the TypeScript npm scripts (node --import tsx)",
  "patch-package": "applies patches/ to the installed packages after every npm install (postinstall)",
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : sourceFiles(full);
    return /\.(ts|tsx|js|css)$/.test(entry.name) ? [full] : [];
  });
}

describe("dependencies", () => {
  it("lists no runtime package that nothing imports", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    const code = [...sourceFiles("app"), ...sourceFiles("scripts"), "server.ts"].map((file) => fs.readFileSync(file, "utf8")).join("\n");
    const unused = Object.keys(pkg.dependencies).filter((name) => {
      if (name in USED_WITHOUT_IMPORT) return false;
      const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      return !new RegExp(`(from |import\\(|@import )["']${escaped}(/[^"']*)?["']`).test(code);
    });
    expect(unused).toEqual([]);
  });

  it("has the patches of patches/ applied to the installed packages (docs/decisions/184, 186, 199)", () => {
    const patches = fs.readdirSync("patches").filter((name) => name.endsWith(".patch"));
    // In sequence: an install patched with the first takes the second with a plain npm install (decision 186).
    expect(patches).toEqual([
      "react-router+7.18.4+001+route-work-once.patch",
      "react-router+7.18.4+002+request-handed-on.patch",
      "react-router+7.18.4+003+matches-by-pattern.patch",
    ]);
    // The patch is for this version only: a new one must be made again, or dropped, with any upgrade.
    const installed = (JSON.parse(fs.readFileSync("node_modules/react-router/package.json", "utf8")) as { version: string }).version;
    expect(installed).toBe("7.18.4");
    const code = fs.readdirSync("node_modules/react-router/dist/development").filter((name) => name.endsWith(".mjs")).map((name) => fs.readFileSync(path.join("node_modules/react-router/dist/development", name), "utf8")).join("\n");
    for (const mark of ["serverRoutesOfManifest", "dataRoutesOfRoutes", "keptMatchesOf", "hasIndexOrRoutesParam", "matchesOfPattern"]) expect(code).toContain(mark);
  });

  it("pins every package to an exact version", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const loose = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([, version]) => !/^\d+\.\d+\.\d+$/.test(version));
    expect(loose).toEqual([]);
  });

  it("declares every package the code, tests, scripts and configs import", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
    const files = [...sourceFiles("app"), ...sourceFiles("scripts"), ...sourceFiles("tests"), ...fs.readdirSync(".").filter((name) => /\.(ts|js)$/.test(name))];
    const undeclared = new Set<string>();
    for (const file of files) {
      const code = fs.readFileSync(file, "utf8");
      for (const [, specifier] of code.matchAll(/(?:\bfrom |\bimport\(|^import )["']([^"'.~/][^"']*)["']/gm)) {
        if (specifier.startsWith("node:") || specifier.startsWith("virtual:") || builtinModules.includes(specifier.split("/")[0])) continue;
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
        if (!declared.has(name)) undeclared.add(`${name} (${file})`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });

  it("matches a path ending in a number as the path it was kept from would, with its own number (docs/decisions/199)", async () => {
    const matched = async (routes: RouteObject[], path: string) => {
      const context = await handlers.get(routes)!.query(new Request(`http://shop.test${path}`));
      if (context instanceof Response) throw new Error("no context");
      return context.matches.map((m) => `${m.route.id} ${m.pathname} ${m.pathnameBase} ${JSON.stringify(m.params)}`);
    };
    const page = (id: string, path?: string, children?: RouteObject[]): RouteObject => ({ id, path, children, loader: () => null });
    const shop = [page("root", "/", [page("frame", undefined, [page("product", "shop/:id"), page("new", "shop/new"), page("shop", "shop"), page("order", "orders/:number/items/:item"), page("rest", "*")])])];
    const dated = [page("root", "/", [page("year", "shop/2024"), page("product", "shop/:id"), page("rest", "*")])];
    // The build Node loads on the server, where the patch is (the tests' own import may resolve to another).
    const router = (await import(path.resolve("node_modules/react-router/dist/development/index.mjs"))) as { createStaticHandler: typeof CreateStaticHandler };
    const handlers = new Map([shop, dated].map((routes) => [routes, router.createStaticHandler(routes)]));
    // Each path asked twice in turn: the first of a kind is matched in full and kept, the rest come from what was kept.
    for (const round of [1, 2]) {
      expect(await matched(shop, "/shop/5432"), `round ${round}`).toEqual(["root / / {\"id\":\"5432\"}", "frame / / {\"id\":\"5432\"}", "product /shop/5432 /shop/5432 {\"id\":\"5432\"}"]);
      expect(await matched(shop, "/shop/77")).toEqual(["root / / {\"id\":\"77\"}", "frame / / {\"id\":\"77\"}", "product /shop/77 /shop/77 {\"id\":\"77\"}"]);
      expect(await matched(shop, "/shop/new")).toEqual(["root / / {}", "frame / / {}", "new /shop/new /shop/new {}"]);
      expect((await matched(shop, "/shop/7/reviews")).at(-1)).toBe("rest /shop/7/reviews / {\"*\":\"shop/7/reviews\"}");
      expect((await matched(shop, "/orders/12/items/12")).at(-1)).toBe("order /orders/12/items/12 /orders/12/items/12 {\"number\":\"12\",\"item\":\"12\"}");
      expect((await matched(shop, "/orders/12/items/13")).at(-1)).toBe("order /orders/12/items/13 /orders/12/items/13 {\"number\":\"12\",\"item\":\"13\"}");
      expect((await matched(shop, "/orders/14/items/13")).at(-1)).toBe("order /orders/14/items/13 /orders/14/items/13 {\"number\":\"14\",\"item\":\"13\"}");
      expect((await matched(shop, "/99")).at(-1)).toBe("rest /99 / {\"*\":\"99\"}");
      // A route with a number of its own: every path of that kind is matched in full.
      expect((await matched(dated, "/shop/7")).at(-1)).toBe("product /shop/7 /shop/7 {\"id\":\"7\"}");
      expect((await matched(dated, "/shop/2024")).at(-1)).toBe("year /shop/2024 /shop/2024 {}");
    }
  });
});
