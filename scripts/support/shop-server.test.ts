import { describe, expect, it } from "vitest";
import { commandParts, serveEnvironment, serveNodeArgs } from "./shop-server";

// The bench starts the server as `npm run serve` does, with these.
describe("npm run serve's command, as the bench reads it", () => {
  it("is the production environment and Node's heap cap", () => {
    expect(serveNodeArgs()).toEqual(["--max-old-space-size=160"]);
    expect(serveEnvironment()).toEqual({ NODE_ENV: "production" });
  });

  it("takes every Node flag and every variable set before node", () => {
    expect(commandParts("A_B=1 NODE_ENV=production node --v8-pool-size=2 --max-old-space-size=160 --no-warnings build/server.js")).toEqual({
      env: { A_B: "1", NODE_ENV: "production" },
      nodeArgs: ["--v8-pool-size=2", "--max-old-space-size=160", "--no-warnings"],
    });
  });
});
