import path from "node:path";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { createOrPromoteAdmin } from "~/domain/accounts/accounts.server";
import { createSession } from "~/http/session.server";
import type { Config } from "~/platform/config.server";

/**
 * For Playwright journeys: reach into the running e2e shop's database (tests/e2e/.data/shop.db) to
 * create accounts and sessions, as sign-in pages may not exist yet in every branch.
 */

export const E2E_DB_PATH = path.resolve("tests/e2e/.data/shop.db");

export function openShopDatabase(): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: null, sqlitePath: E2E_DB_PATH });
}

const sessionContext = (handle: DatabaseHandle) => ({ db: handle.db, config: { publicUrl: "http://127.0.0.1" } as Config });

/** The ub_session cookie value of a new session for the user. */
export async function sessionToken(handle: DatabaseHandle, userId: number): Promise<string> {
  const setCookie = await createSession(sessionContext(handle), userId);
  return decodeURIComponent(setCookie.split(";")[0].split("=")[1]);
}

export async function createAdmin(handle: DatabaseHandle, email: string, firstName = "Ada", lastName = "Owner") {
  const { userId } = await createOrPromoteAdmin(handle.db, { email, password: "a long test passphrase", firstName, lastName });
  return { userId, token: await sessionToken(handle, userId) };
}

export async function createCustomer(handle: DatabaseHandle, email: string, firstName = "Chioma", lastName = "Eze") {
  const row = await handle.db
    .insertInto("users")
    .values({ email, password_hash: "not-a-real-hash", first_name: firstName, last_name: lastName, role: "customer", created_at: new Date().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { userId: row.id, token: await sessionToken(handle, row.id) };
}
