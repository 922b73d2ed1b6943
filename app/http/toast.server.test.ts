import { describe, expect, it } from "vitest";
import { readToast, toastCookie } from "./toast.server";

const context = { config: { publicUrl: "http://shop.test", sessionSecret: "s".repeat(32) } } as Parameters<typeof readToast>[1];
const asked = (cookie?: string) => new Request("http://shop.test/shop", cookie ? { headers: { cookie } } : {});

describe("the one-time toast cookie", () => {
  it("is read once from a signed cookie among others, and cleared", async () => {
    const set = await toastCookie(context, { type: "success", key: "cart.added" });
    const pair = set.split(";")[0];
    const { toast, clear } = await readToast(asked(`lng=es; ${pair}; ub_cart=x`), context);
    expect(toast).toMatchObject({ type: "success", key: "cart.added" });
    expect(clear).toMatch(/^ub_toast=; .*Max-Age=0/);
  });

  it("is nothing without one, or with one not signed by the shop", async () => {
    expect(await readToast(asked(), context)).toEqual({ toast: null, clear: null });
    expect(await readToast(asked("ub_cart=x; lng=en"), context)).toEqual({ toast: null, clear: null });
    const forged = `ub_toast=${Buffer.from(JSON.stringify({ type: "error", key: "x" })).toString("base64")}`;
    expect(await readToast(asked(forged), context)).toEqual({ toast: null, clear: null });
  });
});
