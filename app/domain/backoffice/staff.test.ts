import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { addUser } from "../../../tests/support/catalogue";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { translatorFor } from "~/platform/translations.server";
import { hashPassword } from "~/platform/password.server";
import { authenticate } from "../accounts/accounts.server";
import { createSession, getSessionUser } from "~/http/session.server";
import {
  acceptInvitation,
  changeStaffRole,
  INVITATION_TTL_MS,
  invitationState,
  inviteStaff,
  listStaff,
  removeStaff,
  revokeInvitation,
  setSecondFactorForAll,
  setSuspended,
} from "./staff.server";

// Staff invitations, suspension, removal and the last owner (docs/decisions/222), on both engines.

const en = translatorFor("en");
const PASSWORD = "plum velvet harbour 29";

describe.each(ENGINES)("staff on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let owner: number;
  let n = 0;
  const address = () => `person${++n}-${engine}@example.com`;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    owner = (await addUser(t.db, "owner")).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** The token of the invitation link last e-mailed to the address. */
  async function linkTokenFor(email: string): Promise<string> {
    const mail = await t.db.selectFrom("mail_outbox").select(["text_body as text", "kind"]).where("to_address", "=", email).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail.kind).toBe("staff-invitation");
    const token = mail.text.match(/\/auth\/invitation\?token=([A-Za-z0-9_-]{43})/)?.[1];
    if (!token) throw new Error("no invitation link in the e-mail");
    return token;
  }
  const sessionOf = async (userId: number) => browserRequest("/admin", { cookies: [await createSession(context, userId)] });

  it("e-mails a single-use link whose token is kept only as a hash, and makes the account with the role on acceptance", async () => {
    const email = address();
    expect(await inviteStaff(context, { actorId: owner, email: ` ${email.toUpperCase()} `, role: "fulfilment", t: en })).toEqual({ ok: true, email });
    const token = await linkTokenFor(email);
    const stored = await t.db.selectFrom("staff_invitations").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await invitationState(t.db, token)).toEqual({ state: "valid", email, role: "fulfilment", hasAccount: false });

    const accepted = await acceptInvitation(t.db, { token, firstName: "Emeka", lastName: "Packer", password: PASSWORD });
    expect(accepted).toMatchObject({ ok: true, email });
    const user = await t.db.selectFrom("users").select(["role", "first_name", "staff_since"]).where("email", "=", email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: "fulfilment", first_name: "Emeka" });
    expect(user.staff_since).not.toBeNull();
    expect(await authenticate({ ...context, clientIp: "10.0.0.1" }, { email, password: PASSWORD })).toMatchObject({ ok: true, secondFactor: false });

    // Once only: the same link again, even with another password, changes nothing.
    expect(await invitationState(t.db, token)).toEqual({ state: "used" });
    expect(await acceptInvitation(t.db, { token, firstName: "X", lastName: "Y", password: "another long passphrase 7" })).toEqual({ ok: false, reason: "used" });
    expect(await authenticate({ ...context, clientIp: "10.0.0.2" }, { email, password: PASSWORD })).toMatchObject({ ok: true });

    const audit = await t.db.selectFrom("audit_log").select(["actor_user_id", "summary", "changes"]).where("summary", "=", email).orderBy("id").execute();
    expect(audit.map((a) => a.actor_user_id)).toEqual([owner, owner]);
    expect(audit.at(-1)?.changes).toContain("accepted");
  });

  it("answers an invitation past its time as expired, and a second invitation to an address replaces the first", async () => {
    const email = address();
    await inviteStaff(context, { actorId: owner, email, role: "support", t: en }, Date.now() - INVITATION_TTL_MS - 1000);
    const old = await linkTokenFor(email);
    expect(await invitationState(t.db, old)).toEqual({ state: "expired" });
    expect(await acceptInvitation(t.db, { token: old, firstName: "A", lastName: "B", password: PASSWORD })).toEqual({ ok: false, reason: "expired" });

    await inviteStaff(context, { actorId: owner, email, role: "support", t: en });
    const first = await linkTokenFor(email);
    await inviteStaff(context, { actorId: owner, email, role: "manager", t: en });
    const second = await linkTokenFor(email);
    expect(await invitationState(t.db, first)).toEqual({ state: "invalid" });
    expect(await invitationState(t.db, second)).toMatchObject({ state: "valid", role: "manager" });
    expect(await invitationState(t.db, "not-a-token")).toEqual({ state: "invalid" });

    const pending = (await listStaff(t.db)).invitations.find((i) => i.email === email)!;
    expect(await revokeInvitation(t.db, { actorId: owner, id: pending.id })).toBe(true);
    expect(await invitationState(t.db, second)).toEqual({ state: "invalid" });
  });

  it("refuses to invite an address already on the staff, and only an owner invites", async () => {
    const manager = await addUser(t.db, "manager");
    expect(await inviteStaff(context, { actorId: owner, email: manager.email, role: "support", t: en })).toEqual({ ok: false, reason: "alreadyStaff" });
    expect(await inviteStaff(context, { actorId: manager.id, email: address(), role: "owner", t: en })).toEqual({ ok: false, reason: "notOwner" });
  });

  it("gives an existing customer the role and the new password, ending their sessions", async () => {
    const customer = await addUser(t.db, "customer");
    const request = await sessionOf(customer.id);
    await inviteStaff(context, { actorId: owner, email: customer.email, role: "support", t: en });
    const token = await linkTokenFor(customer.email);
    expect(await invitationState(t.db, token)).toMatchObject({ state: "valid", hasAccount: true });
    expect(await acceptInvitation(t.db, { token, firstName: "", lastName: "", password: PASSWORD })).toMatchObject({ ok: true });
    expect(await getSessionUser(request, t.db)).toBeNull();
    const user = await t.db.selectFrom("users").select(["role", "first_name"]).where("id", "=", customer.id).executeTakeFirstOrThrow();
    expect(user).toEqual({ role: "support", first_name: "Chioma" });
  });

  it("ends every session of a suspended staff member at once, refuses their sign-in, and lets them back in", async () => {
    const email = address();
    const staff = await t.db
      .insertInto("users")
      .values({ email, password_hash: await hashPassword(PASSWORD), first_name: "Ife", last_name: "S", role: "fulfilment", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const [one, two] = [await sessionOf(staff.id), await sessionOf(staff.id)];
    expect(await getSessionUser(one, t.db)).not.toBeNull();
    expect(await setSuspended(t.db, { actorId: owner, userId: staff.id, suspended: true })).toEqual({ ok: true, changed: true, email });
    expect(await getSessionUser(new Request(one.url, { headers: one.headers }), t.db)).toBeNull();
    expect(await getSessionUser(new Request(two.url, { headers: two.headers }), t.db)).toBeNull();
    expect(await t.db.selectFrom("sessions").select("id").where("user_id", "=", staff.id).execute()).toEqual([]);
    expect(await authenticate({ ...context, clientIp: "10.0.1.1" }, { email, password: PASSWORD })).toEqual({ ok: false });
    // A session made some other way is still refused while suspended.
    expect(await getSessionUser(await sessionOf(staff.id), t.db)).toBeNull();
    expect((await listStaff(t.db)).members.find((m) => m.id === staff.id)).toMatchObject({ suspended: true });

    expect(await setSuspended(t.db, { actorId: owner, userId: staff.id, suspended: false })).toMatchObject({ ok: true, changed: true });
    expect(await authenticate({ ...context, clientIp: "10.0.1.2" }, { email, password: PASSWORD })).toMatchObject({ ok: true });
    const audit = await t.db.selectFrom("audit_log").select("changes").where("entity_id", "=", staff.id).orderBy("id").execute();
    expect(audit.map((a) => JSON.parse(a.changes!))).toEqual([{ suspended: [false, true] }, { suspended: [true, false] }]);
  });

  it("ends every session of a staff member removed, who is a customer again", async () => {
    const staff = await addUser(t.db, "support");
    const request = await sessionOf(staff.id);
    expect(await removeStaff(t.db, { actorId: owner, userId: staff.id })).toMatchObject({ ok: true, changed: true });
    expect(await getSessionUser(request, t.db)).toBeNull();
    expect((await t.db.selectFrom("users").select("role").where("id", "=", staff.id).executeTakeFirstOrThrow()).role).toBe("customer");
  });

  it("always keeps one active owner: nobody suspends themselves, a suspended owner acts on nothing, and two owners suspending each other at once leave one", async () => {
    const a = (await addUser(t.db, "owner")).id;
    const b = (await addUser(t.db, "owner")).id;
    expect(await setSuspended(t.db, { actorId: a, userId: a, suspended: true })).toEqual({ ok: false, error: "self" });
    expect(await setSuspended(t.db, { actorId: a, userId: b, suspended: true })).toMatchObject({ ok: true });
    expect(await setSuspended(t.db, { actorId: b, userId: a, suspended: true })).toEqual({ ok: false, error: "notOwner" });
    expect(await changeStaffRole(t.db, { actorId: b, userId: a, role: "support" })).toEqual({ ok: false, error: "notOwner" });
    expect(await inviteStaff(context, { actorId: b, email: address(), role: "owner", t: en })).toEqual({ ok: false, reason: "notOwner" });
    await setSuspended(t.db, { actorId: a, userId: b, suspended: false });

    // Only a and b are owners now: the shop's first owner leaves.
    await t.db.updateTable("users").set({ role: "manager" }).where("id", "=", owner).execute();
    try {
      const results = await Promise.all([setSuspended(t.db, { actorId: a, userId: b, suspended: true }), setSuspended(t.db, { actorId: b, userId: a, suspended: true })]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, error: expect.stringMatching(/^(notOwner|lastOwner)$/) });
      const active = await t.db.selectFrom("users").select("id").where("role", "=", "owner").where("suspended_at", "is", null).execute();
      expect(active).toHaveLength(1);
      // The one left cannot be demoted by the suspended one, and no owner is counted who is suspended.
      const [left] = active;
      const other = left.id === a ? b : a;
      expect(await changeStaffRole(t.db, { actorId: other, userId: left.id, role: "support" })).toEqual({ ok: false, error: "notOwner" });
    } finally {
      await t.db.updateTable("users").set({ role: "owner", suspended_at: null }).where("id", "in", [owner, a, b]).execute();
    }
  });

  it("records the owner's choice to require a second factor of every role", async () => {
    expect(await setSecondFactorForAll(t.db, { actorId: owner, on: true })).toEqual({ changed: true });
    expect(await setSecondFactorForAll(t.db, { actorId: owner, on: true })).toEqual({ changed: false });
    expect((await listStaff(t.db)).secondFactorForAll).toBe(true);
    expect(await setSecondFactorForAll(t.db, { actorId: owner, on: false })).toEqual({ changed: true });
    const audit = await t.db.selectFrom("audit_log").select("changes").where("summary", "=", "staff").orderBy("id").execute();
    expect(audit.map((a) => JSON.parse(a.changes!))).toEqual([{ secondFactorForAll: [false, true] }, { secondFactorForAll: [true, false] }]);
  });
});
