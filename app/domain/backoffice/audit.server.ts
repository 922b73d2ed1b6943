import type { Db } from "~/db/client.server";
import type { AuditAction, AuditEntity } from "~/db/schema";
import { logSecurityEvent } from "~/platform/security-log.server";

/**
 * The admin audit log: every create, update, delete and archive made in the admin area, with who did
 * it, when, and the old and new value of each changed field. Entries are written in the same
 * transaction as the change they describe, so the log never claims a change that did not happen.
 */

export type AuditChanges = Record<string, [unknown, unknown]>;

export interface AuditInput {
  /** null: no account did it (a guest who confirmed their e-mail) */
  actorId: number | null;
  action: AuditAction;
  entity: AuditEntity;
  entityId: number | null;
  /** the record's name or number as it was at the time (language-independent) */
  summary: string;
  changes?: AuditChanges | null;
}

export async function recordAudit(db: Db, input: AuditInput): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      actor_user_id: input.actorId,
      action: input.action,
      entity: input.entity,
      entity_id: input.entityId,
      summary: input.summary.slice(0, 300),
      changes: input.changes && Object.keys(input.changes).length ? JSON.stringify(input.changes) : null,
      created_at: new Date().toISOString(),
    })
    .execute();
  logSecurityEvent("admin_change", {
    actorId: input.actorId,
    action: input.action,
    entity: input.entity,
    entityId: input.entityId,
    summary: input.summary.slice(0, 300),
  });
}

export const AUDIT_PAGE_SIZE = 25;

export interface AuditEntry {
  id: number;
  createdAt: string;
  actor: string | null;
  action: AuditAction;
  entity: AuditEntity;
  entityId: number | null;
  summary: string;
  changes: AuditChanges;
}

function parseChanges(text: string | null): AuditChanges {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as AuditChanges) : {};
  } catch {
    return {};
  }
}

/** Newest first, optionally for one kind of record. */
export async function listAudit(
  db: Db,
  options: { page?: number; entity?: AuditEntity | null; actorId?: number | null } = {},
): Promise<{ entries: AuditEntry[]; total: number; page: number; pages: number }> {
  let base = db.selectFrom("audit_log as a");
  if (options.entity) base = base.where("a.entity", "=", options.entity);
  if (options.actorId) base = base.where("a.actor_user_id", "=", options.actorId);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  const rows = await base
    .leftJoin("users as u", "u.id", "a.actor_user_id")
    .select([
      "a.id",
      "a.created_at",
      "a.action",
      "a.entity",
      "a.entity_id",
      "a.summary",
      "a.changes",
      "u.first_name",
      "u.last_name",
      "u.email",
    ])
    .orderBy("a.created_at", "desc")
    .orderBy("a.id", "desc")
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
    .execute();
  return {
    total,
    page,
    pages,
    entries: rows.map((r) => ({
      id: r.id,
      createdAt: r.created_at,
      actor: r.email ? `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() || r.email : null,
      action: r.action,
      entity: r.entity,
      entityId: r.entity_id,
      summary: r.summary,
      changes: parseChanges(r.changes),
    })),
  };
}

/** Everyone who has an entry in the audit log, by name, for the log's filter by person. */
export async function auditActors(db: Db): Promise<{ id: number; name: string }[]> {
  const rows = await db
    .selectFrom("users as u")
    .select(["u.id", "u.first_name", "u.last_name", "u.email"])
    .where((eb) => eb.exists(eb.selectFrom("audit_log as a").select("a.id").whereRef("a.actor_user_id", "=", "u.id")))
    .orderBy("u.first_name")
    .orderBy("u.last_name")
    .orderBy("u.id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: `${r.first_name} ${r.last_name}`.trim() || r.email }));
}
