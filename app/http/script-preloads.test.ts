import { describe, expect, it } from "vitest";
import { pageBytesWithoutScriptPreloads } from "./script-preloads.server";

describe("script preload hints", () => {
  it("are dropped from the head only, keeping every other character, after the doctype", () => {
    const html =
      '<html><head><title>Añadir ₦ 😀</title><link rel="modulepreload" href="/a.js" nonce="n"/><link rel="stylesheet" href="/s.css"/>' +
      '<link rel="modulepreload" href="/b.js"/></head><body><link rel="modulepreload" href="/c.js"/><script type="module">import "/a.js";</script>₦ “ñ” 😀</body></html>';
    const expected = html.replace('<link rel="modulepreload" href="/a.js" nonce="n"/>', "").replace('<link rel="modulepreload" href="/b.js"/>', "");
    // As React hands it over: many pieces joined, not one flat string.
    const joined = (html.match(/.{1,7}/gsu) ?? []).reduce((page, piece) => page + piece, "");
    expect(pageBytesWithoutScriptPreloads("<!DOCTYPE html>", joined).toString("utf8")).toBe(`<!DOCTYPE html>${expected}`);
    expect(pageBytesWithoutScriptPreloads("<!DOCTYPE html>", "<p>no head at all ₦</p>").toString("utf8")).toBe("<!DOCTYPE html><p>no head at all ₦</p>");
  });
});
