import { Writable } from "node:stream";
import pino from "pino";

/**
 * The security log (docs/decisions/081): one structured pino line per event, with an `event` field, on
 * the server's standard output next to its other logs. Never a password, a token or a link that carries
 * one: callers pass only the fields listed with each event.
 *
 * The module makes its own logger (at LOG_LEVEL, like the server's) because the Express server and the
 * React Router build are bundled apart and do not share module instances.
 */

export type SecurityEvent =
  /** a wrong e-mail or password: { email, ip } */
  | "sign_in_failed"
  /** a sign-in refused unchecked, 429, because its account is being tried too often: { email, ip, retryAfterSeconds } */
  | "sign_in_paced"
  /** a request over an abuse limit, answered 429: { limit, ip, retryAfterSeconds } */
  | "throttled"
  /** a signed-in account on an admin page or action its role may not use, answered 403: { userId, role, permission, method, path, ip } */
  | "admin_forbidden"
  /** a request that can change something, from another site, answered 403: { method, path, origin, referer, ip } */
  | "cross_site_refused"
  /** a change made in the admin area: { actorId, action, entity, entityId, summary } */
  | "admin_change"
  /** an account's role changed (customer or a staff role): { actorId, userId, from, to } */
  | "role_changed"
  /** a role change refused (own role, last owner, asker no longer an owner): { actorId, userId, to, reason } */
  | "role_change_refused"
  /** the registration form sent: { email, ip, existingAccount, sent } */
  | "registration_started"
  /** a password-reset link asked for: { email, ip, sent } */
  | "password_reset_requested"
  /** a password set with a reset link: { userId, ip } */
  | "password_reset_done"
  /** a password changed by its signed-in owner: { userId, ip } */
  | "password_changed"
  /** a shopper refused another account's order, invoice or address (answered 404): { userId, object, objectId, method, path, ip } */
  | "object_refused"
  /** a privacy link asked for by a guest (docs/decisions/221): { ip, sent } */
  | "privacy_link_requested"
  /** an account's erasure refused for a wrong password: { userId, ip } */
  | "privacy_erase_refused"
  /** personal data erased: { userId } or { guest }, { ip, orders } */
  | "privacy_erased"
  /** a right password for a suspended staff account, answered as a wrong one: { userId, ip } */
  | "sign_in_suspended"
  /** a sensitive action sent to confirm the password (docs/decisions/222): { userId, path } */
  | "reauthentication_asked"
  /** the password confirmed, or not: { userId, ip } */
  | "reauthenticated"
  | "reauthentication_failed"
  /** the second factor turned on or off, recovery codes replaced or one used: { userId } */
  | "second_factor_enabled"
  | "second_factor_disabled"
  | "recovery_codes_replaced"
  | "recovery_code_used"
  /** a wrong second-factor code, or one refused unchecked while the account is paced: { userId, ip, retryAfterSeconds? } */
  | "second_factor_failed"
  | "second_factor_paced"
  /** staff invitations sent, refused, accepted: { actorId?, userId?, email?, role?, reason? } */
  | "staff_invited"
  | "staff_invite_refused"
  | "staff_invitation_accepted"
  | "staff_invitation_refused"
  /** a staff member suspended, let back in, or a suspension refused: { actorId, userId, reason? } */
  | "staff_suspended"
  | "staff_unsuspended"
  | "staff_suspension_refused";

type Fields = Record<string, string | number | boolean | null | undefined>;

function makeLogger(destination?: pino.DestinationStream): pino.Logger {
  const options: pino.LoggerOptions = {
    // Unit tests read the lines through captureSecurityLog; the rest of their output stays quiet.
    level: process.env.LOG_LEVEL ?? (process.env.VITEST ? "silent" : "info"),
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    // Belt and braces: should a caller ever pass one, it is not written.
    redact: { paths: ["password", "token", "link", "*.password", "*.token"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}

let logger = makeLogger();

/** Writes one security event (at warn level, so it shows with LOG_LEVEL=warn too). */
export function logSecurityEvent(event: SecurityEvent, fields: Fields = {}): void {
  logger.warn({ event, ...fields }, `security: ${event}`);
}

/** For tests: the lines written from now on, parsed; `stop()` puts the standard logger back. */
export function captureSecurityLog(): { lines: Array<Record<string, unknown>>; text: () => string; stop: () => void } {
  const raw: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString("utf8");
      raw.push(text);
      for (const line of text.split("\n")) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const previous = logger;
  logger = makeLogger(sink);
  logger.level = "info";
  return {
    lines,
    text: () => raw.join(""),
    stop: () => {
      logger = previous;
    },
  };
}
