import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "./config.server";

/**
 * Outgoing e-mail. With SMTP_URL set, messages go to that server. Without it, each message is
 * written as an .eml file to DATA_DIR/mail/ (the outbox) and logged, so a developer can open the
 * links and tests can read what was sent.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  /** the outbox file, when there is no SMTP server */
  file: string | null;
}

const transports = new Map<string, Transporter>();

function transportFor(config: Pick<Config, "smtpUrl">): Transporter {
  const key = config.smtpUrl ?? "outbox";
  let transport = transports.get(key);
  if (!transport) {
    transport = config.smtpUrl
      ? nodemailer.createTransport(config.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    transports.set(key, transport);
  }
  return transport;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, "mail");
}

export async function sendMail(config: Pick<Config, "smtpUrl" | "mailFrom" | "dataDir">, message: MailMessage): Promise<SentMail> {
  const info = await transportFor(config).sendMail({ from: config.mailFrom, ...message });
  if (config.smtpUrl) return { file: null };
  const dir = outboxDir(config.dataDir);
  await fs.mkdir(dir, { recursive: true });
  const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, "_");
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${safeTo}-${Math.random().toString(36).slice(2, 8)}.eml`);
  await fs.writeFile(file, (info as unknown as { message: Buffer }).message);
  const links = message.text.match(/https?:\/\/\S+/g) ?? [];
  console.log(`[mail] "${message.subject}" to ${message.to} written to ${file}${links.length ? `\n[mail] links: ${links.join(" ")}` : ""}`);
  return { file };
}

/** The outbox's messages for one address, newest last (for tests and local development). */
export async function readOutbox(dataDir: string, to?: string): Promise<{ file: string; raw: string }[]> {
  const dir = outboxDir(dataDir);
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".eml")).sort();
  const all = await Promise.all(names.map(async (n) => ({ file: path.join(dir, n), raw: await fs.readFile(path.join(dir, n), "utf8") })));
  return to ? all.filter((m) => new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "mi").test(m.raw)) : all;
}
