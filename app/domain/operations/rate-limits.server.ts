import { createHash } from "node:crypto";
import { CompiledQuery } from "kysely";
import { type AppLoadContext } from "react-router";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Db } from "~/db/client.server";
import { logSecurityEvent } from "~/platform/security-log.server";

/**
 * Abuse limits for the account forms (rate-limiter-flexible). One machine on SQLite counts in memory;
 * on PostgreSQL the counters live in the `rate_limits` table, so every app instance sees the same
 * numbers. Every limit is a window that runs out on its own: nobody is locked out for good.
 */

export const LIMITS = {
  /** sign-in attempts per account from one IP address (a successful sign-in or password reset clears it) */
  signInAccountIp: { points: 5, duration: 15 * 60 },
  /**
   * sign-in attempts per account from anywhere: counted, never refused by this count; past
   * SIGN_IN_FREE_ATTEMPTS each attempt needs a turn of signInAccountPace (docs/decisions/214)
   */
  signInAccount: { points: 1_000_000, duration: 15 * 60 },
  /** failed sign-ins per IP address */
  signInIp: { points: 20, duration: 15 * 60 },
  /**
   * reset e-mails per address: past it the request is answered as usual but sends no new link (the
   * links already sent still work), so requests from elsewhere cannot use up the owner's resets
   */
  resetAddress: { points: 3, duration: 15 * 60 },
  /** password-reset requests per IP address */
  resetIp: { points: 10, duration: 60 * 60 },
  /** registrations per IP address */
  registerIp: { points: 20, duration: 60 * 60 },
  /** new WhatsApp orders per IP address (docs/decisions/062) */
  whatsappIp: { points: 10, duration: 60 * 60 },
  /**
   * registration e-mails per address: past it the form answers as usual but sends nothing, so the form
   * cannot be used to flood someone's mailbox
   */
  registerAddress: { points: 3, duration: 15 * 60 },
  /** new guest checkout orders per IP address (docs/decisions/217) */
  guestOrderIp: { points: 10, duration: 60 * 60 },
  /** "Track your order" look-ups per IP address, and per order number from anywhere (docs/decisions/217) */
  trackIp: { points: 10, duration: 15 * 60 },
  trackOrder: { points: 10, duration: 60 * 60 },
  /** discount codes entered that the shop does not have, per IP address: guessing codes is bounded (docs/decisions/219) */
  unknownCodeIp: { points: 20, duration: 60 * 60 },
  /** back-in-stock requests per IP address (docs/decisions/133) */
  backInStockIp: { points: 20, duration: 60 * 60 },
  /** privacy links asked for per IP address (docs/decisions/221) */
  privacyRequestIp: { points: 10, duration: 60 * 60 },
  /**
   * privacy links mailed per address: past it the form answers as usual but sends nothing, so it cannot
   * flood someone's mailbox (the links already sent still work)
   */
  privacyRequestAddress: { points: 3, duration: 60 * 60 },
  /** password checks before an account's erasure, per account (docs/decisions/221) */
  privacyErasePassword: { points: 5, duration: 15 * 60 },
  /** reviews posted per account (docs/decisions/134) */
  reviewUser: { points: 5, duration: 60 * 60 },
  /**
   * a guessed-at account's turns: past SIGN_IN_FREE_ATTEMPTS in the signInAccount window, one password
   * check per account every 5 seconds from anywhere; an attempt without a turn is answered 429 at once
   * (docs/decisions/214)
   */
  signInAccountPace: { points: 1, duration: 5 },
  /**
   * an account at the IP address that just set its password with a reset link: signs in there without
   * waiting for a turn, for 15 minutes (signInAccountIp still counts there) (docs/decisions/214)
   */
  signInAfterReset: { points: 1, duration: 15 * 60 },
  /** second-factor codes per account from one IP address, as signInAccountIp (docs/decisions/222) */
  secondFactorAccountIp: { points: 5, duration: 15 * 60 },
  /** second-factor codes per account from anywhere: counted, paced past SIGN_IN_FREE_ATTEMPTS, as signInAccount */
  secondFactorAccount: { points: 1_000_000, duration: 15 * 60 },
  /** one second-factor code per account every 5 seconds once paced, as signInAccountPace */
  secondFactorAccountPace: { points: 1, duration: 5 },
} as const;

export type LimitName = keyof typeof LIMITS;

/** Sign-in attempts an account may have in the signInAccount window, from anywhere, before it is paced. */
export const SIGN_IN_FREE_ATTEMPTS = 5;

/** The request went over a limit; it may try again after `retryAfterSeconds`. */
export class TooManyAttempts extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many attempts; try again in ${retryAfterSeconds} s`);
    this.name = "TooManyAttempts";
  }
}

type Limiters = Record<LimitName, RateLimiterAbstract>;
const perDatabase = new WeakMap<Db, Limiters>();

/**
 * rate-limiter-flexible's PostgreSQL store speaks to a pg client (`query({ text, values })`). This one
 * runs its statements over the shop's own Kysely connection pool, so there is no second pool to
 * configure, and the table comes from our migrations.
 */
function kyselyAsPgClient(db: Db) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(q.text, q.values ?? []));
      return { rows: result.rows, rowCount: result.rows.length || Number(result.numAffectedRows ?? 0) };
    },
  };
}

function limitersFor(context: Pick<AppLoadContext, "db" | "engine">): Limiters {
  let limiters = perDatabase.get(context.db);
  if (limiters) return limiters;
  const client = context.engine === "postgres" ? kyselyAsPgClient(context.db) : null;
  const make = (name: LimitName, index: number): RateLimiterAbstract => {
    const options = { keyPrefix: name, ...LIMITS[name] };
    if (!client) return new RateLimiterMemory(options);
    return new RateLimiterPostgres({
      ...options,
      storeClient: client,
      storeType: "client",
      tableName: "rate_limits",
      tableCreated: true,
      // One of them sweeps windows that ended an hour ago (every 5 minutes, for the whole table).
      clearExpiredByTimeout: index === 0,
    });
  };
  const names = Object.keys(LIMITS) as LimitName[];
  limiters = Object.fromEntries(names.map((name, i) => [name, make(name, i)])) as Limiters;
  perDatabase.set(context.db, limiters);
  return limiters;
}

/** Counters are keyed by a hash, so the table holds no e-mail or IP addresses. */
function keyOf(subject: string): string {
  return createHash("sha256").update(subject).digest("hex");
}

function refusal(res: RateLimiterRes): TooManyAttempts {
  return new TooManyAttempts(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
}

/** Counts one attempt and refuses (TooManyAttempts) when it is over the limit; a refusal is logged. */
export async function consumeAttempt(
  context: Pick<AppLoadContext, "db" | "engine"> & { clientIp?: string },
  name: LimitName,
  subject: string,
): Promise<void> {
  try {
    await limitersFor(context)[name].consume(keyOf(subject));
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const refused = refusal(error);
    logSecurityEvent("throttled", { limit: name, ip: context.clientIp, retryAfterSeconds: refused.retryAfterSeconds });
    throw refused;
  }
}

/** Counts one attempt that is never refused; answers how many the subject has made in the window. */
export async function countAttempt(context: Pick<AppLoadContext, "db" | "engine">, name: LimitName, subject: string): Promise<number> {
  const res = await limitersFor(context)[name].penalty(keyOf(subject), 1);
  return res.consumedPoints;
}

/**
 * Takes the subject's turn under a pace limit (one point per window), atomically in the store, so
 * parallel requests cannot share a turn. Answers 0 when the turn was taken, or the seconds until the next
 * turn when another request has it. Logs nothing: the caller knows what was refused.
 */
export async function takeTurn(context: Pick<AppLoadContext, "db" | "engine">, name: LimitName, subject: string): Promise<number> {
  try {
    await limitersFor(context)[name].consume(keyOf(subject));
    return 0;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    return refusal(error).retryAfterSeconds;
  }
}

/** How many attempts the subject has made in the current window, counting nothing. */
export async function attemptsMade(context: Pick<AppLoadContext, "db" | "engine">, name: LimitName, subject: string): Promise<number> {
  const res = await limitersFor(context)[name].get(keyOf(subject));
  return res?.consumedPoints ?? 0;
}

/** Counts one attempt; answers false, without throwing, when the subject is over its limit. */
export async function withinLimit(context: Pick<AppLoadContext, "db" | "engine">, name: LimitName, subject: string): Promise<boolean> {
  try {
    await limitersFor(context)[name].consume(keyOf(subject));
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}

/** Gives one counted attempt back (e.g. it turned out to be the owner signing in). */
export async function refundAttempt(context: Pick<AppLoadContext, "db" | "engine">, name: LimitName, subject: string): Promise<void> {
  await limitersFor(context)[name].reward(keyOf(subject));
}

/** Forgets the subject's attempts (e.g. after the owner proved who they are). */
export async function clearAttempts(context: Pick<AppLoadContext, "db" | "engine">, name: LimitName, subject: string): Promise<void> {
  await limitersFor(context)[name].delete(keyOf(subject));
}
