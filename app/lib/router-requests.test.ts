import path from "node:path";
import type * as ReactRouter from "react-router";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";

// The file Node loads for the server (its "node" export), which the patch changes (docs/decisions/184);
// the test runner would pick the package's CommonJS build, which is not patched and not used.
const { createRequestHandler } = (await import(path.resolve("node_modules/react-router/dist/development/index.mjs"))) as typeof ReactRouter;

/** A build of one route whose loader keeps the request it is handed. */
function buildKeeping(seen: Request[]): ServerBuild {
  const loader = ({ request }: { request: Request }) => {
    seen.push(request);
    return { ok: true };
  };
  return {
    entry: { module: { default: () => new Response("page") } },
    routes: { root: { id: "root", path: "", module: { loader, default: () => null } } },
    assets: { entry: { imports: [], module: "" }, routes: { root: { id: "root", path: "", module: "", hasLoader: true, hasAction: false, hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false, hasErrorBoundary: false } }, url: "", version: "1" },
    publicPath: "/",
    assetsBuildDirectory: "",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

describe("React Router's loaders and the request (docs/decisions/186)", () => {
  it("hands a loader the request itself, not a copy, when it has no index or _routes parameter", async () => {
    const seen: Request[] = [];
    const handle = createRequestHandler(buildKeeping(seen), "production");
    const request = new Request("http://shop.test/_root.data?q=cr%C3%A8me");
    expect((await handle(request)).status).toBe(200);
    expect(seen).toHaveLength(1);
    // A data request's loader is handed a request for the page's own URL, made by the handler once.
    expect(seen[0].url).toBe("http://shop.test/?q=cr%C3%A8me");
    const page = new Request("http://shop.test/?q=cr%C3%A8me", { headers: { accept: "text/html" } });
    await handle(page);
    expect(seen[1]).toBe(page);
  });

  it("still takes the index and _routes parameters out of what a loader is handed", async () => {
    const seen: Request[] = [];
    const handle = createRequestHandler(buildKeeping(seen), "production");
    const page = new Request("http://shop.test/?index&_routes=root&q=oud");
    await handle(page);
    expect(seen[0]).not.toBe(page);
    expect(seen[0].url).toBe("http://shop.test/?q=oud");
  });
});
