import { renderToString } from "react-dom/server";
import { createRoutesStub, Form, type FormProps, useFetcher } from "react-router";
import { describe, expect, it } from "vitest";
import { AddToCartButton } from "./add-to-cart-button";
import { ServerForm, useShopFetcher } from "./shop-form";
import { WishlistButton } from "./wishlist-button";

// Rendered inside a data router (as pages are), at a nested location, so relative actions differ.
function render(element: React.ReactNode) {
  const Stub = createRoutesStub([{ path: "/shop/:id", Component: () => element }]);
  return renderToString(<Stub initialEntries={["/shop/7?q=x"]} />);
}

function RouterFetcherForm(props: FormProps) {
  const fetcher = useFetcher();
  return <fetcher.Form {...props} />;
}

const CASES: FormProps[] = [
  { method: "post", action: "/cart", preventScrollReset: true, className: "relative z-10 mt-2", onSubmit: () => {}, children: <button type="submit">Add</button> },
  { method: "post", action: "/wishlist", preventScrollReset: true, children: <input type="hidden" name="productId" value="12" /> },
  { method: "POST", action: "/cart?intent=add", encType: "multipart/form-data", id: "f", "aria-label": "Add" },
  { action: "/shop", role: "search" },
  { method: "post", action: "/cart", discover: "none" },
  { method: "post", action: "/cart", viewTransition: true, defaultShouldRevalidate: false },
  { method: "post" },
  { method: "post", action: "reviews" },
  { method: "post", action: "..", relative: "path" },
  { method: "post", action: "/shop/../cart" },
  { method: "post", action: "//evil.example/x" },
  { method: "post", action: "https://pay.example/x" },
  { method: "post", action: "/auth", reloadDocument: true },
];

function ServerFetcherForm(props: FormProps) {
  const fetcher = useShopFetcher();
  return <fetcher.Form {...props} />;
}

describe("the server's form", () => {
  it.each(CASES)("writes exactly what the router's fetcher form writes: %o", (props) => {
    expect(render(<ServerFetcherForm {...props} />)).toBe(render(<RouterFetcherForm {...props} />));
  });

  it.each([...CASES, { method: "get", action: "/shop", replace: true, state: { from: "x" }, navigate: true, role: "search", className: "flex" } satisfies FormProps])(
    "writes exactly what the router's Form writes: %o",
    (props) => {
      expect(render(<ServerForm {...props} />)).toBe(render(<Form {...props} />));
    },
  );

  it("is what the cards' Add to Cart and heart use on the server", () => {
    expect(useShopFetcher).not.toBe(useFetcher);
    const html = render(
      <>
        <AddToCartButton productId={12} soldOut={false} className="mt-2" />
        <WishlistButton productId={12} />
      </>,
    );
    expect(html).toContain('<form class="mt-2" data-discover="true" action="/cart" method="post">');
    expect(html).toContain('<form data-discover="true" action="/wishlist" method="post">');
  });
});
