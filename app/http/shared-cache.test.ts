import { describe, expect, it } from "vitest";
import { RECENT_COOKIE } from "../lib/recently-viewed";
import { cacheControl, carriesPersonalCookie, matchesEtag, pageEtag } from "./shared-cache.server";

const anonymousPage = { shareable: true, personal: false, setsCookie: false, status: 200, method: "GET", seconds: 60 };
const withCookie = (cookie: string) => new Request("http://shop.test/shop/12", { headers: { Cookie: cookie } });

describe("what a page tells shared caches", () => {
  it("lets nginx or a CDN keep an anonymous storefront page briefly and serve it stale while it fetches a new one", () => {
    expect(cacheControl(anonymousPage)).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=60");
    expect(cacheControl({ ...anonymousPage, seconds: 0 })).toBe("public, no-cache");
  });

  it("keeps anything personal, cookie-setting, failed or not a storefront page private", () => {
    for (const answer of [
      { ...anonymousPage, personal: true },
      { ...anonymousPage, setsCookie: true },
      { ...anonymousPage, status: 404 },
      { ...anonymousPage, method: "POST" },
      { ...anonymousPage, shareable: false },
    ]) {
      expect(cacheControl(answer), JSON.stringify(answer)).toBe("private, no-store");
    }
  });

  it("takes a session or a cart, not the recently viewed or language cookies, as the shopper's own", () => {
    expect(carriesPersonalCookie(withCookie(`${RECENT_COOKIE}=12.7; lng=es`))).toBe(false);
    expect(carriesPersonalCookie(withCookie(`${RECENT_COOKIE}=12.7; ub_cart=abc`))).toBe(true);
    expect(carriesPersonalCookie(withCookie("ub_session=abc"))).toBe(true);
    expect(carriesPersonalCookie(withCookie("__Host-ub_session=abc"))).toBe(true);
    expect(carriesPersonalCookie(withCookie("not_ub_session=abc"))).toBe(false);
  });

  it("answers a browser that has the page's bytes by their validator", () => {
    const etag = pageEtag(Buffer.from("<html>one</html>"));
    expect(etag).not.toBe(pageEtag(Buffer.from("<html>two</html>")));
    const asking = (tag: string) => new Request("http://shop.test/", { headers: { "If-None-Match": tag } });
    expect(matchesEtag(asking(etag), etag)).toBe(true);
    expect(matchesEtag(asking(`W/"other", ${etag}`), etag)).toBe(true);
    expect(matchesEtag(asking('W/"other"'), etag)).toBe(false);
    expect(matchesEtag(new Request("http://shop.test/"), etag)).toBe(false);
  });
});
