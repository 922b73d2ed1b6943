import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { withoutScriptPreloads } from "./script-preloads.server";

const run = (chunks: Buffer[]) => text(Readable.from(chunks).pipe(withoutScriptPreloads()));

describe("script preload hints", () => {
  it("are dropped from the head only, across chunk boundaries, keeping every other byte", async () => {
    const html =
      '<html><head><title>Añadir ₦</title><link rel="modulepreload" href="/a.js" nonce="n"/><link rel="stylesheet" href="/s.css"/>' +
      '<link rel="modulepreload" href="/b.js"/></head><body><script type="module">import "/a.js";</script>₦</body></html>';
    const expected = html.replace('<link rel="modulepreload" href="/a.js" nonce="n"/>', "").replace('<link rel="modulepreload" href="/b.js"/>', "");
    expect(await run([Buffer.from(html)])).toBe(expected);
    const bytes = Buffer.from(html);
    // Split everywhere, including inside multi-byte characters and inside "</head>".
    for (let at = 1; at < bytes.length; at += 7) {
      expect(await run([bytes.subarray(0, at), bytes.subarray(at)]), String(at)).toBe(expected);
    }
    expect(await run([Buffer.from("<p>no head at all</p>")])).toBe("<p>no head at all</p>");
  });
});
