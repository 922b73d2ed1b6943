import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// React Router sends only the headers a route passes on: a route whose action can answer 429 must pass
// on the Retry-After, or the shopper's browser never learns when to try again. Walks every route, so a
// new one cannot forget.

const routesDir = path.resolve("app/routes");
const answering429 = fs
  .readdirSync(routesDir)
  .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".test.ts"))
  .filter((file) => /tooManyAttempts\(/.test(fs.readFileSync(path.join(routesDir, file), "utf8")));

describe("routes that can answer 429", () => {
  it("are found", () => {
    expect(answering429).toEqual(expect.arrayContaining(["auth.tsx", "auth.register.tsx", "auth.forgot-password.tsx"]));
  });

  it.each(answering429)("%s passes on the action's Retry-After", async (file) => {
    const route = (await import(/* @vite-ignore */ path.join(routesDir, file))) as { headers?: (args: unknown) => HeadersInit };
    expect(typeof route.headers).toBe("function");
    const args = { actionHeaders: new Headers({ "Retry-After": "421" }), loaderHeaders: new Headers(), parentHeaders: new Headers(), errorHeaders: undefined };
    expect(new Headers(route.headers!(args)).get("Retry-After")).toBe("421");
    const calm = { ...args, actionHeaders: new Headers() };
    expect(new Headers(route.headers!(calm)).get("Retry-After")).toBeNull();
  });
});
