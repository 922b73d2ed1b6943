import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/** What unpaid orders may hold by default (docs/decisions/213): units of one product per order, units per account, units per client address. */
export const DEFAULT_HOLDS = { perProduct: 5, perAccount: 15, perIp: 30 };
/**
 * How long nginx or a CDN may answer an anonymous storefront page without asking the shop, when
 * SHARED_CACHE_SECONDS is not set (docs/decisions/216).
 */
export const DEFAULT_SHARED_CACHE_SECONDS = 60;

/**
 * Every setting comes from the environment and is validated here, once, at start-up.
 * With no environment at all the shop still starts: SQLite under data/, demo contact details,
 * and a session secret generated on first start and kept in the data folder.
 */

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"], { message: "must be development, production or test" }).default("development"),
  HOST: z.string().min(1, "must not be empty").default("0.0.0.0"),
  PORT: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 65535")
    .max(65535, "must be between 0 and 65535")
    .default(3000),
  DATA_DIR: z.string().min(1, "must not be empty").default("data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// URL (leave it unset to use SQLite)")
    .optional(),
  SQLITE_PATH: z.string().min(1, "must not be empty").optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  PUBLIC_URL: z
    .url({ message: "must be an absolute http(s) URL, e.g. https://unboxed.ng" })
    .refine((u) => /^https?:\/\//.test(u), "must start with http:// or https://")
    .transform((u) => u.replace(/\/+$/, ""))
    .optional(),
  SHOP_PHONE: z.string().trim().min(5, "must be a phone number").max(40, "is too long").default("+234 801 234 5678"),
  SHOP_WHATSAPP: z
    .string()
    .transform((v) => v.replace(/[\s()+-]/g, ""))
    .pipe(z.string().regex(/^\d{8,15}$/, "must be an international phone number of 8 to 15 digits, e.g. 2348012345678"))
    .default("2348012345678"),
  SHOP_EMAIL: z.email({ message: "must be an e-mail address" }).default("hello@unboxed.example"),
  // Who runs the shop, as the privacy notice names them (docs/decisions/221).
  SHOP_NAME: z.string().trim().min(2, "must name the shop or its company").max(120, "is too long").default("Unboxed"),
  SHOP_ADDRESS: z.string().trim().min(5, "must be a postal address").max(300, "is too long").default("Lekki, Lagos, Nigeria"),
  OWNER_EMAIL: z
    .string()
    .transform((v) => v.split(/[\s,;]+/).filter(Boolean))
    .pipe(z.array(z.email({ message: "must be one or more e-mail addresses, separated by commas" })).min(1, "must name at least one e-mail address").max(10, "can name at most 10 addresses"))
    .optional(),
  SOCIAL_INSTAGRAM: z.url({ message: "must be a URL" }).default("https://www.instagram.com/unboxed.ng"),
  SOCIAL_TIKTOK: z.url({ message: "must be a URL" }).default("https://www.tiktok.com/@unboxed.ng"),
  // Bank transfer is offered only when all three are set.
  BANK_NAME: z.string().trim().min(2, "must name the bank").max(80, "is too long").optional(),
  BANK_ACCOUNT_NAME: z.string().trim().min(2, "must name the account holder").max(120, "is too long").optional(),
  BANK_ACCOUNT_NUMBER: z
    .string()
    .trim()
    .regex(/^\d{10}$/, "must be a 10-digit NUBAN account number")
    .optional(),
  PAY_ON_DELIVERY: booleanFlag.default(true),
  // The shop is VAT-registered: its prices include VAT at 7.5 % (docs/decisions/223).
  VAT_INCLUDED: booleanFlag.default(false),
  // 'Pay online' is offered only with the secret key.
  PAYSTACK_SECRET_KEY: z.string().trim().regex(/^sk_(test|live)_[A-Za-z0-9_]{8,}$/, "must be a Paystack secret key (sk_test_... or sk_live_...)").optional(),
  PAYSTACK_PUBLIC_KEY: z.string().trim().regex(/^pk_(test|live)_[A-Za-z0-9_]{8,}$/, "must be a Paystack public key (pk_test_... or pk_live_...)").optional(),
  PAYSTACK_API_URL: z
    .url({ message: "must be an absolute http(s) URL" })
    .refine((u) => /^https?:\/\//.test(u), "must start with http:// or https://")
    .transform((u) => u.replace(/\/+$/, ""))
    .default("https://api.paystack.co"),
  ORDER_HOLD_HOURS: z.coerce
    .number({ message: "must be a whole number of hours" })
    .int("must be a whole number of hours")
    .min(1, "must be between 1 and 720 hours")
    .max(720, "must be between 1 and 720 hours")
    .default(48),
  // Unpaid orders hold a bounded number of units (docs/decisions/213).
  ORDER_LINE_LIMIT: z.coerce
    .number({ message: "must be a whole number of units" })
    .int("must be a whole number of units")
    .min(1, "must be between 1 and 999 units")
    .max(999, "must be between 1 and 999 units")
    .default(DEFAULT_HOLDS.perProduct),
  HELD_UNITS_PER_ACCOUNT: z.coerce
    .number({ message: "must be a whole number of units" })
    .int("must be a whole number of units")
    .min(1, "must be between 1 and 10000 units")
    .max(10000, "must be between 1 and 10000 units")
    .default(DEFAULT_HOLDS.perAccount),
  HELD_UNITS_PER_IP: z.coerce
    .number({ message: "must be a whole number of units" })
    .int("must be a whole number of units")
    .min(1, "must be between 1 and 10000 units")
    .max(10000, "must be between 1 and 10000 units")
    .default(DEFAULT_HOLDS.perIp),
  // Guest checkout (docs/decisions/217): whether shoppers may order without an account, and up to what
  // order total (naira) pay on delivery is offered to them; 0: never.
  GUEST_CHECKOUT: booleanFlag.default(true),
  GUEST_PAY_ON_DELIVERY_MAX: z.coerce
    .number({ message: "must be a whole number of naira" })
    .int("must be a whole number of naira")
    .min(0, "must be between 0 and 100000000 naira")
    .max(100_000_000, "must be between 0 and 100000000 naira")
    .default(50_000),
  SEED_DEMO: booleanFlag.default(true),
  SHARED_CACHE_SECONDS: z.coerce
    .number({ message: "must be a number of seconds" })
    .int({ message: "must be a whole number of seconds" })
    .min(0, { message: "must be between 0 and 3600" })
    .max(3600, { message: "must be between 0 and 3600" })
    .default(DEFAULT_SHARED_CACHE_SECONDS),
  SMTP_URL: z.string().regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().min(3).optional(),
  LOW_STOCK_THRESHOLD: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(100_000, "must be at most 100000")
    .default(3),
  BACKUP_DIR: z.string().min(1, "must not be empty").default("backups"),
  BACKUP_KEEP: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(10_000, "must be at most 10000")
    .default(14),
  // WhatsApp (Cloud API) and SMS (Termii) messages, each on only when its credentials are set (docs/decisions/220).
  WHATSAPP_TOKEN: z.string().trim().min(20, "must be a WhatsApp Cloud API access token").optional(),
  WHATSAPP_PHONE_NUMBER_ID: z.string().trim().regex(/^\d{5,20}$/, "must be the numeric id of the WhatsApp business phone number").optional(),
  WHATSAPP_APP_SECRET: z.string().trim().min(8, "must be the Meta app's secret").optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().trim().min(8, "must be at least 8 characters").optional(),
  WHATSAPP_API_URL: z
    .url({ message: "must be an absolute http(s) URL" })
    .refine((u) => /^https?:\/\//.test(u), "must start with http:// or https://")
    .transform((u) => u.replace(/\/+$/, ""))
    .default("https://graph.facebook.com"),
  WHATSAPP_API_VERSION: z.string().trim().regex(/^v\d+\.\d+$/, "must be a Graph API version such as v21.0").default("v21.0"),
  OWNER_WHATSAPP: z
    .string()
    .transform((v) => v.replace(/[\s()+-]/g, ""))
    .pipe(z.string().regex(/^\d{8,15}$/, "must be an international phone number of 8 to 15 digits, e.g. 2348012345678"))
    .optional(),
  TERMII_API_KEY: z.string().trim().min(10, "must be a Termii API key").optional(),
  TERMII_SENDER_ID: z.string().trim().regex(/^[A-Za-z0-9 ]{3,11}$/, "must be a registered Termii sender id of 3 to 11 letters or digits").default("Unboxed"),
  TERMII_CHANNEL: z.enum(["dnd", "generic"], { message: "must be dnd or generic" }).default("dnd"),
  TERMII_SECRET_KEY: z.string().trim().min(8, "must be the Termii secret key").optional(),
  TERMII_API_URL: z
    .url({ message: "must be an absolute http(s) URL" })
    .refine((u) => /^https?:\/\//.test(u), "must start with http:// or https://")
    .transform((u) => u.replace(/\/+$/, ""))
    .default("https://api.ng.termii.com"),
  // Cart reminders are not sent in these Lagos hours ("21-8": from 21:00 to 08:00); "0-0": at any hour.
  CART_REMINDER_QUIET_HOURS: z
    .string()
    .trim()
    .regex(/^([01]?\d|2[0-3])-([01]?\d|2[0-3])$/, "must be two hours of the day, e.g. 21-8")
    .transform((v) => v.split("-").map(Number) as [number, number])
    .default([21, 8]),
  CART_REMINDER_POLL_SECONDS: z.coerce
    .number({ message: "must be a whole number of seconds" })
    .int("must be a whole number of seconds")
    .min(1, "must be between 1 and 3600 seconds")
    .max(3600, "must be between 1 and 3600 seconds")
    .default(60),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { message: "must be one of fatal, error, warn, info, debug, trace, silent" })
    .default("info"),
}).superRefine((env, ctx) => {
  const bank = [env.BANK_NAME, env.BANK_ACCOUNT_NAME, env.BANK_ACCOUNT_NUMBER];
  if (bank.some(Boolean) && !bank.every(Boolean)) {
    const missing = (["BANK_NAME", "BANK_ACCOUNT_NAME", "BANK_ACCOUNT_NUMBER"] as const).find((k) => !env[k])!;
    ctx.addIssue({ code: "custom", path: [missing], message: "must be set with the other BANK_ settings (bank transfer needs all three, or none)" });
  }
  if (Boolean(env.WHATSAPP_TOKEN) !== Boolean(env.WHATSAPP_PHONE_NUMBER_ID)) {
    const missing = env.WHATSAPP_TOKEN ? "WHATSAPP_PHONE_NUMBER_ID" : "WHATSAPP_TOKEN";
    ctx.addIssue({ code: "custom", path: [missing], message: "must be set with the other (WhatsApp messages need both the token and the phone number id)" });
  }
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  host: string;
  port: number;
  dataDir: string;
  /** postgres:// URL, or null for the embedded SQLite file */
  databaseUrl: string | null;
  sqlitePath: string;
  sessionSecret: string;
  publicUrl: string;
  shop: {
    /** the shop's or its company's name, the data controller on the privacy notice */
    name: string;
    /** the owner's postal address on the privacy notice */
    address: string;
    phone: string;
    whatsapp: string;
    email: string;
    /** who is told of every new order (OWNER_EMAIL, else SHOP_EMAIL) */
    ownerEmails: string[];
    socials: { instagram: string; tiktok: string };
    /** where customers may pay by bank transfer; null when bank transfer is not offered */
    bank: { name: string; accountName: string; accountNumber: string } | null;
    /** VAT_INCLUDED: prices include VAT at 7.5 %, shown on invoices, order e-mails and the orders CSV */
    vatIncluded: boolean;
  };
  /** cash or POS when the parcel arrives (the owner may limit it to some delivery zones) */
  payOnDelivery: boolean;
  /** paying online; null when PAYSTACK_SECRET_KEY is not set */
  paystack: { secretKey: string; publicKey: string | null; apiUrl: string } | null;
  /** unpaid (pending) orders older than this are cancelled and their stock returned */
  orderHoldHours: number;
  /** what unpaid orders may hold (docs/decisions/213): units of one product in one order, units held by one account's and one address's unpaid orders */
  holds: { perProduct: number; perAccount: number; perIp: number };
  /** guest checkout (docs/decisions/217): offered at all, and pay on delivery for guests up to this order total (kobo; 0: never) */
  guests: { checkout: boolean; payOnDeliveryMax: number };
  /** OWNER_EMAIL is set (else new-order alerts go to SHOP_EMAIL), for the dashboard's setup checklist */
  ownerEmailSet: boolean;
  seedDemo: boolean;
  /** how long a shared cache (nginx, a CDN) may keep an anonymous storefront page, in seconds; 0: not at all */
  sharedCacheSeconds: number;
  smtpUrl: string | null;
  mailFrom: string;
  logLevel: Env["LOG_LEVEL"];
  /** a product with this many or fewer left (and more than none) is low on stock */
  lowStockThreshold: number;
  /** where npm run backup writes, and how many backups it keeps */
  backup: { dir: string; keep: number };
  /** WhatsApp and SMS (docs/decisions/220): a channel is null when its credentials are not set */
  messaging: {
    whatsapp: { token: string; phoneNumberId: string; appSecret: string | null; verifyToken: string | null; apiUrl: string; version: string } | null;
    sms: { apiKey: string; senderId: string; channel: "dnd" | "generic"; secretKey: string | null; apiUrl: string } | null;
    /** the owner's WhatsApp number (digits) for new-order alerts; null: none */
    ownerWhatsapp: string | null;
    /** Lagos hours [from, to) in which no cart reminder goes out; equal: none */
    quietHours: [number, number];
    /** how often the server looks for carts due a reminder */
    reminderPollSeconds: number;
  };
}

export class ConfigError extends Error {}

/** Treat empty strings as unset, as shells and .env files often leave them. */
function cleanEnv(source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== "") out[k] = v;
  return out;
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(cleanEnv(source));
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    const raw = source[name];
    const shown = raw === undefined ? "" : ` (got ${JSON.stringify(raw.length > 60 ? raw.slice(0, 60) + "…" : raw)})`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  return result.data;
}

/** Make sure the data folder exists and is writable before anything opens a file in it. */
export function ensureDataDir(dir: string): void {
  try {
    // Only the shop's own user may read the database, the session secret and the e-mails.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.accessSync(dir, fs.constants.W_OK);
    const probe = path.join(dir, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`Invalid configuration: DATA_DIR "${dir}" is not a writable folder (${reason})`);
  }
}

/** The secret is generated once and kept in the data folder, so sessions survive restarts. */
function loadOrCreateSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (fs.existsSync(file)) {
    const stored = fs.readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  }
  const secret = randomBytes(32).toString("base64url");
  fs.writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(source);
  const dataDir = path.resolve(env.DATA_DIR);
  ensureDataDir(dataDir);
  const port = env.PORT;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? null,
    sqlitePath: path.resolve(env.SQLITE_PATH ?? path.join(dataDir, "shop.db")),
    sessionSecret: env.SESSION_SECRET ?? loadOrCreateSessionSecret(dataDir),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port || 3000}`,
    shop: {
      name: env.SHOP_NAME,
      address: env.SHOP_ADDRESS,
      phone: env.SHOP_PHONE,
      whatsapp: env.SHOP_WHATSAPP,
      email: env.SHOP_EMAIL,
      ownerEmails: env.OWNER_EMAIL ?? [env.SHOP_EMAIL],
      socials: { instagram: env.SOCIAL_INSTAGRAM, tiktok: env.SOCIAL_TIKTOK },
      bank:
        env.BANK_NAME && env.BANK_ACCOUNT_NAME && env.BANK_ACCOUNT_NUMBER
          ? { name: env.BANK_NAME, accountName: env.BANK_ACCOUNT_NAME, accountNumber: env.BANK_ACCOUNT_NUMBER }
          : null,
      vatIncluded: env.VAT_INCLUDED,
    },
    payOnDelivery: env.PAY_ON_DELIVERY,
    paystack: env.PAYSTACK_SECRET_KEY ? { secretKey: env.PAYSTACK_SECRET_KEY, publicKey: env.PAYSTACK_PUBLIC_KEY ?? null, apiUrl: env.PAYSTACK_API_URL } : null,
    orderHoldHours: env.ORDER_HOLD_HOURS,
    holds: { perProduct: env.ORDER_LINE_LIMIT, perAccount: env.HELD_UNITS_PER_ACCOUNT, perIp: env.HELD_UNITS_PER_IP },
    guests: { checkout: env.GUEST_CHECKOUT, payOnDeliveryMax: env.GUEST_PAY_ON_DELIVERY_MAX * 100 },
    ownerEmailSet: env.OWNER_EMAIL !== undefined,
    seedDemo: env.SEED_DEMO,
    sharedCacheSeconds: env.SHARED_CACHE_SECONDS,
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM ?? `Unboxed <${env.SHOP_EMAIL}>`,
    logLevel: env.LOG_LEVEL,
    lowStockThreshold: env.LOW_STOCK_THRESHOLD,
    backup: { dir: path.resolve(env.BACKUP_DIR), keep: env.BACKUP_KEEP },
    messaging: {
      whatsapp:
        env.WHATSAPP_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID
          ? {
              token: env.WHATSAPP_TOKEN,
              phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
              appSecret: env.WHATSAPP_APP_SECRET ?? null,
              verifyToken: env.WHATSAPP_VERIFY_TOKEN ?? null,
              apiUrl: env.WHATSAPP_API_URL,
              version: env.WHATSAPP_API_VERSION,
            }
          : null,
      sms: env.TERMII_API_KEY
        ? { apiKey: env.TERMII_API_KEY, senderId: env.TERMII_SENDER_ID, channel: env.TERMII_CHANNEL, secretKey: env.TERMII_SECRET_KEY ?? null, apiUrl: env.TERMII_API_URL }
        : null,
      ownerWhatsapp: env.OWNER_WHATSAPP ?? null,
      quietHours: env.CART_REMINDER_QUIET_HOURS,
      reminderPollSeconds: env.CART_REMINDER_POLL_SECONDS,
    },
  };
}
