import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { verifyPassword } from "~/platform/password.server";
import type { Engine } from "~/db/client.server";
import { ENGINES, freshDatabase, type TestDatabase } from "../tests/support/databases";

// `npm run admin:create` as an owner runs it: flags for scripts, or answers at the prompt.

function adminCreate(env: Record<string, string>, args: string[], input = ""): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin-create.ts", ...args], {
      env: { ...process.env, SEED_DEMO: "false", LOG_LEVEL: "silent", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
    child.stdin.end(input);
  });
}

/** A fresh database on `engine` and the environment that points the script at it. */
function scriptDatabase(engine: Engine) {
  const state = { t: undefined as unknown as TestDatabase, env: {} as Record<string, string> };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-admin-"));
  beforeAll(async () => {
    state.t = await freshDatabase(engine);
    if (engine === "sqlite") {
      state.env = { DATA_DIR: dataDir, SQLITE_PATH: state.t.location, DATABASE_URL: "" };
    } else {
      // The test database's own URL: the server's, with this database's name.
      const url = new URL(inject("postgresUrl"));
      url.pathname = new URL(state.t.location).pathname;
      state.env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
    }
  });
  afterAll(async () => {
    await state.t?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return state;
}

// What the script writes, on each engine.
describe.each(ENGINES)("npm run admin:create on %s", (engine) => {
  const on = scriptDatabase(engine);
  const user = (email: string) => on.t.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();

  it("creates an admin from flags, for scripts", async () => {
    const run = await adminCreate(on.env, ["--email", " Owner@Example.com ", "--password", "a long passphrase", "--first-name", "Ada", "--last-name", "Obi"]);
    expect(run.out).toContain("Owner Owner@Example.com created.");
    expect(run.code).toBe(0);
    const owner = await user("owner@example.com");
    expect(owner).toMatchObject({ role: "owner", first_name: "Ada", last_name: "Obi" });
    expect(await verifyPassword(owner!.password_hash, "a long passphrase")).toBe(true);
  });

  it("promotes an existing customer", async () => {
    await on.t.db
      .insertInto("users")
      .values({ email: "customer@example.com", password_hash: "x", first_name: "Chidi", last_name: "Eze", role: "customer", created_at: new Date().toISOString() })
      .execute();
    const run = await adminCreate(on.env, ["--email", "CUSTOMER@example.com"], "new passphrase!\n");
    expect(run.code).toBe(0);
    expect(run.out).toContain("is now an owner");
    expect(await user("customer@example.com")).toMatchObject({ role: "owner", first_name: "Chidi" });
  });
});

// How it asks and what it refuses, which no engine changes: each case is a child process compiling the
// script, so once, on SQLite.
describe("npm run admin:create at the prompt", () => {
  const on = scriptDatabase("sqlite");
  const user = (email: string) => on.t.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();

  it("asks for the e-mail and password at the prompt", async () => {
    const run = await adminCreate(on.env, [], "prompted@example.com\nanother passphrase\n");
    expect(run.out).toContain("E-mail: ");
    expect(run.out).toContain("Password: ");
    expect(run.out).not.toContain("another passphrase");
    expect(run.code).toBe(0);
    expect((await user("prompted@example.com"))?.role).toBe("owner");
  });

  it("refuses a bad e-mail, a short password, or a missing answer, and creates nothing", async () => {
    const before = (await on.t.db.selectFrom("users").select("id").execute()).length;
    const badEmail = await adminCreate(on.env, ["--email", "not-an-address", "--password", "a long passphrase"]);
    expect(badEmail.code).toBe(1);
    expect(badEmail.out).toContain("That is not a valid e-mail address.");
    const short = await adminCreate(on.env, ["--email", "short@example.com", "--password", "short"]);
    expect(short.code).toBe(1);
    expect(short.out).toContain("The password needs at least 8 characters.");
    const silent = await adminCreate(on.env, [], "quiet@example.com\n");
    expect(silent.code).toBe(1);
    expect(silent.out).toContain("nothing was created");
    expect((await on.t.db.selectFrom("users").select("id").execute()).length).toBe(before);
  }, 120_000); // three child processes, each compiling the script: slow on a loaded machine

  it("refuses a password that is easy to guess, saying why", async () => {
    const common = await adminCreate(on.env, ["--email", "common@example.com", "--password", "password123"]);
    expect(common.code).toBe(1);
    expect(common.out).toContain("common");
    expect(await user("common@example.com")).toBeUndefined();
  }, 60_000);
});
