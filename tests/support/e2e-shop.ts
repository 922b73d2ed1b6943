import path from "node:path";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { createOrPromoteAdmin } from "~/domain/accounts/accounts.server";
import { createSession } from "~/http/session.server";
import type { Config } from "~/platform/config.server";
import { E2E_DATA_DIR } from "../../playwright.config";

/**
 * For Playwright journeys: reach into the database of the worker's e2e shop (its lane's data folder,
 * playwright.config.ts) to create accounts and sessions.
 */

export const E2E_DB_PATH = path.resolve(E2E_DATA_DIR, "shop.db");

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
