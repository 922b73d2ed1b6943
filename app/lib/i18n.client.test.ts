import { describe, expect, it } from "vitest";
import { createTranslator } from "./i18n";
import { ensureMessages, loadMessages } from "./i18n.client";

describe("translations in the browser", () => {
  it("leaves the admin area's texts out of the shop's pages, and adds them when the admin area opens", async () => {
    const shop = await loadMessages("en", "/shop/3");
    expect(Object.keys(shop)).toContain("common");
    expect(Object.keys(shop)).not.toContain("admin");
    expect(Object.keys(await loadMessages("es", "/administrator"))).not.toContain("admin");

    for (const area of ["auth", "account", "cart"]) expect(Object.keys(shop)).not.toContain(area);
    expect(Object.keys(await loadMessages("en", "/checkout"))).toEqual(expect.arrayContaining(["common", "store", "address", "purchase"]));
    expect(Object.keys(await loadMessages("en", "/orders/UB-10001"))).toContain("account");
    expect(Object.keys(await loadMessages("en", "/cart"))).toContain("cart");
    expect(Object.keys(await loadMessages("en", "/auth/register"))).toContain("auth");
    expect(Object.keys(await loadMessages("en", "/cartoons"))).not.toContain("cart");
    // A product page's reviews texts: on product pages only, not on the listing.
    expect(Object.keys(shop)).toContain("product");
    expect(Object.keys(await loadMessages("en", "/shop"))).not.toContain("product");
    // The home page's and the listing's texts: on those two pages only, not on a product page.
    expect(Object.keys(shop)).not.toContain("catalogue");
    for (const page of ["/", "/shop", "/shop/"]) expect(Object.keys(await loadMessages("es", page))).toContain("catalogue");
    for (const page of ["/shopping", "/cart", "/checkout", "/profile"]) expect(Object.keys(await loadMessages("en", page))).not.toContain("catalogue");
    // The checkout's, an order's and paying's texts: with those pages, not with the profile or favourites.
    for (const page of ["/checkout", "/orders/UB-10001", "/orders/UB-10001/pay"]) expect(Object.keys(await loadMessages("en", page))).toContain("purchase");
    for (const page of ["/profile", "/wishlist", "/shop/3"]) expect(Object.keys(await loadMessages("en", page))).not.toContain("purchase");
    // An order's page texts are its own: the checkout does not load them, an order page and a private link do.
    expect(Object.keys(await loadMessages("en", "/checkout"))).not.toContain("order");
    for (const page of ["/orders/UB-10001", "/track/abc"]) expect(Object.keys(await loadMessages("en", page))).toEqual(expect.arrayContaining(["order", "purchase", "account"]));
    // The address form's texts: the profile's and the checkout's; the checkout needs no other account texts.
    for (const page of ["/profile", "/checkout"]) expect(Object.keys(await loadMessages("es", page))).toContain("address");
    expect(Object.keys(await loadMessages("en", "/checkout"))).not.toContain("account");
    expect(Object.keys(await loadMessages("en", "/orders/UB-10001"))).not.toContain("address");

    const admin = await loadMessages("es", "/admin/products");
    expect(Object.keys(admin)).toContain("admin");
    // E-mail texts never reach a browser, on any page.
    for (const page of ["/", "/checkout", "/orders/UB-10001", "/admin/orders"]) expect(Object.keys(await loadMessages("en", page))).not.toContain("mail");

    const messages = await loadMessages("en", "/");
    // The browser build has no e-mail texts at all: asking for them adds nothing.
    await ensureMessages("mail");
    expect(Object.keys(messages)).not.toContain("mail");
    const t = createTranslator("en", messages);
    expect(t("admin.nav.orders")).toBe("admin.nav.orders");
    await ensureMessages("admin");
    expect(t("admin.nav.orders")).toBe("Orders");
  });
});
