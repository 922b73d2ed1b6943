import { describe, expect, it } from "vitest";
import { isSameOriginRequest, isWebhook } from "./origin-check.server";

const base = { host: "shop.test:3000", protocol: "http", publicUrl: "https://unboxed.ng" };

describe("cross-site request check", () => {
  it("lets reads through", () => {
    expect(isSameOriginRequest({ ...base, method: "GET" })).toBe(true);
    expect(isSameOriginRequest({ ...base, method: "HEAD", origin: "https://evil.example" })).toBe(true);
  });

  it("accepts posts from our own origin, by Origin or else Referer", () => {
    expect(isSameOriginRequest({ ...base, method: "POST", origin: "http://shop.test:3000" })).toBe(true);
    expect(isSameOriginRequest({ ...base, method: "POST", origin: "https://unboxed.ng" })).toBe(true);
    expect(isSameOriginRequest({ ...base, method: "POST", referer: "https://unboxed.ng/cart?x=1" })).toBe(true);
  });

  it("refuses other origins, missing and opaque origins", () => {
    expect(isSameOriginRequest({ ...base, method: "POST", origin: "https://evil.example" })).toBe(false);
    expect(isSameOriginRequest({ ...base, method: "POST", origin: "http://shop.test:3001" })).toBe(false);
    expect(isSameOriginRequest({ ...base, method: "DELETE", referer: "https://unboxed.ng.evil.example/" })).toBe(false);
    expect(isSameOriginRequest({ ...base, method: "POST" })).toBe(false);
    expect(isSameOriginRequest({ ...base, method: "POST", origin: "null" })).toBe(false);
    expect(isSameOriginRequest({ ...base, method: "PUT", origin: "not a url", referer: "also not" })).toBe(false);
    // an Origin that is present decides, even when the Referer looks right
    expect(isSameOriginRequest({ ...base, method: "POST", origin: "https://evil.example", referer: "https://unboxed.ng/" })).toBe(false);
  });

  it("lets only the providers' webhooks in from elsewhere: POST /webhooks/paystack, whatsapp and termii, nothing else", () => {
    expect(isWebhook("POST", "/webhooks/paystack")).toBe(true);
    expect(isWebhook("post", "/webhooks/paystack")).toBe(true);
    expect(isWebhook("POST", "/webhooks/whatsapp")).toBe(true);
    expect(isWebhook("POST", "/webhooks/termii")).toBe(true);
    for (const [method, path] of [
      ["POST", "/webhooks/paystack/"],
      ["POST", "/webhooks/paystack-x"],
      ["POST", "/webhooks"],
      ["PUT", "/webhooks/paystack"],
      ["GET", "/webhooks/whatsapp"],
      ["POST", "/webhooks/whatsapp/x"],
      ["POST", "/checkout"],
      ["POST", "/admin/orders/UB-10001"],
    ]) {
      expect(isWebhook(method, path), `${method} ${path}`).toBe(false);
    }
  });
});
