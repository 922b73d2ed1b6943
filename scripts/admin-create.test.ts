import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { verifyPassword } from "~/platform/password.server";
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

describe.each(ENGINES)("npm run admin:create on %s", (engine) => {
  let t: TestDatabase;
  let env: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-admin-"));

  beforeAll(async () => {
    t = await freshDatabase(engine);
    if (engine === "sqlite") {
      env = { DATA_DIR: dataDir, SQLITE_PATH: t.location, DATABASE_URL: "" };
    } else {
      // The test database's own URL: the server's, with this database's name.
      const url = new URL(inject("postgresUrl"));
      url.pathname = new URL(t.location).pathname;
      env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
    }
  });
  afterAll(async () => {
    await t?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const user = (email: string) => t.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();

  it("creates an admin from flags, for scripts", async () => {
    const run = await adminCreate(env, ["--email", " Owner@Example.com ", "--password", "a long passphrase", "--first-name", "Ada", "--last-name", "Obi"]);
    expect(run.out).toContain("Owner Owner@Example.com created.");
    expect(run.code).toBe(0);
    const owner = await user("owner@example.com");
    expect(owner).toMatchObject({ role: "owner", first_name: "Ada", last_name: "Obi" });
    expect(await verifyPassword(owner!.password_hash, "a long passphrase")).toBe(true);
  });

  it("asks for the e-mail and password at the prompt", async () => {
    const run = await adminCreate(env, [], "prompted@example.com\nanother passphrase\n");
    expect(run.out).toContain("E-mail: ");
    expect(run.out).toContain("Password: ");
    expect(run.out).not.toContain("another passphrase");
    expect(run.code).toBe(0);
    expect((await user("prompted@example.com"))?.role).toBe("owner");
  });

  it("promotes an existing customer", async () => {
    await t.db
      .insertInto("users")
      .values({ email: "customer@example.com", password_hash: "x", first_name: "Chidi", last_name: "Eze", role: "customer", created_at: new Date().toISOString() })
      .execute();
    const run = await adminCreate(env, ["--email", "CUSTOMER@example.com"], "new passphrase!\n");
    expect(run.code).toBe(0);
    expect(run.out).toContain("is now an owner");
    expect(await user("customer@example.com")).toMatchObject({ role: "owner", first_name: "Chidi" });
  });

  it("refuses a bad e-mail, a short password, or a missing answer, and creates nothing", async () => {
    const before = (await t.db.selectFrom("users").select("id").execute()).length;
    const badEmail = await adminCreate(env, ["--email", "not-an-address", "--password", "a long passphrase"]);
    expect(badEmail.code).toBe(1);
    expect(badEmail.out).toContain("That is not a valid e-mail address.");
    const short = await adminCreate(env, ["--email", "short@example.com", "--password", "short"]);
    expect(short.code).toBe(1);
    expect(short.out).toContain("The password needs at least 8 characters.");
    const silent = await adminCreate(env, [], "quiet@example.com\n");
    expect(silent.code).toBe(1);
    expect(silent.out).toContain("nothing was created");
    expect((await t.db.selectFrom("users").select("id").execute()).length).toBe(before);
  }, 120_000); // three child processes, each compiling the script: slow on a loaded machine

  it("refuses a password that is easy to guess, saying why", async () => {
    const common = await adminCreate(env, ["--email", "common@example.com", "--password", "password123"]);
    expect(common.code).toBe(1);
    expect(common.out).toContain("common");
    expect(await user("common@example.com")).toBeUndefined();
  }, 60_000);
});
