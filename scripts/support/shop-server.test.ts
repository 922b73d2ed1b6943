import { describe, expect, it } from "vitest";
import { serveEnvironment, serveNodeArgs } from "./shop-server";

// The bench and the e2e tests start the server as `npm run serve` does, with these.
describe("npm run serve's flags, as the bench reads them", () => {
  it("are Node's memory limits and V8's worker threads (docs/decisions/155, 207), and the C library's arenas", () => {
    expect(serveNodeArgs()).toEqual(["--max-old-space-size=160", "--max-semi-space-size=4", "--initial-old-space-size=64", "--v8-pool-size=2"]);
    expect(serveEnvironment()).toEqual({ NODE_ENV: "production", MALLOC_ARENA_MAX: "2" });
  });
});
