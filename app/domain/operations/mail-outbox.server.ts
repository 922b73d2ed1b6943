import { type Kysely, sql, type Transaction } from "kysely";
import { isPostgres } from "~/db/client.server";
import type { Database } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { removeAbandonedOutboxFiles, sendMail } from "~/platform/mail.server";
import { type DrainResult, drainLoop, type OutboxWorker, type OutboxWorkerLogger, outboxWakers, startOutboxWorker, wakeOutbox } from "./outbox-loop.server";

export type { DrainResult };

/**
 * The durable mail outbox (docs/decisions/060). Every e-mail is a row in mail_outbox, written with
 * queueMail inside the transaction that makes the change it reports, so the message exists exactly
 * when the change does. A worker in the server process sends due rows through sendMail, marks them
 * sent, and retries failures with exponential backoff; a mail server that is down delays mail and
 * never loses it or fails what queued it. Rows are claimed with a lease, so several server
 * instances (FOR UPDATE SKIP LOCKED on PostgreSQL) or a crashed one never lose or double-claim mail.
 */

export interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** what the message is about, e.g. order-confirmation, order-status, password-reset */
  kind: string;
}

type MailConfig = Pick<Config, "smtpUrl" | "mailFrom" | "dataDir">;

/**
 * How long a worker owns a claimed row: longer than one send can take (the SMTP transport gives up
 * within about 55 s). Rows are claimed one at a time, so a slow send never eats into another row's lease.
 */
export const MAIL_LEASE_MS = 60_000;
/** first retry after 10 s, doubling up to an hour between tries */
export const MAIL_RETRY_BASE_MS = 10_000;
export const MAIL_RETRY_MAX_MS = 60 * 60 * 1000;
/** a message still not accepted after three days of tries is marked failed (shown on the dashboard) */
export const MAIL_GIVE_UP_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

export class MailAddressError extends Error {}

/** Writes a pending e-mail; call it with the transaction of what it reports. */
export async function queueMail(db: Kysely<Database> | Transaction<Database>, message: QueuedMail): Promise<void> {
  const to = message.to.trim();
  if (!to || /[\r\n]/.test(to)) throw new MailAddressError(`not an e-mail address: ${JSON.stringify(message.to)}`);
  const at = new Date().toISOString();
  await db
    .insertInto("mail_outbox")
    .values({
      kind: message.kind,
      to_address: to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      status: "pending",
      attempts: 0,
      next_attempt_at: at,
      locked_until: null,
      last_error: null,
      created_at: at,
      sent_at: null,
    })
    .execute();
  // The row is visible once the caller's transaction commits, a moment from now: nudge the worker.
  mailQueued();
}

// ---------------------------------------------------------------------------------------------
// Waking the worker. The worker runs in server.ts's copy of this module and queueMail in the app
// build's copy, so they meet on globalThis.

const wakers = outboxWakers("mail");

function mailQueued(): void {
  wakeOutbox(wakers);
}

// ---------------------------------------------------------------------------------------------
// Sending

interface ClaimedRow {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
  created_at: string;
}

/** Takes up to `limit` due rows for this worker (a lease), oldest first. */
async function claimDue(db: Kysely<Database>, now: Date, limit: number): Promise<ClaimedRow[]> {
  const at = now.toISOString();
  const lease = new Date(now.getTime() + MAIL_LEASE_MS).toISOString();
  const due = db
    .selectFrom("mail_outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", at)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", at)]))
    .orderBy("id")
    .limit(limit)
    // Another instance's claimed rows are skipped, not waited for. SQLite has one writer at a time:
    // the single UPDATE below is the claim.
    .$if(isPostgres(db), (qb) => qb.forUpdate().skipLocked());
  const rows = await db
    .updateTable("mail_outbox")
    .set((eb) => ({ locked_until: lease, attempts: eb("attempts", "+", 1) }))
    .where("id", "in", due)
    .returning(["id", "kind", "to_address", "subject", "text_body", "html_body", "attempts", "created_at"])
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** An SMTP 5xx answer (no such mailbox, refused): trying again will not help. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

export function retryDelayMs(attempts: number): number {
  return Math.min(MAIL_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), MAIL_RETRY_MAX_MS);
}

async function sendOne(db: Kysely<Database>, config: MailConfig, row: ClaimedRow, onError?: (row: ClaimedRow, error: unknown) => void): Promise<keyof DrainResult> {
  try {
    await sendMail(
      config,
      {
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        ...(row.html_body ? { html: row.html_body } : {}),
      },
      { key: `m${row.id}`, at: row.created_at },
    );
  } catch (error) {
    onError?.(row, error);
    const now = Date.now();
    const giveUp = isPermanent(error) || now - Date.parse(row.created_at) >= MAIL_GIVE_UP_AFTER_MS;
    await db
      .updateTable("mail_outbox")
      .set({
        status: giveUp ? "failed" : "pending",
        next_attempt_at: new Date(now + retryDelayMs(row.attempts)).toISOString(),
        locked_until: null,
        last_error: String((error as Error).message ?? error).slice(0, 500),
      })
      .where("id", "=", row.id)
      .execute();
    return giveUp ? "failed" : "retrying";
  }
  // Sent: if the process dies before this line, the row is sent again after its lease, to the same
  // outbox file name (no duplicate file); an SMTP server may then see it twice, never zero times.
  await db
    .updateTable("mail_outbox")
    .set({
      status: "sent",
      sent_at: new Date().toISOString(),
      locked_until: null,
      last_error: null,
    })
    .where("id", "=", row.id)
    .execute();
  return "sent";
}

/**
 * Sends every due message now and returns what happened; the worker calls it, and tests call it
 * to deliver the outbox at once. Messages that fail wait for their next try (not retried here).
 */
export async function drainMailOutbox(db: Kysely<Database>, config: MailConfig, options: { onError?: (row: ClaimedRow, error: unknown) => void } = {}): Promise<DrainResult> {
  return drainLoop(
    async () => (await claimDue(db, new Date(), 1))[0],
    (row) => sendOne(db, config, row, options.onError),
  );
}

export type MailWorker = OutboxWorker;
export type MailWorkerLogger = OutboxWorkerLogger;

/** The worker in the server process: a pass every `pollMs`, and soon after anything is queued. */
export function startMailWorker(options: { db: Kysely<Database>; config: MailConfig; logger?: MailWorkerLogger; pollMs?: number }): MailWorker {
  const { db, config, logger } = options;
  const onError = (row: ClaimedRow, error: unknown) =>
    logger?.warn(
      {
        event: "mail_send_failed",
        mailId: row.id,
        kind: row.kind,
        attempts: row.attempts,
        err: String((error as Error).message ?? error),
      },
      "e-mail not sent; will retry",
    );
  if (!config.smtpUrl) void removeAbandonedOutboxFiles(config.dataDir).catch(() => {});
  return startOutboxWorker({
    drain: () => drainMailOutbox(db, config, { onError }),
    wakers,
    pollMs: options.pollMs ?? 1000,
    logger,
    failedEvent: "mail_worker_failed",
  });
}

// ---------------------------------------------------------------------------------------------
// For the dashboard

export interface MailOutboxCounts {
  /** waiting to be sent (including those waiting for a retry) */
  pending: number;
  /** of those, how many have failed at least once */
  retrying: number;
  /** given up on */
  failed: number;
}

export async function mailOutboxCounts(db: Kysely<Database>): Promise<MailOutboxCounts> {
  const rows = await db
    .selectFrom("mail_outbox")
    .select((eb) => ["status", eb.fn.countAll<number>().as("n"), eb.fn.sum<number>(sql<number>`case when attempts > 0 then 1 else 0 end`).as("tried")])
    .where("status", "in", ["pending", "failed"])
    .groupBy("status")
    .execute();
  const counts: MailOutboxCounts = { pending: 0, retrying: 0, failed: 0 };
  for (const row of rows) {
    if (row.status === "pending") {
      counts.pending = Number(row.n);
      counts.retrying = Number(row.tried ?? 0);
    } else counts.failed = Number(row.n);
  }
  return counts;
}
