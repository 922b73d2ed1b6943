import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser, firstSizeOf } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { LIMITS, TooManyAttempts } from "../operations/rate-limits.server";
import { eraseGuestData, guestData, guestLinkState, requestGuestLink } from "./data-rights.server";

// A guest proves an address is theirs by the link mailed to it: the link is stored hashed, expires,
// erases once, and asking for links is limited per address and per client.

describe.each(ENGINES)("a guest's privacy link on %s", (engine) => {
  let t: TestDatabase;
  let ipCounter = 0;
  /** A context from a client address of its own, so each test starts with fresh per-IP counts. */
  const fromNewIp = (): AppLoadContext => ({ ...testContext(t, { OWNER_EMAIL: "owner@unboxed.example" }), clientIp: `198.51.100.${++ipCounter}` });
  let productId: number;

  async function linkIn(email: string): Promise<string> {
    const mail = await t.db.selectFrom("mail_outbox").select(["text_body", "html_body"]).where("to_address", "=", email).where("kind", "=", "privacy-link").orderBy("id", "desc").executeTakeFirstOrThrow();
    const token = mail.text_body.match(/\/privacy\/confirm\?token=([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeTruthy();
    expect(mail.html_body).toContain(`token=${token}`);
    return token!;
  }

  async function askBackInStock(email: string) {
    await t.db
      .insertInto("back_in_stock_requests")
      .values({ product_id: productId, size_id: firstSizeOf(productId), email, user_id: null, locale: "en", token: `t-${Math.random()}`, created_at: new Date().toISOString(), notified_at: null })
      .execute();
  }

  beforeAll(async () => {
    t = await freshDatabase(engine);
    productId = (await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: (await addCategory(t.db)).id, stock: 0 })).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("refuses what is not an e-mail address, sending nothing", async () => {
    const context = fromNewIp();
    expect(await requestGuestLink(context, { email: "", locale: "en" })).toEqual({ ok: false, error: "auth.errors.emailRequired" });
    expect(await requestGuestLink(context, { email: "not an address", locale: "en" })).toEqual({ ok: false, error: "auth.errors.emailInvalid" });
    expect(await requestGuestLink(context, { email: `${"a".repeat(250)}@example.com`, locale: "en" })).toEqual({ ok: false, error: "auth.errors.emailInvalid" });
    expect(await t.db.selectFrom("privacy_requests").select("email").execute()).toEqual([]);
  });

  it("mails a link whose token is stored only hashed, in the guest's language; it shows and downloads what is held", async () => {
    await askBackInStock("ngozi@example.com");
    expect(await requestGuestLink(fromNewIp(), { email: "  Ngozi@Example.com ", locale: "es" })).toEqual({ ok: true });
    const token = await linkIn("ngozi@example.com");
    const rows = await t.db.selectFrom("privacy_requests").selectAll().where("email", "=", "ngozi@example.com").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(token);
    const mail = await t.db.selectFrom("mail_outbox").select("subject").where("to_address", "=", "ngozi@example.com").executeTakeFirstOrThrow();
    expect(mail.subject).toBe("Tus datos en Unboxed");

    expect(await guestLinkState(t, token)).toEqual({ state: "valid", email: "ngozi@example.com", locale: "es", hasAccount: false });
    const file = await guestData({ db: t.db, config: fromNewIp().config }, token);
    expect(file?.subject).toEqual({ kind: "guest", email: "ngozi@example.com" });
    expect((file?.data.backInStockRequests as unknown[]).length).toBe(1);
    expect(file?.data.account).toBeNull();
    expect(file?.data.orders).toEqual([]);
  });

  it("erases once: the link is then used up, and a second erasure is refused", async () => {
    await askBackInStock("tunde@example.com");
    await requestGuestLink(fromNewIp(), { email: "tunde@example.com", locale: "en" });
    const token = await linkIn("tunde@example.com");
    const context = fromNewIp();
    expect(await eraseGuestData(context, token)).toEqual({ ok: true, orders: [] });
    expect(await t.db.selectFrom("back_in_stock_requests").select("id").where("email", "=", "tunde@example.com").execute()).toEqual([]);
    // The e-mails to the address went with it, the link's own included.
    expect(await t.db.selectFrom("mail_outbox").select("id").where("to_address", "=", "tunde@example.com").execute()).toEqual([]);
    expect(await guestLinkState(t, token)).toEqual({ state: "used" });
    expect(await eraseGuestData(context, token)).toEqual({ ok: false, reason: "used" });
    expect(await guestData({ db: t.db, config: context.config }, token)).toBeNull();
    const audit = await t.db.selectFrom("audit_log").selectAll().where("action", "=", "erase").execute();
    expect(audit).toEqual([expect.objectContaining({ actor_user_id: null, entity: "user", entity_id: null, summary: "guest (e-mail confirmed)" })]);
    const owner = await t.db.selectFrom("mail_outbox").select(["to_address", "text_body"]).where("kind", "=", "privacy-erasure").execute();
    expect(owner).toHaveLength(1);
    expect(owner[0].to_address).toBe("owner@unboxed.example");
    expect(owner[0].text_body).not.toContain("tunde");
  });

  it("answers expired, unknown and malformed links, and sends an address with an account to sign in", async () => {
    await requestGuestLink(fromNewIp(), { email: "late@example.com", locale: "en" });
    const token = await linkIn("late@example.com");
    await t.db.updateTable("privacy_requests").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("email", "=", "late@example.com").execute();
    expect(await guestLinkState(t, token)).toEqual({ state: "expired" });
    expect(await eraseGuestData(fromNewIp(), token)).toEqual({ ok: false, reason: "expired" });
    expect(await guestLinkState(t, "A".repeat(43))).toEqual({ state: "invalid" });
    expect(await guestLinkState(t, "../../etc")).toEqual({ state: "invalid" });
    expect(await guestLinkState(t, null)).toEqual({ state: "invalid" });

    const member = await addUser(t.db, "customer", "member@example.com");
    await requestGuestLink(fromNewIp(), { email: member.email, locale: "en" });
    const memberToken = await linkIn(member.email);
    expect(await guestLinkState(t, memberToken)).toMatchObject({ state: "valid", hasAccount: true });
    expect(await eraseGuestData(fromNewIp(), memberToken)).toEqual({ ok: false, reason: "hasAccount" });
    expect(await guestData({ db: t.db, config: fromNewIp().config }, memberToken)).toBeNull();
  });

  it("mails one address at most a few links an hour, and refuses a client that asks too often", async () => {
    const mailed = async (email: string) => Number((await t.db.selectFrom("privacy_requests").select((eb) => eb.fn.countAll<number>().as("n")).where("email", "=", email).executeTakeFirstOrThrow()).n);
    for (let i = 0; i < LIMITS.privacyRequestAddress.points + 2; i++) expect(await requestGuestLink(fromNewIp(), { email: "flood@example.com", locale: "en" })).toEqual({ ok: true });
    expect(await mailed("flood@example.com")).toBe(LIMITS.privacyRequestAddress.points);

    const sameClient = fromNewIp();
    for (let i = 0; i < LIMITS.privacyRequestIp.points; i++) await requestGuestLink(sameClient, { email: `many-${i}@example.com`, locale: "en" });
    await expect(requestGuestLink(sameClient, { email: "one-more@example.com", locale: "en" })).rejects.toBeInstanceOf(TooManyAttempts);
    expect(await mailed("one-more@example.com")).toBe(0);
  });

  it("erases once when the same link is used twice at the same moment", async () => {
    await askBackInStock("twice@example.com");
    await requestGuestLink(fromNewIp(), { email: "twice@example.com", locale: "en" });
    const token = await linkIn("twice@example.com");
    const results = await Promise.all([eraseGuestData(fromNewIp(), token), eraseGuestData(fromNewIp(), token), eraseGuestData(fromNewIp(), token)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "used")).toBe(true);
    const erasures = await t.db.selectFrom("audit_log").select("id").where("action", "=", "erase").execute();
    expect(erasures).toHaveLength(2);
  });
});
