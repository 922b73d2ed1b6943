import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { makeUser } from "../../../tests/support/catalogue";
import {
  addAddress,
  AddressLimitError,
  addressSchema,
  deleteAddress,
  findAddress,
  listAddresses,
  MAX_ADDRESSES,
  readSavedAddress,
  updateAddress,
} from "./addresses.server";

const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };

describe("address validation", () => {
  it("gives the spec's messages for empty fields", () => {
    const result = addressSchema.safeParse({ street: " ", city: "", state: "", country: "" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toEqual({
      street: "address.errors.street",
      city: "address.errors.city",
      state: "address.errors.state",
      country: "address.errors.country",
    });
  });

  it("trims, folds whitespace, keeps markup as text and refuses 10,000 characters", () => {
    const ok = addressSchema.parse({ ...lagos, street: "  <b>12</b>   Admiralty\n Way " });
    expect(ok.street).toBe("<b>12</b> Admiralty Way");
    const long = addressSchema.safeParse({ ...lagos, street: "x".repeat(10_000) });
    expect(long.success).toBe(false);
    expect(long.error!.issues[0].message).toBe("address.errors.tooLong");
    expect(addressSchema.safeParse({ ...lagos, city: 42 }).success).toBe(false);
  });

  it("takes a Nigerian state only from the 36 states and the FCT", () => {
    expect(addressSchema.parse({ ...lagos, state: "lagos", country: "nigeria" })).toMatchObject({ state: "Lagos", country: "Nigeria" });
    const bad = addressSchema.safeParse({ ...lagos, state: "Atlantis" });
    expect(bad.error?.issues[0]).toMatchObject({ path: ["state"], message: "address.errors.state" });
    expect(addressSchema.parse({ ...lagos, state: "Greater Accra", country: "Ghana" }).state).toBe("Greater Accra");
  });
});

describe("an address book entry's number", () => {
  it("is optional, and kept in E.164 when given", () => {
    expect(readSavedAddress({ ...lagos, phone: "" })).toEqual({ ok: true, address: { ...lagos, phone: null } });
    expect(readSavedAddress({ ...lagos })).toEqual({ ok: true, address: { ...lagos, phone: null } });
    expect(readSavedAddress({ ...lagos, phone: "0803 123 4567" })).toEqual({ ok: true, address: { ...lagos, phone: "+2348031234567" } });
  });

  it("is refused when not a Nigerian mobile, with the address's own errors", () => {
    expect(readSavedAddress({ ...lagos, phone: "01 234 5678" })).toEqual({ ok: false, errors: { phone: "address.errors.phone" } });
    expect(readSavedAddress({ ...lagos, city: "", phone: "abc" })).toEqual({ ok: false, errors: { city: "address.errors.city", phone: "address.errors.phone" } });
  });
});

describe.each(ENGINES)("saved addresses on %s", (engine) => {
  let t: TestDatabase;
  let ada: number;
  let bola: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    ada = await makeUser(t.db, "ada@example.com");
    bola = await makeUser(t.db, "bola@example.com");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("keeps at most four addresses per user, even when added at the same time", async () => {
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => addAddress(t.db, ada, { ...lagos, street: `${i} Road` })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_ADDRESSES);
    for (const r of results.filter((r) => r.status === "rejected")) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AddressLimitError);
    expect(await listAddresses(t.db, ada)).toHaveLength(MAX_ADDRESSES);
    await expect(addAddress(t.db, ada, lagos)).rejects.toBeInstanceOf(AddressLimitError);
  });

  it("never reads, edits or deletes another user's address", async () => {
    const [mine] = await listAddresses(t.db, ada);
    expect(await findAddress(t.db, bola, mine.id)).toBeUndefined();
    expect(await updateAddress(t.db, bola, mine.id, { ...lagos, city: "Hacked" })).toBe(false);
    expect(await deleteAddress(t.db, bola, mine.id)).toBe(false);
    expect((await findAddress(t.db, ada, mine.id))?.city).toBe("Lekki");

    expect(await updateAddress(t.db, ada, mine.id, { ...lagos, city: "Victoria Island" })).toBe(true);
    expect((await findAddress(t.db, ada, mine.id))?.city).toBe("Victoria Island");
    expect(await deleteAddress(t.db, ada, mine.id)).toBe(true);
    expect(await listAddresses(t.db, ada)).toHaveLength(MAX_ADDRESSES - 1);
    expect(await listAddresses(t.db, bola)).toEqual([]);
  });

  it("keeps a number with an address, changes it and clears it; older addresses have none", async () => {
    const old = await addAddress(t.db, bola, lagos);
    expect(old.phone).toBeNull();
    expect((await findAddress(t.db, bola, old.id))?.phone).toBeNull();
    const home = await addAddress(t.db, bola, { ...lagos, phone: "+2348031234567" });
    expect((await findAddress(t.db, bola, home.id))?.phone).toBe("+2348031234567");
    // Edited without a number in the call (an older caller): the number stays.
    expect(await updateAddress(t.db, bola, home.id, { ...lagos, city: "Ikoyi" })).toBe(true);
    expect(await findAddress(t.db, bola, home.id)).toMatchObject({ city: "Ikoyi", phone: "+2348031234567" });
    expect(await updateAddress(t.db, bola, home.id, { ...lagos, phone: "+2349091234567" })).toBe(true);
    expect((await findAddress(t.db, bola, home.id))?.phone).toBe("+2349091234567");
    expect(await updateAddress(t.db, bola, home.id, { ...lagos, phone: null })).toBe(true);
    expect((await listAddresses(t.db, bola)).map((a) => a.phone)).toEqual([null, null]);
  });
});
