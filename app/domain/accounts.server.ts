import type { Db } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { hashPassword } from "~/lib/password.server";

/** E-mail addresses are compared trimmed and case-insensitively; this is the stored form. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const MIN_PASSWORD_LENGTH = 8;

/**
 * Creates an admin, or makes an existing account an admin (its password is replaced when one is given).
 * Used by `npm run admin:create`; no form can reach it.
 */
export async function createOrPromoteAdmin(
  db: Db,
  input: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<{ created: boolean; userId: number }> {
  const email = normaliseEmail(input.email);
  const role: Role = "admin";
  const passwordHash = await hashPassword(input.password);
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) {
    await db.updateTable("users").set({ role, password_hash: passwordHash }).where("id", "=", existing.id).execute();
    return { created: false, userId: existing.id };
  }
  const row = await db
    .insertInto("users")
    .values({
      email,
      password_hash: passwordHash,
      first_name: input.firstName?.trim() || "Shop",
      last_name: input.lastName?.trim() || "Admin",
      role,
      created_at: new Date().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { created: true, userId: row.id };
}
