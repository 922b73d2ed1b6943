import { z } from "zod";
import type { Transaction } from "kysely";
import { type Db, isPostgres } from "~/db/client.server";
import type { Database } from "~/db/schema";
import { DEFAULT_COUNTRY, NIGERIAN_STATES } from "~/lib/nigeria";
import { parseNigerianMobile } from "~/lib/phone";

/** Saved shipping addresses: at most four per user, always read and written through the owner's id. */
export const MAX_ADDRESSES = 4;

const field = (requiredKey: string, max: number) =>
  z
    .string({ message: requiredKey })
    .transform((v) => v.replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, requiredKey).max(max, "address.errors.tooLong"));

/**
 * The spec's messages, as translation keys; values are trimmed, whitespace folded, length-limited.
 * In Nigeria the state is one of the 36 states or the FCT (stored with its proper spelling).
 */
export const addressSchema = z
  .object({
    street: field("address.errors.street", 200),
    city: field("address.errors.city", 100),
    state: field("address.errors.state", 100),
    country: field("address.errors.country", 100),
  })
  .transform((address, ctx) => {
    if (address.country.toLowerCase() !== DEFAULT_COUNTRY.toLowerCase()) return address;
    const state = NIGERIAN_STATES.find((s) => s.toLowerCase() === address.state.toLowerCase());
    if (!state) {
      ctx.addIssue({ code: "custom", path: ["state"], message: "address.errors.state" });
      return z.NEVER;
    }
    return { ...address, state, country: DEFAULT_COUNTRY };
  });

export type AddressInput = z.infer<typeof addressSchema>;

/** An address as saved: with the number the rider calls there (E.164), null until one is given. */
export interface SavedAddressInput extends AddressInput {
  /** left as it is when undefined */
  phone?: string | null;
}

export interface Address extends AddressInput {
  id: number;
  phone: string | null;
}

export type SavedAddressErrors = Partial<Record<keyof Address, string>>;

/**
 * The address book's form: the address, and a number that may be left empty (checkout asks for it
 * when the address is used) but is refused when it is not a Nigerian mobile. Errors are translation keys.
 */
export function readSavedAddress(values: Record<string, string>): { ok: true; address: SavedAddressInput } | { ok: false; errors: SavedAddressErrors } {
  const parsed = addressSchema.safeParse(values);
  const errors: SavedAddressErrors = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as keyof AddressInput] ??= issue.message;
  const typed = (values.phone ?? "").trim();
  const phone = typed === "" ? null : parseNigerianMobile(typed);
  if (phone && !phone.ok) errors.phone = phone.error;
  if (!parsed.success || (phone && !phone.ok)) return { ok: false, errors };
  return { ok: true, address: { ...parsed.data, phone: phone?.ok ? phone.phone : null } };
}

export class AddressLimitError extends Error {
  constructor() {
    super(`At most ${MAX_ADDRESSES} saved addresses`);
  }
}

export async function listAddresses(db: Db, userId: number): Promise<Address[]> {
  return db
    .selectFrom("addresses")
    .select(["id", "street", "city", "state", "country", "phone"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export async function findAddress(db: Db, userId: number, addressId: number): Promise<Address | undefined> {
  return db
    .selectFrom("addresses")
    .select(["id", "street", "city", "state", "country", "phone"])
    .where("user_id", "=", userId)
    .where("id", "=", addressId)
    .executeTakeFirst();
}

/**
 * Saves a new address unless the user already has four. The count and the insert share a transaction,
 * and on PostgreSQL the user's row is locked first, so two tabs cannot both add a fifth.
 */
export async function addAddress(db: Db, userId: number, input: SavedAddressInput): Promise<Address> {
  return db.transaction().execute((trx) => saveNewAddress(trx, userId, input));
}

/** addAddress for a caller already in a transaction (checkout saves the address with the order). */
export async function saveNewAddress(trx: Transaction<Database>, userId: number, input: SavedAddressInput): Promise<Address> {
  // SQLite serialises writers by itself; PostgreSQL needs the user's row locked.
  if (isPostgres(trx)) await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute();
  const count = await trx
    .selectFrom("addresses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  if (count.n >= MAX_ADDRESSES) throw new AddressLimitError();
  const row = await trx
    .insertInto("addresses")
    .values({ user_id: userId, ...input, created_at: new Date().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, ...input, phone: input.phone ?? null };
}

/** Updates the user's own address; false when it is not theirs (or does not exist). */
export async function updateAddress(db: Db, userId: number, addressId: number, input: SavedAddressInput): Promise<boolean> {
  const result = await db
    .updateTable("addresses")
    .set(input)
    .where("id", "=", addressId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the user's own address. Orders keep their own copy of it (and lose only the link). */
export async function deleteAddress(db: Db, userId: number, addressId: number): Promise<boolean> {
  const result = await db.deleteFrom("addresses").where("id", "=", addressId).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
