import { describe, expect, it } from "vitest";
import { numberFlagsIn, serveEnvironment, serveNodeArgs } from "./shop-server";

// The bench and the e2e tests start the server as `npm run serve` does, with these.
describe("npm run serve's flags, as the bench reads them", () => {
  it("are Node's memory limits (docs/decisions/155), one V8 helper thread (209) and the C library's arenas", () => {
    expect(serveNodeArgs()).toEqual(["--max-old-space-size=160", "--max-semi-space-size=4", "--initial-old-space-size=64", "--v8-pool-size=1"]);
    expect(serveEnvironment()).toEqual({ NODE_ENV: "production", MALLOC_ARENA_MAX: "1", MALLOC_MMAP_THRESHOLD_: "1048576" });
  });

  it("include a flag with a digit in its name", () => {
    expect(numberFlagsIn("MALLOC_ARENA_MAX=2 node --v8-pool-size=2 --max-old-space-size=160 --no-warnings build/server.js")).toEqual(["--v8-pool-size=2", "--max-old-space-size=160"]);
  });
});
