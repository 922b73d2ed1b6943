import { type Kysely, sql, type Transaction } from "kysely";
import { isPostgres } from "~/db/client.server";
import type { Database, MessageChannel } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { retryDelayMs } from "../operations/mail-outbox.server";
import { type DrainResult, drainLoop, type OutboxWorker, type OutboxWorkerLogger, outboxWakers, startOutboxWorker, wakeOutbox } from "../operations/outbox-loop.server";
import { MessageSendError } from "./provider-error.server";
import { sendTermiiSms } from "./termii.server";
import { type DeliveryReport, sendWhatsAppTemplate } from "./whatsapp.server";

/**
 * The WhatsApp and SMS outbox (docs/decisions/220), a sibling of the e-mail outbox (060) with its
 * design: a row written in the transaction of what it reports, a worker that claims due rows with a
 * lease (FOR UPDATE SKIP LOCKED on PostgreSQL), sends them through the provider's real client, and
 * retries failures with the e-mail outbox's backoff until a bound. Each row has an idempotency key
 * (unique): the same event queued twice is one message. A crash between the provider's answer and
 * the row's update sends it again after the lease: at least once, never lost.
 */

export type Messaging = Config["messaging"];

export const MESSAGE_LEASE_MS = 30_000;
/** a message not accepted after this many tries, or this long, is marked failed */
export const MESSAGE_MAX_ATTEMPTS = 8;
export const MESSAGE_GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

export interface QueuedMessage {
  channel: MessageChannel;
  kind: string;
  /** unique per message: e.g. order-placed:UB-10042:whatsapp */
  idempotencyKey: string;
  /** E.164 */
  to: string;
  locale: string;
  template: string | null;
  params: string[];
  text: string;
  orderId?: number | null;
  userId?: number | null;
}

/** Writes a pending message unless one with its key exists; true when written. Call it in the transaction of what it reports. */
export async function queueMessage(db: Kysely<Database> | Transaction<Database>, message: QueuedMessage, now = new Date()): Promise<boolean> {
  if (!/^\+?\d{8,15}$/.test(message.to)) return false;
  const at = now.toISOString();
  const result = await db
    .insertInto("message_outbox")
    .values({
      channel: message.channel,
      kind: message.kind,
      idempotency_key: message.idempotencyKey,
      to_phone: message.to,
      locale: message.locale,
      template: message.template,
      template_params: JSON.stringify(message.params),
      text_body: message.text,
      order_id: message.orderId ?? null,
      user_id: message.userId ?? null,
      status: "pending",
      attempts: 0,
      next_attempt_at: at,
      locked_until: null,
      last_error: null,
      error_code: null,
      provider_message_id: null,
      created_at: at,
      sent_at: null,
      delivered_at: null,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .executeTakeFirst();
  const written = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (written) messageQueued();
  return written;
}

const wakers = outboxWakers("message");
function messageQueued(): void {
  wakeOutbox(wakers);
}

interface ClaimedRow {
  id: number;
  idempotency_key: string;
  channel: string;
  kind: string;
  to_phone: string;
  locale: string;
  template: string | null;
  template_params: string;
  text_body: string;
  attempts: number;
  created_at: string;
}

async function claimDue(db: Kysely<Database>, now: Date, leaseMs: number): Promise<ClaimedRow | undefined> {
  const at = now.toISOString();
  const due = db
    .selectFrom("message_outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", at)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", at)]))
    .orderBy("id")
    .limit(1)
    .$if(isPostgres(db), (qb) => qb.forUpdate().skipLocked());
  const [row] = await db
    .updateTable("message_outbox")
    .set((eb) => ({
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: eb("attempts", "+", 1),
    }))
    .where("id", "in", due)
    .returning(["id", "idempotency_key", "channel", "kind", "to_phone", "locale", "template", "template_params", "text_body", "attempts", "created_at"])
    .execute();
  return row;
}

/** The provider's answer to one message; a MessageSendError when refused or unreachable. */
async function deliver(messaging: Messaging, row: ClaimedRow): Promise<string> {
  if (row.channel === "whatsapp") {
    if (!messaging.whatsapp) throw new MessageSendError("channel-off", "WhatsApp is not configured", true);
    const params = JSON.parse(row.template_params) as string[];
    return (
      await sendWhatsAppTemplate(messaging.whatsapp, {
        to: row.to_phone,
        template: row.template ?? "",
        language: row.locale,
        params,
        reference: row.idempotency_key,
      })
    ).messageId;
  }
  if (!messaging.sms) throw new MessageSendError("channel-off", "SMS is not configured", true);
  return (
    await sendTermiiSms(messaging.sms, {
      to: row.to_phone,
      text: row.text_body,
    })
  ).messageId;
}

export type MessageDrainResult = DrainResult;

/**
 * Sends every due message now (the worker calls it; tests call it with a `now` to step time).
 * A failure waits for its next try; a permanent one, or one past the bound, is marked failed.
 */
export async function drainMessageOutbox(
  db: Kysely<Database>,
  messaging: Messaging,
  options: {
    now?: () => Date;
    onError?: (row: ClaimedRow, error: unknown) => void;
    /** how long a claimed message is left to its worker before another may take it (MESSAGE_LEASE_MS) */
    leaseMs?: number;
  } = {},
): Promise<MessageDrainResult> {
  const clock = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? MESSAGE_LEASE_MS;
  return drainLoop(
    () => claimDue(db, clock(), leaseMs),
    (row) => sendOne(db, messaging, row, clock, options.onError),
  );
}

async function sendOne(db: Kysely<Database>, messaging: Messaging, row: ClaimedRow, clock: () => Date, onError?: (row: ClaimedRow, error: unknown) => void): Promise<keyof DrainResult> {
  let providerId: string;
  try {
    providerId = await deliver(messaging, row);
  } catch (error) {
    onError?.(row, error);
    const now = clock();
    const known = error instanceof MessageSendError ? error : new MessageSendError("internal", String((error as Error).message ?? error), false);
    const giveUp = known.permanent || row.attempts >= MESSAGE_MAX_ATTEMPTS || now.getTime() - Date.parse(row.created_at) >= MESSAGE_GIVE_UP_AFTER_MS;
    await db
      .updateTable("message_outbox")
      .set({
        status: giveUp ? "failed" : "pending",
        next_attempt_at: new Date(now.getTime() + retryDelayMs(row.attempts)).toISOString(),
        locked_until: null,
        last_error: known.message.slice(0, 500),
        error_code: known.code.slice(0, 40),
      })
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .execute();
    return giveUp ? "failed" : "retrying";
  }
  // Accepted: a crash before this update sends it again after the lease (at least once).
  await db
    .updateTable("message_outbox")
    .set({
      status: "sent",
      sent_at: clock().toISOString(),
      locked_until: null,
      last_error: null,
      error_code: null,
      provider_message_id: providerId,
    })
    .where("id", "=", row.id)
    .where("status", "=", "pending")
    .execute();
  return "sent";
}

export type MessageWorker = OutboxWorker;

/** The worker in the server process: a pass every `pollMs`, and soon after anything is queued. */
export function startMessageWorker(options: { db: Kysely<Database>; messaging: Messaging; logger?: OutboxWorkerLogger; pollMs?: number; leaseMs?: number }): MessageWorker {
  const { db, messaging, logger } = options;
  const onError = (row: ClaimedRow, error: unknown) =>
    logger?.warn(
      {
        event: "message_send_failed",
        messageId: row.id,
        channel: row.channel,
        kind: row.kind,
        attempts: row.attempts,
        err: String((error as Error).message ?? error),
      },
      "message not sent",
    );
  return startOutboxWorker({
    drain: () => drainMessageOutbox(db, messaging, { onError, leaseMs: options.leaseMs }),
    wakers,
    pollMs: options.pollMs ?? 2000,
    logger,
    failedEvent: "message_worker_failed",
  });
}

// ---------------------------------------------------------------------------------------------
// Delivery reports (webhooks)

const RANK: Record<string, number> = {
  pending: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
};

/** Applies a provider's status report to its message; a report never moves a message backwards. */
export async function applyDeliveryReport(db: Kysely<Database>, channel: MessageChannel, report: DeliveryReport, now = new Date()): Promise<boolean> {
  const row = await db.selectFrom("message_outbox").select(["id", "status"]).where("channel", "=", channel).where("provider_message_id", "=", report.providerMessageId).executeTakeFirst();
  if (!row) return false;
  if (report.status === "sent" || RANK[report.status] <= RANK[row.status]) return false;
  // A message read or delivered is not failed by a late report.
  if (report.status === "failed" && (row.status === "delivered" || row.status === "read")) return false;
  await db
    .updateTable("message_outbox")
    .set({
      status: report.status,
      ...(report.status === "delivered" || report.status === "read" ? { delivered_at: now.toISOString() } : {}),
      ...(report.status === "failed"
        ? {
            last_error: report.error ?? "not delivered",
            error_code: report.errorCode,
          }
        : {}),
    })
    .where("id", "=", row.id)
    .execute();
  return true;
}

// ---------------------------------------------------------------------------------------------
// For the dashboard and the order page

export type MessageCounts = Record<MessageChannel, { waiting: number; failed: number }>;

export async function messageOutboxCounts(db: Kysely<Database>): Promise<MessageCounts> {
  const rows = await db
    .selectFrom("message_outbox")
    .select((eb) => ["channel", "status", eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["pending", "failed"])
    .groupBy(["channel", "status"])
    .execute();
  const counts: MessageCounts = {
    whatsapp: { waiting: 0, failed: 0 },
    sms: { waiting: 0, failed: 0 },
  };
  for (const row of rows) {
    const channel = counts[row.channel as MessageChannel];
    if (!channel) continue;
    if (row.status === "pending") channel.waiting = Number(row.n);
    else channel.failed = Number(row.n);
  }
  return counts;
}

export interface OrderMessage {
  id: number;
  channel: MessageChannel;
  kind: string;
  status: string;
  attempts: number;
  lastError: string | null;
  errorCode: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** The WhatsApp and SMS messages about one order, oldest first. */
export async function orderMessages(db: Kysely<Database>, orderId: number): Promise<OrderMessage[]> {
  const rows = await db
    .selectFrom("message_outbox")
    .select(["id", "channel", "kind", "status", "attempts", "last_error", "error_code", "created_at", "sent_at"])
    .where("order_id", "=", orderId)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    kind: r.kind,
    status: r.status,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    errorCode: r.error_code,
    createdAt: r.created_at,
    sentAt: r.sent_at,
  }));
}

/** Counting rows for tests and the crash check. */
export const outboxTotal = (db: Kysely<Database>) =>
  db
    .selectFrom("message_outbox")
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
