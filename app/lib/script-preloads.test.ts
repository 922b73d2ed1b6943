import { describe, expect, it } from "vitest";
import { withoutScriptPreloads } from "./script-preloads.server";

describe("script preload hints", () => {
  it("are dropped from the head only, keeping every other character", () => {
    const html =
      '<html><head><title>Añadir ₦</title><link rel="modulepreload" href="/a.js" nonce="n"/><link rel="stylesheet" href="/s.css"/>' +
      '<link rel="modulepreload" href="/b.js"/></head><body><link rel="modulepreload" href="/c.js"/><script type="module">import "/a.js";</script>₦</body></html>';
    const expected = html.replace('<link rel="modulepreload" href="/a.js" nonce="n"/>', "").replace('<link rel="modulepreload" href="/b.js"/>', "");
    expect(withoutScriptPreloads(html)).toBe(expected);
    expect(withoutScriptPreloads("<p>no head at all</p>")).toBe("<p>no head at all</p>");
  });
});
