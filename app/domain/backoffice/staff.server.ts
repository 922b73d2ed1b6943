import { createHash, randomBytes } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { Transaction } from "kysely";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import type { Database, Role, StaffRole } from "~/db/schema";
import type { Translate } from "~/lib/i18n";
import { hashPassword } from "~/platform/password.server";
import { logSecurityEvent } from "~/platform/security-log.server";
import { staffInvitationEmail } from "../accounts/account-mail.server";
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, normaliseEmail } from "../accounts/accounts.server";
import { recordAudit } from "./audit.server";
import { changeRole, lockOwnersActorAndTarget, type RoleChangeResult } from "./customers.server";
import { queueMail } from "../operations/mail-outbox.server";
import { passwordWeakness } from "../accounts/password-strength.server";
import { can, isStaff, STAFF_ROLES } from "./permissions.server";
import { destroyAllSessions } from "../accounts/sessions.server";

/**
 * The shop's staff (docs/decisions/222), managed by the owner at /admin/staff: invitations by e-mail
 * with a role, role changes, suspension and removal, and whether every staff role must use a second
 * factor. The shop always keeps one active owner; every change is audited in its own transaction.
 */

export const INVITATION_TTL_MS = 3 * 24 * 60 * 60 * 1000;
export const INVITATION_DAYS = INVITATION_TTL_MS / (24 * 60 * 60 * 1000);

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as string[]).includes(value);
}

// ---------------------------------------------------------------------------------------------
// The list

export interface StaffMember {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  suspended: boolean;
  lastSignInAt: string | null;
  secondFactor: boolean;
}

export interface PendingInvitation {
  id: number;
  email: string;
  role: StaffRole;
  expiresAt: string;
  expired: boolean;
}

export interface StaffScreen {
  members: StaffMember[];
  invitations: PendingInvitation[];
  secondFactorForAll: boolean;
}

export async function listStaff(db: Db, now = new Date()): Promise<StaffScreen> {
  const [members, invitations, settings] = await Promise.all([
    db
      .selectFrom("users")
      .select(["id", "email", "first_name", "last_name", "role", "suspended_at", "last_sign_in_at", "totp_enabled_at"])
      .where("role", "<>", "customer")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("staff_invitations")
      .select(["id", "email", "role", "expires_at"])
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .orderBy("id", "desc")
      .limit(100)
      .execute(),
    db.selectFrom("staff_settings").select("second_factor_all_since").where("id", "=", 1).executeTakeFirst(),
  ]);
  const nowIso = now.toISOString();
  return {
    members: members.map((m) => ({
      id: m.id,
      email: m.email,
      name: `${m.first_name} ${m.last_name}`.trim(),
      role: m.role as StaffRole,
      suspended: m.suspended_at !== null,
      lastSignInAt: m.last_sign_in_at,
      secondFactor: m.totp_enabled_at !== null,
    })),
    invitations: invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, expiresAt: i.expires_at, expired: i.expires_at <= nowIso })),
    secondFactorForAll: Boolean(settings?.second_factor_all_since),
  };
}

// ---------------------------------------------------------------------------------------------
// Invitations

export const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "admin.staff.errors.emailRequired")
    .max(MAX_EMAIL_LENGTH, "admin.staff.errors.emailInvalid")
    .pipe(z.email("admin.staff.errors.emailInvalid")),
  role: z.enum(STAFF_ROLES as [StaffRole, ...StaffRole[]], "admin.staff.errors.roleInvalid"),
});

export type InviteResult = { ok: true; email: string } | { ok: false; reason: "alreadyStaff" | "notOwner" };

/**
 * Invites an address to the staff with a role: a single-use link valid INVITATION_TTL_MS, of which
 * only the hash is kept, e-mailed through the outbox in the same transaction; the address's earlier
 * invitations stop working. An address already on the staff is refused (its role is changed instead).
 */
export async function inviteStaff(
  context: Pick<AppLoadContext, "db" | "config">,
  input: { actorId: number; email: string; role: StaffRole; t: Translate },
  now = Date.now(),
): Promise<InviteResult> {
  const address = normaliseEmail(input.email);
  const token = randomBytes(32).toString("base64url");
  const nowIso = new Date(now).toISOString();
  const result = await context.db.transaction().execute(async (trx): Promise<InviteResult> => {
    const actor = await trx.selectFrom("users").select(["role", "first_name", "last_name", "suspended_at"]).where("id", "=", input.actorId).executeTakeFirst();
    if (!actor || !can(actor.role, "staff") || actor.suspended_at) return { ok: false, reason: "notOwner" };
    const existing = await trx.selectFrom("users").select("role").where("email", "=", address).executeTakeFirst();
    if (existing && isStaff(existing.role)) return { ok: false, reason: "alreadyStaff" };
    await trx.updateTable("staff_invitations").set({ revoked_at: nowIso }).where("email", "=", address).where("accepted_at", "is", null).where("revoked_at", "is", null).execute();
    const row = await trx
      .insertInto("staff_invitations")
      .values({
        token_hash: sha256(token),
        email: address,
        role: input.role,
        invited_by: input.actorId,
        expires_at: new Date(now + INVITATION_TTL_MS).toISOString(),
        accepted_at: null,
        revoked_at: null,
        created_at: nowIso,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const message = staffInvitationEmail(input.t, {
      email: address,
      inviter: `${actor.first_name} ${actor.last_name}`.trim(),
      role: input.t(`admin.customers.roles.${input.role}`),
      link: `${context.config.publicUrl}/auth/invitation?token=${token}`,
      days: INVITATION_DAYS,
    });
    await queueMail(trx, { to: address, ...message, kind: "staff-invitation" });
    await recordAudit(trx, { actorId: input.actorId, action: "create", entity: "user", entityId: null, summary: address, changes: { invitation: [null, `${row.id}`], role: [null, input.role] } });
    return { ok: true, email: address };
  });
  logSecurityEvent(result.ok ? "staff_invited" : "staff_invite_refused", { actorId: input.actorId, email: address, role: input.role, ...(result.ok ? {} : { reason: result.reason }) });
  return result;
}

/** Stops a pending invitation's link. */
export async function revokeInvitation(db: Db, input: { actorId: number; id: number }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("staff_invitations")
      .set({ revoked_at: new Date().toISOString() })
      .where("id", "=", input.id)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .returning(["email", "role"])
      .executeTakeFirst();
    if (!row) return false;
    await recordAudit(trx, { actorId: input.actorId, action: "delete", entity: "user", entityId: null, summary: row.email, changes: { invitation: [`${input.id}`, null] } });
    return true;
  });
}

export type InvitationState =
  | { state: "valid"; email: string; role: StaffRole; hasAccount: boolean }
  | { state: "expired" | "used" | "invalid" };

/** What an invitation link is worth now. */
export async function invitationState(db: Db, token: string | null | undefined, now = new Date()): Promise<InvitationState> {
  if (!token || !TOKEN.test(token)) return { state: "invalid" };
  const row = await db
    .selectFrom("staff_invitations")
    .select(["email", "role", "expires_at", "accepted_at", "revoked_at"])
    .where("token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row || row.revoked_at) return { state: "invalid" };
  if (row.accepted_at) return { state: "used" };
  if (row.expires_at <= now.toISOString()) return { state: "expired" };
  const account = await db.selectFrom("users").select("id").where("email", "=", row.email).executeTakeFirst();
  return { state: "valid", email: row.email, role: row.role, hasAccount: Boolean(account) };
}

const personName = (required: string) =>
  z
    .string()
    .trim()
    .max(MAX_NAME_LENGTH, "auth.errors.firstNameTooLong")
    // eslint-disable-next-line no-control-regex -- control characters in a name are never typed by a person
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), required);

/** The acceptance form: names (asked only of a new account), and the password, strong enough. */
export const acceptSchema = (email: string, needsNames: boolean) =>
  z
    .object({
      firstName: personName("auth.errors.firstNameRequired"),
      lastName: personName("auth.errors.lastNameRequired"),
      password: z
        .string()
        .min(1, "auth.errors.passwordRequired")
        .min(MIN_PASSWORD_LENGTH, "auth.errors.passwordTooShort")
        .max(MAX_PASSWORD_LENGTH, "auth.errors.passwordTooLong"),
      confirmPassword: z.string().max(MAX_PASSWORD_LENGTH, "auth.errors.passwordsDontMatch"),
    })
    .superRefine((v, ctx) => {
      if (needsNames && !v.firstName) ctx.addIssue({ code: "custom", path: ["firstName"], message: "auth.errors.firstNameRequired" });
      if (needsNames && !v.lastName) ctx.addIssue({ code: "custom", path: ["lastName"], message: "auth.errors.lastNameRequired" });
      if (v.password !== v.confirmPassword) ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "auth.errors.passwordsDontMatch" });
      if (v.password.length >= MIN_PASSWORD_LENGTH && v.password.length <= MAX_PASSWORD_LENGTH) {
        const reason = passwordWeakness(v.password, [email, v.firstName, v.lastName]);
        if (reason) ctx.addIssue({ code: "custom", path: ["password"], message: reason });
      }
    });

export type AcceptResult = { ok: true; userId: number; email: string } | { ok: false; reason: "expired" | "used" | "invalid" | "alreadyStaff" };

/**
 * Accepts an invitation: the link is claimed in the statement that checks it (it works once, even
 * when sent twice at the same moment), then the account is made with the invitation's role and the
 * chosen password, or an existing customer account gets the role and the password (its sessions end).
 * Audited in the same transaction, as done by the owner who invited.
 */
export async function acceptInvitation(db: Db, input: { token: string; firstName: string; lastName: string; password: string }, now = new Date()): Promise<AcceptResult> {
  const state = await invitationState(db, input.token, now);
  if (state.state !== "valid") return { ok: false, reason: state.state };
  const passwordHash = await hashPassword(input.password);
  const nowIso = now.toISOString();
  const result = await db.transaction().execute(async (trx): Promise<AcceptResult> => {
    const claimed = await trx
      .updateTable("staff_invitations")
      .set({ accepted_at: nowIso })
      .where("token_hash", "=", sha256(input.token))
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", nowIso)
      .returning(["email", "role", "invited_by"])
      .executeTakeFirst();
    if (!claimed) return { ok: false, reason: "used" };
    const existing = await trx.selectFrom("users").select(["id", "role"]).where("email", "=", claimed.email).executeTakeFirst();
    if (existing && isStaff(existing.role)) return { ok: false, reason: "alreadyStaff" };
    let userId: number;
    if (existing) {
      userId = existing.id;
      await trx
        .updateTable("users")
        .set({ role: claimed.role, password_hash: passwordHash, staff_since: nowIso, suspended_at: null, must_change_password: 0 })
        .where("id", "=", existing.id)
        .execute();
      await destroyAllSessions(trx, existing.id);
    } else {
      const row = await trx
        .insertInto("users")
        .values({
          email: claimed.email,
          password_hash: passwordHash,
          first_name: input.firstName.trim() || claimed.email.split("@")[0],
          last_name: input.lastName.trim(),
          role: claimed.role,
          staff_since: nowIso,
          created_at: nowIso,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      userId = row.id;
    }
    await recordAudit(trx, {
      actorId: claimed.invited_by ?? userId,
      action: existing ? "update" : "create",
      entity: "user",
      entityId: userId,
      summary: claimed.email,
      changes: { role: [existing?.role ?? null, claimed.role], invitation: ["sent", "accepted"] },
    });
    return { ok: true, userId, email: claimed.email };
  });
  logSecurityEvent(result.ok ? "staff_invitation_accepted" : "staff_invitation_refused", result.ok ? { userId: result.userId } : { reason: result.reason });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Role, suspension, removal

/** A staff member's role: as on a customer's page (changeRole), the last owner kept. */
export function changeStaffRole(db: Db, input: { actorId: number; userId: number; role: StaffRole }): Promise<RoleChangeResult> {
  return changeRole(db, input);
}

/** Removes a staff member: a customer again, every session ended at once (changeRole). */
export function removeStaff(db: Db, input: { actorId: number; userId: number }): Promise<RoleChangeResult> {
  return changeRole(db, { ...input, role: "customer" });
}

export type SuspendResult = { ok: true; changed: boolean; email: string } | { ok: false; error: "self" | "lastOwner" | "notOwner" | "notFound" | "notStaff" };

/**
 * Suspends a staff member (no sign-in, every session ended at once) or lifts it. Decided as a role
 * change is: the asker, the account and every owner locked first on PostgreSQL (SQLite has one
 * writer), nobody their own, and the last active owner never suspended. Audited in the transaction.
 */
export async function setSuspended(db: Db, input: { actorId: number; userId: number; suspended: boolean }): Promise<SuspendResult> {
  if (input.actorId === input.userId) return { ok: false, error: "self" };
  const result = await db.transaction().execute((trx) => decideSuspension(trx, input));
  logSecurityEvent(result.ok ? (input.suspended ? "staff_suspended" : "staff_unsuspended") : "staff_suspension_refused", {
    actorId: input.actorId,
    userId: input.userId,
    ...(result.ok ? {} : { reason: result.error }),
  });
  return result;
}

async function decideSuspension(trx: Transaction<Database>, input: { actorId: number; userId: number; suspended: boolean }): Promise<SuspendResult> {
  const rows = await lockOwnersActorAndTarget(trx, input.actorId, input.userId);
  const actor = rows.find((r) => r.id === input.actorId);
  if (!actor || !can(actor.role, "staff") || actor.suspended_at) return { ok: false, error: "notOwner" };
  const target = rows.find((r) => r.id === input.userId);
  if (!target) return { ok: false, error: "notFound" };
  if (!isStaff(target.role)) return { ok: false, error: "notStaff" };
  if (Boolean(target.suspended_at) === input.suspended) return { ok: true, changed: false, email: target.email };
  if (input.suspended && target.role === "owner" && !rows.some((r) => r.role === "owner" && r.id !== target.id && !r.suspended_at)) {
    return { ok: false, error: "lastOwner" };
  }
  await trx
    .updateTable("users")
    .set({ suspended_at: input.suspended ? new Date().toISOString() : null })
    .where("id", "=", target.id)
    .execute();
  if (input.suspended) {
    await destroyAllSessions(trx, target.id);
    await trx.deleteFrom("sign_in_challenges").where("user_id", "=", target.id).execute();
  }
  await recordAudit(trx, { actorId: input.actorId, action: "update", entity: "user", entityId: target.id, summary: target.email, changes: { suspended: [!input.suspended, input.suspended] } });
  return { ok: true, changed: true, email: target.email };
}

/** Whether every staff role must sign in with a second factor (owners and managers always do). Audited. */
export async function setSecondFactorForAll(db: Db, input: { actorId: number; on: boolean }): Promise<{ changed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("staff_settings").select("second_factor_all_since").where("id", "=", 1).executeTakeFirstOrThrow();
    const was = row.second_factor_all_since !== null;
    if (was === input.on) return { changed: false };
    await trx
      .updateTable("staff_settings")
      .set({ second_factor_all_since: input.on ? new Date().toISOString() : null })
      .where("id", "=", 1)
      .execute();
    await recordAudit(trx, { actorId: input.actorId, action: "update", entity: "user", entityId: null, summary: "staff", changes: { secondFactorForAll: [was, input.on] } });
    return { changed: true };
  });
}

/** The role a staff member's row shows, for the screen's choices. */
export const STAFF_ROLE_CHOICES: readonly Role[] = STAFF_ROLES;
